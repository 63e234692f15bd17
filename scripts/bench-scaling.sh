#!/usr/bin/env bash
# make bench-scaling (issue 9, item 2): the cost of one SFrame lookup in
# sections of 10^3 to 10^6 functions (FDEs) of 1 to 32768 FREs each, the
# most that one lookup may read (SFRAME_MAX_WALK_FRES). The reader is
# kernel/unwind/sframe.c of build/linux, compiled unchanged in user space
# as the harness compiles it (scripts/sframe/scale.c: synthetic sections,
# random IPs, every answer checked against the generator). valgrind's
# callgrind counts the instructions of each loop of lookups (deterministic:
# the same figures every run, on any machine with the same compiler),
# less a loop that does not look up, and simulates a 32 KiB L1 and an
# 8 MiB last-level cache for the misses. Then the same lookups are timed
# natively (best of 5; noisy on a busy machine, but they show what the
# caches and TLB do to a big section). Prints the table and ends with
#   lookup 10^3 -> 10^6 FDEs: X.XXx instructions (goal <= 2x), ...
# Not a test: it fails only when an answer is wrong or a run fails.
#   scripts/bench-scaling.sh             the benchmark (about 2 min)
#   scripts/bench-scaling.sh --smoke     the answers only, natively, no
#                                        valgrind: big sections, the walk
#                                        budget (-E2BIG), under 20 s
#   scripts/bench-scaling.sh --kernel    the kernel's side (needs make kernel):
#                                        one boot (SCALE_CLOCK: icount, or
#                                        realtime), sframe-scale
#                                        (workloads/bench/) registers a
#                                        section of each SCALE_FDES functions
#                                        with PR_ADD_SFRAME and spins on a
#                                        made-up stack of SCALE_DEPTH (100)
#                                        return addresses into it under perf
#                                        record --call-graph fp,defer for
#                                        SCALE_SECS (2) s; the function_graph
#                                        tracer times each walk; 4 min
#   scripts/bench-scaling.sh --worst     the kernel's worst case (issue 8; needs
#                                        make kernel): one icount boot,
#                                        sframe-worst (workloads/bench/)
#                                        registers functions of 65535 FREs and
#                                        spins on a made-up stack of
#                                        WORST_DEPTHS return addresses into
#                                        them that it rewrites at random all
#                                        the time (the cache misses), so that
#                                        each walk reads its whole budget of
#                                        32768 FREs; sampled at 1 kHz for
#                                        WORST_SECS (2) s, each walk timed as
#                                        --kernel does; scripts/bench-worst.py
#                                        compares them with the documented
#                                        bound (about 10^7 instructions per sample)
#   scripts/bench-scaling.sh --report    the tables again from build/bench-scaling/
# Settings: SCALE_FDES ("1000 10000 100000 1000000"), SCALE_FRES
# ("1 4 16 64 256 4096 32768"), SCALE_MAX ((FDEs x FREs) of a section,
# 70000000: about 5 bytes an FRE), SCALE_NATIVE (1; 0: no timing).
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/harness-lib.sh"

# SCALE_OUT: elsewhere than build/bench-scaling (another SFRAME_TREE).
out=${SCALE_OUT:-$BUILD/bench-scaling}
mode=${1:-bench}

# build_driver: build/bench-scaling/sframe_scale, -O2 as the kernel, against
# the harness's shims.
build_driver() {
	mkdir -p "$out"
	harness_driver "$TOP/scripts/sframe/scale.c" "$out/sframe_scale" "$out/build.log"
}

# worst_run: sframe-worst (workloads/bench/sframe-worst.c) in an icount
# guest for each of WORST_DEPTHS, into build/bench-scaling/worst/.
worst_run() {
	[ -f "$KOBJ/arch/x86/boot/bzImage" ] ||
		die "no kernel at ${KOBJ#"$TOP"/}/arch/x86/boot/bzImage: run 'make kernel'"
	in_root make -s -C workloads bench > "$out/workloads.log" 2>&1 ||
		{ tail -n 20 "$out/workloads.log"; die "workloads/bench does not build"; }
	rm -rf "$out/worst"
	# shellcheck disable=SC2086
	if ! VM_QEMU_OPTS='-icount shift=0,align=off,sleep=off' \
		VM_APPEND="tsc=reliable tsc_early_khz=1000000" VM_TIMEOUT=2400 \
		"$TOP/scripts/vm.sh" --log "$out/worst.log" \
		"$TOP/scripts/bench-scaling-guest.sh" "$out/worst" \
		"$BUILD/workloads/bench/sframe-worst" "${WORST_FUNCS:-64}:${WORST_FILLER:-1000000}" \
		"${WORST_SECS:-2}" 1000000 ${WORST_DEPTHS:-1 16 128 500} |
		sed 's/^/    /'; then
		die "the icount boot failed (log: build/bench-scaling/worst.log)"
	fi
}

