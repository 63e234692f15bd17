# shellcheck shell=bash
# Common settings and helpers for the workbench scripts. Sourced, never run.

set -euo pipefail

# The physical path (no symlinks): it is also where the root sees the checkout.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
CACHE=${SFRAME_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-sframe}
BUILD=$TOP/build
# SFRAME_TREE and SFRAME_KOBJ let a second work tree (git worktree) build
# and boot its own kernel beside build/linux.
TREE=${SFRAME_TREE:-$BUILD/linux}
# Kernel objects live outside the git tree so "git status" stays clean.
KOBJ=${SFRAME_KOBJ:-$BUILD/obj${VARIANT:+-$VARIANT}}
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache}

mkdir -p "$CACHE" "$BUILD"

stage() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf '\n!!! WARNING: %s\n\n' "$*" >&2; }
die() { printf '\n!!! ERROR: %s\n' "$*" >&2; exit 1; }
# skip REASON: the stage has nothing to check; make check counts it as
# skipped (counts: PASSED FAILED SKIPPED), never as passed.
skip() { info "SKIP: $*"; echo "counts: 0 0 1"; exit 0; }

# series_patches: the patch files that patches/series names, one a line
# (without its blank lines and comments).
series_patches() {
	local f
	[ -f "$TOP/patches/series" ] || return 0
	while read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		printf '%s\n' "$f"
	done < "$TOP/patches/series"
}
# series_ids, tree_ids: the stable patch-ids, one a line in series order, of
# patches/series and of build/linux (base..HEAD): equal for the same series.
series_ids() {
	local f
	series_patches | while read -r f; do cat "$TOP/patches/$f"; done | patch_ids
}
tree_ids() { git -C "$TREE" format-patch --stdout base..HEAD | patch_ids; }
patch_ids() { git patch-id --stable | cut -d' ' -f1; }
# series_msgs, tree_msgs: a digest of the commit messages (subjects and
# bodies, blank lines left out) of patches/series and of build/linux: the
# patch-ids above do not see a message-only change.
series_msgs() {
	local f d
	d=$(mktemp -d)
	series_patches | while read -r f; do
		git mailinfo "$d/msg" "$d/patch" < "$TOP/patches/$f" > "$d/head"
		sed -n 's/^Subject: //p' "$d/head"
		cat "$d/msg"
	done | sed '/^$/d' | sha1sum | cut -d' ' -f1
	rm -rf "$d"
}
tree_msgs() { git -C "$TREE" log --reverse --format=%B base..HEAD | sed '/^$/d' | sha1sum | cut -d' ' -f1; }

# The package list decides the root: a new list gives a new root.
ROOT_PACKAGES="gcc binutils make flex bison bc libelf-dev libssl-dev cpio kmod \
python3 ccache sparse qemu-system-x86 virtme-ng mount procps udev linux-perf \
libsframe-dev libiberty-dev busybox-static perl git rsync xz-utils patch \
dwarves file diffutils ca-certificates quilt python3-ply python3-git"
ROOT_ID=$(printf '%s' "$ROOT_PACKAGES v2" | sha256sum | cut -c1-12)
# What VARIANT=arm64 adds to the root (scripts/root-install.sh, on first use):
# the cross compiler and C library, and QEMU for arm64.
ARM64_PACKAGES="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
# What the b4 stage adds to the root (scripts/root-install.sh, on first use):
# the maintainers' tool that takes a series from a mailbox.
B4_PACKAGES="b4"
# What the glibc stage adds to the root (scripts/root-install.sh, on first
# use): glibc's build wants GNU awk (the root has mawk).
GLIBC_PACKAGES="gawk"

ROOT=$CACHE/root-$ROOT_ID

# Where commands in the root (and the guest, which boots the root) see this
# checkout: at the same path, unless kbuild ("cannot contain spaces or
# colons"), virtme-ng's kernel command line or a symbolic link of the root
# itself cannot take that path; then on a private path in the root's /tmp.
if [[ $TOP =~ ^[A-Za-z0-9._/+-]+$ ]] &&
	[ "$(realpath -m "$ROOT$TOP")" = "$(realpath -m "$ROOT")$TOP" ]; then
	RTOP=$TOP
else
	RTOP=/tmp/linux-sframe-$(printf '%s' "$TOP" | sha256sum | cut -c1-12)
fi

# root_args ARG...: the arguments as the root must see them, in the array
# RARGS: this checkout's host path ($TOP) replaced by its path in the root.
root_args() {
	local a
	RARGS=()
	for a in "$@"; do
		RARGS+=("${a//"$TOP"/"$RTOP"}")
	done
}

# source_git DEB GITDIR MESSAGE: a bare git repository GITDIR of the kernel
# source in DEB (Debian's linux-source-X.Y package): one commit MESSAGE,
# tagged "base", and GITDIR/.complete.
source_git() {
	local deb=$1 git=$2 msg=$3 tmp
	tmp=$(mktemp -d "$CACHE/unpack.XXXXXX")
	SOURCE_TMP=$tmp
	trap 'rm -rf --one-file-system "$SOURCE_TMP"' EXIT
	rm -rf "$git"
	(cd "$tmp" && ar x "$deb" && tar xf data.tar.* ./usr/src)
	mkdir "$tmp/src"
	tar -C "$tmp/src" --strip-components=1 -xf "$tmp"/usr/src/linux-source-*.tar.*
	# Debian appends "ignore everything at the top level" to .gitignore;
	# drop it so that files the series adds are seen by git, as in an
	# upstream tree.
	awk '/^# Debian packaging/ { skip = 1; sub(/#\n$/, "") }
	     skip && /^!\/debian\// { skip = 0; next }
	     !skip' "$tmp/src/.gitignore" > "$tmp/gitignore"
	sed -i '$ { /^#$/d }' "$tmp/gitignore"
	mv "$tmp/gitignore" "$tmp/src/.gitignore"
	git -C "$tmp/src" init -q -b upstream
	git -C "$tmp/src" add -A -f
	# Both dates fixed: the base's commit id is then the same on every
	# machine, as the cover letter's base-commit must be.
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -C "$tmp/src" -c user.name=base -c user.email=base@invalid \
		commit -q --date='2026-01-01T00:00:00Z' -m "$msg"
	git -C "$tmp/src" tag base
	git clone -q --bare "$tmp/src" "$git"
	rm -rf --one-file-system "$tmp"
	trap - EXIT
	touch "$git/.complete"
}

# Run a command inside the sid root. Everything is mounted in a private
# mount namespace, so the mounts vanish with the command, also when it fails
# or is killed: nothing of the host's /dev, /sys or /proc is ever left
# mounted below $ROOT. Paths of this checkout in the arguments are given as
# the root sees them (root_args).
in_root() {
	[ -x "$ROOT/usr/bin/gcc" ] || die "no build root at $ROOT: run 'make root'"
	root_args "$@"
	unshare --mount --propagation private -- \
		"$TOP/scripts/chroot-helper.sh" "$ROOT" "$TOP" "$RTOP" "$CCACHE_DIR" "${RARGS[@]}"
}
