#!/bin/sh
# e2e-guest.sh [--report LABEL]... [--record-only LABEL]... [--freq HZ]
#   [--probe LABEL=POINT[,POINT]...]... OUTDIR RUN...
#   or e2e-guest.sh --args-file FILE (those, one a line):
# runs inside the guest (scripts/vm.sh). A RUN is
# LABEL:CALLGRAPH:COMMAND; COMMAND (split into words at blanks, paths
# relative to the checkout) runs under
#   perf record -F HZ -e cpu-clock:u --call-graph CALLGRAPH
# or, for a LABEL with --probe, under
#   perf record -e EVENT... --call-graph CALLGRAPH
# where each EVENT is what "perf probe -x EXECUTABLE POINT" made of a POINT
# ("leaf", "mid2+7", "mid1%return", an SDT marker "sdt_chain:leaf_done") on
# COMMAND's executable; every hit is a sample. The probes are deleted after
# the run. (e2e-lib.sh's e2e_runs, real_runs and probe_runs make the RUNs.)
# Leaves in OUTDIR:
#   LABEL.data    perf.data
#   LABEL.txt     perf script (not for the runs named by --record-only)
#   LABEL.log     the command's and perf's messages
#   LABEL.report  perf report call graphs (the runs named by --report)
#   guest.out     what this script printed; dmesg: the kernel log
set -u
# --args-file FILE: the arguments, one a line, from FILE.
if [ "${1:-}" = --args-file ]; then
	args=$2
	set --
	while IFS= read -r a; do
		set -- "$@" "$a"
	done < "$args"
fi
reports=' ' records=' ' freq=999 probes=
while :; do
	case "$1" in
	--report) reports="$reports$2 "; shift 2 ;;
	--record-only) records="$records$2 "; shift 2 ;;
	--freq) freq=$2; shift 2 ;;
	--probe) probes="$probes $2"; shift 2 ;;
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

# points_of LABEL: the probe points of LABEL's run (--probe), one a line.
points_of() {
	for p in $probes; do
		case "$p" in "$1="*) echo "${p#*=}" | tr ',' '\n' ;; esac
	done
}

# add_probes LABEL EXECUTABLE: make the probes of LABEL's run on EXECUTABLE;
# sets events to the perf record options that name them ("" without any).
# SDT markers are found in the build-id cache.
add_probes() {
	events=
	points=$(points_of "$1")
	[ -n "$points" ] || return 0
	case "$points" in
	sdt_*|*"
sdt_"*) perf buildid-cache --add "$2" >> "$log" 2>&1 || return 1 ;;
	esac
	for pt in $points; do
		echo "    perf probe -x $2 $pt" >> "$log"
		perf probe -x "$2" -a "$pt" > "$tmp/probe.out" 2>&1
		st=$?
		sed 's/^/    /' "$tmp/probe.out" >> "$log"
		ev=$(sed -n 's/^  *\([^ ]*:[^ ]*\)  *(on .*/\1/p' "$tmp/probe.out" | head -n 1)
		[ "$st" = 0 ] && [ -n "$ev" ] || return 1
		events="$events -e $ev"
	done
}

profile() { # LABEL CALLGRAPH COMMAND
	data=$tmp/$1.data log=$tmp/$1.log
	: > "$log"
	add_probes "$1" "${3%% *}" || return 1
	# A probe samples every hit: no frequency.
	opts=${events:-"-F $freq -e cpu-clock:u"}
	echo "--- perf record $opts --call-graph $2 -- $3"
	t0=$(date +%s)
	# COMMAND and the options are split into words, not globbed.
	set -f
	# shellcheck disable=SC2086
	perf record $opts --call-graph "$2" \
		-o "$data" -- $3 >> "$log" 2>&1
	st=$?
	set +f
	if [ -n "$events" ]; then
		perf probe -q -d '*:*' >> "$log" 2>&1 || st=1
	fi
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
