#!/usr/bin/env bash
# make fault: the fail-nth sweeps (sframe_fault_test, patch 50) on the debug
# kernel, alone in one boot (scripts/debug-alone.sh); any report in the
# kernel log fails it. Each registry operation is run with its 1st, 2nd,
# 3rd, ... allocation or user copy failing, and checked after each (see the
# test's header). make check's debug stage runs the same test among the
# others; this boot runs it alone. exec and fork are swept over every point
# of the registry's code, then over their first 16 points and 1 in 16 after
# (the test tries all with SFRAME_FAULT_FULL=1 in its environment).
# Results in build/fault.
. "$(dirname "$0")/lib.sh"

exec "$TOP/scripts/debug-alone.sh" sframe_fault_test "$BUILD/fault" 1 "${KSELFTEST_TIMEOUT:-5400}" \
	"fail-nth sweeps, debug kernel: points per operation"
