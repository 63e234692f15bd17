#!/usr/bin/env bash
# How good are the harness's checks? Plant one bug at a time in a copy of
# kernel/unwind/sframe.c (the mutants below) and see what catches it: the
# harness stage's look-up of every IP of the real files, and the fuzzer
# from the seeds alone, for at most MUTANT_TIME seconds (default 60) each.
# Not a stage of make check (a few minutes); the README has its last table.
#   scripts/fuzz-mutants.sh [NAME...]     all mutants, or these
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

MUTANT_TIME=${MUTANT_TIME:-60}
out=$BUILD/fuzz-mutants

# NAME|what the bug is|sed expression on sframe.c (it must change a line)
MUTANTS=(
	"header-end|the FRE area may end past the section|s/^\(\t *\)fres_end > sec->sframe_end ||/\1false ||/"
	"fde-text|a function may end past the text|s/^\(\t *\)end > sec->text_end)/\1false)/"
	"fre-count|more FREs than bytes in a function|s/^\(\t *\)fda.num_fres > func->size)/\1false)/"
	"unsorted|the binary search ignores disorder|s/(found \&\& probe.start <= func->start))/(false))/"
	"search-loop|the binary search stops moving (hang)|s/first = mid + 1;/first = mid;/"
	"fre-window|an FRE may run past the FRE area|s/^\(\t *\)need > sec->fres_end - addr)/\1false)/"
	"budget|the FRE budget is not enforced|s/if (!\*budget)/if (false)/"
	"fre-off-by-one|the row before the right one is used|s/if (row.start > off)/if (row.start >= off)/"
	"mask|MASK FDEs are read as INC|s/^\(\t*\)off %= func.rep_size;/\1;/"
	"flex-fp|FLEX N = 6 takes the FP from the RA's words|s/unsigned int fp_word = 4;/unsigned int fp_word = 3;/"
	"cfa-sign|the CFA offset is not sign-extended|s/frame->cfa.offset = row->sdata\[0\];/frame->cfa.offset = row->udata[0];/"
	"flex-reserved|the reserved control bit is ignored|s/if (!ctl || (ctl \& SFRAME_FLEX_RESERVED) ||/if (!ctl ||/"
	"signal|the signal bit is dropped|s/frame->signal = func->info \& SFRAME_FDA_SIGNAL;/frame->signal = false;/"
)

stage "mutants of kernel/unwind/sframe.c: does the harness catch them?"
harness_need
"$TOP/scripts/root-install.sh" clang libclang-rt-dev
"$TOP/scripts/sframe-inputs.sh"
mkdir -p "$out"
# The seeds of the fuzz stage, made by the unchanged harness.
harness_build "$out/build.log"
rm -rf "$out/seeds"
mkdir -p "$out/seeds"
mapfile -t files < <(sframe_files all)
in_root "$H/sframe_test" seeds "$out/seeds" 4096 "${files[@]}" > /dev/null
mapfile -t v3 < <(sframe_files 3)

# A copy of what the harness compiles: the mutant replaces sframe.c there.
mini=$out/tree
rm -rf "$mini"
for d in kernel/unwind include/linux include/kunit tools/include tools/arch/x86/include tools/testing/sframe; do
	mkdir -p "$mini/$d"
	cp -a "$TREE/$d/." "$mini/$d/"
done
rm -f "$mini/tools/testing/sframe/sframe_test" "$mini/tools/testing/sframe/sframe_fuzz"
cp "$TREE/kernel/unwind/sframe.c" "$out/sframe.c.orig"

caught=0 missed=0
printf '    %-15s %-8s %-6s %s\n' mutant harness fuzzer "first report"
for m in "${MUTANTS[@]}"; do
	IFS='|' read -r name what expr <<<"$m"
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	sed "$expr" "$out/sframe.c.orig" > "$mini/kernel/unwind/sframe.c"
	if cmp -s "$out/sframe.c.orig" "$mini/kernel/unwind/sframe.c"; then
		info "$name: the mutation does not apply to this sframe.c"
		missed=$((missed + 1))
		continue
	fi
	log=$out/$name.log
	if ! { in_root make -s -C "$mini/tools/testing/sframe" clean default &&
	       in_root make -s -C "$mini/tools/testing/sframe" fuzz CC=clang; } > "$log" 2>&1; then
		info "$name: does not build (log: ${log#"$TOP"/})"
		missed=$((missed + 1))
		continue
	fi

	# The real files, each IP.
	h=missed
	for f in "${v3[@]}"; do
		# shellcheck disable=SC2016
		if ! timeout 60 bash -c '. "$1/scripts/lib.sh"; shift; in_root "$@"' - "$TOP" \
			"$mini/tools/testing/sframe/sframe_test" check "$f" >> "$log" 2>&1; then
			h=caught
			break
		fi
	done
	# The fuzzer, from the seeds alone.
	rm -rf "$out/corpus" "$out/artifacts"
	mkdir -p "$out/corpus" "$out/artifacts"
	t=$(date +%s)
	in_root "$mini/tools/testing/sframe/sframe_fuzz" -max_total_time="$MUTANT_TIME" \
		-seed=1 -max_len=4096 -timeout=5 -artifact_prefix="$out/artifacts/" \
		"$out/corpus" "$out/seeds" > "$out/$name.fuzz.log" 2>&1 || true
	secs=$(( $(date +%s) - t ))
	if [ -n "$(ls "$out/artifacts")" ]; then
		fz="${secs}s"
		report=$(grep -m1 -o -E 'FAIL in [^:]*: .*|ALARM: .*|ERROR: AddressSanitizer: [a-z-]*|runtime error: .*' \
			"$out/$name.fuzz.log" | sed 's/^FAIL in \([a-z_]*\)([^)]*): /\1: /')
	else
		fz=missed
		report="($what)"
	fi
	if [ "$h" = caught ] || [ "$fz" != missed ]; then
		caught=$((caught + 1))
	else
		missed=$((missed + 1))
	fi
	printf '    %-15s %-8s %-6s %s\n' "$name" "$h" "$fz" "$report"
done
info "$caught caught, $missed missed (logs: ${out#"$TOP"/}/)"
echo "counts: $caught $missed 0"
[ "$missed" = 0 ]
