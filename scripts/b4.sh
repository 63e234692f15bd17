#!/usr/bin/env bash
# The series as a maintainer takes it from the list: Debian's b4 (installed
# into the build root on first use) reads patches/ as one mail thread, says
# what it found, and its mbox applies with git am onto the base commit and
# gives build/linux's tree. Offline: b4 --offline-mode, a local mbox, no
# cache; nothing asks lore or DNS.
. "$(dirname "$0")/lib.sh"

stage "the series through b4 (b4 am, offline), applied onto the base"
t0=$(date +%s)
n=$(series_patches | wc -l)
[ "$n" != 0 ] || skip "no patches in the series yet: nothing to take"
[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
cover=$TOP/patches/0000-cover-letter.patch
[ -f "$cover" ] || die "no patches/0000-cover-letter.patch: run 'make export'"
# shellcheck disable=SC2086
"$TOP/scripts/root-install.sh" $B4_PACKAGES

dir=$BUILD/b4
rm -rf "$dir"
mkdir -p "$dir/home"
base=$(git -C "$TREE" rev-parse 'base^{commit}')
[ "$(sed -n 's/^base-commit: //p' "$cover")" = "$base" ] ||
	die "the cover letter's base-commit is not build/linux's base ($base): run 'make export'"

# The thread as git send-email posts it: the cover letter, then every patch
# in reply to it. format-patch writes no Message-ID (git's are random), so
# fixed ones are added here, in the mbox only.
mbox=$dir/series.mbox
i=0
: > "$mbox"
while read -r f; do
	id="<linux-sframe.$i-of-$n@patches.invalid>"
	if [ "$i" = 0 ]; then
		top=$id
		hdr="Message-ID: $id"
	else
		hdr=$(printf 'Message-ID: %s\nIn-Reply-To: %s\nReferences: %s' "$id" "$top" "$top")
	fi
	# At the end of the mail header (the first blank line).
	awk -v hdr="$hdr" '!done && /^$/ { print hdr; done = 1 } { print }' "$TOP/patches/$f" >> "$mbox"
	i=$((i + 1))
done < <(echo 0000-cover-letter.patch; series_patches)

# A scratch repository with build/linux's objects (alternates, read only)
# and a sparse checkout of the paths the series touches, so that checking
# out the base takes a second instead of the whole kernel; index v4 without
# its checksum keeps git am quick on the 90,000-entry index. Its HEAD is an
# empty commit, not the base: b4 must find the base-commit itself. b4 and
# git run in the root, which sees the checkout at $RTOP.
{
	git -C "$TREE" diff --name-only --no-renames base HEAD
	sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "$TOP"/patches/[0-9]*.patch
} | sort -u | sed 's/[][*?\\]/\\&/g; s|^|/|' > "$dir/paths"
root_args "$(git -C "$TREE" rev-parse --path-format=absolute --git-common-dir)/objects"
objects=${RARGS[0]}
[[ $objects == "$RTOP"/* ]] || die "the root cannot see $TREE's objects: the b4 stage needs the tree inside the checkout"
# shellcheck disable=SC2016
in_root bash -c 'set -e
	git init -q -b b4 "$1"; cd "$1"
	echo "$2" > .git/objects/info/alternates
	git config user.name "b4 check"; git config user.email b4-check@invalid
	git config index.version 4; git config index.skipHash true
	git config advice.detachedHead false
	git sparse-checkout set --no-cone --stdin < "$4"
	git update-ref refs/heads/b4 "$(git commit-tree -m "not the base" "$(git mktree < /dev/null)")"
	git reset -q --hard' - \
	"$dir/linux" "$objects" "$base" "$dir/paths" ||
	die "could not make the scratch repository at the base ($dir/linux)"

# b4 am, as a maintainer runs it on a thread, here from the local mbox.
# HOME and XDG_*: b4's settings, cache and records stay in build/b4.
t=$(date +%s)
# shellcheck disable=SC2016
if ! in_root bash -c 'cd "$1" && exec env HOME="$2" XDG_CONFIG_HOME="$2/.config" \
	XDG_CACHE_HOME="$2/.cache" XDG_DATA_HOME="$2/.local/share" \
	b4 --offline-mode --no-interactive --no-stdin am --no-cache --no-parent \
	-m "$3" -o "$4"' - "$dir/linux" "$dir/home" "$mbox" "$dir/am" > "$dir/b4-am.log" 2>&1; then
	cat "$dir/b4-am.log"
	die "b4 am failed (log: build/b4/b4-am.log)"
fi
b4_time=$(( $(date +%s) - t ))
log=$dir/b4-am.log

# What b4 said: everything but the list of patches, which is compared with
# the series' subjects instead.
info "b4 $(in_root b4 --version) said (in ${b4_time} s; whole output: build/b4/b4-am.log):"
grep -v '^  \[PATCH ' "$log" | sed 's/^/      | /'
problems=()
listed=$(sed -n 's/^  \([^ []* \)\?\(\[PATCH [^]]*\] .*\)$/\2/p' "$log")
want=$(git -C "$TREE" log --reverse --format=%s base..HEAD |
	awk -v n="$(git -C "$TREE" rev-list --count base..HEAD)" '{ printf "[PATCH %d/%d] %s\n", NR, n, $0 }')
if [ "$listed" = "$want" ]; then
	info "b4 listed the $n patches of patches/series, in order, with their subjects"
else
	diff <(echo "$want") <(echo "$listed") > "$dir/list.diff" || true
	problems+=("b4's list of patches is not the series': $(grep -c '^[<>]' "$dir/list.diff") lines differ (build/b4/list.diff)")
	head -n 10 "$dir/list.diff" | sed 's/^/      /'
fi
# Anything b4 warns about (missing patches, a broken thread, an unknown
# base-commit, trailers it ignored, a failed attestation) fails the stage;
# subjects and file names are not searched.
while IFS= read -r line; do
	problems+=("b4: ${line#"${line%%[![:space:]]*}"}")
done < <(grep -v -e '^  \[PATCH ' -e '^Cover: ' -e '^ *Link: ' -e '^ *git \(checkout\|am\) ' "$log" |
	grep -E 'WARNING|ERROR|NOTE|CRITICAL|✗|not known|incomplete|[Mm]issing|[Cc]ould not|[Uu]nable' || true)
total=$(sed -n 's/^Total patches: \([0-9]*\)$/\1/p' "$log")
[ "$total" = "$n" ] || problems+=("b4 counted ${total:-no} patches, the series has $n")
coverfile=$(sed -n 's/^Cover: //p' "$log")
if [ -n "$coverfile" ] && [ -f "${coverfile/#"$RTOP"/$TOP}" ]; then
	info "b4 found the cover letter: ${coverfile##*/}"
else
	problems+=("b4 found no cover letter")
fi
at=$(sed -n 's/^ *git checkout -b [^ ]* \([0-9a-f]*\)$/\1/p' "$log")
if [ "$at" = "$base" ]; then
	info "b4 found the series' base-commit in the repository: $base (build/linux's base)"
else
	problems+=("b4 did not name the base-commit $base (it said: ${at:-nothing})")
fi
mbx=$(sed -n 's/^ *git am \(.*\.mbx\)$/\1/p' "$log")
[ -n "$mbx" ] || problems+=("b4 wrote no mbox to apply")
if [ ${#problems[@]} != 0 ]; then
	printf '    FAIL: %s\n' "${problems[@]}"
	die "b4 did not take the series cleanly (log: build/b4/b4-am.log)"
fi

# git am of b4's mbox onto the base, as b4 said to (git checkout -b, git am).
t=$(date +%s)
# shellcheck disable=SC2016
if ! in_root bash -c 'cd "$1" && git checkout -q -b series "$2" && git am -q "$3"' - \
	"$dir/linux" "$base" "$mbx" > "$dir/git-am.log" 2>&1; then
	tail -n 20 "$dir/git-am.log"
	die "git am of b4's mbox failed on the base (log: build/b4/git-am.log)"
fi
am_time=$(( $(date +%s) - t ))
got=$(in_root git -C "$dir/linux" rev-list --count "$base..HEAD")
[ "$got" = "$n" ] || die "git am of b4's mbox made $got commits, not $n"
tree=$(in_root git -C "$dir/linux" rev-parse 'HEAD^{tree}')
[ "$tree" = "$(git -C "$TREE" rev-parse 'HEAD^{tree}')" ] ||
	die "b4's series gives another tree than build/linux: $(in_root git -C "$dir/linux" diff --stat HEAD "$(git -C "$TREE" rev-parse 'HEAD^{tree}')" | tail -n 1)"
# The commits as build/linux has them: authors, dates, messages (blank
# lines aside: git am drops trailing ones), and the tree after each.
fmt='%T %an <%ae> %ad%n%B'
if ! diff <(in_root git -C "$dir/linux" log --format="$fmt" "$base..HEAD" | grep -v '^$') \
	<(git -C "$TREE" log --format="$fmt" base..HEAD | grep -v '^$') > "$dir/commits.diff"; then
	head -n 20 "$dir/commits.diff"
	die "b4's commits differ from build/linux's (build/b4/commits.diff)"
fi
info "git am of b4's mbox onto the base: $n commits in ${am_time} s, the same authors, messages and trees as build/linux (HEAD tree $tree)"
info "b4 stage: $(( $(date +%s) - t0 )) s"
