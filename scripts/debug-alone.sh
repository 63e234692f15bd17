#!/usr/bin/env bash
# scripts/debug-alone.sh TEST OUT STRESS_SEC TIMEOUT TITLE: one kselftest
# program of the series (sframe:TEST) alone in a boot of the debug kernel
# (KASAN, UBSAN, lockdep, kmemleak, fault injection) after the KUnit
# suites, then two kmemleak scans; any report in the kernel log fails it.
# The program may run TIMEOUT seconds; results in OUT/guest. Builds the
# debug kernel and its kselftests first; prints what the program logged
# (its TH_LOG lines) under TITLE, and the time. What make stress and make
# fault share.
. "$(dirname "$0")/lib.sh"

[ $# = 5 ] || die "usage: $0 TEST OUT STRESS_SEC TIMEOUT TITLE"
test=$1 out=$2 sec=$3 limit=$4 title=$5
t0=$(date +%s)
export VARIANT=debug
"$TOP/scripts/kernel.sh"
"$TOP/scripts/selftests.sh"
rm -rf "$out"
mkdir -p "$out"
# The debug kselftests with only TEST listed (installed even when no guest
# stage lists it).
cp -a "$BUILD/kselftest-debug" "$out/kselftest"
[ -x "$out/kselftest/sframe/$test" ] || die "no $test in build/kselftest-debug"
echo "sframe:$test" > "$out/kselftest/kselftest-list.txt"
rc=0
SFRAME_KSELFTEST=$out/kselftest SFRAME_GUEST_OUT=$out/guest STRESS_SEC=$sec \
	KSELFTEST_TIMEOUT=$limit VM_TIMEOUT=$((2400 + limit)) \
	"$TOP/scripts/guest-tests.sh" || rc=$?
stage "$title (TH_LOG of $test)"
log=$out/guest/kselftest/$test
[ -f "$log" ] || die "no log of $test: ${log#"$TOP"/}"
sed -n "s/^# # $test.c:[0-9]*:[a-z_]*:/    /p" "$log"
info "$test alone, debug kernel: $(( $(date +%s) - t0 )) s"
exit "$rc"
