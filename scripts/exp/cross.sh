#!/bin/sh
# Walks that leave the program's text and come back: bench/cross.c, whose
# frames alternate between the program (cross-sframe: SFrame; cross-fp:
# frame pointers) and libcross-fp.so (frame pointers, no SFrame), D levels
# (80: about 125 frames, below perf's 127), ROUNDS rounds (300), under
# perf record fp,defer at 999 Hz, every walk timed alone (function_graph
# on unwind_user, depth 1), as fpwalks.sh times them. Per frame: (median -
# the tracer's share inside the call, 0.708 us, as make bench takes it) /
# frames a sample. For a change of the walk's registry (a kernel built
# apart: SFRAME_KOBJ) against the series' (build/obj).
# build/exp/OUT/summary.txt, and each trace.
. scripts/exp/lib.sh
graph unwind_user unwind_user 1
for b in ${BUILDS:-sframe fp}; do
	traced "$out/$b.txt" perf record -F 999 -e cpu-clock:u --call-graph fp,defer \
		-o /tmp/p.data -- build/workloads/bench/cross-"$b" -d "${D:-80}" -n "${ROUNDS:-300}" \
		> /dev/null 2>> "$out/perf.err"
	per_frame "cross-$b" "$out/$b.txt"
done | tee "$out/summary.txt"
