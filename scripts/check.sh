#!/usr/bin/env bash
# make check: the whole test suite, stage by stage, from nothing to a green
# line. Ends with "N passed, N failed, N skipped" and exits non-zero on any
# failure.
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
LOG=$BUILD/check
rm -rf "$LOG"
mkdir -p "$LOG"
passed=0 failed=0 skipped=0 t0=$(date +%s)
declare -a summary rerun failures

# run_stage NAME CMD...: one stage; its output goes to the terminal and to
# build/check/NAME.log. A stage that prints "counts: P F S" (passed, failed,
# skipped) reports its own test counts; otherwise it counts as one test,
# passed or failed by its exit status. A skipped test never counts as
# passed. Every stage is a make target of the same name: a failed stage
# says so. STAGE_VARIANT=debug: the stage of the debug kernel (run with
# VARIANT=debug; logged as NAME-debug).
run_stage() {
	local name=$1 start rc counts p f s result variant=${STAGE_VARIANT:-${VARIANT:-}} log
	shift
	log=$LOG/$name${STAGE_VARIANT:+-$STAGE_VARIANT}.log
	start=$(date +%s)
	set +e
	if [ -n "${STAGE_VARIANT:-}" ]; then
		VARIANT=$STAGE_VARIANT "$@" 2>&1 | tee "$log"
	else
		"$@" 2>&1 | tee "$log"
	fi
	rc=${PIPESTATUS[0]}
	set -e
	counts=$(sed -n 's/^counts: \([0-9]\+ [0-9]\+ [0-9]\+\)$/\1/p' "$log" | tail -1)
	if [ -n "$counts" ]; then
		read -r p f s <<<"$counts"
	elif [ "$rc" = 0 ]; then
		p=1 f=0 s=0
	else
		p=0 f=1 s=0
	fi
	[ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" != 0 ]; then
		rerun+=("${variant:+VARIANT=$variant }make $name")
		echo "!!! stage $name failed; rerun it with: ${rerun[-1]}"
		# What failed, for the summary: CI keeps only the end of the
		# output, so the names of the failed tests go there.
		while IFS= read -r line; do
			failures+=("${name}${STAGE_VARIANT:+ ($STAGE_VARIANT)}: ${line#"${line%%[![:space:]]*}"}")
		done < <(grep -E 'FAIL|not ok|[Ee]rror|!!!' "$log" | grep -v '^!!! stage' | head -n 6)
	fi
	if [ "$f" != 0 ]; then
		result=FAIL
	elif [ "$p" = 0 ] && [ "$s" != 0 ]; then
		result=skip
	else
		result=ok
	fi
	summary+=("$(printf '%-24s %-4s %4d passed %3d failed %3d skipped %5d s' \
		"$name${STAGE_VARIANT:+ ($STAGE_VARIANT)}" "$result" "$p" "$f" "$s" \
		$(( $(date +%s) - start )))")
	printf '\n--- stage %s%s: %s in %d s (make check so far: %d s)\n' "$name" \
		"${STAGE_VARIANT:+ ($STAGE_VARIANT kernel)}" "$result" $(( $(date +%s) - start )) \
		$(( $(date +%s) - t0 ))
	return "$rc"
}
# run_debug NAME CMD...: run_stage for the debug kernel.
run_debug() { STAGE_VARIANT=debug run_stage "$@"; }
# run_arm64 NAME CMD...: run_stage for the arm64 kernel.
run_arm64() { STAGE_VARIANT=arm64 run_stage "$@"; }

finish() {
	stage "summary (${VARIANT:-default} kernel, $(( $(date +%s) - t0 )) s)"
	printf '    %s\n' "${summary[@]}"
	if [ "$failed" != 0 ]; then
		echo "what failed (the first lines of each failed stage's log that say so):"
		printf '    %s\n' "${failures[@]}"
		echo "logs: build/check/*.log; rerun the failed stages with:"
		printf '    %s\n' "${rerun[@]}"
	fi
	# The last line, which CI reads.
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ] && exit 0
	exit 1
}
trap 'finish' EXIT

run_stage root "$S/root.sh"
run_stage base "$S/base.sh"
run_stage series "$S/tree.sh"
run_stage quilt "$S/quilt.sh" || true
# The series as a maintainer takes it: b4 am (offline) of patches/ as a
# mail thread, then git am of b4's mbox onto the base.
run_stage b4 "$S/b4.sh" || true
run_stage checkpatch "$S/checkpatch.sh" || true
run_stage bisect-check "$S/bisect-check.sh" || true
run_stage configs-check "$S/record-check.sh" configs || true
run_stage mainline-check "$S/record-check.sh" mainline || true
run_stage coverage-check "$S/record-check.sh" coverage || true
# The reader in user space: the same for every kernel variant.
if [ "${VARIANT:-}" != debug ]; then
	run_stage harness "$S/harness.sh" || true
	run_stage fuzz "$S/fuzz.sh" || true
	run_stage difftest "$S/difftest.sh" || true
fi
run_stage kernel "$S/kernel.sh"
run_stage selftests-build "$S/selftests.sh" || true
run_stage guest "$S/guest-tests.sh" || true
run_stage paths "$S/paths.sh" || true
if [ "${VARIANT:-}" != debug ]; then
	run_stage e2e "$S/e2e.sh" || true
	# The same kernel on programs whose C library has SFrame too: glibc
	# from Debian's source (glibc.pin), built once into the root (10 min
	# on 2 idle cores, 29 beside kernel builds), then a boot of its own
	# (2.5 min). SFRAME_CHECK_GLIBC=0 leaves it out of make check.
	if [ "${SFRAME_CHECK_GLIBC:-1}" != 0 ]; then
		run_stage glibc "$S/glibc-e2e.sh" || true
	fi
fi
# The arm64 kernel (config/arm64.config), cross-built: its KUnit suites at
# boot and the kselftests built for arm64, in one boot of
# qemu-system-aarch64 -cpu max (pointer authentication included).
# SFRAME_CHECK_ARM64=0 leaves them out of make check.
if [ -z "${VARIANT:-}" ] && [ "${SFRAME_CHECK_ARM64:-1}" != 0 ]; then
	if run_arm64 kernel "$S/kernel.sh"; then
		run_arm64 selftests-build "$S/selftests.sh" || true
		run_arm64 guest "$S/guest-tests.sh" || true
	fi
fi
# The debug kernel (config/debug.config: KASAN, UBSAN, lockdep, kmemleak):
# its KUnit suites at boot, the kselftests and the stress kselftest, in one
# boot; any report in its log fails the guest stage. make check-debug runs
# only these (and the stages before the user-space ones); SFRAME_CHECK_DEBUG=0
# leaves them out of make check.
if [ "${VARIANT:-}" != debug ] && [ "${SFRAME_CHECK_DEBUG:-1}" != 0 ]; then
	if run_debug kernel "$S/kernel.sh"; then
		run_debug selftests-build "$S/selftests.sh" || true
		run_debug guest "$S/guest-tests.sh" || true
	fi
fi
