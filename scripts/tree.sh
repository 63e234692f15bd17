#!/usr/bin/env bash
# Make build/linux: a git tree = the pinned base (tag "base") + "git am" of
# patches/series on the branch "sframe". An existing tree is kept when it
# already holds exactly the series; work in it that patches/ does not have
# yet is never thrown away (export it first, or FORCE=1).
. "$(dirname "$0")/lib.sh"

[ -f "$CACHE/base-current" ] || "$TOP/scripts/base.sh"
BASE_GIT=$(cat "$CACHE/base-current")

stage "series applies to the base"
touch "$TOP/patches/series"
npatches=$(series_patches | wc -l)

if [ -e "$TREE/.git" ]; then
	if [ "$(tree_ids | sort)" = "$(series_ids | sort)" ] && [ -z "$(git -C "$TREE" status --porcelain -uno)" ] &&
	   [ "$(tree_msgs)" = "$(series_msgs)" ]; then
		info "build/linux already is base + the $npatches patches of patches/series"
		exit 0
	fi
	if [ "${FORCE:-0}" != 1 ]; then
		dirty=$(git -C "$TREE" status --porcelain -uno | head -3)
		[ -z "$dirty" ] || die "build/linux has uncommitted changes:
$dirty
Commit them and 'make export', or rerun with FORCE=1 to discard them."
		extra=$(comm -23 <(tree_ids | sort) <(series_ids | sort) | wc -l)
		[ "$extra" = 0 ] || die "build/linux has $extra commit(s) that patches/ does not have.
Run 'make export' to keep them, or rerun with FORCE=1 to discard them."
	fi
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B sframe base
else
	info "cloning the base from $BASE_GIT"
	rm -rf "$TREE"
	git clone -q --no-checkout "$BASE_GIT" "$TREE"
	git -C "$TREE" checkout -q -b sframe base
fi

git -C "$TREE" config user.name >/dev/null || git -C "$TREE" config user.name "linux-sframe"
git -C "$TREE" config user.email >/dev/null || git -C "$TREE" config user.email "linux-sframe@invalid"
n=0
while read -r f; do
	if ! git -C "$TREE" am -q --committer-date-is-author-date "$TOP/patches/$f"; then
		git -C "$TREE" am --abort || true
		die "patches/$f does not apply to the base ($(git -C "$TREE" describe --tags --always base))"
	fi
	n=$((n + 1))
done < <(series_patches)
info "applied $n patch(es) on $(git -C "$TREE" log -1 --format=%s base)"
