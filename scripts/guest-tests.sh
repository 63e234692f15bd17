#!/usr/bin/env bash
# One boot of the built kernel: the KUnit suites built into it run at boot
# (KTAP in the kernel log), then the kselftests run in the guest (TAP).
# Prints both results, and "counts: P F S" for make check.
. "$(dirname "$0")/lib.sh"

tests=$BUILD/selftests${VARIANT:+-$VARIANT}/sframe
out=$BUILD/guest-tests${VARIANT:+-$VARIANT}
rm -rf "$out"
mkdir -p "$out"

stage "boot (${VARIANT:-default} kernel), KUnit at boot, kselftests"
# vm.sh fails on a hang, a panic or any kernel warning in the guest's log.
vmrc=0
append=()
# The KASAN kernel reports a wild access in the base kernel's early IRQ
# handling at boot when QEMU offers 5-level paging: boot it with 4 levels.
[ "${VARIANT:-}" = debug ] && append=(--append no5lvl)
# The stress kselftest's run (SFRAME_STRESS_SEC): longer on the debug
# kernel, whose checkers are what it is for.
stress=${STRESS_SEC:-10}
[ "${VARIANT:-}" = debug ] && stress=${STRESS_SEC:-60}
info "stress test: $stress s"
"$TOP/scripts/vm.sh" --log "$out/console.log" --timeout "${VM_TIMEOUT:-2400}" "${append[@]}" \
	"$TOP/scripts/guest-tests-guest.sh" "$tests" "$out" "$stress" >/dev/null || vmrc=1
[ -f "$out/dmesg" ] || die "the guest did not run the tests; log: ${out#"$TOP"/}/console.log"

rc=0
"$TOP/scripts/tap-summary.py" "$out" || rc=$?
[ "$vmrc" = 0 ] || exit 1
exit "$rc"
