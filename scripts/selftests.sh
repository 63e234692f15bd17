#!/usr/bin/env bash
# Build the series' kselftests (TARGETS=sframe) in the root against the built
# kernel's UAPI headers, and install them the kselftest way (the kselftest-
# install target: run_kselftest.sh, kselftest-list.txt, sframe/ with its
# helpers and settings) into build/kselftest; objects in build/selftests
# (SFRAME_KSELFTEST and SFRAME_SELFTESTS elsewhere: make mainline's).
. "$(dirname "$0")/lib.sh"

src=$TREE/tools/testing/selftests
objs=${SFRAME_SELFTESTS:-$BUILD/selftests${VARIANT:+-$VARIANT}}
inst=${SFRAME_KSELFTEST:-$BUILD/kselftest${VARIANT:+-$VARIANT}}
stage "kselftests build and install (make -C tools/testing/selftests TARGETS=sframe install)"
rm -rf "$objs" "$inst"
if [ ! -d "$src/sframe" ]; then
	skip "the series has no kselftests yet: nothing to build"
fi
mkdir -p "$objs"
log=$objs/install.log
# VARIANT=arm64: cross-built, against the arm64 kernel's headers.
cross=()
[ "${VARIANT:-}" = arm64 ] && cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
in_root make -s -C "$TREE" O="$KOBJ" "${cross[@]}" headers >/dev/null
# O= names the kernel objects (the UAPI headers in usr/include); BUILD= and
# KSFT_INSTALL_PATH= keep the selftests' own files out of them.
in_root make -s -C "$src" "${cross[@]}" TARGETS=sframe FORCE_TARGETS=1 O="$KOBJ" BUILD="$objs" \
	KSFT_INSTALL_PATH="$inst" install > "$log" 2>&1 || {
	tail -n 30 "$log"
	die "the kselftests do not build or install (log: ${log#"$TOP"/})"
}
grep -v '^\*\*Kselftest Installation\|^Emit Tests\|^Unable to get version' "$log" |
	sed 's/^/    /' || true
[ -s "$inst/kselftest-list.txt" ] || die "kselftest-list.txt names no test (log: ${log#"$TOP"/})"
# The fail-nth sweeps need fault injection, which only the debug kernel has
# (config/debug.config): only its guest lists them (make fault runs them
# alone, in a boot of their own).
if [ "${VARIANT:-}" != debug ] && grep -q '^sframe:sframe_fault_test$' "$inst/kselftest-list.txt"; then
	sed -i '/^sframe:sframe_fault_test$/d' "$inst/kselftest-list.txt"
	info "sframe_fault_test: installed, not listed (the debug kernel's guest runs it)"
fi
info "installed: ${inst#"$TOP"/} ($(wc -l < "$inst/kselftest-list.txt") programs):" \
	"$(cut -d: -f2 "$inst/kselftest-list.txt" | tr '\n' ' ')"
info "helpers: $(cd "$inst/sframe" && find . -type f ! -name '*_test' | sed 's|^\./||' | sort | tr '\n' ' ')"
