#!/usr/bin/env bash
# make libc: the C library of the glibc stage (scripts/glibc-e2e.sh), built
# with SFrame V3 from Debian's source (glibc.pin) into a prefix of its own.
#   scripts/glibc.sh
# sid's libc has neither SFrame nor frame pointers: the kernel unwinds out
# of it only where its guesses work (a leaf that has not touched the stack
# yet). This one has SFrame everywhere the assembler can make it, as a
# distribution's libc built with --enable-sframe would, so that chains of
# the glibc stage cross libc (lfind calling back, signal delivery, thread
# start) by SFrame alone.
# Fetches and checks the pinned source package as scripts/real.sh does
# (scripts/debsrc-lib.sh), applies Debian's patches, and builds with
#   configure --prefix=PREFIX --enable-sframe ... CFLAGS='-O2 -g -Wa,--gsframe-3'
#   make -j$JOBS; make install
# in the build root (gawk installed into it on first use; no ccache: the
# result is kept whole, and the kernel's objects keep the cache). No C++
# (CXX=false): glibc needs it only for tests, and the root's c++, once the
# fuzz stage has installed clang, is clang++, which takes no
# -Wa,--gsframe-3. Debian's orig tarball has no manual/ (the manual is not
# free enough for Debian): it is left out of Makeconfig's subdirs. glibc's
# --enable-sframe adds -Wa,--gsframe after CFLAGS, and for .S files only
# that: Makeconfig is made to say --gsframe-3 there too, and the sections
# are checked to be V3.
# PREFIX is /opt/glibc-sframe-KEY in the root, where the guest sees it too
# (it boots the root), KEY a hash of glibc.pin and of the recipe below: a
# new pin, flag or step gives a new prefix and a new build (about 19 min of
# CPU time: 10 min on 2 idle cores, 29 min beside kernel builds), anything else
# finds it made (1 s: the checks below). Prefixes of other keys
# are removed. The build tree (build/glibc/src, obj) is removed once the
# prefix is checked; the logs stay in build/glibc/.
# After the installation, libc.so.6 and ld-linux-x86-64.so.2 must have a
# PT_GNU_SFRAME segment with a V3 section, else the script fails. Writes
# the prefix (as the root sees it) to build/glibc/prefix.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debsrc-lib.sh"

# shellcheck source=../glibc.pin
. "$TOP/glibc.pin"
# The recipe: any change of these makes a new prefix.
GLIBC_CFLAGS="-O2 -g -Wa,--gsframe-3"
# Debian's own options where they matter (bind-now, stack protector), no
# SELinux, and not what the glibc stage does not use (nscd, libmvec).
GLIBC_CONFIGURE="--enable-sframe --disable-werror --without-selinux --enable-bind-now
--enable-stack-protector=strong --disable-nscd --disable-build-nscd --disable-mathvec"
# Debian's patches that the build here does not take (none).
SKIP_PATCHES=""
# The steps below (the Makeconfig edits): a change of them bumps this.
GLIBC_RECIPE="manual-out gsframe-3 no-c++ v1"
JOBS=${JOBS:-$(nproc)}
OUT=$BUILD/glibc
# The objects that must have SFrame.
GLIBC_SFRAME_OBJECTS="libc.so.6 ld-linux-x86-64.so.2"

key=$( { grep -v '^#' "$TOP/glibc.pin"; echo "$GLIBC_CFLAGS"; echo "$GLIBC_CONFIGURE"
	echo "$SKIP_PATCHES"; echo "$GLIBC_RECIPE"; } | sha256sum | cut -c1-12)
prefix=/opt/glibc-sframe-$key
mkdir -p "$OUT"

# check_sframe DIR: every object of GLIBC_SFRAME_OBJECTS in DIR (a host
# path in the root) has a PT_GNU_SFRAME segment and a V3 section; one line
# each with its number of FDEs.
check_sframe() {
	local o f hdr
	for o in $GLIBC_SFRAME_OBJECTS; do
		f=${1#"$ROOT"}/lib/$o
		[ -f "$ROOT$f" ] || die "no $f in the root"
		in_root readelf -lW "$f" | grep 'GNU_SFRAME' > /dev/null ||
			die "$prefix/lib/$o has no PT_GNU_SFRAME segment: the C library was built without SFrame"
		in_root readelf -SW "$f" | grep ' \.sframe ' > /dev/null ||
			die "$prefix/lib/$o has no .sframe section (its PT_GNU_SFRAME segment is empty)"
		hdr=$(in_root readelf --sframe "$f" | sed -n '1,/Function Index/p')
		grep -q 'Version: SFRAME_VERSION_3' <<<"$hdr" ||
			die "$prefix/lib/$o: its .sframe is not V3 ($(grep -m1 Version: <<<"$hdr"))"
		info "$o: PT_GNU_SFRAME, SFrame V3, $(sed -n 's/^ *Num FDEs: //p' <<<"$hdr") FDEs"
	done
}

stage "SFrame C library ($package $version, glibc.pin): $prefix in the root"
if [ -f "$ROOT$prefix/.complete" ]; then
	info "cached: $(cat "$ROOT$prefix/.complete")"
	check_sframe "$ROOT$prefix"
	echo "$prefix" > "$OUT/prefix"
	exit 0
fi

t0=$(date +%s)
# shellcheck disable=SC2086 # the packages, one word each
"$TOP/scripts/root-install.sh" $GLIBC_PACKAGES
debsrc_get "$package" "$version" "$sha256" glibc.pin
src=$DEBSRC_DIR version=$DEBSRC_VERSION
upstream=${version#*:}
upstream=${upstream%-*}

info "unpacking into ${OUT#"$TOP"/}/src"
rm -rf "$OUT/src" "$OUT/obj"
mkdir -p "$OUT/src"
tar -C "$OUT/src" --strip-components=1 -xf "$src/${package}_$upstream".orig.tar.*
tar -C "$OUT/src" -xf "$src/${package}_${version#*:}".debian.tar.*
applied=0
while read -r p _; do
	case "$p" in ''|'#'*) continue ;; esac
	case " $SKIP_PATCHES " in *" $p "*) continue ;; esac
	patch -d "$OUT/src" -p1 -s -N < "$OUT/src/debian/patches/$p" ||
		die "Debian's patch $p does not apply"
	applied=$((applied + 1))
