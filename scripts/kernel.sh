#!/usr/bin/env bash
# Configure and build build/linux into build/obj (build/obj-debug for
# VARIANT=debug) inside the build root, with ccache. Incremental: the
# configuration is made again only when a fragment or the tree changes it.
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no build/linux: run 'make tree' first"
frags=("$TOP/config/vng.config" "$TOP/config/sframe.config")
[ "${VARIANT:-}" = debug ] && frags+=("$TOP/config/debug.config")
[ -z "${VARIANT:-}" ] || [ "${VARIANT}" = debug ] || die "unknown VARIANT=$VARIANT (use debug)"

JOBS=${JOBS:-$(( $(nproc) + 1 ))}
kmake() { in_root make -s -C "$TREE" O="$KOBJ" CC="ccache gcc" -j"$JOBS" "$@"; }

stage "kernel config (${VARIANT:-default}: ${frags[*]##*/})"
mkdir -p "$KOBJ"
stamp=$({ cat "${frags[@]}" "$TREE/arch/x86/Kconfig" "$TREE/arch/Kconfig"
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
kmake bzImage
info "built $(ls -la "$KOBJ/arch/x86/boot/bzImage" | awk '{print $5}') bytes in $(( $(date +%s) - start )) s"
