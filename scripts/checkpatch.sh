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

# kernel-doc -Wall, what W=2 builds check (W=1, which make configs builds
# with, leaves out a missing Return: section and the like), on every C file
# and header the series changes: no warning that the same file of the base
# does not have (the base's own, such as kernel/fork.c's, are not the
# series'). Warnings are compared without their line numbers.
stage "kernel-doc -Wall: no new warning in the files the series changes"
# Both sides copied under one directory each, so that a warning reads the
# same path on both, and each side checked by one kernel-doc run.
kd=$(mktemp -d)
trap 'rm -rf "$kd"' EXIT
files=()
while read -r f; do
	[ -f "$TREE/$f" ] || continue
	files+=("$f")
	mkdir -p "$kd/base/${f%/*}" "$kd/now/${f%/*}"
	git -C "$TREE" show "base:$f" > "$kd/base/$f" 2>/dev/null || : > "$kd/base/$f"
	cp "$TREE/$f" "$kd/now/$f"
done < <(git -C "$TREE" diff --name-only base..HEAD -- '*.c' '*.h')
kdoc_warnings() {
	(cd "$kd/$1" && python3 "$TREE/scripts/kernel-doc" -none -Wall "${files[@]}" 2>&1) |
		sed -n 's/^[Ww]arning: \([^ ]*\):[0-9]* /\1: /p' | sort -u
}
new=0
if [ "${#files[@]}" -gt 0 ]; then
	kdoc_warnings base > "$kd/old"
	kdoc_warnings now > "$kd/new"
	while IFS= read -r w; do
		info "$w"
		new=$((new + 1))
	done < <(comm -13 "$kd/old" "$kd/new")
fi
[ "$new" = 0 ] || die "kernel-doc: $new new warning(s) (above)"
info "${#files[@]} files: no new warning"
