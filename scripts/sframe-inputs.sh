#!/usr/bin/env bash
# The real ELF files with SFrame that the harness, fuzz and difftest stages
# read. Builds what is missing, then lists them, as the build root sees
# them ("VERSION PATH", VERSION of the SFrame header), in
# build/sframe-inputs/list:
#   build/workloads/*-sframe           workloads/*.c (make -C workloads)
#   build/sframe-inputs/selftests/     the series' kselftests
#                                      (tools/testing/selftests/sframe of
#                                      build/linux, against its UAPI headers)
#   build/sframe-inputs/samples-*      scripts/sframe/samples.[cS], with and
#                                      without frame pointers: what the others
#                                      lack (FLEX FDEs, an outermost function,
#                                      a signal trampoline, large frames)
#   build/real/sframe/                 sqlite3 and libsqlite3.so.0 (make real)
#   build/obj's vDSO                   when a kernel build left one with SFrame
#   the root's /usr/bin, /usr/sbin, /usr/lib/x86_64-linux-gnu
#                                      Debian's own files (version 2 today)
. "$(dirname "$0")/lib.sh"

out=$BUILD/sframe-inputs
mkdir -p "$out"
[ -e "$TREE/.git" ] || "$TOP/scripts/tree.sh"

in_root make -s -C workloads
"$TOP/scripts/real.sh" > "$out/real.log" 2>&1 ||
	{ cat "$out/real.log"; die "make real failed"; }

# The kselftests and samples, again when build/linux or the samples change.
key=$( {
	git -C "$TREE" rev-parse HEAD
	git -C "$TREE" diff HEAD -- tools/testing/selftests/sframe include/uapi
	cat "$TOP"/scripts/sframe/samples.*
} | sha256sum)
if [ "$(cat "$out/.key" 2>/dev/null)" != "$key" ]; then
	rm -rf "$out/hdr" "$out/selftests" "$out"/samples-* "$out/.key"
	mkdir -p "$out/selftests"
	if ! { in_root make -s -C "$TREE" O="$out/hdr" headers &&
	       in_root make -s -C "$TREE/tools/testing/selftests/sframe" \
			OUTPUT="$out/selftests" KHDR_INCLUDES="-isystem $out/hdr/usr/include"
	     } > "$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log"
		die "the kselftests do not build (log: ${out#"$TOP"/}/build.log)"
	fi
	for f in sframe:-fomit-frame-pointer fp:-fno-omit-frame-pointer; do
		in_root gcc -O2 "${f#*:}" -Wa,--gsframe-3 -o "$out/samples-${f%%:*}" \
			scripts/sframe/samples.c scripts/sframe/samples.S
	done
	echo "$key" > "$out/.key"
fi

vdso=$KOBJ/arch/x86/entry/vdso/vdso64/vdso64.so.dbg
[ -f "$vdso" ] || vdso=
in_root python3 scripts/sframe/files.py build/workloads "$out/selftests" \
	"$out/selftests/interp" "$out" "$BUILD/real/sframe" ${vdso:+"$vdso"} \
	/usr/bin /usr/sbin /usr/lib/x86_64-linux-gnu > "$out/list"
# Paths of this checkout as the root sees them, relative to it.
root_args "$TOP/"
sed -i "s| ${RARGS[0]}| |" "$out/list"
info "$(awk '$1 == 3' "$out/list" | wc -l) files with SFrame V3, $(awk '$1 != 3' "$out/list" | wc -l) with older versions (build/sframe-inputs/list)"
