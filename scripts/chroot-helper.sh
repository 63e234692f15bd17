#!/usr/bin/env bash
# Runs inside a private mount namespace made by in_root (scripts/lib.sh):
# mounts what a build or a VM needs, then chroots into the root.
# Usage: chroot-helper.sh ROOT REPO RTOP CCACHE_DIR COMMAND...
# REPO (the checkout, a host path) appears in the root at RTOP, its working
# directory (scripts/lib.sh: RTOP is REPO unless the root cannot take it).
set -euo pipefail
root=$1 repo=$2 rtop=$3 ccache=$4
shift 4

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
# The fresh /tmp first: a checkout under /tmp is mounted on it, not hidden
# by it.
mount -t tmpfs tmpfs "$root/tmp"
mkdir -p "$root$rtop" "$root/ccache" "$ccache"
mount --bind "$repo" "$root$rtop"
mount --bind "$ccache" "$root/ccache"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

exec chroot "$root" /usr/bin/env -i \
	PATH=/usr/lib/ccache:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 CCACHE_DIR=/ccache \
	CCACHE_BASEDIR="$rtop" CCACHE_MAXSIZE=5G CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime \
	KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=sframe KBUILD_BUILD_HOST=bench \
	CI="${CI:-}" V="${V:-}" \
	/bin/bash -c 'cd "$0" && exec "$@"' "$rtop" "$@"
