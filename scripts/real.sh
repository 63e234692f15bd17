#!/usr/bin/env bash
# make real: the real program of the e2e check (real.pin), built twice.
#   scripts/real.sh [FLAVOUR...]
#   scripts/real.sh --arm64 [FLAVOUR...]
# Fetches the pinned Debian source package with apt-get source, once: it is
# kept under ~/.cache/linux-sframe/src/. Checks it (the .dsc's sha256 is
# pinned, the .dsc gives the sha256 of the other files), unpacks it with
# Debian's patches into build/real/src, generates sqlite3's amalgamation
# there (sqlite3.c, shell.c; configure and make, with the JimTcl that
# sqlite3 bundles: no tclsh needed) and builds, with workloads/Makefile's
# target "real", for FLAVOUR sframe and fp (the workloads' flags; the
# FLAVOURs given instead: the demo builds sframe and nofp):
#   build/real/FLAVOUR/libsqlite3.so.0   the library, a shared object
#   build/real/FLAVOUR/sqlite3           the shell: DT_NEEDED libsqlite3.so.0,
#                                        found through its RUNPATH $ORIGIN
# With --arm64, the arm64 guest's builds instead (scripts/arm64-guest.sh),
# cross-built from the same amalgamation with workloads/Makefile's target
# "real-arm64", for FLAVOUR sframe, pac and pacb (its arm64 flavours: SFrame,
# unsigned, signed with the A key, with the B key), into
# build/real-arm64/FLAVOUR/, the same two files; the cross compiler goes
# into the root on first use, as for the arm64 kernel.
# Each step is skipped when its result is up to date (a new real.pin redoes
# all of them); compiles go through ccache.
. "$(dirname "$0")/lib.sh"

# shellcheck source=../real.pin
. "$TOP/real.pin"
# Debian's patches that the build here does not take: this one points lemon
# at the lempar.c of Debian's lemon package (/usr/share/lemon), which the
# root does not have. The others (a locking style for the Hurd, a larger
# default page size limit, a cross-build fix, a CVE fix) apply.
SKIP_PATCHES="02-use-packaged-lempar.c.patch"
REAL=$BUILD/real
arm64=
if [ "${1:-}" = --arm64 ]; then
	arm64=1
	shift
	# shellcheck disable=SC2086
	"$TOP/scripts/root-install.sh" $ARM64_PACKAGES
fi

# fetch VERSION DIR: apt-get source --download-only in the root, from a
# deb-src line for the root's own mirror, with apt lists of its own (the
# root's binary package lists stay as they are); the files end up in DIR.
fetch() {
	local version=$1 dir=$2 dl=$ROOT/var/cache/sframe-real
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
	in_root bash -c 'set -e; d=/var/cache/sframe-real; cd "$d"
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

# verify DIR VERSION SHA256: the .dsc has the pinned sha256 (none: not
# checked), every file it lists has the sha256 it gives.
verify() {
	local dir=$1 version=$2 want=$3 dsc got
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

stage "real program ($package $version, real.pin)${arm64:+, arm64}"
src=$CACHE/src/${package}_$version
sha=$sha256
if [ ! -f "$src/.complete" ]; then
	rc=0 fetched=$src
	fetch "$version" "$src" > "$CACHE/src-fetch.log" 2>&1 || rc=$?
	if [ "$rc" = 3 ]; then
		newest=$(sed -n 's/^gone: .*; newest: //p' "$CACHE/src-fetch.log")
		[ -n "$newest" ] || die "$package is not in the registry at all"
		warn "$package $version is gone from the registry; using $newest instead.
    Update real.pin (version, and sha256 of the .dsc) once it passes."
		version=$newest sha='' src=$CACHE/src/${package}_$newest
		rc=0 fetched=
		if [ ! -f "$src/.complete" ]; then
			fetched=$src
			fetch "$version" "$src" > "$CACHE/src-fetch.log" 2>&1 || rc=$?
		fi
	fi
	if [ "$rc" != 0 ]; then
		cat "$CACHE/src-fetch.log"
		die "apt-get source $package=$version failed (exit $rc)"
	fi
	[ -z "$fetched" ] || info "fetched $(cd "$src" && echo "${package}"_*) into $src"
fi
verify "$src" "$version" "$sha"
touch "$src/.complete"

# The unpacked and patched source, once per version and patch selection.
want="$package $version skip: $SKIP_PATCHES"
if [ "$(cat "$REAL/src/.unpacked" 2>/dev/null)" != "$want" ]; then
	info "unpacking into ${REAL#"$TOP"/}/src"
	rm -rf "$REAL/src" "$REAL/src.tmp"
	mkdir -p "$REAL/src.tmp"
	upstream=${version#*:}
	upstream=${upstream%-*}
	tar -C "$REAL/src.tmp" --strip-components=1 -xf "$src/${package}_$upstream".orig.tar.*
	tar -C "$REAL/src.tmp" -xf "$src/${package}_${version#*:}".debian.tar.*
	applied=0
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		case " $SKIP_PATCHES " in *" $p "*) continue ;; esac
		patch -d "$REAL/src.tmp" -p1 -s -N < "$REAL/src.tmp/debian/patches/$p" ||
			die "Debian's patch $p does not apply"
		applied=$((applied + 1))
	done < "$REAL/src.tmp/debian/patches/series"
	info "applied $applied of Debian's patches (not: $SKIP_PATCHES)"
	mv "$REAL/src.tmp" "$REAL/src"
	# The amalgamation: configure and make (mostly its bundled jimsh).
	t=$(date +%s)
	# shellcheck disable=SC2016
	in_root bash -c 'cd "$1" && ./configure --disable-tcl --disable-readline &&
		make sqlite3.c shell.c' - "$REAL/src" > "$REAL/src.log" 2>&1 ||
		{ tail -n 20 "$REAL/src.log"; die "making sqlite3's amalgamation failed; log: ${REAL#"$TOP"/}/src.log"; }
	info "amalgamation made in $(( $(date +%s) - t )) s"
	echo "$want" > "$REAL/src/.unpacked"
fi

t=$(date +%s)
if [ "$arm64" = 1 ]; then
	flavours=(sframe pac pacb)
	[ $# = 0 ] || flavours=("$@")
	out=$BUILD/real-arm64
	in_root make -s -j"$(nproc)" -C workloads real-arm64 REAL_SRC="$REAL/src" \
		REAL_ARM64_OUT="$out" REAL_ARM64_FLAVOURS="${flavours[*]}"
else
	flavours=(sframe fp)
	[ $# = 0 ] || flavours=("$@")
	out=$REAL
	in_root make -s -j"$(nproc)" -C workloads real REAL_SRC="$REAL/src" REAL_OUT="$REAL" \
		REAL_FLAVOURS="${flavours[*]}"
fi
info "built in $(( $(date +%s) - t )) s: $(cd "$out" &&
	for f in "${flavours[@]}"; do echo "$f/sqlite3 $f/libsqlite3.so.0"; done | xargs)${arm64:+ (arm64)}"
