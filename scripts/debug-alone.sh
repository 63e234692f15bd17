#!/usr/bin/env bash
# scripts/debug-alone.sh TEST OUT STRESS_SEC TIMEOUT: one kselftest program
# of the series (sframe:TEST) alone in a boot of the debug kernel (KASAN,
# UBSAN, lockdep, kmemleak, fault injection) after the KUnit suites, then
# two kmemleak scans; any report in the kernel log fails it. The program
# may run TIMEOUT seconds; results in OUT/guest. Builds the debug kernel
# and its kselftests first. What make stress and make fault share.
. "$(dirname "$0")/lib.sh"

[ $# = 4 ] || die "usage: $0 TEST OUT STRESS_SEC TIMEOUT"
test=$1 out=$2 sec=$3 limit=$4
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
SFRAME_KSELFTEST=$out/kselftest SFRAME_GUEST_OUT=$out/guest STRESS_SEC=$sec \
	KSELFTEST_TIMEOUT=$limit VM_TIMEOUT=$((2400 + limit)) \
	"$TOP/scripts/guest-tests.sh"
