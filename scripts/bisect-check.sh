#!/usr/bin/env bash
# The bisect build ('make bisect', run by 'make export') is too slow for CI:
# check that it was done for exactly this series.
. "$(dirname "$0")/lib.sh"

stage "every patch builds (bisect records: x86-64 and arm64)"
ids=$(series_ids)
if [ -z "$ids" ]; then
	skip "no patches in the series yet: nothing was built"
fi
for v in "" arm64; do
	record=patches/bisect${v:+-$v}.ok
	run="${v:+VARIANT=$v }make bisect"
	[ -f "$TOP/$record" ] || die "no $record: run '$run' (or 'make export')"
	[ "$ids" = "$(cat "$TOP/$record")" ] ||
		die "$record was recorded for another series: run '$run' and commit"
	info "'$run' built each of the $(wc -l <<<"$ids") patches of this exact series"
done
