#!/usr/bin/env bash
# make bench's arm64 part: the deferred walk's time per frame on arm64,
# SFrame against frame pointers, as x86's bench measures it (deep and real:
# scripts/bench.py).
#   scripts/bench-arm64.sh [--no-boot] [--no-report]
# (scripts/bench.sh --arm64, make bench-arm64: this alone; make bench runs
# it after its x86 boots, with --no-report, and puts its table and line in
# its own report.) Builds its kernel, build/obj-arm64-bench: config/
# arm64.config with config/arm64-bench.config on top (the function_graph
# tracer; scripts/kernel.sh's SFRAME_KFRAGS), beside make check's build/
# obj-arm64, which it leaves alone; then boots it once under
# qemu-system-aarch64 -cpu max with -icount shift=0,align=off,sleep=off
# (guest time counts instructions: the figures do not depend on the host's
# load) with scripts/arm64-guest.sh --bench: BENCH_REPS (3) repetitions,
# interleaved, of
#   deep      deep.c for aarch64 at D = 100 and 20 (-n BENCH_DEEP_ROUNDS, 300)
#   real      sqlite3 running workloads/real.sql
# each in its SFrame build (pac: no frame pointers) and its frame-pointer
# build (fppac), both pac-ret, sampled by scripts/arm64-chains.c --bench
# with every deferred walk timed by the function_graph tracer
# (scripts/arm64-init.c, sframe.bench=1). Its last line:
#   arm64 per-frame SFrame/FP: deep X.XXx, real Y.YYx
# Runs: build/bench-arm64/bench/LABEL, console: build/bench-arm64/console.log,
# raw numbers: build/bench-arm64/results.txt. --no-boot reports on the runs
# of the last boot again.
. "$(dirname "$0")/lib.sh"

boot=1 report=1
for a in "$@"; do
	case "$a" in
	--no-boot) boot=0 ;;
	--no-report) report=0 ;;
	*) die "usage: $(basename "$0") [--no-boot] [--no-report]" ;;
	esac
done
out=$BUILD/bench-arm64
reps=${BENCH_REPS:-3}
kobj=$BUILD/obj-arm64-bench
t0=$(date +%s)

if [ "$boot" = 1 ]; then
	SFRAME_KOBJ=$kobj SFRAME_KFRAGS=$TOP/config/arm64-bench.config VARIANT=arm64 \
		"$TOP/scripts/kernel.sh"
	# The UAPI headers that the sampler is built against (usr/include).
	in_root make -s -C "$TREE" O="$kobj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		headers >/dev/null
	rm -rf "$out"
	mkdir -p "$out"
	"$TOP/scripts/bench.py" arm64-runs --reps "$reps" --rounds "${BENCH_DEEP_ROUNDS:-300}" \
		"$(python3 "$TOP/scripts/workloads.py" real-args)" > "$out/bench.list"
	stage "arm64 bench boot, icount clock (build/obj-arm64-bench): $(wc -l < "$out/bench.list") runs"
	b0=$(date +%s)
	if ! SFRAME_KOBJ=$kobj ARM64_QEMU_OPTS='-icount shift=0,align=off,sleep=off' \
		VM_TIMEOUT=${BENCH_TIMEOUT:-5400} "$TOP/scripts/arm64-guest.sh" --bench "$out" \
		> "$out/boot.out" 2>&1; then
		tail -n 30 "$out/boot.out"
		die "the arm64 bench boot failed; its output: ${out#"$TOP"/}/boot.out"
	fi
	info "arm64 boot: $(( $(date +%s) - b0 )) s (guest output: ${out#"$TOP"/}/console.log)"
fi
[ -d "$out/bench" ] || die "no ${out#"$TOP"/}/bench: run without --no-boot"
[ "$report" = 1 ] || exit 0
stage "arm64 bench results (medians of $reps repetitions, (min-max))"
[ "$boot" = 0 ] || info "took $(( $(date +%s) - t0 )) s; raw numbers: ${out#"$TOP"/}/results.txt"
"$TOP/scripts/bench.py" arm64-report --results "$out/results.txt" "$out"
