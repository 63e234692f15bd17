#!/usr/bin/env bash
# Build the kernel at every commit of the series (incremental, ccache), so
# that the series is bisectable. Too slow for every CI run when a patch
# touches a header most of the kernel includes: 'make export' runs it, and
# it leaves patches/bisect.ok naming the exact series it built, which
# 'make check' compares against the series.
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain -uno)" ] ||
	die "build/linux has uncommitted changes: commit them first"

stage "bisect build: every patch of the series builds"
head=$(git -C "$TREE" symbolic-ref --short -q HEAD || git -C "$TREE" rev-parse HEAD)
commits=$(git -C "$TREE" rev-list --reverse base..HEAD)
trap 'git -C "$TREE" checkout -q "$head"' EXIT
i=0
for c in $commits; do
	i=$((i + 1))
	git -C "$TREE" checkout -q "$c"
	info "[$i] $(git -C "$TREE" log -1 --format=%s "$c")"
	KCONFIG_LAX=1 "$TOP/scripts/kernel.sh" > "$BUILD/bisect.log" 2>&1 || {
		tail -30 "$BUILD/bisect.log"
		die "the series does not build at patch $i: $(git -C "$TREE" log -1 --format=%s "$c")"
	}
done
git -C "$TREE" checkout -q "$head"
trap - EXIT
tree_ids > "$TOP/patches/bisect.ok"
info "$i patch(es) build one by one; recorded in patches/bisect.ok"
