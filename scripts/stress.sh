#!/usr/bin/env bash
# make stress: the stress kselftest (sframe_stress_test: threads sampled at
# 10 kHz while others add, remove, corrupt, overlap and unmap sections and
# fork) for STRESS_SEC seconds (600) on the debug kernel, alone in one boot
# (scripts/debug-alone.sh); any report in the kernel log fails it. Not in
# make check: its ten minutes beside the debug stage's would not fit CI;
# its figures go to README's reliability table. Results in build/stress.
. "$(dirname "$0")/lib.sh"

sec=${STRESS_SEC:-600}
out=$BUILD/stress
t0=$(date +%s)
rc=0
"$TOP/scripts/debug-alone.sh" sframe_stress_test "$out" "$sec" $((sec + 600)) || rc=$?
stage "stress, debug kernel, $sec s: what the run did (TH_LOG of sframe_stress_test)"
log=$out/guest/kselftest/sframe_stress_test
[ -f "$log" ] || die "no log of the stress test: ${log#"$TOP"/}"
sed -n 's/^# # sframe_stress_test.c:[0-9]*:registry_survives_churn_under_sampling:/    /p' "$log"
info "make stress: $(( $(date +%s) - t0 )) s"
exit "$rc"
