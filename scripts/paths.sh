#!/usr/bin/env bash
# make paths: the workbench works from any checkout path. Copies this
# checkout's files (not build/, not .git) to a directory with a space in its
# name under /tmp, reached through a symbolic link, and from there, with the
# copy's own scripts: runs a command in the root, builds the workloads in
# the root, and with "make vm" boots the kernel built here (a copy of its
# bzImage: no second kernel build) to run one of them in the guest, through
# a pipe. About 30 s.
. "$(dirname "$0")/lib.sh"

kernel=$KOBJ/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make kernel'"
stage "the workbench from a path with a space under /tmp, through a symbolic link"
tmp=$(mktemp -d /tmp/sframe-paths.XXXXXX)
trap 'rm -rf --one-file-system "$tmp"' EXIT
mkdir "$tmp/a dir"
ln -s "a dir" "$tmp/link"
copy=$tmp/link/repo
mkdir "$copy"
tar -C "$TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf -
kdir=$copy/build/obj${VARIANT:+-$VARIANT}/arch/x86/boot
mkdir -p "$kdir"
cp "$kernel" "$kdir/"
info "copy: $copy -> $(cd "$copy" && pwd -P)"
# The copy's scripts, not this checkout's settings.
incopy() { env -u SFRAME_TREE -u SFRAME_KOBJ "$@"; }

# shellcheck disable=SC2016
where=$(incopy bash -c '. "$1/scripts/lib.sh" && in_root sh -c "test -f scripts/lib.sh && pwd"' \
	- "$copy") || die "the root does not see the copy"
info "the root sees it at $where"
# shellcheck disable=SC2016
incopy bash -c '. "$1/scripts/lib.sh" && in_root make -s -C workloads' - "$copy" ||
	die "the workloads do not build in the copy"
info "workloads built: $(cd "$copy/build/workloads" && ls -m)"

want="chain: 1 rounds"
got=$(incopy make -s -C "$copy" vm \
	CMD="build/workloads/chain-sframe -n 1 | grep -o '^chain: 1 rounds' && pwd") || {
	cp "$copy/build/vm.log" "$BUILD/paths-vm.log" 2>/dev/null || true
	die "make vm failed in the copy (console: build/paths-vm.log)"
}
printf '%s\n' "$got" | sed 's/^/    guest: /'
[ "$(head -n 1 <<<"$got")" = "$want" ] || die "the guest's output is not '$want'"
info "the guest ran a workload of the copy's build/ and gave its output back"
