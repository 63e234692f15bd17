#!/usr/bin/env bash
# make configs [CONFIGS='debian i386']: build what the series touches
# (objects, and directories whose build it changes: scripts/objects-lib.sh)
# in the configurations distributions and bots build, one test each. A
# whole kernel per configuration is too slow here: make prepare once per
# configuration (kept in build/configs/NAME, so the next run is
# incremental), then what the series touches, with W=1, sparse and objtool. When all of them pass for exactly patches/series, the
# result is recorded in patches/configs.ok, which make check compares
# (stage configs-check).
#
#   debian   Debian's own configuration of the base: linux-config-X.Y of
#            base.pin's version, config.amd64_none_amd64 (+ olddefconfig)
#   allmod   make allmodconfig (KASAN, UBSAN, KCOV, WERROR, tests as modules)
#   i386     i386_defconfig + config/i386.config: HAVE_UNWIND_USER_SFRAME
#            and UNWIND_USER are off (x86 selects both for 64-bit only), so
#            the series' !CONFIG_HAVE_UNWIND_USER_SFRAME stubs are compiled
#   tiny64   tinyconfig + config/tiny64.config: the smallest x86-64 kernel,
#            without COMPAT, MEMCG, TRACING, KUNIT, MODULES. No x86-64
#            configuration has HAVE_UNWIND_USER_SFRAME off: X86_64 selects
#            it (and X86 selects PERF_EVENTS) unconditionally
#   arm64    Debian's own arm64 configuration of the base (linux-config-X.Y
#            for arm64, config.arm64_none_arm64 + olddefconfig), cross-built:
#            what the series touches for arm64 (arch/arm64/, not arch/x86/)
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/objects-lib.sh"

