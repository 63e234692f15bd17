#!/usr/bin/env bash
# Make the Debian sid build root (toolchain, qemu, virtme-ng, perf) once, and
# keep it under ~/.cache: it is made again only when its package list changes.
. "$(dirname "$0")/lib.sh"

# in_use DIR: a process has DIR as its root directory.
in_use() {
	local p
	for p in /proc/[0-9]*/root; do
		[ "$(readlink "$p" 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}

stage "build root ($ROOT)"
if [ -x "$ROOT/usr/bin/gcc" ] && [ -f "$ROOT/.complete" ]; then
	info "cached: $(cat "$ROOT/.complete")"
	exit 0
fi

if ! command -v mmdebstrap >/dev/null; then
	info "installing mmdebstrap on the host"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
fi

tmp=$ROOT.tmp.$$
trap 'rm -rf --one-file-system "$tmp"' EXIT
rm -rf --one-file-system "$ROOT"
start=$(date +%s)
# sid's Release files are past their Valid-Until date on this mirror.
mmdebstrap --variant=apt --quiet \
	--aptopt='Acquire::Check-Valid-Until "false"' \
	--aptopt='APT::Install-Recommends "false"' \
	--include="$(echo $ROOT_PACKAGES | tr ' ' ,)" \
	sid "$tmp" http://deb.debian.org/debian
# Keep the package lists: the base kernel and tools are fetched from them.
chroot "$tmp" apt-get update -qq
chroot "$tmp" sh -c 'gcc --version | head -1; as --version | head -1' > "$tmp/.complete"
chroot "$tmp" as --gsframe-3 -o /dev/null /dev/null ||
	die "the root's assembler does not accept --gsframe-3"
mv "$tmp" "$ROOT"
trap - EXIT
info "made in $(( $(date +%s) - start )) s: $(tr '\n' ' ' < "$ROOT/.complete")"
# Older roots are kept by nobody; but a root that another run is making
# (root-ID.tmp.PID of a live PID) or working in (a process chrooted there,
# e.g. a checkout with another package list) stays.
for old in "$CACHE"/root-*; do
	[ "$old" = "$ROOT" ] && continue
	case "$old" in
	*.tmp.*)
		pid=${old##*.tmp.}
		[[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && continue ;;
	*)
		in_use "$old" && continue ;;
	esac
	info "removing the old root $old"
	rm -rf --one-file-system "$old"
done
