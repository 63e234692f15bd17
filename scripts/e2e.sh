#!/usr/bin/env bash
# make e2e: the end-to-end perf check of the deferred user unwinder.
#   scripts/e2e.sh [--no-boot]
# Builds workloads/ in three flavours (frame pointers, SFrame V3, neither),
# boots the built kernel once and profiles each with
#   perf record -e cpu-clock:u --call-graph fp,defer
# then counts the samples in leaf whose user callchain is complete
# (leaf <- mid2 <- mid1 <- top <- main). Thresholds: config/e2e.conf.
# --no-boot checks the results of the last run (build/e2e) again.
# Ends with "N passed, N failed"; exits non-zero on a miss.
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
	stage "e2e boot (${VARIANT:-default} kernel): perf record --call-graph fp,defer, ${E2E_FREQ} Hz"
	RUNS=()
	e2e_runs "${flavours[@]}"
	e2e_boot "$out" "${RUNS[@]}"
fi

stage "e2e callchains (fp >= $FP_MIN_COMPLETE%, sframe >= $SFRAME_MIN_COMPLETE%, nofp <= $NOFP_MAX_COMPLETE%, >= $E2E_MIN_SAMPLES samples each)"
info "took $(( $(date +%s) - t0 )) s; perf script output: ${out#"$TOP"/}/FLAVOUR.txt"
# Its last line is "N passed, N failed".
e2e_table "$out" "${flavours[@]}"
