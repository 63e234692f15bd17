#!/usr/bin/env bash
# make stress: the stress kselftest (sframe_stress_test: threads sampled at
# 10 kHz while others add, remove, corrupt, overlap and unmap sections and
# fork) for STRESS_SEC seconds (600) on the debug kernel (KASAN, UBSAN,
# lockdep, kmemleak), alone in one boot after the KUnit suites, then two
# kmemleak scans; any report in the kernel log fails it. Not in make check:
# its ten minutes beside the debug stage's would not fit CI; its figures go
# to README's reliability table. Results in build/stress.
. "$(dirname "$0")/lib.sh"

export VARIANT=debug
sec=${STRESS_SEC:-600}
out=$BUILD/stress
t0=$(date +%s)
"$TOP/scripts/kernel.sh"
"$TOP/scripts/selftests.sh"
rm -rf "$out"
mkdir -p "$out"
# The debug kselftests with only the stress test listed.
cp -a "$BUILD/kselftest-debug" "$out/kselftest"
grep '^sframe:sframe_stress_test$' "$BUILD/kselftest-debug/kselftest-list.txt" \
	> "$out/kselftest/kselftest-list.txt" ||
	die "no sframe_stress_test in build/kselftest-debug"
rc=0
SFRAME_KSELFTEST=$out/kselftest SFRAME_GUEST_OUT=$out/guest STRESS_SEC=$sec \
	KSELFTEST_TIMEOUT=$((sec + 600)) VM_TIMEOUT=$((2400 + sec)) \
	"$TOP/scripts/guest-tests.sh" || rc=$?
stage "stress, debug kernel, $sec s: what the run did (TH_LOG of sframe_stress_test)"
log=$out/guest/kselftest/sframe_stress_test
[ -f "$log" ] || die "no log of the stress test: ${log#"$TOP"/}"
sed -n 's/^# # sframe_stress_test.c:[0-9]*:registry_survives_churn_under_sampling:/    /p' "$log"
info "make stress: $(( $(date +%s) - t0 )) s"
exit "$rc"
