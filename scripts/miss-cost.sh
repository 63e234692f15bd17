#!/usr/bin/env bash
# The cost of a rule-cache miss, in user space: scripts/sframe/miss.c looks
# up random IPs of real ELF files' text with kernel/unwind/sframe.c of
# build/linux (compiled unchanged against the harness's shims, as
# scripts/bench-scaling.sh compiles it), through the FDE table the first
# lookup of a section builds, under valgrind's callgrind: instructions per
# lookup (deterministic), and the copies from "user memory" and their bytes
# per lookup (under QEMU -icount a kernel copy costs about its bytes in
# instructions too). A quick loop for work on the reader's lookup, which
# make bench measures in the kernel.
#   scripts/miss-cost.sh [FILE...]   default: the real program's SFrame build
#   MISS_IPS=N                       lookups per file (20000)
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

harness_need
[ $# -gt 0 ] || set -- "$BUILD/real/sframe/libsqlite3.so.0" "$BUILD/real/sframe/sqlite3"
for f in "$@"; do
	[ -f "$f" ] || die "no file $f (the real program: make real)"
done
out=$BUILD/miss-cost
mkdir -p "$out"
"$TOP/scripts/root-install.sh" valgrind > /dev/null
harness_driver "$TOP/scripts/sframe/miss.c" "$out/sframe_miss" "$out/build.log"
rm -f "$out"/cg.out*
in_root valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
	"$out/sframe_miss" -n "${MISS_IPS:-20000}" "$@" > "$out/lookups.txt" 2> "$out/callgrind.log" ||
	{ grep -v '^==' "$out/callgrind.log" | head -n 20; die "the callgrind run failed (log: build/miss-cost/callgrind.log)"; }
# One dump per file, in order: its instructions over its lookups.
i=0
while read -r file rest; do
	i=$((i + 1))
	n=$(sed -n 's/.*lookups=\([0-9]*\).*/\1/p' <<< "$rest")
	ir=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$out/cg.out.$i")
	awk -v f="${file#"$TOP"/}" -v r="$rest" -v ir="$ir" -v n="$n" \
		'BEGIN { printf "%s: %.0f instructions a lookup; %s\n", f, ir / n, r }'
done < "$out/lookups.txt"
