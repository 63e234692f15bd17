#!/usr/bin/env bash
# arm64-guest.sh TESTS OUT STRESS_SEC [CHAINS_SEC]: boot the arm64 kernel
# (VARIANT=arm64, build/obj-arm64) under qemu-system-aarch64 -cpu max (TCG:
# pointer authentication included) with an initramfs of the installed
# kselftests TESTS (build/kselftest-arm64), the cross C library and
# scripts/arm64-init.c as PID 1, and split its console into what
# scripts/tap-summary.py reads, as the x86 guest stage leaves it: OUT/dmesg
# (KUnit's KTAP), OUT/kselftest.tap and OUT/kselftest/NAME. The same boot
# samples chain.c's arm64 builds (workloads/Makefile's arm64 target) for
# CHAINS_SEC seconds each (default 2; 0: not at all) with
# scripts/arm64-chains.c, into OUT/chains/NAME for scripts/arm64-chains.py.
# The console stays in OUT/console.log; a kernel warning, BUG or other
# report in it fails the stage.
# The same boot samples the real program too (scripts/real.sh --arm64:
# sqlite3 built for aarch64, dynamic, with SFrame, unsigned, pac-ret and
# pac-ret+b-key, each in /chains/real-FLAVOUR/ with its libsqlite3.so.0),
# running workloads/real.sql once (its fixed workload, as e2e's), into
# OUT/chains/real-FLAVOUR; the initramfs has the cross glibc's shared
# libraries they need. OUT/chains.list names what was sampled,
# OUT/initramfs.list which host file each guest file is (for the checker's
# symbols).
#
# arm64-guest.sh --bench OUT: make bench's boot instead (scripts/
# bench-arm64.sh; its kernel: SFRAME_KOBJ, with the function_graph tracer):
# no kselftests, no chains; the initramfs has the sampler, deep.c's and the
# real program's arm64 bench builds (workloads/Makefile's arm64-bench and
# real-arm64 pac and fppac: SFrame and frame pointers, both pac-ret) in
# /bench, and OUT/bench.list (the runs, "LABEL PROGRAM ARG..." a line, in
# guest paths) as /bench/list; the kernel command line has sframe.bench=1
# (scripts/arm64-init.c), QEMU the options in ARM64_QEMU_OPTS too (the
# bench's -icount). Each run's lines go into OUT/bench/LABEL.
. "$(dirname "$0")/lib.sh"

bench=
if [ "${1:-}" = --bench ]; then
	bench=1 out=$2 tests='' stress=0 chains_sec=0
	[ -s "$out/bench.list" ] || die "no runs in ${out#"$TOP"/}/bench.list"
else
	tests=$1 out=$2 stress=${3:-10} chains_sec=${4:-2}
fi
image=$KOBJ/arch/arm64/boot/Image
[ -f "$image" ] || die "no arm64 kernel at ${image#"$TOP"/}: run 'make kernel VARIANT=arm64'"
[ -n "$bench" ] || [ -s "$tests/kselftest-list.txt" ] || die "no arm64 kselftests in ${tests#"$TOP"/}: run 'make selftests-build VARIANT=arm64'"

# PID 1, static: the initramfs has no shell.
init=$out/init
in_root aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o "$init" "$TOP/scripts/arm64-init.c" ||
	die "scripts/arm64-init.c does not build"

# The end-to-end check of the chains: the sampler, static, against the
# kernel's UAPI headers (made by the kselftests' build) and the kselftests'
# sframe_perf.h, and the workloads it samples.
chains=()
if [ "$chains_sec" != 0 ] || [ -n "$bench" ]; then
	sel=$TREE/tools/testing/selftests
	in_root aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -isystem "$KOBJ/usr/include" \
		-I "$sel" -I "$sel/sframe" -o "$out/arm64-chains" "$TOP/scripts/arm64-chains.c" ||
		die "scripts/arm64-chains.c does not build"
fi
if [ -n "$bench" ]; then
	in_root make -s -C "$TOP/workloads" arm64-bench > "$out/workloads.log" 2>&1 || {
		cat "$out/workloads.log"
		die "the arm64 bench workloads do not build (make -C workloads arm64-bench)"
	}
	"$TOP/scripts/real.sh" --arm64 pac fppac > "$out/real.log" 2>&1 || {
		cat "$out/real.log"
		die "the real program does not build for arm64 (scripts/real.sh --arm64 pac fppac)"
	}