done < "$OUT/src/debian/patches/series"
info "applied $applied of Debian's patches${SKIP_PATCHES:+ (not: $SKIP_PATCHES)}"
# No manual/ in the orig tarball (Debian's patches add only a stub
# Makefile for the files that named its texinfo sources).
[ ! -d "$OUT/src/manual" ] || [ ! -f "$OUT/src/manual/libc.texinfo" ] ||
	die "the source has the manual after all: the recipe needs a look"
sed -i '/^all-subdirs = /,/^$/ s/ manual / /' "$OUT/src/Makeconfig"
sed -n '/^all-subdirs = /,/^$/p' "$OUT/src/Makeconfig" | grep -qw manual &&
	die "manual is still in Makeconfig's all-subdirs"
sed -i 's/^as-sframe = -Wa,--gsframe$/as-sframe = -Wa,--gsframe-3/' "$OUT/src/Makeconfig"
grep -qx 'as-sframe = -Wa,--gsframe-3' "$OUT/src/Makeconfig" ||
	die "Makeconfig has no 'as-sframe = -Wa,--gsframe' line to make V3"

log=$OUT/build.log
info "configure, make -j$JOBS, make install (log: ${log#"$TOP"/})"
# The installation goes to a temporary root first (install_root), then
# moves to the prefix whole: a prefix is complete or absent.
tmp=/opt/.glibc-sframe-$key.tmp
rm -rf "${ROOT:?}$tmp"
# shellcheck disable=SC2016,SC2086
if ! in_root env CCACHE_DISABLE=1 bash -c 'set -e
	src=$1 obj=$2 prefix=$3 tmp=$4 jobs=$5 cflags=$6
	shift 6
	mkdir -p "$obj" && cd "$obj"
	t=$(date +%s)
	MAKEINFO=: CFLAGS="$cflags" CXX=false "$src/configure" --prefix="$prefix" "$@"
	echo "--- configure: $(( $(date +%s) - t )) s"; t=$(date +%s)
	make -j"$jobs"
	echo "--- make: $(( $(date +%s) - t )) s"; t=$(date +%s)
	make -j"$jobs" install install_root="$tmp"
	echo "--- make install: $(( $(date +%s) - t )) s"' - \
	"$OUT/src" "$OUT/obj" "$prefix" "$tmp" "$JOBS" "$GLIBC_CFLAGS" $GLIBC_CONFIGURE \
	> "$log" 2>&1; then
	grep -E 'error:|\*\*\* ' "$log" | cut -c1-240 | head -n 10
	die "building $package $version failed; log: ${log#"$TOP"/}"
fi
info "$(grep '^--- ' "$log" | sed 's/^--- //' | paste -sd, | sed 's/,/, /g')"
[ -d "$ROOT$tmp$prefix/lib" ] || die "make install left no $tmp$prefix/lib in the root"
check_sframe "$ROOT$tmp$prefix"
rm -rf "${ROOT:?}$prefix"
mv "$ROOT$tmp$prefix" "$ROOT$prefix"
rm -rf "${ROOT:?}$tmp"
echo "$package $version, $(in_root gcc --version | head -n 1), made $(date -u +%F) in $(( $(date +%s) - t0 )) s" \
	> "$ROOT$prefix/.complete"
echo "$prefix" > "$OUT/prefix"
rm -rf "$OUT/src" "$OUT/obj"
for old in "$ROOT"/opt/glibc-sframe-*; do
	[ "$old" = "$ROOT$prefix" ] || [ ! -d "$old" ] || {
		info "removing the prefix of another recipe: ${old#"$ROOT"}"
		rm -rf "$old"
	}
done
info "made in $(( $(date +%s) - t0 )) s: $(cat "$ROOT$prefix/.complete")"
