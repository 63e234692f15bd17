#!/usr/bin/env bash
# make mainline: the series on the newest kernel source in Debian (sid or
# experimental: linux-source-X.Y with the highest version; MAINLINE=X.Y=VER
# picks one). "git am" of the series (base..HEAD of build/linux) onto it in
# build/mainline/linux, then what the series touches, built as in
# 'make configs' (W=1, sparse, objtool) with make check's kernel config
# (tinyconfig + config/vng.config + config/sframe.config) and
# config/mainline.config (32-bit tasks: fs/compat_binfmt_elf.o) in
# build/mainline/obj. Then the whole kernel, with make check's config
# exactly (scripts/kernel.sh into build/mainline/obj-mainline), its
# kselftests (build/mainline/kselftest), and one boot with KUnit and the
# kselftests (scripts/guest-tests.sh, results in build/mainline/guest-tests):
# every test must pass. When it passes for exactly patches/series, the
# result is recorded in patches/mainline.ok, which make check compares
# (stage mainline-check).
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/objects-lib.sh"

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
MTREE=$BUILD/mainline/linux
MOBJ=$BUILD/mainline/obj
LOGS=$BUILD/mainline/logs
mkdir -p "$LOGS"
t0=$(date +%s)

stage "newest kernel source in Debian (sid, experimental)"
if [ -n "${MAINLINE:-}" ]; then
	pkg=linux-source-${MAINLINE%%=*} version=${MAINLINE#*=}
else
	newest_source || true
	pkg=${NEWEST%% *} version=${NEWEST#* }
fi
[ -n "${version:-}" ] || die "no linux-source package in sid or experimental"
# shellcheck source=../base.pin
base_version=$(. "$TOP/base.pin"; echo "$version")
info "$pkg $version (the base: $base_version)"

MGIT=$CACHE/mainline-$version.git
if [ -f "$MGIT/.complete" ]; then
	info "cached: $MGIT"
else
	mkdir -p "$ROOT$APTDIR/dl"
	chmod 777 "$ROOT$APTDIR/dl"
	rm -f "$ROOT$APTDIR"/dl/*.deb
	in_root bash -c 'cd "$1" && shift && apt-get "$@"' - "$APTDIR/dl" "${APTOPT[@]}" \
		download -q "$pkg=$version" >/dev/null || die "cannot download $pkg=$version"
	deb=$(ls "$ROOT$APTDIR"/dl/*.deb)
	info "fetched $(basename "$deb") (sha256 $(sha256sum "$deb" | cut -d' ' -f1))"
	source_git "$deb" "$MGIT" "Linux $version (Debian $pkg)"
	rm -f "$deb"
	info "made $MGIT"
fi

stage "the series applies to $version with git am"
if [ ! -d "$MTREE/.git" ] ||
	[ "$(git -C "$MTREE" rev-parse base)" != "$(git --git-dir="$MGIT" rev-parse base)" ]; then
	rm -rf "$MTREE"
	git clone -q --no-checkout "$MGIT" "$MTREE"
	git -C "$MTREE" config user.name linux-sframe
	git -C "$MTREE" config user.email linux-sframe@invalid
fi
git -C "$MTREE" am --abort >/dev/null 2>&1 || true
git -C "$MTREE" checkout -q -f -B sframe base
rm -rf "$BUILD/mainline/patches"
git -C "$TREE" format-patch -q --zero-commit -o "$BUILD/mainline/patches" base..HEAD
n=0 total=$(git -C "$TREE" rev-list --count base..HEAD)
for p in "$BUILD/mainline/patches"/*.patch; do
	if ! git -C "$MTREE" am -q --committer-date-is-author-date "$p" > "$LOGS/am.log" 2>&1; then
		cat "$LOGS/am.log"
		git -C "$MTREE" apply --check -v "$p" 2>&1 | grep -E '^(error|Checking|Hunk)' | head -20 || true
		git -C "$MTREE" am --abort || true
		die "patch $((n + 1)) of $total does not apply to $version: $(basename "$p")"
	fi
	n=$((n + 1))
done
info "$n of $total patches applied without fuzz ($(( $(date +%s) - t0 )) s so far)"

stage "what the series touches, built on $version (make check's config)"
t1=$(date +%s)
frags=("$TOP/config/vng.config" "$TOP/config/sframe.config" "$TOP/config/mainline.config")
stamp=$({ git -C "$MTREE" ls-files -s -- '*Kconfig*'; cat "${frags[@]}"; } | sha256sum | cut -c1-16)
mkdir -p "$MOBJ"
if [ ! -f "$MOBJ/.config" ] || [ "$(cat "$MOBJ/.config.stamp" 2>/dev/null)" != "$stamp" ]; then
	kmake_in "$MTREE" "$MOBJ" tinyconfig >/dev/null
	in_root "$MTREE/scripts/kconfig/merge_config.sh" -Q -m -O "$MOBJ" "$MOBJ/.config" "${frags[@]}" >/dev/null
	kmake_in "$MTREE" "$MOBJ" olddefconfig >/dev/null
	echo "$stamp" > "$MOBJ/.config.stamp"
fi
for opt in CONFIG_HAVE_UNWIND_USER_SFRAME=y CONFIG_SFRAME_KUNIT_TEST=y CONFIG_PERF_EVENTS=y; do
	grep -qx "$opt" "$MOBJ/.config" || die "the config of $version lacks $opt"
done
mapfile -t objects < <(series_objects "$MTREE")
info "${#objects[@]} targets the series touches (objects, directories): ${objects[*]}"
if ! build_objects "$MTREE" "$MOBJ" "$LOGS" "${objects[@]}"; then
	die "the series does not build on $version (above); rerun: make mainline"
fi
[ "${#ABSENT[@]}" = 0 ] || info "not built by this configuration: ${ABSENT[*]}"
info "$NOTE"
result="$pkg $version: $n/$total patches apply with git am; ${#BUILT[@]}/${#objects[@]} targets build (W=1, sparse, objtool)"
info "build $(( $(date +%s) - t1 )) s"

stage "boot on $version: the kernel with make check's config, KUnit and the kselftests"
t2=$(date +%s)
# The same scripts as make check's kernel, selftests-build and guest stages,
# on the mainline tree, into directories of their own.
mrun() {
	SFRAME_TREE=$MTREE SFRAME_KOBJ=$BUILD/mainline/obj-mainline \
		SFRAME_SELFTESTS=$BUILD/mainline/selftests SFRAME_KSELFTEST=$BUILD/mainline/kselftest \
		SFRAME_GUEST_OUT=$BUILD/mainline/guest-tests "$@"
}
mrun "$TOP/scripts/kernel.sh" > "$LOGS/kernel.log" 2>&1 || {
	tail -30 "$LOGS/kernel.log"
	die "the kernel does not build on $version (log: ${LOGS#"$TOP"/}/kernel.log)"
}
mrun "$TOP/scripts/selftests.sh" > "$LOGS/selftests.log" 2>&1 || {
	tail -30 "$LOGS/selftests.log"
	die "the kselftests do not build on $version (log: ${LOGS#"$TOP"/}/selftests.log)"
}
mrun "$TOP/scripts/guest-tests.sh" > "$LOGS/guest.log" 2>&1 || true
grep -E '^    (KUnit|kselftest|total)' "$LOGS/guest.log" || true
read -r bp bf bs < <(sed -n 's/^counts: //p' "$LOGS/guest.log" | tail -1) || true
[ -n "${bp:-}" ] && [ "${bf:-1}" = 0 ] && [ "${bs:-1}" = 0 ] && [ "$bp" -gt 0 ] ||
	die "the boot on $version did not pass every test: ${bp:-?} passed, ${bf:-?} failed, ${bs:-?} skipped (log: ${LOGS#"$TOP"/}/guest.log)"
boot="$version booted (make check's config): KUnit and kselftests $bp passed, 0 failed, 0 skipped"
info "$boot; $(( $(date +%s) - t2 )) s"
info "ok: $result; $(( $(date +%s) - t0 )) s in all"

if [ "$(tree_ids)" = "$(series_ids)" ] && [ -z "$(git -C "$TREE" status --porcelain -uno)" ]; then
	{
		echo "# 'make mainline' (scripts/mainline.sh) applied the series whose patch ids"
		echo "# follow to the newest kernel source in Debian and built what it"
		echo "# touches. make check (stage mainline-check) compares the ids with"
		echo "# patches/series; rerun: make mainline"
		echo "targets: ${objects[*]}"
		echo "result: $result"
		echo "result: $boot"
		series_ids
	} > "$TOP/patches/mainline.ok"
	info "recorded in patches/mainline.ok"
else
	info "not recorded: build/linux is not exactly patches/series"
fi
