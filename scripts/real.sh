#!/usr/bin/env bash
# make real: the real program of the e2e check (real.pin), built twice.
#   scripts/real.sh [FLAVOUR...]
#   scripts/real.sh --arm64 [FLAVOUR...]
# Fetches the pinned Debian source package with apt-get source, once: it is
# kept under ~/.cache/linux-sframe/src/. Checks it (the .dsc's sha256 is
# pinned, the .dsc gives the sha256 of the other files: scripts/debsrc-lib.sh,
# which scripts/glibc.sh shares), unpacks it with
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
. "$TOP/scripts/debsrc-lib.sh"

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

stage "real program ($package $version, real.pin)${arm64:+, arm64}"
debsrc_get "$package" "$version" "$sha256" real.pin
src=$DEBSRC_DIR version=$DEBSRC_VERSION

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
