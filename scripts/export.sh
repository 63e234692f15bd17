#!/usr/bin/env bash
# Write the commits of build/linux (base..HEAD) into patches/: a cover letter
# from patches/cover-letter.txt, one format-patch file per commit, and a
# quilt "series" file; To and Cc headers from get_maintainer.pl
# (scripts/recipients.py). Deterministic: exporting twice gives no diff.
# NOBISECT=1 skips make bisect (make check's bisect-check then fails for a
# changed series) and rewrites every file all the same.
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain -uno)" ] ||
	die "build/linux has uncommitted changes: commit them first"

# Every patch must build, for x86-64 and arm64: check it before the series
# leaves the tree.
if [ "${NOBISECT:-0}" != 1 ]; then
	VARIANT= "$TOP/scripts/bisect.sh"
	VARIANT=arm64 "$TOP/scripts/bisect.sh"
fi

stage "export build/linux (base..HEAD) into patches/"
out=$TOP/patches
n=$(git -C "$TREE" rev-list --count base..HEAD)
find "$out" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
: > "$out/series"
if [ "$n" = 0 ]; then
	info "no commits on top of the base: empty series"
	exit 0
fi

cover=$out/cover-letter.txt
[ -f "$cover" ] || die "patches/cover-letter.txt is missing (first line: subject)"
git -C "$TREE" config branch.sframe.description "$(cat "$cover")"
git -C "$TREE" format-patch -q --zero-commit --base=base --cover-letter \
	--cover-from-description=subject --subject-prefix=PATCH -o "$out" base..HEAD
# The cover letter has no commit of its own and would carry today's date:
# give it the date of the last patch.
last=$(git -C "$TREE" log -1 --format=%aD HEAD)
sed -i "s/^Date: .*/Date: $last/" "$out/0000-cover-letter.patch"
(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') > "$out/series"
# The recipients, as in a posted series: each patch's To (maintainers) and
# Cc (reviewers, lists) from build/linux's scripts/get_maintainer.pl
# (--no-git --no-git-fallback), the cover letter's the union of them.
files=()
while read -r f; do files+=("$out/$f"); done < "$out/series"
info "recipients: scripts/get_maintainer.pl on each patch"
info "$(python3 "$TOP/scripts/recipients.py" "$TREE" "$out/0000-cover-letter.patch" "${files[@]}")"
info "$n patch(es) + cover letter in patches/"
