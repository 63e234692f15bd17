#!/usr/bin/env bash
# make stress: the stress kselftest (sframe_stress_test: threads sampled at
# 10 kHz while others add, remove, corrupt, overlap and unmap sections and
# fork) for STRESS_SEC seconds (600) on the debug kernel, alone in one boot
# (scripts/debug-alone.sh); any report in the kernel log fails it. Not in
# make check: its ten minutes beside the debug stage's would not fit CI;
# its figures go to README's reliability table. Results in build/stress.
. "$(dirname "$0")/lib.sh"

sec=${STRESS_SEC:-600}
exec "$TOP/scripts/debug-alone.sh" sframe_stress_test "$BUILD/stress" "$sec" $((sec + 600)) \
	"stress, debug kernel, $sec s: what the run did"
