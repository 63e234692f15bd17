#!/usr/bin/env bash
# Configure and build build/linux into build/obj (build/obj-debug for
# VARIANT=debug, build/obj-arm64 for VARIANT=arm64, cross-built; SFRAME_KOBJ
# elsewhere, with SFRAME_KFRAGS' fragments on top) inside the
# build root, with ccache. Incremental: the configuration is made again only
# when a fragment or the tree changes it.
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
frags=("$TOP/config/vng.config" "$TOP/config/sframe.config")
karch=x86 image=arch/x86/boot/bzImage cc=gcc cross=()
case "${VARIANT:-}" in
'') ;;
debug) frags+=("$TOP/config/debug.config") ;;
arm64)
	# tinyconfig for arm64 and what the QEMU virt machine and the tests
	# need, in one fragment: the x86 ones name x86 devices.
	frags=("$TOP/config/arm64.config")
	karch=arm64 image=arch/arm64/boot/Image cc=aarch64-linux-gnu-gcc
	cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	# shellcheck disable=SC2086 # a list of package names
	"$TOP/scripts/root-install.sh" $ARM64_PACKAGES ;;
*) die "unknown VARIANT=$VARIANT (use debug or arm64)" ;;
esac
# SFRAME_KFRAGS: more fragments (paths, blank-separated), merged on top; with
# SFRAME_KOBJ, a kernel of its own beside the variant's (make bench's arm64
# kernel: config/arm64-bench.config into build/obj-arm64-bench).
read -ra extra <<<"${SFRAME_KFRAGS:-}"
frags+=("${extra[@]}")
# SFRAME_KMAKE_ARGS: variables for every make of this build (make coverage's
# GCOV_PROFILE_<stem>.o=y), blank-separated.
read -ra kargs <<<"${SFRAME_KMAKE_ARGS:-}"

JOBS=${JOBS:-$(( $(nproc) + 1 ))}
kmake() { in_root make -s -C "$TREE" O="$KOBJ" "${cross[@]}" CC="ccache $cc" -j"$JOBS" "${kargs[@]}" "$@"; }

stage "kernel config (${VARIANT:-default}: ${frags[*]##*/})"
mkdir -p "$KOBJ"
stamp=$({ cat "${frags[@]}" "$TREE/arch/$karch/Kconfig" "$TREE/arch/Kconfig"
	find "$TREE/kernel/unwind" "$TREE/lib" -maxdepth 1 -name 'Kconfig*' -exec cat {} +; } |
	sha256sum | cut -c1-16)
if [ ! -f "$KOBJ/.config" ] || [ "$(cat "$KOBJ/.config.stamp" 2>/dev/null)" != "$stamp" ]; then
	kmake tinyconfig >/dev/null
	in_root "$TREE/scripts/kconfig/merge_config.sh" -Q -m -O "$KOBJ" \
		"$KOBJ/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	echo "$stamp" > "$KOBJ/.config.stamp"
	info "made $KOBJ/.config"
else
	info "unchanged"
fi
# Every option asked for must be there, or the tests would test something else.
missing=0
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$KOBJ/.config" && { info "$opt should be off"; missing=1; }
			continue
		fi
		grep -qx "$line" "$KOBJ/.config" && continue
		sym=${opt#CONFIG_}
		if ! grep -rqs --include='Kconfig*' "^\(menu\)\?config $sym\$" "$TREE"; then
			info "$opt: not in this tree yet"
			continue
		fi
		info "$opt: asked for '$val', got '$(grep "^$opt=" "$KOBJ/.config" || echo unset)'"
		missing=1
	done < "$f"
done
# The bisect build (KCONFIG_LAX=1) builds patches that add an option before
# the patch that makes it selectable: there a missing option is expected.
if [ "$missing" != 0 ]; then
	[ "${KCONFIG_LAX:-0}" = 1 ] || die "the kernel config lacks options the fragments ask for (above)"
	info "(a patch in the middle of the series: options not available yet)"
fi

stage "kernel build (make -j$JOBS, ccache)"
start=$(date +%s)
kmake "${image##*/}"
info "built $(ls -la "$KOBJ/$image" | awk '{print $5}') bytes in $(( $(date +%s) - start )) s"
