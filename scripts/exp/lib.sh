#!/bin/sh
# Guest side of scripts/exp/run.sh's experiments: sourced by each.
export HOME=/tmp
T=/sys/kernel/tracing
# make bench's real program and workload, and its tmpfs copy.
ARGS="-batch -bail -init workloads/real.sql :memory: .quit"
out=build/exp/${OUT:?OUT: the output directory under build/exp}
mkdir -p "$out"

# graph FILTER GRAPH DEPTH: function_graph on the functions of FILTER
# (blank-separated; none: all) below those of GRAPH, DEPTH deep (0: any).
graph() {
	echo 0 > $T/tracing_on
	echo function_graph > $T/current_tracer
	echo 0 > $T/options/sleep-time
	echo 65536 > $T/buffer_size_kb
	echo > $T/set_ftrace_filter
	for f in $1; do
		echo "$f" >> $T/set_ftrace_filter 2>/dev/null
	done
	# None of them traceable would trace every function.
	if [ -n "$1" ] && ! grep -q . $T/set_ftrace_filter; then
		echo "none of these can be traced: $1" >&2
		exit 1
	fi
	echo "$2" > $T/set_graph_function
	echo "$3" > $T/max_graph_depth
	cat $T/set_ftrace_filter > "$out/filter"
}

# traced FILE COMMAND...: COMMAND with the tracer on; the trace into FILE.
traced() {
	f=$1
	shift
	echo > $T/trace
	echo 1 > $T/tracing_on
	"$@"
	echo 0 > $T/tracing_on
	cat $T/trace > "$f"
}

# profile PROGRAM: the real program under perf record fp,defer at 999 Hz,
# through bench/runtime as make bench runs it (RUNTIME=0: directly).
profile() {
	if [ "${RUNTIME:-1}" = 1 ]; then
		set -- build/workloads/bench/runtime "$1"
	fi
	# shellcheck disable=SC2086 # ARGS: the program's arguments
	perf record -F 999 -e cpu-clock:u --call-graph fp,defer -o /tmp/p.data -- \
		"$@" $ARGS > /dev/null 2>> "$out/perf.err"
}

# walk_durations FILE: the durations of unwind_user() in a function_graph
# trace of it alone, in us, sorted: one line a walk.
walk_durations() {
	grep "unwind_user();" "$1" | sed 's/.*) *[-+!#*@$]* *\([0-9.]*\) us.*/\1/' | sort -n
}

# per_frame LABEL FILE: LABEL's walks in FILE (a trace of unwind_user()
# alone) and the frames a sample of /tmp/p.data: walks, the median walk,
# and the time a frame, (median - the tracer's share inside the call,
# 0.708 us, as make bench takes it) / frames.
per_frame() {
	frames=$(perf script -i /tmp/p.data -F ip 2>/dev/null |
		awk 'NF == 0 { if (n) { t += n; s++ } n = 0; next } { n++ }
			END { if (s) printf "%.2f", t / s }')
	walk_durations "$2" | awk -v w="$1" -v fr="${frames:-0}" '{ a[NR] = $1 }
			END { if (!NR || !fr) { print w ": no walks" > "/dev/stderr"; exit 1 }
				m = a[int((NR + 1) / 2)]
				printf "%-13s %5d walks, median %s us, %s frames a sample, %.0f ns a frame\n",
					w, NR, m, fr, (m - 0.708) * 1000 / fr }'
}
