#!/bin/sh
# e2e-guest.sh [--report] [--freq HZ] OUTDIR NAME FLAVOUR...: runs inside the
# guest (scripts/vm.sh). Profiles build/workloads/NAME-FLAVOUR for each
# FLAVOUR with the deferred user unwinder and leaves in OUTDIR:
#   FLAVOUR.data    perf.data
#   FLAVOUR.txt     perf script
#   FLAVOUR.log     the workload's and perf's messages
#   FLAVOUR.report  perf report call graphs (--report only)
#   guest.out       what this script printed; dmesg: the kernel log
set -u
report=0 freq=999
while :; do
	case "$1" in
	--report) report=1; shift ;;
	--freq) freq=$2; shift 2 ;;
	*) break ;;
	esac
done
out=$1 name=$2
shift 2
# Only build/ is writable in the guest, and perf record cannot write its
# ring buffer straight to the 9p share (EFAULT): record into the fresh
# tmpfs on /tmp, then copy. perf keeps a build-id cache under $HOME.
export HOME=/tmp
tmp=/tmp/e2e
mkdir -p "$out" "$tmp"

profile() { # FLAVOUR
	bin=build/workloads/$name-$1 data=$tmp/$1.data log=$tmp/$1.log
	echo "--- perf record -F $freq -e cpu-clock:u --call-graph fp,defer -- $bin"
	perf record -F "$freq" -e cpu-clock:u --call-graph fp,defer \
		-o "$data" -- "$bin" > "$log" 2>&1 || return 1
	perf script -i "$data" > "$tmp/$1.txt" 2>> "$log" || return 1
	if [ "$report" = 1 ]; then
		perf report -i "$data" --stdio --no-children --percent-limit 5 \
			> "$tmp/$1.report" 2>> "$log" || return 1
	fi
}

rc=0
{
	echo "--- kernel $(uname -r), $(perf --version)"
	for f in "$@"; do
		if profile "$f"; then
			grep -v 'Failed to open /proc/schedstat' "$tmp/$f.log" | sed 's/^/    /'
		else
			echo "perf failed for $name-$f:"
			cat "$tmp/$f.log"
			rc=1
		fi
		cp "$tmp/$f".* "$out/" || rc=1
	done
} > "$tmp/guest.out" 2>&1
cp "$tmp/guest.out" "$out/"
cat "$tmp/guest.out"
dmesg > "$out/dmesg"
exit $rc
