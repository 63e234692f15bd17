#!/usr/bin/env bash
# The bisect build ('make bisect', run by 'make export') is too slow for CI:
# check that it was done for exactly this series.
. "$(dirname "$0")/lib.sh"

stage "every patch builds (bisect record)"
ids=$(series_ids)
if [ -z "$ids" ]; then
	skip "no patches in the series yet: nothing was built"
fi
[ -f "$TOP/patches/bisect.ok" ] || die "no patches/bisect.ok: run 'make bisect' (or 'make export')"
[ "$ids" = "$(cat "$TOP/patches/bisect.ok")" ] ||
	die "patches/bisect.ok was recorded for another series: run 'make bisect' and commit"
info "'make bisect' built each of the $(wc -l <<<"$ids") patches of this exact series"
