#!/bin/sh
# e2e-guest.sh [--report LABEL]... [--record-only LABEL]... [--size-only LABEL]...
#   [--freq HZ] [--freq-of LABEL=HZ]... [--probe LABEL=POINT[,POINT]...]...
#   [--walks] [--walk-functions LABEL=FUNC[,FUNC]...]...
#   [--time-functions LABEL=FUNC[,FUNC]...]... [--flame LABEL=TEMPLATE]...
#   [--dsoff LABEL]... [--no-throttle] OUTDIR RUN...
#   or e2e-guest.sh --args-file FILE (those, one a line):
# runs inside the guest (scripts/vm.sh). A RUN is
# LABEL:CALLGRAPH:COMMAND; COMMAND (split into words at blanks, paths
# relative to the checkout) runs under
#   perf record -F HZ -e cpu-clock:u --call-graph CALLGRAPH
# (HZ: --freq-of LABEL's, else --freq's) or, for a LABEL with --probe, under
#   perf record -e EVENT... --call-graph CALLGRAPH
# where each EVENT is what "perf probe -x EXECUTABLE POINT" made of a POINT
# ("leaf", "mid2+7", "mid1%return", an SDT marker "sdt_chain:leaf_done") on
# COMMAND's executable; every hit is a sample. The probes are deleted after
# the run. CALLGRAPH "-" runs COMMAND alone, without perf. (e2e-lib.sh's
# e2e_runs, real_runs and probe_runs make the RUNs; bench.sh makes its own.)
# --walks times every deferred user stack walk of the perf runs: the
# function_graph tracer on unwind_user() alone, depth 1, without the time
# the task is scheduled out (the kernel needs CONFIG_FUNCTION_GRAPH_TRACER).
# --walk-functions: in LABEL's run, the tracer follows the FUNCs too, at any
# depth below unwind_user(), and LABEL.walks holds the whole call graph.
# --time-functions times every call of the FUNCs in LABEL's run (a run
# without perf too; the same tracer, depth 1) into LABEL.calls.
# --flame: LABEL's recording also becomes a flame graph, perf script report
# flamegraph with d3-flame-graph's HTML TEMPLATE (a file the guest sees).
# --dsoff: LABEL.txt has every frame's object with the offset in its file
# (perf script -F +dsoff: "(/lib/libc.so.6+0x2a1ca)"), and no frames of
# inlined functions (--no-inline: one line a frame, as the unwinder saw
# it); the glibc stage looks the frames up in the objects' symbols and
# SFrame sections with it.
# Every perf script of the profiling pipeline runs here, in the guest.
# --no-throttle sets kernel.perf_cpu_time_max_percent=0 (only in a guest!):
# else the kernel lowers the sample rate for good once samples take long.
# Leaves in OUTDIR:
#   LABEL.data    perf.data (not for the runs named by --size-only, whose
#                 size goes to LABEL.log)
#   LABEL.txt     perf script (not for --record-only and --size-only runs)
#   LABEL.log     the command's and perf's messages
#   LABEL.report  perf report call graphs (the runs named by --report)
#   LABEL.flame.html  its flame graph (the runs named by --flame)
#   LABEL.walks   one line per walk, with its duration (--walks)
#   LABEL.calls   one line per call, with its duration (--time-functions)
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
reports=' ' records=' ' sizes=' ' dsoffs=' ' freq=999 freqs='' probes='' walks=0 wfuncs='' tfuncs='' flames=''
nothrottle=0
while :; do
	case "$1" in
	--report) reports="$reports$2 "; shift 2 ;;
	--record-only) records="$records$2 "; shift 2 ;;
	--size-only) sizes="$sizes$2 "; shift 2 ;;
	--freq) freq=$2; shift 2 ;;
	--freq-of) freqs="$freqs $2"; shift 2 ;;
	--probe) probes="$probes $2"; shift 2 ;;
	--walks) walks=1; shift ;;
	--walk-functions) wfuncs="$wfuncs $2"; shift 2 ;;
	--time-functions) tfuncs="$tfuncs $2"; shift 2 ;;
	--flame) flames="$flames $2"; shift 2 ;;
	--dsoff) dsoffs="$dsoffs$2 "; shift 2 ;;
	--no-throttle) nothrottle=1; shift ;;
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

# freq_of LABEL: the sampling frequency of LABEL's run.
freq_of() {
	f=$freq
	for p in $freqs; do
		case "$p" in "$1="*) f=${p#*=} ;; esac
	done
	echo "$f"
}

