#!/bin/sh
# e2e-guest.sh OUTDIR NAME FLAVOUR...: runs inside the guest (scripts/vm.sh).
# Profiles build/workloads/NAME-FLAVOUR for each FLAVOUR with the deferred
# user unwinder and leaves in OUTDIR: FLAVOUR.data (perf.data), FLAVOUR.txt
# (perf script) and FLAVOUR.log (the workload's and perf's messages).
set -u
out=$1 name=$2
shift 2
# Only build/ is writable in the guest, and perf record cannot write its
# ring buffer straight to the 9p share (EFAULT): record into the fresh
# tmpfs on /tmp, then copy. perf keeps a build-id cache under $HOME.
export HOME=/tmp
tmp=/tmp/e2e
freq=${E2E_FREQ:-999}
mkdir -p "$out" "$tmp"
rc=0
for f in "$@"; do
	bin=build/workloads/$name-$f
	log=$tmp/$f.log
	echo "--- perf record -F $freq -e cpu-clock:u --call-graph fp,defer -- $bin"
	if perf record -F "$freq" -e cpu-clock:u --call-graph fp,defer \
		-o "$tmp/$f.data" -- "$bin" > "$log" 2>&1 &&
		perf script -i "$tmp/$f.data" > "$tmp/$f.txt" 2>> "$log"; then
		sed 's/^/    /' "$log"
	else
		echo "perf failed for $bin:"; cat "$log"; rc=1
	fi
	cp "$tmp/$f.data" "$tmp/$f.txt" "$log" "$out/" || rc=1
done
exit $rc
