#!/usr/bin/env bash
# vm-raw.sh KERNEL KVMFLAG APPEND COMMAND...: one vng run inside the root.
. "$(dirname "$0")/lib.sh"
kernel=$1 kvm=$2 append=$3
shift 3
cmd=$(printf '%q ' "$@")
in_root vng --run "$kernel" $kvm --verbose --cpus 2 --memory 2G \
	--rwdir "$BUILD" --append "panic=-1 oops=panic $append" --exec "$cmd"