# kernel_run CLOCK: sframe-scale (workloads/bench/sframe-scale.c) in the
# guest for each SCALE_FDES, its walks timed (scripts/bench-scaling-guest.sh),
# into build/bench-scaling/kernel/CLOCK/.
kernel_run() {
	local clock=$1 qemu khz
	[ -f "$KOBJ/arch/x86/boot/bzImage" ] ||
		die "no kernel at ${KOBJ#"$TOP"/}/arch/x86/boot/bzImage: run 'make kernel'"
	in_root make -s -C workloads bench > "$out/workloads.log" 2>&1 ||
		{ tail -n 20 "$out/workloads.log"; die "workloads/bench does not build"; }
	case $clock in
	icount) qemu='-icount shift=0,align=off,sleep=off' khz=1000000 ;;
	realtime) qemu='' khz=$(in_root "$BUILD/workloads/bench/tsc-khz") ;;
	*) die "SCALE_CLOCK: unknown clock $clock (icount, realtime)" ;;
	esac
	mkdir -p "$out/kernel"
	rm -rf "$out/kernel/$clock"
	# shellcheck disable=SC2086
	if ! VM_QEMU_OPTS=$qemu VM_APPEND="tsc=reliable tsc_early_khz=$khz" VM_TIMEOUT=1800 \
		"$TOP/scripts/vm.sh" --log "$out/kernel/$clock.log" \
		"$TOP/scripts/bench-scaling-guest.sh" "$out/kernel/$clock" \
		"$BUILD/workloads/bench/sframe-scale" "${SCALE_DEPTH:-100}" \
		"${SCALE_SECS:-2}" 1000000 ${SCALE_FDES:-1000 10000 100000 1000000} |
		sed 's/^/    /'; then
		die "the $clock boot failed (log: build/bench-scaling/kernel/$clock.log)"
	fi
}

case $mode in
--kernel)
	stage "SFrame lookup scaling in the kernel: deferred walks through synthetic sections (${SCALE_CLOCK:-icount} clock)"
	t=$(date +%s)
	kernel_run "${SCALE_CLOCK:-icount}"
	info "boot: $(( $(date +%s) - t )) s"
	"$TOP/scripts/bench-scaling.py" "$out" | tee "$out/table.txt"
	exit
	;;
--worst)
	stage "SFrame worst case in the kernel: walks that read their whole FRE budget, cache defeated, 1 kHz (icount)"
	mkdir -p "$out"
	t=$(date +%s)
	worst_run
	info "boot: $(( $(date +%s) - t )) s"
	"$TOP/scripts/bench-worst.py" "$out/worst" | tee "$out/worst.txt"
	exit
	;;
--report)
	exec "$TOP/scripts/bench-scaling.py" "$out"
	;;
--smoke)
	# 10^6 functions; 65535 FREs, the format's most, half of them beyond
	# one walk's budget; validated whole (sframe_validate_section()).
	stage "SFrame lookups in big synthetic sections: 10^6 FDEs, 65535 FREs, the walk budget"
	harness_need
	build_driver
	t=$(date +%s)
	if in_root "$out/sframe_scale" -V 1000000:1 10000:16 50:65535 > "$out/smoke.txt" 2> "$out/smoke.log"; then
		sed 's/ orc4096_entries.*//; s/^/    /' "$out/smoke.txt"
		info "every answer right in $(( $(date +%s) - t )) s: $(awk '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			printf "%s%s FDEs x %s FREs", (NR > 1 ? ", " : ""), v["fdes"], v["fres"]
			e += v["e2big"]; n += v["lookups"] }
			END { printf " (%d of %d lookups -E2BIG), validated; the ORC-style prototype too", e, n }' "$out/smoke.txt")"
		echo "counts: 1 0 0"
	else
		sed 's/^/    /' "$out/smoke.log" | head -n 20
		info "FAIL: wrong answers (log: build/bench-scaling/smoke.log)"
		info "rerun: scripts/bench-scaling.sh --smoke"
		echo "counts: 0 1 0"
		exit 1
	fi
	exit 0
	;;
bench) ;;
*) die "usage: $0 [--smoke|--kernel|--worst|--report]" ;;
esac

stage "SFrame lookup scaling (issue 9 item 2): instructions per lookup under callgrind"
harness_need
"$TOP/scripts/root-install.sh" valgrind
build_driver

cells=()
for d in ${SCALE_FDES:-1000 10000 100000 1000000}; do
	for r in ${SCALE_FRES:-1 4 16 64 256 4096 32768}; do
		[ $((d * r)) -le "${SCALE_MAX:-70000000}" ] && cells+=("$d:$r")
	done
done
info "${#cells[@]} sections: ${cells[*]}"

rm -rf "$out/cg" "$out/cells.txt" "$out/native.txt"
mkdir -p "$out/cg"
t=$(date +%s)
in_root valgrind --tool=callgrind --instr-atstart=no \
	--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
	--callgrind-out-file="$out/cg/cg.out" \
	"$out/sframe_scale" "${cells[@]}" > "$out/cells.txt" 2> "$out/callgrind.log" ||
	{ grep -v '^==' "$out/callgrind.log" | head -n 20; die "the callgrind run failed (log: build/bench-scaling/callgrind.log)"; }
info "callgrind: $(( $(date +%s) - t )) s"
if [ "${SCALE_NATIVE:-1}" = 1 ]; then
	t=$(date +%s)
	in_root "$out/sframe_scale" -t "${cells[@]}" > "$out/native.txt" 2> "$out/native.log" ||
		{ head -n 20 "$out/native.log"; die "the native run failed (log: build/bench-scaling/native.log)"; }
	info "native: $(( $(date +%s) - t )) s"
fi
"$TOP/scripts/bench-scaling.py" "$out" | tee "$out/table.txt"
