#!/usr/bin/env bash
# Build the series' kselftests (tools/testing/selftests/sframe) in the root
# against the built kernel's UAPI headers, into build/selftests/sframe.
. "$(dirname "$0")/lib.sh"

src=$TREE/tools/testing/selftests/sframe
out=$BUILD/selftests${VARIANT:+-$VARIANT}/sframe
stage "kselftests build (tools/testing/selftests/sframe)"
rm -rf "$out"
if [ ! -d "$src" ]; then
	skip "the series has no kselftests yet: nothing to build"
fi
mkdir -p "$out"
in_root make -s -C "$TREE" O="$KOBJ" headers >/dev/null
in_root make -s -C "$src" OUTPUT="$out" KHDR_INCLUDES="-isystem $KOBJ/usr/include"
info "built: $(cd "$out" && find . -maxdepth 1 -type f -perm -u+x | sed 's|^\./||' | sort | tr '\n' ' ')"
