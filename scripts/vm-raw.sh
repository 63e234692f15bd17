#!/usr/bin/env bash
# vm-raw.sh KERNEL KVMFLAG APPEND COMMAND...: one vng run inside the root.
# VM_QEMU_OPTS: more QEMU options, e.g. '-icount shift=0,align=off,sleep=off'
# (scripts/bench.sh: a guest clock that counts instructions).
# VM_INIT: the guest's init, "sframe" (default: scripts/vm-init, no udev)
# or "virtme" (virtme-ng's own virtme-init, with udev's coldplug: minutes
# longer under TCG).
. "$(dirname "$0")/lib.sh"
kernel=$1 kvm=$2 append=$3
shift 3
# The guest boots the root: it sees this checkout where the root does.
root_args "$@"
cmd=$(printf '%q ' "${RARGS[@]}")
# vng boots the root with virtme-init as PID 1: for scripts/vm-init instead,
# mount it over that file, in the private mount namespace of this one run.
vinit=/usr/lib/python3/dist-packages/virtme/guest/virtme-init
case "${VM_INIT:-sframe}" in
sframe)
	# shellcheck disable=SC2016
	init=(bash -c '[ -f "$2" ] || { echo "vm-raw.sh: no $2 in the root" >&2; exit 1; }
		mount --bind "$1" "$2" && shift 2 && exec "$@"' - "$TOP/scripts/vm-init" "$vinit") ;;
virtme) init=() ;;
*) die "unknown VM_INIT=$VM_INIT (sframe or virtme)" ;;
esac
# no_timer_check: on a busy host, TCG can run the guest too slowly for the
# IO-APIC timer check at boot, which then panics ("IO-APIC + timer doesn't
# work!", seen with a load of 10 on the 2 cores); QEMU's timer is fine.
in_root "${init[@]}" vng --run "$kernel" $kvm --verbose --cpus 2 --memory 2G \
	--rwdir "$BUILD" --append "panic=-1 oops=panic no_timer_check $append" \
	${VM_QEMU_OPTS:+--qemu-opts="$VM_QEMU_OPTS"} --exec "$cmd"
