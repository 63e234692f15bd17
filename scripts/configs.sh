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
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/objects-lib.sh"

ALL="debian allmod i386 tiny64"
read -r -a names <<<"${CONFIGS:-$ALL}"
[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"

# debian_config: the path of Debian's amd64 config for the base, fetched
# once (linux-config-X.Y, the version in base.pin) into ~/.cache.
debian_config() {
	# shellcheck source=../base.pin
	. "$TOP/base.pin"
	local pkg=${package/linux-source/linux-config} dir dl deb
	dir=$CACHE/$pkg-$version
	if [ ! -f "$dir/config.amd64_none_amd64" ]; then
		dl=$ROOT/var/cache/sframe-config
		rm -rf "$dl" && mkdir -p "$dl" && chmod 777 "$dl"
		in_root bash -c "cd /var/cache/sframe-config && apt-get download -q '$pkg=$version'" >/dev/null ||
			die "cannot download $pkg=$version"
		deb=$(ls "$dl"/*.deb)
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		(cd "$dir.tmp" && ar x "$deb" && tar xf data.tar.* ./usr/src)
		xz -dc "$dir.tmp"/usr/src/linux-config-*/config.amd64_none_amd64.xz > "$dir.tmp/config.amd64_none_amd64"
		sha256sum "$deb" | cut -d' ' -f1 > "$dir.tmp/deb.sha256"
		rm -rf "$dl" "$dir.tmp/usr" "$dir.tmp"/*.tar.* "$dir.tmp/debian-binary"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	DEBIAN_CONFIG=$dir/config.amd64_none_amd64
	DEBIAN_WHAT="Debian $pkg $version, config.amd64_none_amd64 (deb sha256 $(cut -c1-12 "$dir/deb.sha256"))"
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
		[ -z "$frag" ] || cat "$frag"; [ "$name" != debian ] || cat "$DEBIAN_CONFIG"; } |
		sha256sum | cut -c1-16)
	mkdir -p "$obj"
	if [ -f "$obj/.config" ] && [ "$(cat "$obj/.config.stamp" 2>/dev/null)" = "$stamp" ]; then
		info "config: unchanged"
		return 0
	fi
	case "$name" in
	debian)
		cp "$DEBIAN_CONFIG" "$obj/.config"
		kmake_in "$TREE" "$obj" olddefconfig >/dev/null
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
series_objects "$TREE" > "$BUILD/configs.objects"
mapfile -t objects < "$BUILD/configs.objects"
rm -f "$BUILD/configs.objects"
info "${#objects[@]} targets the series touches (objects, directories): ${objects[*]}"
[ "${#OTHER_HEADERS[@]}" = 0 ] ||
	info "headers left out (in nearly every object, or UAPI definitions the objects use): ${OTHER_HEADERS[*]}"

passed=0 failed=0
declare -a results record
for name in "${names[@]}"; do
	stage "config $name"
	t0=$(date +%s)
	obj=$BUILD/configs/$name
	ok=1
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
		echo "targets: ${objects[*]}"
		printf 'result: %s\n' "${record[@]}"
		series_ids
	} > "$TOP/patches/configs.ok"
	info "recorded in patches/configs.ok"
elif [ "$failed" = 0 ]; then
	info "not recorded: only a full run (all of $ALL) of exactly patches/series is"
fi
echo "counts: $passed $failed 0"
[ "$failed" = 0 ]
