#!/usr/bin/env bash
# record-check.sh configs|mainline|coverage: 'make configs', 'make mainline'
# and 'make coverage' take too long for every CI run (a kernel 'make
# prepare' per configuration; a debug kernel of its own and its boot): make
# check compares the record they leave (patches/NAME.ok: the result, then
# the patch ids of the series it was made for) with patches/series.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/objects-lib.sh"

name=${1:?usage: record-check.sh configs|mainline|coverage}
record=$TOP/patches/$name.ok
case "$name" in
configs) stage "the series builds in distribution configurations (record of make configs)" ;;
mainline) stage "the series applies to and builds on the newest kernel in Debian (record of make mainline)" ;;
coverage) stage "the tests run >= 95% of kernel/unwind's lines on the debug kernel (record of make coverage)" ;;
*) die "unknown record '$name'" ;;
esac
ids=$(series_ids)
[ -n "$ids" ] || skip "no patches in the series yet: nothing was built"
[ -f "$record" ] || die "no patches/$name.ok: run 'make $name'"
[ "$ids" = "$(grep -E '^[0-9a-f]{40}$' "$record")" ] ||
	die "patches/$name.ok was recorded for another series: run 'make $name' and commit"
sed -n 's/^result: //p' "$record" | while IFS= read -r line; do info "$line"; done
info "targets: $(sed -n 's/^targets: //p' "$record")"
if [ "$name" = coverage ]; then
	[ -f "$TOP/patches/coverage-uncovered.txt" ] || die "no patches/coverage-uncovered.txt: run 'make coverage'"
	# The record is written by a run that passed its COVERAGE_MIN, which
	# may have been set lower: the 95% is checked here again.
	pct=$(sed -n 's/^result: all lines *\([0-9.]*\)%.*/\1/p' "$record")
	[ -n "$pct" ] || die "patches/coverage.ok has no 'all' line: run 'make coverage'"
	awk -v p="$pct" 'BEGIN { exit !(p >= 95) }' ||
		die "patches/coverage.ok: $pct% of the lines, under 95%"
	info "lines no test ran: patches/coverage-uncovered.txt, their reasons in README"
fi
info "recorded for exactly the $(wc -l <<<"$ids") patches of patches/series"
if [ "$name" = mainline ] && newest_source 2>/dev/null; then
	recorded=$(sed -n 's/^result: \(linux-source-[0-9.]* [^:]*\):.*/\1/p' "$record")
	[ "$NEWEST" = "$recorded" ] ||
		warn "Debian has a newer kernel source than the record ($recorded): $NEWEST; run 'make mainline'"
fi
