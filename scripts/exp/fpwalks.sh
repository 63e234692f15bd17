#!/bin/sh
# Frame-pointer walks timed alone (function_graph on unwind_user, depth 1)
# and the frames a sample from perf script: deep recursion (deep-fp, D =
# 100, ROUNDS rounds: 300) and the real program's frame-pointer build from
# tmpfs. Per frame: (median - the tracer's share inside the call, 0.708 us,
# as make bench takes it) / frames. Boot the base kernel beside the series'
# with SFRAME_KOBJ (a worktree of build/linux at tag base, built apart:
#   git -C build/linux worktree add "$PWD/build/wt-base" base
#   SFRAME_TREE=$PWD/build/wt-base SFRAME_KOBJ=$PWD/build/obj-base scripts/kernel.sh
# about 9 minutes). build/exp/OUT/summary.txt, and each trace.
. scripts/exp/lib.sh
mkdir -p /tmp/r
cp -a build/real/fp /tmp/r/
# shellcheck disable=SC2086 # ARGS: the program's arguments
/tmp/r/fp/sqlite3 $ARGS > /dev/null
graph unwind_user unwind_user 1
for w in deep real; do
	if [ "$w" = deep ]; then
		set -- build/workloads/deep-fp -d 100 -n "${ROUNDS:-300}"
	else
		# shellcheck disable=SC2086
		set -- build/workloads/bench/runtime /tmp/r/fp/sqlite3 $ARGS
	fi
	traced "$out/$w.txt" perf record -F 999 -e cpu-clock:u --call-graph fp,defer \
		-o /tmp/p.data -- "$@" > /dev/null 2>> "$out/perf.err"
	per_frame "$w" "$out/$w.txt"
done | tee "$out/summary.txt"
