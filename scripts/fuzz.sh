#!/usr/bin/env bash
# libFuzzer on the SFrame reader's user-space harness (tools/testing/sframe,
# fuzz.c: clang, ASan, UBSan), seeded with the real sections of
# scripts/sframe-inputs.sh (whole, or cut into runs of functions that fit
# FUZZ_MAX_LEN). Each input is a section plus where it and its text are,
# an FRE budget and an unreadable range; harness.c's checks turn a read
# outside the section, more reads than the reader's bounds, an undocumented
# error or a wrong rule into a crash. Fails on any crash, hang (a lookup
# taking FUZZ_TIMEOUT s) or out-of-memory, and when fewer than FUZZ_RUNS
# inputs ran.
#   FUZZ_RUNS=N       executions (default 1000000)
#   FUZZ_TIME=S       run S seconds instead, however many executions
#   FUZZ_SEED=N       libFuzzer's seed (default: random, printed)
#   FUZZ_FRESH=1      start from the seeds only, not the corpus of earlier runs
# The corpus grows in build/fuzz/corpus; crashes land in build/fuzz/artifacts.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

FUZZ_RUNS=${FUZZ_RUNS:-1000000}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-4096}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_SEED=${FUZZ_SEED:-$(( (RANDOM << 15 | RANDOM) + 1 ))}
out=$BUILD/fuzz

if [ -n "${FUZZ_TIME:-}" ]; then
	what="for $FUZZ_TIME s"
	limit=(-max_total_time="$FUZZ_TIME")
else
	what="$FUZZ_RUNS executions"
	limit=(-runs="$FUZZ_RUNS")
fi
stage "libFuzzer on the SFrame reader (tools/testing/sframe, ASan, UBSan): $what"
harness_need
"$TOP/scripts/root-install.sh" clang libclang-rt-dev
mkdir -p "$out"
rm -rf "$out/seeds" "$out/artifacts" "$out"/fuzz-*.log
[ "${FUZZ_FRESH:-0}" != 1 ] || rm -rf "$out/corpus"
mkdir -p "$out/seeds" "$out/corpus" "$out/artifacts"
t=$(date +%s)
harness_build "$out/build.log"
harness_build "$out/build-fuzz.log" fuzz CC=clang
info "built sframe_fuzz (clang $(in_root clang -dumpversion), libFuzzer, ASan, UBSan) in $(( $(date +%s) - t )) s"

"$TOP/scripts/sframe-inputs.sh"
mapfile -t files < <(sframe_files all)
in_root "$H/sframe_test" seeds "$out/seeds" "$FUZZ_MAX_LEN" "${files[@]}" > "$out/seeds.log"
info "$(find "$out/seeds" -type f | wc -l) seeds from ${#files[@]} files ($(du -sk "$out/seeds" | cut -f1) KiB), \
$(find "$out/corpus" -type f | wc -l) inputs in the corpus of earlier runs"

# libFuzzer writes new inputs into the first directory.
args=("${limit[@]}" -seed="$FUZZ_SEED" -max_len="$FUZZ_MAX_LEN"
	-timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 -print_final_stats=1
	-artifact_prefix="$out/artifacts/" "$out/corpus" "$out/seeds")
t=$(date +%s)
rc=0
in_root "$H/sframe_fuzz" "${args[@]}" > "$out/fuzz.log" 2>&1 || rc=$?
secs=$(( $(date +%s) - t ))

stat() { sed -n "s/^stat::$1: *//p" "$out/fuzz.log" | tail -n 1; }
runs=$(stat number_of_executed_units)
# The last status line: "#N DONE cov: C ft: F corp: U/S ..." or the like.
last=$(grep -E '^#[0-9]+' "$out/fuzz.log" | tail -n 1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
mapfile -t found < <(find "$out/artifacts" -type f | sort)
info "seed $FUZZ_SEED: ${runs:-?} executions in $secs s (${runs:+$((runs / (secs ? secs : 1)))}/s), \
coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?} inputs, peak RSS $(stat peak_rss_mb) MB"

bad=
if [ "${#found[@]}" -gt 0 ] || [ "$rc" != 0 ]; then
	# The first report; the stacks are in the log.
	grep -E -m4 'sframe harness: FAIL|^  section|ERROR: (AddressSanitizer|libFuzzer)|runtime error|SUMMARY|ALARM|out-of-memory' \
		"$out/fuzz.log" | sed 's/^ */    /'
	bad="libFuzzer exited with $rc, ${#found[@]} input(s) saved (log: build/fuzz/fuzz.log)"
	for a in "${found[@]}"; do
		info "reproduce: scripts/harness.sh run ${a#"$TOP"/}"
	done
elif [ -z "${FUZZ_TIME:-}" ] && [ "${runs:-0}" -lt "$FUZZ_RUNS" ]; then
	bad="only ${runs:-0} of $FUZZ_RUNS executions ran (log: build/fuzz/fuzz.log)"
fi
if [ -n "$bad" ]; then
	info "FAIL: $bad"
	info "rerun with the same seed: FUZZ_SEED=$FUZZ_SEED make fuzz"
	echo "counts: 0 1 0"
	exit 1
fi
info "no crash, hang, out-of-section read or read beyond the bounds"
sed -n 's/^sframe harness: /    /p' "$out/fuzz.log"

# What of sframe.c the corpus reaches (gcov, without sanitizers).
harness_build "$out/build-cov.log" cov
# shellcheck disable=SC2016
in_root bash -c 'cd "$1" && rm -f sframe_cov-*.gcda && ./sframe_cov run "$2" "$3" > /dev/null &&
	gcov -n -b -o . sframe_cov-harness.gcda' - "$H" "$out/corpus" "$out/seeds" \
	> "$out/coverage.txt" 2>&1 || true
cov=$(awk '/^File / { on = /kernel\/unwind\/sframe\.c/; next }
	on && /^Lines executed:/ { sub(/.*:/, ""); l = $0 }
	on && /^Taken at least once:/ { sub(/.*:/, ""); b = $0 }
	END { if (l) printf "lines %s, branches taken %s", l, b }' "$out/coverage.txt")
info "kernel/unwind/sframe.c, replaying the corpus: ${cov:-no coverage data (build/fuzz/coverage.txt)}"
echo "counts: 1 0 0"
