#!/usr/bin/env bash
# scripts/checkpatch.pl --strict on every patch of patches/series. Errors
# fail; a warning or check passes only when patches/checkpatch-waivers names
# its patch and type with a reason ("<patch file> <TYPE> <reason>").
. "$(dirname "$0")/lib.sh"

stage "checkpatch --strict"
waivers=$TOP/patches/checkpatch-waivers
n=0 bad=0

waived() {
	local glob type reason
	[ -f "$waivers" ] || return 1
	while read -r glob type reason; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254
		case "$1" in $glob) [ "$type" = "$2" ] && [ -n "$reason" ] && return 0 ;; esac
	done < "$waivers"
	return 1
}
while read -r f; do
	n=$((n + 1))
	out=$(cd "$TREE" && perl scripts/checkpatch.pl --strict --show-types --no-summary \
		--terse "$TOP/patches/$f" 2>&1 || true)
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		type=$(sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\1 \2/p' <<<"$line")
		[ -n "$type" ] || continue
		level=${type% *} name=${type#* }
		if [ "$level" != ERROR ] && waived "$f" "$name"; then
			info "waived: $f: $name"
			continue
		fi
		info "$f: $line"
		bad=$((bad + 1))
	done <<<"$out"
done < <(series_patches)
if [ "$n" = 0 ]; then
	skip "no patches in the series yet: nothing to check"
fi
[ "$bad" = 0 ] || die "checkpatch: $bad problem(s) in $n patch(es) (above)"
info "$n patch(es) clean"
