#!/usr/bin/env bash
# One boot of the built kernel: the KUnit suites built into it run at boot
# (KTAP in the kernel log), then the installed kselftests run in the guest
# with run_kselftest.sh (TAP). The kernel's own parser, kunit.py parse,
# reads both (scripts/tap-summary.py); prints the results and "counts: P F S"
# for make check. VARIANT=arm64: the same boot samples chain.c's arm64
# builds and the real program's (sqlite3, scripts/real.sh --arm64) with
# scripts/arm64-chains.c, and scripts/arm64-chains.py checks their chains;
# its checks are counted with the others.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

# SFRAME_KSELFTEST, SFRAME_GUEST_OUT: the tests and the results elsewhere
# (make mainline's boot, make stress, make fault). KSELFTEST_TIMEOUT: seconds a program
# may run, instead of its settings file's (make stress).
tests=${SFRAME_KSELFTEST:-$BUILD/kselftest${VARIANT:+-$VARIANT}}
out=${SFRAME_GUEST_OUT:-$BUILD/guest-tests${VARIANT:+-$VARIANT}}
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
# The fail-nth sweeps (sframe_fault_test, debug kernel only) take about
# 10 minutes there: a program may run an hour instead of its settings'.
if [ "${VARIANT:-}" = debug ]; then
	append=(--append no5lvl)
	timeout=${VM_TIMEOUT:-3600}
	KSELFTEST_TIMEOUT=${KSELFTEST_TIMEOUT:-3600}
fi
# The stress kselftest's run, STRESS_SEC here, SFRAME_STRESS_SEC in the
# guest: longer on the debug kernel, whose checkers are what it is for.
stress=${STRESS_SEC:-10}
[ "${VARIANT:-}" = debug ] && stress=${STRESS_SEC:-60}
info "stress test: $stress s"
if [ "${VARIANT:-}" = arm64 ]; then
	# qemu-system-aarch64 -cpu max, an initramfs, the console only; the
	# chains' sampling time and threshold from config/e2e.conf.
	e2e_config
	info "chains: chain.c ${ARM64_CHAINS_SEC} s of CPU time a build, sqlite3 real.sql once; >= ${ARM64_MIN_COMPLETE}% complete"
	"$TOP/scripts/arm64-guest.sh" "$tests" "$out" "$stress" "$ARM64_CHAINS_SEC" || vmrc=1
else
	"$TOP/scripts/vm.sh" --log "$out/console.log" --timeout "$timeout" "${append[@]}" \
		"$TOP/scripts/guest-tests-guest.sh" "$tests" "$out" "$stress" \
		${KSELFTEST_TIMEOUT:+"$KSELFTEST_TIMEOUT"} >/dev/null || vmrc=1
fi
[ -f "$out/dmesg" ] || die "the guest did not run the tests; log: ${out#"$TOP"/}/console.log"

rc=0
if [ "${VARIANT:-}" != arm64 ]; then
	in_root python3 "$TOP/scripts/tap-summary.py" "$TREE" "$tests" "$out" || rc=$?
	[ "$vmrc" = 0 ] || exit 1
	exit "$rc"
fi

# arm64: the tests' counts and the chains', added up into one "counts:".
res=$(in_root python3 "$TOP/scripts/tap-summary.py" "$TREE" "$tests" "$out") || rc=$?
printf '%s\n' "$res" | grep -v '^counts: ' || true
read -r p f s < <(printf '%s\n' "$res" | sed -n 's/^counts: //p' | tail -1) || true
[ -n "${p:-}" ] || { echo "    no counts from tap-summary.py"; p=0 f=1 s=0; }
stage "arm64 chains: chain.c and sqlite3 sampled in the guest, user callchains (>= ${ARM64_MIN_COMPLETE}% complete, >= ${E2E_MIN_SAMPLES} leaf samples each)"
cres=$(in_root python3 "$TOP/scripts/arm64-chains.py" --min "$ARM64_MIN_COMPLETE" \
	--min-samples "$E2E_MIN_SAMPLES" "$out/initramfs.list" "$out/chains" \
	chain-sframe chain-pac chain-pacb real-sframe real-pac real-pacb) || rc=1
printf '%s\n' "$cres" | grep -Ev '^(counts: |[0-9]+ passed, [0-9]+ failed)' || true
read -r cp cf cs < <(printf '%s\n' "$cres" | sed -n 's/^counts: //p' | tail -1) || true
[ -n "${cp:-}" ] || { echo "    no counts from arm64-chains.py"; cp=0 cf=1 cs=0; }
{ grep -h '^sampler exit' "$out"/chains/* 2>/dev/null || true; } |
	awk '{ t += $5 } END { if (NR) printf "    sampling: %d s in the guest (%d runs)\n", t, NR }'
echo "    total: $((p + cp)) passed, $((f + cf)) failed, $((s + cs)) skipped"
echo "counts: $((p + cp)) $((f + cf)) $((s + cs))"
[ "$vmrc" = 0 ] || exit 1
exit "$rc"
