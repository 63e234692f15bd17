#!/usr/bin/env bash
# The rule cache's misses on the real program, simulated on the host
# (scripts/exp/cache-sim.py): RUNS (8) runs of the SFrame build of
# sqlite3 and real.sql in the build root, each under perf record at FREQ
# (9999) Hz, user samples only, and the cache of sframe_cache.[ch] fed
# with the samples in libsqlite3. No kernel of the series is needed: the
# cache's hits and misses depend on the IPs sampled only.
# build/exp/cache-sim/: the runs and the summary.
. "$(dirname "$0")/../lib.sh"
"$TOP/scripts/real.sh" > /dev/null
out=$BUILD/exp/cache-sim
rm -rf "$out"
mkdir -p "$out"
lib=build/real/sframe/libsqlite3.so.0
in_root objdump --sframe "$lib" > "$out/libsqlite3.sframe"
in_root sh -c "cd '$RTOP' && for i in \$(seq ${RUNS:-8}); do
	LD_LIBRARY_PATH=build/real/sframe perf record -q -e cpu-clock:u -F ${FREQ:-9999} \
		-o build/exp/cache-sim/run\$i.data -- build/real/sframe/sqlite3 \
		-batch -bail -init workloads/real.sql :memory: .quit > /dev/null 2>&1 &&
	perf script -i build/exp/cache-sim/run\$i.data --show-mmap-events -F ip,dso \
		> build/exp/cache-sim/run\$i.txt 2> /dev/null || exit 1
done"
python3 "$TOP/scripts/exp/cache-sim.py" "$out/libsqlite3.sframe" "$out"/run*.txt | tee "$out/summary.txt"
