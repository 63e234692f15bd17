#!/usr/bin/env bash
# make bench: what SFrame unwinding costs, measured, with its noise.
#   scripts/bench.sh [--no-boot]
#   scripts/bench.sh --arm64 [--no-boot]   (make bench-arm64) the arm64 part alone
# Not a test: it prints figures and fails only when a run fails. Builds the
# workloads, the benchmark's helpers (workloads/bench/) and the real program,
# then boots the built kernel once per guest clock (BENCH_CLOCKS, by default
#   icount    QEMU -icount shift=0: the guest's clock counts instructions,
#             so a run gives the same figures every time
#   realtime  QEMU TCG as make check runs it: host time, with its noise
# both with tsc=reliable and the TSC frequency given (tsc_early_khz): under
# a busy host the guest's own TSC calibration can fail, which leaves it a
# 1 ms jiffies clock and no high-resolution timers, and so no 10 kHz
# sampling) and runs, BENCH_REPS times (3) interleaved (scripts/bench.py):
#   deep      the deferred unwinder's own time per frame: every walk timed
#             by the function_graph tracer, SFrame and frame-pointer builds,
#             at two depths (frame cost and fixed cost per walk)
#   real      the real program (sqlite3, workloads/real.sql): the same per
#             frame, and its CPU and wall time without perf, and under perf
#             record at 999 and 9999 Hz: SFrame, frame pointers, dwarf;
#             perf.data bytes per sample
#   exec      BENCH_EXECS (1000) execs of a static SFrame binary, as built,
#             without .sframe, without PT_GNU_SFRAME
#   regs      kernel memory per registered section (BENCH_SECTIONS, 4000)
# and, with the icount clock, once more deep and real with the tracer on the
# walk's functions too: where the time of a frame goes; then the lookup
# scaling of make bench-scaling (BENCH_SCALING=0: not); and the same per-frame
# cost on arm64 (scripts/bench-arm64.sh: its own kernel, one boot under
# qemu-system-aarch64 -icount, deep and real; BENCH_ARM64=0: not). It ends
# with "arm64 per-frame SFrame/FP: deep X.XXx, real Y.YYx", then
# "per-frame SFrame/FP: deep X.XXx, real Y.YYx; exec Z.ZZ%; lookup growth
# W.WWx" (icount medians; exec: what registering and freeing the section
# costs an exec; lookup growth: make bench-scaling's, 10^3 to 10^6 FDEs).
# BENCH_OUT, SCALE_OUT: elsewhere than build/bench, build/bench-scaling.
# Raw numbers: build/bench/results.txt; runs: build/bench/CLOCK/ (arm64:
# build/bench-arm64/). --no-boot reports on the runs of the last boot again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

if [ "${1:-}" = --arm64 ]; then
	shift
	exec "$TOP/scripts/bench-arm64.sh" "$@"
fi
e2e_parse_args "$@"
e2e_config
# BENCH_OUT: the runs and results elsewhere than build/bench (a second
# kernel, SFRAME_TREE and SFRAME_KOBJ, benched beside).
out=${BENCH_OUT:-$BUILD/bench}
reps=${BENCH_REPS:-3}
read -ra clocks <<<"${BENCH_CLOCKS:-icount realtime}"
t0=$(date +%s)

if [ "$boot" = 1 ]; then
	stage "bench workloads and helpers"
	"$TOP/scripts/real.sh"
	in_root make -s -C workloads all bench
	info "$(cd "$BUILD/workloads/bench" && ls -m)"
	# What QEMU's TCG gives the guest as its TSC: the host's.
	host_khz=$(in_root "$BUILD/workloads/bench/tsc-khz")
	rm -rf "$out"
	mkdir -p "$out"
	for clock in "${clocks[@]}"; do
		case "$clock" in
		icount)
			qemu='-icount shift=0,align=off,sleep=off' khz=1000000 ;;
		realtime)
			qemu='' khz=$host_khz ;;
		*)
			die "BENCH_CLOCKS: unknown clock $clock (icount, realtime)" ;;
		esac
		# Where the time of a frame goes: with the repeatable clock only.
		profile=()
		[ "$clock" != icount ] || profile=(--profile)
		mapfile -t runs < <("$TOP/scripts/bench.py" runs --reps "$reps" "${profile[@]}" \
			--rounds "${BENCH_DEEP_ROUNDS:-300}" --execs "${BENCH_EXECS:-1000}" \
			--sections "${BENCH_SECTIONS:-4000}" "$REAL_ARGS")
		mapfile -t opts < <("$TOP/scripts/bench.py" options --reps "$reps" "${profile[@]}")
		stage "bench boot, $clock clock (${VARIANT:-default} kernel): ${#runs[@]} runs"
		b0=$(date +%s)
		if ! (VM_QEMU_OPTS=$qemu VM_APPEND="tsc=reliable tsc_early_khz=$khz" \
			VM_TIMEOUT=${BENCH_TIMEOUT:-5400} \
			e2e_boot "$out/$clock" "${opts[@]}" "${runs[@]}") > "$out/$clock.out"; then
			tail -n 30 "$out/$clock.out"
			die "the $clock boot failed; its output: ${out#"$TOP"/}/$clock.out"
		fi
		info "$clock boot: $(( $(date +%s) - b0 )) s (guest output: ${out#"$TOP"/}/$clock.out)"
	done
	[ "${BENCH_ARM64:-1}" = 0 ] || "$TOP/scripts/bench-arm64.sh" --no-report
fi
for clock in "${clocks[@]}"; do
	[ -f "$out/$clock/guest.out" ] || die "no ${out#"$TOP"/}/$clock/guest.out: run without --no-boot"
done

stage "bench results (medians of $reps repetitions, (min-max))"
info "took $(( $(date +%s) - t0 )) s; raw numbers: ${out#"$TOP"/}/results.txt"
# Lookup scaling in user space (make bench-scaling, about 2 min), before
# the report so that the report's line stays the last; BENCH_SCALING=0
# leaves it out, --no-boot shows its last tables.
scaling=${SCALE_OUT:-$BUILD/bench-scaling}
if [ "${BENCH_SCALING:-1}" = 1 ]; then
	if [ "$boot" = 1 ]; then
		"$TOP/scripts/bench-scaling.sh"
	elif [ -d "$scaling" ]; then
		"$TOP/scripts/bench-scaling.sh" --report
	fi
fi
# Its last line: "per-frame SFrame/FP: deep X.XXx, real Y.YYx; exec Z.ZZ%;
# lookup growth W.WWx" (the growth from make bench-scaling's last table),
# the arm64 one just above it.
arm64=() growth=()
[ "${BENCH_ARM64:-1}" = 0 ] || [ ! -d "$BUILD/bench-arm64/bench" ] || arm64=(--arm64 "$BUILD/bench-arm64")
[ ! -f "$scaling/table.txt" ] || growth=(--scaling "$scaling/table.txt")
"$TOP/scripts/bench.py" report --results "$out/results.txt" "${growth[@]}" "${arm64[@]}" "${clocks[@]/#/$out/}"
