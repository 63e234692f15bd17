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
tmp=$CACHE/base-unpack.$$
trap 'rm -rf --one-file-system "$tmp"' EXIT
rm -rf "$tmp" "$BASE_GIT"
mkdir -p "$tmp"
(cd "$tmp" && ar x "$deb" && tar xf data.tar.* ./usr/src)
mkdir "$tmp/src"
tar -C "$tmp/src" --strip-components=1 -xf "$tmp"/usr/src/linux-source-*.tar.*
rm -rf "$dl"

info "making the base commit"
# Debian appends "ignore everything at the top level" to .gitignore; drop it
# so that files the series adds are seen by git, as in an upstream tree.
awk '/^# Debian packaging/ { skip = 1; sub(/#\n$/, "") }
     skip && /^!\/debian\// { skip = 0; next }
     !skip' "$tmp/src/.gitignore" > "$tmp/gitignore"
sed -i '$ { /^#$/d }' "$tmp/gitignore"
mv "$tmp/gitignore" "$tmp/src/.gitignore"
git -C "$tmp/src" init -q -b upstream
git -C "$tmp/src" add -A -f
git -C "$tmp/src" -c user.name=base -c user.email=base@invalid \
	commit -q --date='2026-01-01T00:00:00Z' -m "Linux $version (Debian $package)"
git -C "$tmp/src" tag base
git clone -q --bare "$tmp/src" "$BASE_GIT"
touch "$BASE_GIT/.complete"
echo "$BASE_GIT" > "$CACHE/base-current"
info "ready: $BASE_GIT"
