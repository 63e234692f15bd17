# shellcheck shell=bash
# Common settings and helpers for the workbench scripts. Sourced, never run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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

# The package list decides the root: a new list gives a new root.
ROOT_PACKAGES="gcc binutils make flex bison bc libelf-dev libssl-dev cpio kmod \
python3 ccache sparse qemu-system-x86 virtme-ng mount procps udev linux-perf \
libsframe-dev libiberty-dev busybox-static perl git rsync xz-utils patch \
dwarves file diffutils ca-certificates quilt python3-ply python3-git"
ROOT_ID=$(printf '%s' "$ROOT_PACKAGES v2" | sha256sum | cut -c1-12)
ROOT=$CACHE/root-$ROOT_ID

# Run a command inside the sid root. Everything is mounted in a private
# mount namespace, so the mounts vanish with the command, also when it fails
# or is killed: nothing of the host's /dev, /sys or /proc is ever left
# mounted below $ROOT.
in_root() {
	[ -x "$ROOT/usr/bin/gcc" ] || die "no build root at $ROOT: run 'make root'"
	unshare --mount --propagation private -- \
		"$TOP/scripts/chroot-helper.sh" "$ROOT" "$TOP" "$CCACHE_DIR" "$@"
}
