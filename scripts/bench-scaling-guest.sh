#!/bin/sh
# In the guest (scripts/bench-scaling.sh --kernel): for each FDES, run
# sframe-scale FDES DEPTH SECONDS (workloads/bench/sframe-scale.c) under
#   perf record -e cpu-clock:u -c PERIOD --call-graph fp,defer
# with the function_graph tracer on unwind_user() alone (depth 1, the time
# scheduled out left out), as make bench times walks (scripts/e2e-guest.sh).
# Writes OUT/FDES.walks (the traced calls: one a deferred walk) and
# OUT/FDES.frames (frames of each walk's callchain, from perf script).
# With sframe-worst as TOOL (scripts/bench-scaling.sh --worst) the list is
# of stack depths and DEPTH is its FUNCS[:FILLER]; perf_event_max_stack is
# raised to 1024, its chains being up to 501 frames.
#   bench-scaling-guest.sh OUT TOOL DEPTH SECONDS PERIOD FDES...
set -u
out=$1 tool=$2 depth=$3 secs=$4 period=$5
shift 5
export HOME=/tmp
tmp=/tmp/scale
mkdir -p "$out" "$tmp"
T=/sys/kernel/tracing
[ -d $T/options ] || mount -t tracefs tracefs $T || exit 1
echo 0 > $T/tracing_on &&
echo function_graph > $T/current_tracer &&
echo 0 > $T/options/sleep-time &&
echo 16384 > $T/buffer_size_kb &&
echo unwind_user > $T/set_ftrace_filter &&
echo unwind_user > $T/set_graph_function &&
echo 1 > $T/max_graph_depth || { echo "cannot set up the function_graph tracer"; exit 1; }
rc=0
label=FDEs
case $tool in
*sframe-worst)
	# Its chains are longer than perf's default 127 entries.
	label="return addresses"
	echo 1024 > /proc/sys/kernel/perf_event_max_stack || exit 1
	;;
esac
for n in "$@"; do
	: > $T/trace
	echo 1 > $T/tracing_on
	perf record -q -o $tmp/perf.data -e cpu-clock:u -c "$period" \
		--call-graph fp,defer -- "$tool" "$n" "$depth" "$secs" > "$out/$n.out" 2>&1
	echo 0 > $T/tracing_on
	grep -v '^#' $T/trace | grep -F ' unwind_user();' > "$out/$n.walks"
	lost=$(cat $T/per_cpu/cpu*/stats | sed -n 's/^overrun: //p' | awk '{ n += $1 } END { print n + 0 }')
	# One line per sample: the number of frames of its (deferred) chain,
	# and its leaf's address.
	perf script -i $tmp/perf.data --max-stack 1024 -F ip 2>/dev/null |
		awk 'NF { if (!n) leaf = $1; n++; next }
		     n { print n, leaf; n = 0 } END { if (n) print n, leaf }' > "$out/$n.frames"
	echo "$n $label: $(wc -l < "$out/$n.walks") walks traced, $lost lost, $(wc -l < "$out/$n.frames") samples; $(head -n 1 "$out/$n.out")"
	# The tool prints its first line once its section is registered:
	# without it, the walks are of its set-up only.
	grep -q "^${tool##*/}: " "$out/$n.out" && [ -s "$out/$n.walks" ] || rc=1
done
exit $rc
