#!/usr/bin/env bash
# The SFrame reader in user space: tools/testing/sframe of build/linux
# (kernel/unwind/sframe.c compiled unchanged against shims, with ASan and
# UBSan) runs its self-tests, then looks up every IP of the real SFrame V3
# files (scripts/sframe-inputs.sh) through the harness's checks: reads only
# inside the section, at most a binary search of FDE reads and the FRE
# budget, documented errors only, none from a section that validates, and
# the answers of the harness's reference model (ref.c); and big synthetic
# sections (scripts/bench-scaling.sh --smoke).
#   scripts/harness.sh           the stage (make harness)
#   scripts/harness.sh ARGS...   sframe_test ARGS in the root, e.g.
#                                run build/fuzz/artifacts/crash-...
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

out=$BUILD/harness
if [ $# -gt 0 ]; then
	harness_need
	mkdir -p "$out"
	harness_build "$out/build.log"
	in_root "$H/sframe_test" "$@"
	exit
fi

stage "user-space harness (tools/testing/sframe): self-tests, every IP of the real SFrame files"
harness_need
rm -rf "$out"
mkdir -p "$out"
t=$(date +%s)
harness_build "$out/build.log"
info "built sframe_test (gcc, ASan, UBSan) in $(( $(date +%s) - t )) s"
"$TOP/scripts/sframe-inputs.sh"

passed=0 failed=0
in_root "$H/sframe_test" > "$out/self-tests.tap" 2>&1 || true
sed 's/^/    /' "$out/self-tests.tap"
p=$(grep -c '^ok ' "$out/self-tests.tap" || true)
f=$(grep -c '^not ok ' "$out/self-tests.tap" || true)
want=$(sed -n 's/^1\.\.\([0-9]\+\)$/\1/p' "$out/self-tests.tap")
# A self-test that aborted has no result line: it failed.
[ -n "$want" ] && [ $((p + f)) = "$want" ] || f=$((f + 1))
passed=$((passed + p)) failed=$((failed + f))

# One process per file: a failed check aborts it, the others still run.
t=$(date +%s)
while read -r file; do
	if in_root "$H/sframe_test" check "$file" > "$out/check.log" 2>&1; then
		passed=$((passed + 1))
		info "ok   $(head -n 1 "$out/check.log")"
	else
		failed=$((failed + 1))
		info "FAIL $file:"
		sed 's/^/        /' "$out/check.log"
		info "rerun: scripts/harness.sh check $file"
	fi
	cat "$out/check.log" >> "$out/check-all.log"
done < <(sframe_files 3)
info "every IP of $(sframe_files 3 | wc -l) files looked up in $(( $(date +%s) - t )) s"

# Sections bigger than any real file: 10^6 FDEs, 65535 FREs, lookups that
# the walk's FRE budget cannot finish (scripts/sframe/scale.c, the driver
# of make bench-scaling, natively: every answer checked).
if "$TOP/scripts/bench-scaling.sh" --smoke > "$out/big.log" 2>&1; then
	passed=$((passed + 1))
	info "ok   big synthetic sections: $(grep -o 'every answer right.*' "$out/big.log")"
else
	failed=$((failed + 1))
	info "FAIL big synthetic sections:"
	grep -v '^counts:' "$out/big.log" | sed 's/^/        /'
	info "rerun: scripts/bench-scaling.sh --smoke"
fi
echo "counts: $passed $failed 0"
[ "$failed" = 0 ]
