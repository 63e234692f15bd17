# shellcheck shell=bash
# Debian source packages pinned in a file PACKAGE.pin-style (package,
# version, sha256 of the .dsc): fetched once with apt-get source in the
# build root, kept under ~/.cache/linux-sframe/src/, checked every time.
# Used by scripts/real.sh (real.pin: sqlite3) and scripts/glibc.sh
# (glibc.pin). Sourced after lib.sh, never run.

# debsrc_fetch PACKAGE VERSION DIR: apt-get source --download-only in the
# root, from a deb-src line for the root's own mirror, with apt lists of
# its own (the root's binary package lists stay as they are); the files
# end up in DIR (apt works in the root's /var/cache/sframe-src-PACKAGE:
# two packages can be fetched at once). Exit status 3, and "gone: ...; newest: V" on stdout, when
# the registry no longer has VERSION.
debsrc_fetch() {
	local package=$1 version=$2 dir=$3 dl=$ROOT/var/cache/sframe-src-$1
	rm -rf "$dl"
	mkdir -p "$dl"
	# apt's download user (_apt) writes here, as for base.sh.
	chmod 777 "$dl"
	# One-line style (what mmdebstrap writes today) or deb822 style.
	{
		sed -n 's/^deb /deb-src /p' "$ROOT/etc/apt/sources.list" 2>/dev/null
		cat "$ROOT"/etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk '/^URIs:/ { u = $2 } /^Suites:/ { s = $2 } /^Components:/ { c = $2 }
			     /^$/ && u { print "deb-src", u, s, c; u = "" }
			     END { if (u) print "deb-src", u, s, c }'
	} > "$dl/sources.list"
	[ -s "$dl/sources.list" ] || die "no apt source in $ROOT/etc/apt"
	# shellcheck disable=SC2016
	in_root bash -c 'set -e; d=/var/cache/sframe-src-$1; cd "$d"
		o=(-o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		   -o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache"
		   -o Acquire::Check-Valid-Until=false)
		mkdir -p lists/partial cache/archives/partial
		apt-get "${o[@]}" update -qq
		if ! apt-cache "${o[@]}" showsrc "$1" 2>/dev/null | grep -qxF "Version: $2"; then
			echo "gone: $1 $2; newest: $(apt-cache "${o[@]}" showsrc "$1" |
				sed -n "s/^Version: //p" | sort -V | tail -1)"
			exit 3
		fi
		apt-get "${o[@]}" source --download-only -qq "$1=$2"' - "$package" "$version" ||
		return
	rm -rf "$dir"
	mkdir -p "$dir"
	find "$dl" -maxdepth 1 -type f -name "${package}_*" -exec mv -t "$dir" {} +
	rm -rf "$dl"
}

# debsrc_verify PACKAGE DIR VERSION SHA256: the .dsc has the pinned sha256
# (none: not checked), every file it lists has the sha256 it gives.
debsrc_verify() {
	local package=$1 dir=$2 version=$3 want=$4 dsc got
	dsc=$dir/${package}_${version#*:}.dsc
	[ -f "$dsc" ] || die "no $dsc"
	got=$(sha256sum < "$dsc" | cut -d' ' -f1)
	[ -z "$want" ] || [ "$got" = "$want" ] ||
		die "checksum mismatch for $dsc: got $got, pinned $want"
	awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
	     on && NF == 3 { print $1 "  " $3 }' "$dsc" > "$dir/sha256sums"
	[ -s "$dir/sha256sums" ] || die "$dsc lists no Checksums-Sha256"
	(cd "$dir" && sha256sum --quiet -c sha256sums) ||
		die "a file of $package $version does not match its .dsc (in $dir)"
	info "checked $(basename "$dsc") (sha256 $got) and the $(wc -l < "$dir/sha256sums") files it lists"
}

# debsrc_get PACKAGE VERSION SHA256 PINFILE: the checked source package in
# DEBSRC_DIR (set here), fetched the first time. When the registry no
# longer has VERSION, the newest one instead, with a warning to update
# PINFILE (its .dsc is then not checked against a pin); DEBSRC_VERSION is
# the version in DEBSRC_DIR.
debsrc_get() {
	local package=$1 version=$2 sha=$3 pin=$4 src rc fetched newest
	src=$CACHE/src/${package}_$version
	if [ ! -f "$src/.complete" ]; then
		rc=0 fetched=$src
		debsrc_fetch "$package" "$version" "$src" > "$CACHE/src-fetch-$package.log" 2>&1 || rc=$?
		if [ "$rc" = 3 ]; then
			newest=$(sed -n 's/^gone: .*; newest: //p' "$CACHE/src-fetch-$package.log")
			[ -n "$newest" ] || die "$package is not in the registry at all"
			warn "$package $version is gone from the registry; using $newest instead.
    Update $pin (version, and sha256 of the .dsc) once it passes."
			version=$newest sha='' src=$CACHE/src/${package}_$newest
			rc=0 fetched=
			if [ ! -f "$src/.complete" ]; then
				fetched=$src
				debsrc_fetch "$package" "$version" "$src" > "$CACHE/src-fetch-$package.log" 2>&1 || rc=$?
			fi
		fi
		if [ "$rc" != 0 ]; then
			cat "$CACHE/src-fetch-$package.log"
			die "apt-get source $package=$version failed (exit $rc)"
		fi
		[ -z "$fetched" ] || info "fetched $(cd "$src" && echo "${package}"_*) into $src"
	fi
	debsrc_verify "$package" "$src" "$version" "$sha"
	touch "$src/.complete"
	# shellcheck disable=SC2034 # for the caller
	DEBSRC_DIR=$src DEBSRC_VERSION=$version
}
