#!/bin/sh
# e2e-guest.sh [--report LABEL]... [--record-only LABEL]... [--freq HZ] OUTDIR RUN...
# runs inside the guest (scripts/vm.sh). A RUN is LABEL:CALLGRAPH:COMMAND;
# COMMAND (split into words at blanks, paths relative to the checkout) runs
# under
#   perf record -F HZ -e cpu-clock:u --call-graph CALLGRAPH
# (e2e-lib.sh's e2e_runs and real_runs make the RUNs). Leaves in OUTDIR:
#   LABEL.data    perf.data
#   LABEL.txt     perf script (not for the runs named by --record-only)
#   LABEL.log     the command's and perf's messages
#   LABEL.report  perf report call graphs (the runs named by --report)
#   guest.out     what this script printed; dmesg: the kernel log
set -u
reports=' ' records=' ' freq=999
while :; do
	case "$1" in
	--report) reports="$reports$2 "; shift 2 ;;
	--record-only) records="$records$2 "; shift 2 ;;
	--freq) freq=$2; shift 2 ;;
	*) break ;;
	esac
done
out=$1
shift
# Only build/ is writable in the guest, and perf record cannot write its
# ring buffer straight to the 9p share (EFAULT): record into the fresh
# tmpfs on /tmp, then copy. perf keeps a build-id cache under $HOME.
export HOME=/tmp
tmp=/tmp/e2e
mkdir -p "$out" "$tmp"

profile() { # LABEL CALLGRAPH COMMAND
	data=$tmp/$1.data log=$tmp/$1.log
	echo "--- perf record -F $freq -e cpu-clock:u --call-graph $2 -- $3"
	t0=$(date +%s)
	# COMMAND is split into words, not globbed.
	set -f
	# shellcheck disable=SC2086
	perf record -F "$freq" -e cpu-clock:u --call-graph "$2" \
		-o "$data" -- $3 > "$log" 2>&1
	st=$?
	set +f
	[ "$st" = 0 ] || return 1
	if [ "${records#* "$1" }" != "$records" ]; then
		echo "    (perf record $(($(date +%s) - t0)) s)" >> "$log"
		return 0
	fi
	t1=$(date +%s)
	perf script -i "$data" > "$tmp/$1.txt" 2>> "$log" || return 1
	echo "    (perf record $((t1 - t0)) s, perf script $(($(date +%s) - t1)) s)" >> "$log"
	if [ "${reports#* "$1" }" != "$reports" ]; then
		perf report -i "$data" --stdio --no-children --percent-limit 5 \
			> "$tmp/$1.report" 2>> "$log" || return 1
	fi
}

rc=0
{
	echo "--- kernel $(uname -r), $(perf --version)"
	for run in "$@"; do
		label=${run%%:*} rest=${run#*:}
		cg=${rest%%:*} cmd=${rest#*:}
		if profile "$label" "$cg" "$cmd"; then
			grep -v 'Failed to open /proc/schedstat' "$tmp/$label.log" | sed 's/^/    /'
		else
			echo "perf failed for $label ($cmd):"
			cat "$tmp/$label.log"
			rc=1
		fi
		cp "$tmp/$label".* "$out/" || rc=1
	done
} > "$tmp/guest.out" 2>&1
cp "$tmp/guest.out" "$out/"
cat "$tmp/guest.out"
dmesg > "$out/dmesg"
exit $rc
