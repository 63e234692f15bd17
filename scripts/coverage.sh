#!/usr/bin/env bash
# make coverage: which lines of kernel/unwind the tests run. The debug
# kernel (KASAN, UBSAN, lockdep, kmemleak, fault injection) with gcov
# (config/coverage.config) for kernel/unwind's objects only, built into
# build/obj-coverage; one boot runs what make check's debug stage runs
# (KUnit at boot, then the kselftests: the fail-nth sweeps and the stress
# test, STRESS_SEC seconds, among them); the guest saves the gcov counters
# after the tests, and scripts/coverage.py prints line and branch coverage
# a file and lists the lines no test ran in build/coverage/uncovered.txt.
# Fails under COVERAGE_MIN percent of lines (95). Not in make check (its
# own debug kernel and a 25-minute boot would not fit CI's time): a passing
# run of exactly patches/series is recorded in patches/coverage.ok, which
# make check compares with the series (scripts/record-check.sh coverage).
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/objects-lib.sh"

least=${COVERAGE_MIN:-95}
# The files of the series in kernel/unwind (deferred.c is the base's own;
# the KUnit tests are not counted): its objects' sources, and the headers
# whose inline code they run (the rule cache's hit path, sframe_find(), the
# memo's hit at a return address),
# counted from every object that includes them.
files=(sframe.c sframe_registry.c sframe_elf.c sframe_cache.c user.c)
headers=(sframe.h sframe_cache.h sframe_memo.h)
out=$BUILD/coverage
t0=$(date +%s)

# GCOV_PROFILE_<stem>.o=y on make's command line: the Makefile of
# kernel/unwind stays the series'. A stem names any object of that name, so
# kernel/user.o is profiled too; only kernel/unwind's counters are read.
kargs=()
for f in "${files[@]}"; do
	kargs+=("GCOV_PROFILE_${f%.c}.o=y")
done
export VARIANT=debug SFRAME_KOBJ=$BUILD/obj-coverage
KOBJ=$SFRAME_KOBJ
SFRAME_KFRAGS="$TOP/config/coverage.config" SFRAME_KMAKE_ARGS="${kargs[*]}" \
	"$TOP/scripts/kernel.sh"
"$TOP/scripts/selftests.sh"
rm -rf "$out"
mkdir -p "$out/data"

rc=0
SFRAME_GUEST_OUT=$out/guest STRESS_SEC=${STRESS_SEC:-60} "$TOP/scripts/guest-tests.sh" || rc=$?

stage "coverage of kernel/unwind by KUnit, the kselftests, the sweeps and the stress test (gcov, >= $least% of lines)"
for f in "${files[@]}"; do
	stem=${f%.c}
	[ -f "$KOBJ/kernel/unwind/$stem.gcno" ] || die "no $stem.gcno in ${KOBJ#"$TOP"/}: not profiled"
	cp "$KOBJ/kernel/unwind/$stem.gcno" "$out/data/"
	if [ -f "$out/guest/gcov/$stem.gcda" ]; then
		cp "$out/guest/gcov/$stem.gcda" "$out/data/"
	fi
done
in_root python3 "$TOP/scripts/coverage.py" "$TREE" "$out/data" "$out" "$least" "${files[@]}" "${headers[@]}" \
	> "$out/summary" || rc=1
cat "$out/summary"

if [ "$rc" = 0 ] && [ "$(tree_ids)" = "$(series_ids)" ] &&
	[ -z "$(git -C "$TREE" status --porcelain -uno)" ]; then
	{
		echo "# 'make coverage' (scripts/coverage.sh): gcov of kernel/unwind on the debug"
		echo "# kernel after KUnit, the kselftests, the fail-nth sweeps and the stress"
		echo "# test, for the series whose patch ids follow. make check (stage"
		echo "# coverage-check) compares the ids with patches/series; rerun: make coverage"
		echo "targets: ${files[*]} ${headers[*]}"
		sed -n 's/^    \([a-z_.]*\) *\(lines .*\)/result: \1 \2/p' "$out/summary"
		series_ids
	} > "$TOP/patches/coverage.ok"
	cp "$out/uncovered.txt" "$TOP/patches/coverage-uncovered.txt"
	info "recorded in patches/coverage.ok (lines no test ran: patches/coverage-uncovered.txt)"
elif [ "$rc" = 0 ]; then
	info "not recorded: only a run of exactly patches/series (build/linux with nothing unexported) is"
fi
info "make coverage: $(( $(date +%s) - t0 )) s"
exit "$rc"
