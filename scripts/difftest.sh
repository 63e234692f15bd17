#!/usr/bin/env bash
# The kernel's SFrame reader against binutils' libsframe: for every IP of
# the executable segments of the real SFrame files (scripts/sframe-inputs.sh:
# workloads, kselftests, samples, sqlite3 and its library, the root's own),
# the reader through its user-space harness ("sframe_test dump") and
# libsframe (scripts/sframe/oracle.c) must find the same FDE and the same
# CFA, RA and FP rules, or differ only as scripts/sframe/compare.py
# documents it (and says so). One test per file.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

out=$BUILD/difftest
stage "differential test: the kernel's SFrame reader and libsframe, every IP of the real files"
harness_need
rm -rf "$out"
mkdir -p "$out/dumps"
harness_build "$out/build.log"
in_root gcc -O2 -Wall -Werror -I/usr/include/libiberty -o "$out/oracle" \
	scripts/sframe/oracle.c -lsframe >> "$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log"; die "scripts/sframe/oracle.c does not build against libsframe"; }
"$TOP/scripts/sframe-inputs.sh"

# NAME.kernel and NAME.oracle for each file; NAME from its path.
t=$(date +%s)
sframe_files all > "$out/files"
# shellcheck disable=SC2016
in_root bash -c 'set -e
	while read -r f; do
		n=${f#build/}; n=${n#sframe-inputs/}; n=${n//\//_}; n=${n#_}
		[ "${f#/}" = "$f" ] || n=root_$n
		"$1" dump "$f" > "$3/$n.kernel" 2>> "$3/kernel.log"
		"$2" "$f" > "$3/$n.oracle"
	done < "$4"' - "$H/sframe_test" "$out/oracle" "$out/dumps" "$out/files" ||
	die "a dump failed (logs: build/difftest/dumps/kernel.log)"
info "$(wc -l < "$out/files") files dumped by both in $(( $(date +%s) - t )) s"
in_root python3 scripts/sframe/compare.py "$out/dumps"