elif [ "$chains_sec" != 0 ]; then
	in_root make -s -C "$TOP/workloads" arm64 > "$out/workloads.log" 2>&1 || {
		cat "$out/workloads.log"
		die "the arm64 workloads do not build (make -C workloads arm64)"
	}
	"$TOP/scripts/real.sh" --arm64 > "$out/real.log" 2>&1 || {
		cat "$out/real.log"
		die "the real program does not build for arm64 (scripts/real.sh --arm64)"
	}
	chains=(chain-sframe chain-pac chain-pacb)
	reals=(sframe pac pacb)
	# The real program's fixed workload, its script in /chains.
	real_args=$(python3 "$TOP/scripts/workloads.py" real-args)
	real_args=${real_args//workloads\/real.sql//chains/real.sql}
	{
		printf '%s\n' "${chains[@]}"
		for f in "${reals[@]}"; do
			printf 'real-%s /chains/real-%s/sqlite3 %s\n' "$f" "$f" "$real_args"
		done
	} > "$out/chains.list"
fi

# The initramfs: made by the kernel's own gen_init_cpio (built with the x86
# kernel's objects or here), from a list of what goes in.
list=$out/initramfs.list
# Paths as the root sees them: gen_init_cpio reads the files there.
rt() { printf '%s' "${1/#"$TOP"/"$RTOP"}"; }
# real_builds DIR FLAVOUR...: initramfs list lines for sqlite3's arm64
# builds (build/real-arm64/FLAVOUR/) in DIR/real-FLAVOUR/, then the C
# library's objects they need.
real_builds() {
	local dir=$1 f o
	local -a objs=()
	shift
	for f; do
		printf 'dir %s/real-%s 0755 0 0\n' "$dir" "$f"
		for o in sqlite3 libsqlite3.so.0; do
			objs+=("$BUILD/real-arm64/$f/$o")
			printf 'file %s/real-%s/%s %s 0755 0 0\n' "$dir" "$f" "$o" "$(rt "${objs[-1]}")"
		done
	done
	needed_libs "${objs[@]}"
}
# needed_libs OBJECT...: the C library's objects that they need, besides
# libc.so.6 and the dynamic linker, as initramfs list lines.
needed_libs() {
	# shellcheck disable=SC2016
	in_root sh -c 'for f; do aarch64-linux-gnu-readelf -dW "$f"; done' - "$@" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | sort -u |
		while read -r lib; do
			case $lib in libsqlite3.so.0|libc.so.6|ld-linux-aarch64.so.1) continue ;; esac
			[ -f "$ROOT/usr/aarch64-linux-gnu/lib/$lib" ] ||
				die "no $lib in the cross C library (/usr/aarch64-linux-gnu/lib)"
			printf 'file /lib/aarch64-linux-gnu/%s /usr/aarch64-linux-gnu/lib/%s 0755 0 0\n' \
				"$lib" "$lib"
		done
}
if [ -n "$bench" ]; then {
	printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
	printf 'dir %s 0755 0 0\n' /proc /sys /tmp /lib /lib/aarch64-linux-gnu /bench
	printf 'file /init %s 0755 0 0\n' "$(rt "$init")"
	printf 'file /lib/ld-linux-aarch64.so.1 /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 0755 0 0\n'
	printf 'file /lib/aarch64-linux-gnu/libc.so.6 /usr/aarch64-linux-gnu/lib/libc.so.6 0755 0 0\n'
	printf 'file /bench/list %s 0644 0 0\n' "$(rt "$out/bench.list")"
	printf 'file /bench/arm64-chains %s 0755 0 0\n' "$(rt "$out/arm64-chains")"
	printf 'file /bench/real.sql %s 0644 0 0\n' "$(rt "$TOP/workloads/real.sql")"
	for f in pac fppac; do
		printf 'file /bench/deep-%s %s 0755 0 0\n' "$f" "$(rt "$BUILD/workloads-arm64/deep-$f")"
	done
	real_builds /bench pac fppac
} > "$list"; else {
	printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
	printf 'dir %s 0755 0 0\n' /proc /sys /tmp /lib /lib/aarch64-linux-gnu /sframe
	printf 'file /init %s 0755 0 0\n' "$(rt "$init")"
	printf 'file /kselftest-list.txt %s 0644 0 0\n' "$(rt "$tests/kselftest-list.txt")"
	printf 'file /lib/ld-linux-aarch64.so.1 /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 0755 0 0\n'
	printf 'file /lib/aarch64-linux-gnu/libc.so.6 /usr/aarch64-linux-gnu/lib/libc.so.6 0755 0 0\n'
	if [ ${#chains[@]} != 0 ]; then
		printf 'dir /chains 0755 0 0\n'
		printf 'file /chains/list %s 0644 0 0\n' "$(rt "$out/chains.list")"
		printf 'file /chains/arm64-chains %s 0755 0 0\n' "$(rt "$out/arm64-chains")"
		for c in "${chains[@]}"; do
			printf 'file /chains/%s %s 0755 0 0\n' "$c" "$(rt "$BUILD/workloads-arm64/$c")"
		done
		printf 'file /chains/real.sql %s 0644 0 0\n' "$(rt "$TOP/workloads/real.sql")"
		# With the C library's other objects that they need (libc.so.6 is there).
		real_builds /chains "${reals[@]}"
	fi
	(cd "$tests/sframe" && find . -type f | sort) | while read -r f; do
		printf 'file /sframe/%s %s 0755 0 0\n' "${f#./}" "$(rt "$tests/sframe/${f#./}")"
	done
} > "$list"; fi
in_root sh -c 'gcc -O2 -o "$1/gen_init_cpio" "$2/usr/gen_init_cpio.c" &&
	"$1/gen_init_cpio" "$3" | gzip -1 > "$1/initramfs.gz"' - "$out" "$TREE" "$list" ||
	die "the initramfs could not be made"
info "initramfs: $(grep -c '^file' "$list") files, $(( $(stat -c %s "$out/initramfs.gz") / 1024 )) KiB"
# A 9p share (not for --bench): the programs that need a file system whose
# page cache write() leaves empty, as the x86 guest's build/ share (cache=none),
# with the libraries they load beside themselves; scripts/arm64-init.c
# mounts it on /sframe-9p and runs a program from there when it is there.
share=$out/9p
rm -rf "$share"
mkdir -p "$share"
[ -n "$bench" ] || cp -p "$tests/sframe/sframe_found_test" "$tests/sframe"/libsft_*.so "$share/"

start=$(date +%s)
log=$out/console.log
rc=0
append="console=ttyAMA0 panic=-1 sframe.stress=$stress sframe.chains=$chains_sec"
[ -z "$bench" ] || append="console=ttyAMA0 panic=-1 sframe.bench=1"
read -ra qopts <<<"${ARM64_QEMU_OPTS:-}"
[ -n "$bench" ] || qopts+=(-fsdev "local,id=sframe9p,path=$share,security_model=none"
	-device virtio-9p-device,fsdev=sframe9p,mount_tag=sframe9p)
in_root timeout "${VM_TIMEOUT:-1500}" qemu-system-aarch64 -machine virt -cpu max \
	-smp 2 -m 1G -nographic -no-reboot "${qopts[@]}" -kernel "$image" -initrd "$out/initramfs.gz" \
	-append "$append" > "$log" 2>&1 || rc=$?
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
info "guest ran in $(( $(date +%s) - start )) s, exit status $rc (log: ${log#"$TOP"/})"
grep -h '^#== guest' "$log" | sed 's/^#== /    /' || true

# Split the console: the kernel's lines ("[  1.234] ...") go to dmesg
# wherever they are, the programs' lines between their markers.
mkdir -p "$out/kselftest" "$out/chains"
python3 - "$log" "$out" <<'EOF'
import re, sys, os
log, out = sys.argv[1:3]
kernel = re.compile(r'^\[\s*\d+\.\d+\]')
dmesg, where, files, chains, tap, bench = [], None, {}, {}, None, {}
for line in open(log, errors='replace').read().splitlines():
    if kernel.match(line):
        dmesg.append(line)
    elif line.startswith('#== begin '):
        where = files.setdefault(line[10:].strip(), [])
    elif line.startswith('#== chains begin '):
        where = chains.setdefault(line[17:].strip(), [])
    elif line.startswith('#== bench begin '):
        where = bench.setdefault(line[16:].strip(), [])
    elif line.startswith(('#== end ', '#== chains end ', '#== bench end ')):
        where = None
    elif line == '#== tap':
        tap = where = []
    elif line == '#== tap end':
        where = None
    elif where is not None:
        where.append(line)
with open(os.path.join(out, 'dmesg'), 'w') as f:
    f.write('\n'.join(dmesg) + '\n')
for name, lines in files.items():
    with open(os.path.join(out, 'kselftest', name), 'w') as f:
        f.write('\n'.join(lines) + '\n')
for name, lines in chains.items():
    with open(os.path.join(out, 'chains', name), 'w') as f:
        f.write('\n'.join(lines) + '\n')
if bench:
    os.makedirs(os.path.join(out, 'bench'), exist_ok=True)
for name, lines in bench.items():
    with open(os.path.join(out, 'bench', name), 'w') as f:
        f.write('\n'.join(lines) + '\n')
if tap is not None:
    with open(os.path.join(out, 'kselftest.tap'), 'w') as f:
        f.write('\n'.join(tap) + '\n')
EOF

bad=$(grep -E -m 10 '(WARNING:|BUG:|Oops|Kernel panic|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|unreferenced object|Unable to handle kernel|Internal error|Call trace:)' "$log" || true)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^/    /'
	die "the arm64 guest kernel reported problems (above); log: ${log#"$TOP"/}"
fi
if [ -n "$bench" ]; then
	grep -q '^#== bench done' "$log" || die "the arm64 guest did not finish its bench runs; log: ${log#"$TOP"/}"
else
	[ -s "$out/kselftest.tap" ] || die "the arm64 guest did not finish its tests; log: ${log#"$TOP"/}"
fi
[ "$rc" = 0 ] || die "qemu-system-aarch64 exited with $rc; log: ${log#"$TOP"/}"
