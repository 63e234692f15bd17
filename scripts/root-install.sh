#!/usr/bin/env bash
# root-install.sh PACKAGE...: install packages that only some stages need
# (clang and libFuzzer for "make fuzz") into the build root, if they are
# missing. Idempotent, and quick when they are there. The root's package
# list (ROOT_PACKAGES in lib.sh) stays as it is, so its id does not change
# and no root is made again; a new root gets them again on first use.
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: $0 PACKAGE..."
[ -x "$ROOT/usr/bin/gcc" ] || "$TOP/scripts/root.sh"

# Packages not installed (dpkg's status "install ok installed").
missing() {
	local p
	for p in "$@"; do
		# shellcheck disable=SC2016
		in_root dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -qx 'install ok installed' || printf '%s ' "$p"
	done
}

need=$(missing "$@")
[ -n "$need" ] || exit 0
info "installing into the build root: $need"
t=$(date +%s)
# The lists kept in the root may name versions that the mirror no longer
# has: update them and retry once. Another run installing at the same time
# holds the dpkg lock: wait for it.
# shellcheck disable=SC2086
if ! in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	--no-install-recommends -o DPkg::Lock::Timeout=600 $need \
	> "$BUILD/root-install.log" 2>&1; then
	in_root apt-get update -qq >> "$BUILD/root-install.log" 2>&1 || true
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends -o DPkg::Lock::Timeout=600 $need \
		>> "$BUILD/root-install.log" 2>&1 ||
		{ tail -n 20 "$BUILD/root-install.log"; die "apt-get install $need failed in the build root (log: build/root-install.log)"; }
fi
need=$(missing "$@")
[ -z "$need" ] || die "still missing in the build root after apt-get install: $need"
info "installed in $(( $(date +%s) - t )) s: $*"
