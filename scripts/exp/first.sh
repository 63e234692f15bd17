#!/bin/sh
# Where the first lookup in a section goes: the SFrame build of the real
# program from tmpfs, function_graph below GRAPH (sframe_cache_miss) of
# FILTER's functions (all by default), DEPTH (3) deep: build/exp/OUT/trace.txt.
# RUNTIME=1 runs the program through bench/runtime, as make bench does (0).
. scripts/exp/lib.sh
mkdir -p /tmp/r
cp -a build/real/sframe /tmp/r/
# shellcheck disable=SC2086 # ARGS: the program's arguments
/tmp/r/sframe/sqlite3 $ARGS > /dev/null
graph "${FILTER:-}" "${GRAPH:-sframe_cache_miss}" "${DEPTH:-3}"
RUNTIME=${RUNTIME:-0} traced "$out/trace.txt" profile /tmp/r/sframe/sqlite3
wc -l "$out/trace.txt"
