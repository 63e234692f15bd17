#!/usr/bin/env bash
# One boot of the built kernel: the KUnit suites built into it run at boot
# (KTAP in the kernel log), then the installed kselftests run in the guest
# with run_kselftest.sh (TAP). The kernel's own parser, kunit.py parse,
# reads both (scripts/tap-summary.py); prints the results and "counts: P F S"
# for make check.
. "$(dirname "$0")/lib.sh"

tests=$BUILD/kselftest${VARIANT:+-$VARIANT}
out=$BUILD/guest-tests${VARIANT:+-$VARIANT}
rm -rf "$out"
mkdir -p "$out"

stage "boot (${VARIANT:-default} kernel), KUnit at boot, kselftests"
# vm.sh fails on a hang, a panic or any kernel warning in the guest's log.
vmrc=0
append=()
timeout=${VM_TIMEOUT:-1500}
# The KASAN kernel reports a wild access in the base kernel's early IRQ
# handling at boot when QEMU offers 5-level paging: boot it with 4 levels.
# Under QEMU without KVM and beside other work its boot took 15 min and the
# kselftests 5 (run_kselftest.sh execs about 15 tools a program, each about
# 1 s on this kernel): a hang is what the timeout is for, not this.
if [ "${VARIANT:-}" = debug ]; then
	append=(--append no5lvl)
	timeout=${VM_TIMEOUT:-2400}
fi
# The stress kselftest's run, STRESS_SEC here, SFRAME_STRESS_SEC in the
# guest: longer on the debug kernel, whose checkers are what it is for.
stress=${STRESS_SEC:-10}
[ "${VARIANT:-}" = debug ] && stress=${STRESS_SEC:-60}
info "stress test: $stress s"
if [ "${VARIANT:-}" = arm64 ]; then
	# qemu-system-aarch64 -cpu max, an initramfs, the console only.
	"$TOP/scripts/arm64-guest.sh" "$tests" "$out" "$stress" || vmrc=1
else
	"$TOP/scripts/vm.sh" --log "$out/console.log" --timeout "$timeout" "${append[@]}" \
		"$TOP/scripts/guest-tests-guest.sh" "$tests" "$out" "$stress" >/dev/null || vmrc=1
fi
[ -f "$out/dmesg" ] || die "the guest did not run the tests; log: ${out#"$TOP"/}/console.log"

rc=0
in_root python3 "$TOP/scripts/tap-summary.py" "$TREE" "$tests" "$out" || rc=$?
[ "$vmrc" = 0 ] || exit 1
exit "$rc"
