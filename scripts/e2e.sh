#!/usr/bin/env bash
# make e2e: the end-to-end perf check of the deferred user unwinder.
#   scripts/e2e.sh [--no-boot]
# Builds workloads/ in three flavours (frame pointers, SFrame V3, neither)
# and the real program (scripts/real.sh: sqlite3 and its own shared
# library, with SFrame and with frame pointers), boots the built kernel
# once and profiles
#   each workload flavour with  perf record -e cpu-clock:u --call-graph fp,defer
#   the real program's builds   the same, and --call-graph dwarf (SFrame build)
#   perf probe points on the SFrame workload, --call-graph fp,defer
#                               (e2e-lib.sh's PROBE_RUNS)
# then counts, for the workload, the samples in leaf whose user callchain is
# complete (its whole chain, scripts/workloads.py) and, for the real program,
# A: the samples with the leaf in its own code whose chain is complete to
# main and B: all samples whose chain reaches main (scripts/callchains.py);
# for the probes, the hits whose chain is complete.
# Thresholds: config/e2e.conf. --no-boot checks the results of the last run
# (build/e2e) again.
# Ends with "N passed, N failed" (both tables); exits non-zero on a miss.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

e2e_parse_args "$@"
e2e_config
out=$BUILD/e2e
flavours=(fp sframe nofp)
t0=$(date +%s)

if [ "$boot" = 1 ]; then
	stage "e2e workloads ($E2E_WORKLOAD: ${flavours[*]})"
	e2e_workloads
	"$TOP/scripts/real.sh"
	RUNS=() PROBE_OPTS=()
	e2e_runs "${flavours[@]}"
	real_runs
	probe_runs
	stage "e2e boot (${VARIANT:-default} kernel): perf record, ${E2E_FREQ} Hz: ${RUNS[*]%%:build/*}"
	e2e_boot "$out" "${RUNS[@]}"
fi

# table NAME CMD...: run CMD (a table); add up its "counts: P F S".
passed=0 failed=0 skipped=0
table() {
	local name=$1 res p f
	shift
	res=$("$@") || true
	printf '%s\n' "$res" | grep -Ev '^(counts: |[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$)'
	read -r p f k < <(printf '%s\n' "$res" | sed -n 's/^counts: //p' | tail -1) || true
	[ -n "${p:-}" ] || { echo "    no counts from the $name table"; p=0 f=1; }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${k:-0}))
}

stage "e2e callchains (fp >= $FP_MIN_COMPLETE%, sframe >= $SFRAME_MIN_COMPLETE%, nofp <= $NOFP_MAX_COMPLETE%, >= $E2E_MIN_SAMPLES samples each)"
info "took $(( $(date +%s) - t0 )) s; perf script output: ${out#"$TOP"/}/LABEL.txt"
table workload e2e_table "$out" "${flavours[@]}"
stage "e2e real program: sqlite3 (real.pin), workloads/real.sql (real-sframe: A >= $REAL_SFRAME_MIN_COMPLETE%, B >= real-dwarf's - $REAL_SFRAME_MAX_BEHIND_DWARF)"
table "real program" real_table "$out"
stage "e2e probes: perf probe on $PROBE_BIN, $PROBE_ROUNDS rounds (>= $PROBE_MIN_COMPLETE% complete each)"
table probe probe_table "$out"
echo "counts: $passed $failed $skipped"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