ALL="debian allmod i386 tiny64 arm64"
read -r -a names <<<"${CONFIGS:-$ALL}"
[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"

# debian_config [ARCH]: the path of Debian's config for the base, amd64 or
# arm64, fetched once (linux-config-X.Y of the version in base.pin, a
# package of that architecture) into ~/.cache. arm64's comes with package
# lists of its own, so that the root's apt state stays as root.sh made it.
debian_config() {
	# shellcheck source=../base.pin
	. "$TOP/base.pin"
	local arch=${1:-amd64} pkg=${package/linux-source/linux-config} dir dl deb file
	local -a opts=()
	file=config.${arch}_none_$arch
	dir=$CACHE/$pkg-$version
	[ "$arch" = amd64 ] || dir=$dir-$arch
	if [ "$arch" != amd64 ]; then
		opts=(-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
			-o "Dir::Etc::SourceList=/var/cache/sframe-$arch/sources.list"
			-o Dir::Etc::SourceParts=/nonexistent
			-o "Dir::State::Lists=/var/cache/sframe-$arch/lists"
			-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
			-o Acquire::Check-Valid-Until=false)
	fi
	if [ ! -f "$dir/$file" ]; then
		if [ "$arch" != amd64 ]; then
			mkdir -p "$ROOT/var/cache/sframe-$arch/lists/partial"
			sed -n '/^deb /p' "$ROOT/etc/apt/sources.list" > "$ROOT/var/cache/sframe-$arch/sources.list"
			in_root apt-get "${opts[@]}" update -qq >/dev/null 2>&1 ||
				die "cannot fetch the $arch package lists"
		fi
		dl=$ROOT/var/cache/sframe-config
		rm -rf "$dl" && mkdir -p "$dl" && chmod 777 "$dl"
		# shellcheck disable=SC2016
		in_root bash -c 'cd /var/cache/sframe-config && apt-get "${@:2}" download -q "$1"' \
			- "$pkg=$version" "${opts[@]}" >/dev/null ||
			die "cannot download $pkg=$version for $arch"
		deb=$(ls "$dl"/*.deb)
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		(cd "$dir.tmp" && ar x "$deb" && tar xf data.tar.* ./usr/src)
		xz -dc "$dir.tmp"/usr/src/linux-config-*/"$file".xz > "$dir.tmp/$file"
		sha256sum "$deb" | cut -d' ' -f1 > "$dir.tmp/deb.sha256"
		rm -rf "$dl" "$dir.tmp/usr" "$dir.tmp"/*.tar.* "$dir.tmp/debian-binary"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	DEBIAN_CONFIG=$dir/$file
	DEBIAN_WHAT="Debian $pkg $version ($arch), $file (deb sha256 $(cut -c1-12 "$dir/deb.sha256"))"
}

# configure NAME OBJDIR: write OBJDIR/.config for NAME, again only when its
# inputs changed (the tree's Kconfig files, the fragment, Debian's config).
# Sets KMAKE_ARGS, WHAT and EXPECT (options the configuration must have, or
# must not have: OPTION=n).
configure() {
	local name=$1 obj=$2 stamp frag=
	KMAKE_ARGS=()
	case "$name" in
	debian)
		debian_config
		WHAT=$DEBIAN_WHAT
		EXPECT="CONFIG_HAVE_UNWIND_USER_SFRAME=y CONFIG_COMPAT=y CONFIG_PERF_EVENTS=y" ;;
	arm64)
		KMAKE_ARGS=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		debian_config arm64
		WHAT=$DEBIAN_WHAT
		EXPECT="CONFIG_ARM64=y CONFIG_HAVE_UNWIND_USER_SFRAME=y CONFIG_ARM64_PTR_AUTH=y CONFIG_COMPAT=y CONFIG_PERF_EVENTS=y" ;;
	allmod)
		WHAT="make allmodconfig"
		EXPECT="CONFIG_HAVE_UNWIND_USER_SFRAME=y CONFIG_SFRAME_KUNIT_TEST=m CONFIG_SFRAME_VALIDATION=y CONFIG_KASAN=y CONFIG_UBSAN=y" ;;
	i386)
		KMAKE_ARGS=(ARCH=i386)
		frag=$TOP/config/i386.config
		WHAT="i386_defconfig + config/i386.config"
		EXPECT="CONFIG_X86_32=y CONFIG_HAVE_UNWIND_USER_SFRAME=n CONFIG_UNWIND_USER=n CONFIG_PERF_EVENTS=y" ;;
	tiny64)
		frag=$TOP/config/tiny64.config
		WHAT="tinyconfig + config/tiny64.config"
		EXPECT="CONFIG_X86_64=y CONFIG_HAVE_UNWIND_USER_SFRAME=y CONFIG_COMPAT=n CONFIG_MEMCG=n CONFIG_TRACING=n CONFIG_KUNIT=n CONFIG_MODULES=n" ;;
	*)
		die "unknown configuration '$name' (known: $ALL)" ;;
	esac
	stamp=$({ echo "$name"; git -C "$TREE" ls-files -s -- '*Kconfig*'
		git -C "$TREE" diff HEAD -- '*Kconfig*'
		[ -z "$frag" ] || cat "$frag"
		case "$name" in debian|arm64) cat "$DEBIAN_CONFIG" ;; esac; } |
		sha256sum | cut -c1-16)
	mkdir -p "$obj"
	if [ -f "$obj/.config" ] && [ "$(cat "$obj/.config.stamp" 2>/dev/null)" = "$stamp" ]; then
		info "config: unchanged"
		return 0
	fi
	case "$name" in
	debian|arm64)
		cp "$DEBIAN_CONFIG" "$obj/.config"
		kmake_in "$TREE" "$obj" "${KMAKE_ARGS[@]}" olddefconfig >/dev/null
		# What olddefconfig changed: the series' options, and what the
		# root's toolchain lacks (rustc) or Debian's build sets itself.
		mkdir -p "$obj.logs"
		python3 "$TREE/scripts/diffconfig" "$DEBIAN_CONFIG" "$obj/.config" > "$obj.logs/diffconfig"
		info "olddefconfig changed $(wc -l < "$obj.logs/diffconfig") options of Debian's file, $(grep -c -i rust "$obj.logs/diffconfig") of them Rust's (no rustc in the root): ${obj#"$TOP"/}.logs/diffconfig" ;;
	allmod)
		kmake_in "$TREE" "$obj" allmodconfig >/dev/null ;;
	i386|tiny64)
		if [ "$name" = i386 ]; then
			kmake_in "$TREE" "$obj" "${KMAKE_ARGS[@]}" i386_defconfig >/dev/null
		else
			kmake_in "$TREE" "$obj" tinyconfig >/dev/null
		fi
		in_root env "${KMAKE_ARGS[@]}" "$TREE/scripts/kconfig/merge_config.sh" -Q -m \
			-O "$obj" "$obj/.config" "$frag" >/dev/null
		kmake_in "$TREE" "$obj" "${KMAKE_ARGS[@]}" olddefconfig >/dev/null ;;
	esac
	echo "$stamp" > "$obj/.config.stamp"
	info "config: made"
}

# expect OBJDIR: the options in EXPECT are as asked.
expect() {
	local e opt val got bad=0
	for e in $EXPECT; do
		opt=${e%%=*} val=${e#*=}
		got=$(sed -n "s/^$opt=//p" "$1/.config")
		[ "${got:-n}" = "$val" ] && continue
		info "$opt: expected $val, got ${got:-n}"
		bad=1
	done
	return "$bad"
}

stage "configurations: ${names[*]}"
# arch_objects ARCH: what the series touches for x86 or arm64, into
# objects_ARCH.
arch_objects() {
	SARCH=$1
	series_objects "$TREE" > "$BUILD/configs.objects"
	mapfile -t "objects_$1" < "$BUILD/configs.objects"
	rm -f "$BUILD/configs.objects"
	local -n list=objects_$1
	info "${#list[@]} targets the series touches for $1 (objects, directories): ${list[*]}"
	[ "${#OTHER_HEADERS[@]}" = 0 ] ||
		info "headers left out (in nearly every object, or UAPI definitions the objects use): ${OTHER_HEADERS[*]}"
}
arch_objects x86
[[ " ${names[*]} " != *" arm64 "* ]] || {
	# shellcheck disable=SC2086
	"$TOP/scripts/root-install.sh" $ARM64_PACKAGES
	arch_objects arm64
}

passed=0 failed=0
declare -a results record
for name in "${names[@]}"; do
	stage "config $name"
	t0=$(date +%s)
	obj=$BUILD/configs/$name
	ok=1
	if [ "$name" = arm64 ]; then
		SARCH=arm64 KCC=aarch64-linux-gnu-gcc objects=("${objects_arm64[@]}")
	else
		SARCH=x86 KCC=gcc objects=("${objects_x86[@]}")
	fi
	configure "$name" "$obj" || ok=0
	info "$WHAT"
	if [ "$ok" = 1 ] && ! expect "$obj"; then
		info "the configuration is not what this test is about"
		ok=0
	fi
	if [ "$ok" = 1 ] && build_objects "$TREE" "$obj" "$BUILD/configs/$name.logs" "${objects[@]}"; then
		secs=$(( $(date +%s) - t0 ))
		[ "${#ABSENT[@]}" = 0 ] || info "not built by this configuration: ${ABSENT[*]}"
		info "$NOTE"
		info "ok: $name, ${#BUILT[@]} of ${#objects[@]} targets ($secs s)"
		results+=("$(printf '%-7s ok   %2d/%d targets  %4d s  %s' "$name" "${#BUILT[@]}" \
			"${#objects[@]}" "$secs" "$WHAT")")
		# The record leaves the time out: the same result gives the same file.
		record+=("$(printf '%-7s ok   %2d/%d targets  %s' "$name" "${#BUILT[@]}" "${#objects[@]}" "$WHAT")")
		[ "${#ABSENT[@]}" = 0 ] || {
			results+=("        not built by this configuration: ${ABSENT[*]}")
			record+=("${results[-1]}")
		}
		passed=$((passed + 1))
	else
		secs=$(( $(date +%s) - t0 ))
		info "FAILED: $name ($secs s); rerun: make configs CONFIGS=$name"
		results+=("$(printf '%-7s FAIL %13s  %4d s  %s' "$name" "" "$secs" "$WHAT")")
		failed=$((failed + 1))
	fi
done

stage "configurations: $passed passed, $failed failed"
printf '    %s\n' "${results[@]}"
if [ "$failed" = 0 ] && [ "${names[*]}" = "$ALL" ] &&
	[ "$(tree_ids)" = "$(series_ids)" ] && [ -z "$(git -C "$TREE" status --porcelain -uno)" ]; then
	{
		echo "# 'make configs' (scripts/configs.sh) built what the series touches,"
		echo "# with W=1, sparse and objtool, in each configuration below, for the"
		echo "# series whose patch ids follow. make check (stage configs-check) compares"
		echo "# the ids with patches/series; rerun: make configs"
		echo "targets: ${objects_x86[*]}"
		echo "targets (arm64): ${objects_arm64[*]}"
		printf 'result: %s\n' "${record[@]}"
		series_ids
	} > "$TOP/patches/configs.ok"
	info "recorded in patches/configs.ok"
elif [ "$failed" = 0 ]; then
	info "not recorded: only a full run (all of $ALL) of exactly patches/series is"
fi
echo "counts: $passed $failed 0"
[ "$failed" = 0 ]
