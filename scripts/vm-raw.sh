#!/usr/bin/env bash
# vm-raw.sh KERNEL KVMFLAG APPEND COMMAND...: one vng run inside the root.
# VM_QEMU_OPTS: more QEMU options, e.g. '-icount shift=0,align=off,sleep=off'
# (scripts/bench.sh: a guest clock that counts instructions).
. "$(dirname "$0")/lib.sh"
kernel=$1 kvm=$2 append=$3
shift 3
# The guest boots the root: it sees this checkout where the root does.
root_args "$@"
cmd=$(printf '%q ' "${RARGS[@]}")
# no_timer_check: on a busy host, TCG can run the guest too slowly for the
# IO-APIC timer check at boot, which then panics ("IO-APIC + timer doesn't
# work!", seen with a load of 10 on the 2 cores); QEMU's timer is fine.
in_root vng --run "$kernel" $kvm --verbose --cpus 2 --memory 2G \
	--rwdir "$BUILD" --append "panic=-1 oops=panic no_timer_check $append" \
	${VM_QEMU_OPTS:+--qemu-opts="$VM_QEMU_OPTS"} --exec "$cmd"
