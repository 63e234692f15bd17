#!/usr/bin/env bash
# Fetch the pinned base kernel source package, check it, and keep it as a
# git repository with the tag "base" under ~/.cache: build/linux is cloned
# from it.
. "$(dirname "$0")/lib.sh"

# shellcheck source=../base.pin
. "$TOP/base.pin"
BASE_GIT=$CACHE/base-$version.git

stage "base kernel ($package $version)"
if [ -f "$BASE_GIT/.complete" ]; then
	info "cached: $BASE_GIT"
	echo "$BASE_GIT" > "$CACHE/base-current"
	exit 0
fi

dl=$ROOT/var/cache/sframe-base
rm -rf "$dl"
mkdir -p "$dl"
chmod 777 "$dl"
want=$version
if ! in_root apt-cache show "$package=$version" >/dev/null 2>&1; then
	in_root apt-get update -qq || true
fi
if ! in_root apt-cache show "$package=$version" >/dev/null 2>&1; then
	newest=$(in_root apt-cache madison "$package" | awk '{print $3}' | sort -V | tail -1)
	[ -n "$newest" ] || die "$package is not in the registry at all"
	warn "$package $version is gone from the registry; using $newest instead.
    The series must still apply cleanly (make tree fails otherwise).
    Update base.pin once it does."
	version=$newest
	sha256=
fi
in_root bash -c "cd /var/cache/sframe-base && apt-get download -q '$package=$version'" >/dev/null
deb=$(ls "$dl"/*.deb)
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ -n "$sha256" ] && [ "$got" != "$sha256" ]; then
	die "checksum mismatch for $deb: got $got, pinned $sha256"
fi
info "fetched $(basename "$deb") (sha256 $got)"

BASE_GIT=$CACHE/base-$version.git
info "making the base commit"
source_git "$deb" "$BASE_GIT" "Linux $version (Debian $package)"
rm -rf "$dl"
echo "$BASE_GIT" > "$CACHE/base-current"
info "ready: $BASE_GIT"
