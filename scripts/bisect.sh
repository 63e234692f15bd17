#!/usr/bin/env bash
# Build the kernel at every commit of the series (incremental, ccache), so
# that the series is bisectable. Too slow for every CI run when a patch
# touches a header most of the kernel includes: 'make export' runs it, and
# it leaves patches/bisect.ok naming the exact series it built, which
# 'make check' compares against the series.
#
# VARIANT=arm64: the same for the arm64 kernel (config/arm64.config,
# cross-built), recorded in patches/bisect-arm64.ok. The patches before
# arm64's own build the generic code without HAVE_UNWIND_USER_* there,
# its stubs included. 'make export' runs both.
. "$(dirname "$0")/lib.sh"

record=$TOP/patches/bisect${VARIANT:+-$VARIANT}.ok
log=$BUILD/bisect${VARIANT:+-$VARIANT}.log

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain -uno)" ] ||
	die "build/linux has uncommitted changes: commit them first"

stage "bisect build: every patch of the series builds (${VARIANT:-default} kernel)"
head=$(git -C "$TREE" symbolic-ref --short -q HEAD || git -C "$TREE" rev-parse HEAD)
commits=$(git -C "$TREE" rev-list --reverse base..HEAD)
# The first patches with the same ids as in patches/bisect.ok give the
# same trees as the ones built then (the same base, the same diffs in the
# same order): they are not built again, unless BISECT_ALL=1. (awk reads
# to the end: exiting early would kill paste, and the script, with SIGPIPE.)
ids=$(tree_ids)
same=0
if [ "${BISECT_ALL:-0}" != 1 ] && [ -f "$record" ]; then
	same=$(paste -d' ' <(printf '%s\n' "$ids") "$record" |
		awk 'd || $1 != $2 { d = 1; next } { n++ } END { print n + 0 }')
	# The whole series unchanged: still check that its last patch builds.
	[ "$same" -lt "$(wc -l <<<"$ids")" ] || same=$((same - 1))
	[ "$same" = 0 ] || info "patches 1-$same: built before, as recorded in ${record#"$TOP"/} (BISECT_ALL=1 builds them again)"
fi
trap 'git -C "$TREE" checkout -q "$head"' EXIT
i=0
for c in $commits; do
	i=$((i + 1))
	[ "$i" -gt "$same" ] || continue
	git -C "$TREE" checkout -q "$c"
	info "[$i] $(git -C "$TREE" log -1 --format=%s "$c")"
	KCONFIG_LAX=1 "$TOP/scripts/kernel.sh" > "$log" 2>&1 || {
		tail -30 "$log"
		die "the series does not build at patch $i: $(git -C "$TREE" log -1 --format=%s "$c")"
	}
done
git -C "$TREE" checkout -q "$head"
trap - EXIT
printf '%s\n' "$ids" > "$record"
info "$i patch(es) build one by one; recorded in ${record#"$TOP"/}"