# The deferred walks (--walks): each a call of unwind_user(), traced alone
# (set_ftrace_filter: no other function pays for the tracer), or with the
# functions --walk-functions names for the run; and the calls of
# --time-functions.
T=/sys/kernel/tracing
trace_setup() {
	echo 0 > $T/tracing_on &&
	echo function_graph > $T/current_tracer &&
	echo 0 > $T/options/sleep-time &&
	echo 16384 > $T/buffer_size_kb
}
# functions_of LIST LABEL: the functions that LIST (wfuncs or tfuncs) names
# for LABEL's run, one a line.
functions_of() {
	for p in $1; do
		case "$p" in "$2="*) echo "${p#*=}" | tr ',' '\n' ;; esac
	done
}
# traceable LIST: the functions of LIST (one a line) that the tracer knows:
# another kernel may not have some, or have them inlined.
traceable() {
	printf '%s\n' "$1" | while read -r f; do
		! grep -q "^$f\( \|\$\)" $T/available_filter_functions || echo "$f"
	done
}
# trace_start FILTER GRAPH DEPTH: trace the functions FILTER (one a line)
# that the kernel has, calls of GRAPH and what they call up to DEPTH (0: all).
trace_start() {
	# None would trace every function.
	filter=$(traceable "$1") && [ -n "$filter" ] &&
	printf '%s\n' "$filter" > $T/set_ftrace_filter &&
	printf '%s\n' "$2" > $T/set_graph_function &&
	echo "$3" > $T/max_graph_depth &&
	: > $T/trace && echo 1 > $T/tracing_on
}
# trace_stop FILE [GREP]: the trace into FILE (only the lines that match
# GREP); fails when the trace buffer lost some.
trace_stop() {
	echo 0 > $T/tracing_on || return 1
	grep -v '^#' $T/trace | grep -F -- "${2:-}" > "$1"
	lost=$(cat $T/per_cpu/cpu*/stats | sed -n 's/^overrun: //p' | awk '{ n += $1 } END { print n + 0 }')
	echo "    $(grep -c '()' "$1") calls traced, $lost lost" >> "$log"
	[ "$lost" = 0 ]
}
# sframe_events 1|0: the kernel's sframe: trace events on or off (each
# probe of an object, each section's first lookup with the memory of its
# cache and FDE table), where the kernel has them.
sframe_events() {
	[ ! -e $T/events/sframe/enable ] || echo "$1" > $T/events/sframe/enable
}
walks_start() { # LABEL
	funcs=$(functions_of "$wfuncs" "$1")
	if [ -n "$funcs" ]; then
		# With the walk's functions, the sframe: events too.
		sframe_events 1 &&
		trace_start "unwind_user
$funcs" unwind_user 0
	else
		trace_start unwind_user unwind_user 1
	fi
}
walks_stop() { # LABEL
	if [ -n "$funcs" ]; then
		trace_stop "$tmp/$1.walks" && sframe_events 0
	else
		trace_stop "$tmp/$1.walks" ' unwind_user();'
	fi
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
	if [ "$2" = - ]; then
		echo "--- $3"
		tf=$(functions_of "$tfuncs" "$1")
		if [ -n "$tf" ]; then
			trace_start "$tf" "$tf" 1 || return 1
		fi
		set -f
		# shellcheck disable=SC2086
		$3 >> "$log" 2>&1
		st=$?
		set +f
		if [ -n "$tf" ]; then
			trace_stop "$tmp/$1.calls" || st=1
		fi
		return $st
	fi
	add_probes "$1" "${3%% *}" || return 1
	# A probe samples every hit: no frequency.
	opts=${events:-"-F $(freq_of "$1") -e cpu-clock:u"}
	echo "--- perf record $opts --call-graph $2 -- $3"
	[ "$walks" = 0 ] || walks_start "$1" || return 1
	t0=$(date +%s)
	# COMMAND and the options are split into words, not globbed.
	set -f
	# shellcheck disable=SC2086
	perf record $opts --call-graph "$2" \
		-o "$data" -- $3 >> "$log" 2>&1
	st=$?
	set +f
	if [ "$walks" = 1 ]; then
		walks_stop "$1" || st=1
	fi
	if [ -n "$events" ]; then
		perf probe -q -d '*:*' >> "$log" 2>&1 || st=1
	fi
	[ "$st" = 0 ] || return 1
	template=$(functions_of "$flames" "$1")
	if [ -n "$template" ]; then
		t1=$(date +%s)
		# Options before -- are perf script's, after it flamegraph.py's
		# (which reads the header of -i's file for the "Context" button).
		# Without the template it would make a page that loads d3 from
		# the network.
		perf script report flamegraph -i "$data" -- -i "$data" --template "$template" \
			-o "$tmp/$1.flame.html" > "$tmp/flame.out" 2>&1 &&
			! grep -q 'Error reading template' "$tmp/flame.out"
		st=$?
		sed 's/^/    /' "$tmp/flame.out" >> "$log"
		echo "    (perf script report flamegraph $(($(date +%s) - t1)) s)" >> "$log"
		[ "$st" = 0 ] || return 1
	fi
	if [ "${sizes#* "$1" }" != "$sizes" ]; then
		echo "    perf.data: $(wc -c < "$data") bytes" >> "$log"
		rm -f "$data"
	fi
	if [ "${records#* "$1" }" != "$records" ] || [ "${sizes#* "$1" }" != "$sizes" ]; then
		echo "    (perf record $(($(date +%s) - t0)) s)" >> "$log"
		return 0
	fi
	t1=$(date +%s)
	fields=
	[ "${dsoffs#* "$1" }" = "$dsoffs" ] || fields='-F +dsoff --no-inline'
	# shellcheck disable=SC2086 # the options, or nothing
	perf script -i "$data" $fields > "$tmp/$1.txt" 2>> "$log" || return 1
	echo "    (perf record $((t1 - t0)) s, perf script $(($(date +%s) - t1)) s)" >> "$log"
	if [ "${reports#* "$1" }" != "$reports" ]; then
		perf report -i "$data" --stdio --no-children --percent-limit 5 \
			> "$tmp/$1.report" 2>> "$log" || return 1
	fi
}

rc=0
{
	echo "--- kernel $(uname -r), $(perf --version), CPUs: $(nproc)"
	if [ "$nothrottle" = 1 ]; then
		echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent || rc=1
	fi
	if [ "$walks" = 1 ] || [ -n "$tfuncs" ]; then
		if ! trace_setup; then
			echo "--walks, --time-functions: cannot set up the function_graph tracer"
			rc=1
		fi
	fi
	for run in "$@"; do
		label=${run%%:*} rest=${run#*:}
		cg=${rest%%:*} cmd=${rest#*:}
		if profile "$label" "$cg" "$cmd"; then
			grep -v 'Failed to open /proc/schedstat' "$tmp/$label.log" | sed 's/^/    /'
		else
			echo "run $label failed ($cmd):"
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
