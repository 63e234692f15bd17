#!/usr/bin/env bash
# The series must also apply with quilt (distribution kernels carry patches
# that way): "quilt push -a" in a pristine checkout of the base.
. "$(dirname "$0")/lib.sh"

stage "series applies with quilt"
n=$(series_patches | wc -l)
if [ "$n" = 0 ]; then
	skip "no patches in the series yet: nothing to apply"
fi
[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
dir=$BUILD/quilt
git -C "$TREE" worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$dir" base
trap 'git -C "$TREE" worktree remove --force "$dir" 2>/dev/null || true' EXIT
cp -r "$TOP/patches" "$dir/patches"
# shellcheck disable=SC2016
if ! in_root bash -c 'cd "$1" && QUILT_PATCHES=patches quilt push -a -q' - "$dir" > "$BUILD/quilt.log" 2>&1; then
	tail -20 "$BUILD/quilt.log"
	die "quilt push -a failed on the base (log: build/quilt.log)"
fi
# quilt must give exactly the tree that git am gave.
rm -rf "$dir/patches" "$dir/.pc"
git -C "$dir" add -A -f
git -C "$dir" diff --cached --quiet "$(git -C "$TREE" rev-parse HEAD)" ||
	die "quilt's result differs from build/linux: $(git -C "$dir" diff --cached --stat "$(git -C "$TREE" rev-parse HEAD)" | tail -1)"
info "$n patches pushed; the result equals build/linux"
