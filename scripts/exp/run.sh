#!/usr/bin/env bash
# Run one of the benchmark's one-off experiments (scripts/exp/NAME.sh) in
# a guest of the built kernel under QEMU -icount, as make bench boots it
# (its clock counts instructions: figures repeat from boot to boot).
#   scripts/exp/run.sh NAME [VAR=VALUE...]
# VAR=VALUE: the experiment's own settings (see its header), given to it in
# the guest; SFRAME_KOBJ=DIR boots another kernel (a patch's, built apart),
# as for scripts/vm.sh. Its output goes to build/exp/OUT (OUT=NAME by
# default), the guest's console to build/exp/OUT.log. What the README's
# figures came from:
#   walks    every deferred walk timed alone (function_graph on unwind_user)
#   ends     the junk at the end of frame-pointer walks: the probes and
#            faults inside the walks, and the addresses probed
#   first    the first sframe_find() in a section, below sframe_cache_miss
#   exec     exec's registration (a kernel from before patch 40)
#   fpwalks  frame-pointer walks per frame, deep and real (the base kernel
#            beside the series': SFRAME_KOBJ, see the script's header)
#   cross    walks in and out of a library without SFrame (bench/cross.c)
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
walks|ends|first|exec|fpwalks|cross) ;;
*) die "usage: scripts/exp/run.sh walks|ends|first|exec|fpwalks|cross [VAR=VALUE...]" ;;
esac
name=$1
shift
out=$name
args=()
for a in "$@"; do
	case "$a" in
	OUT=) die "OUT: empty" ;;
	OUT=*) out=${a#OUT=} ;;
	SFRAME_KOBJ=*) export SFRAME_KOBJ=${a#SFRAME_KOBJ=}; continue ;;
	*=*) ;;
	*) die "not VAR=VALUE: $a" ;;
	esac
	args+=("$a")
done
mkdir -p "$BUILD/exp"
"$TOP/scripts/real.sh" >/dev/null
in_root make -s -C workloads all bench
VM_QEMU_OPTS='-icount shift=0,align=off,sleep=off' VM_APPEND="tsc=reliable tsc_early_khz=1000000" \
	"$TOP/scripts/vm.sh" --log "$BUILD/exp/$out.log" --timeout 1800 \
	env OUT="$out" "${args[@]}" scripts/exp/"$name".sh
info "output: build/exp/$out/"
