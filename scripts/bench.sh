#!/usr/bin/env bash
# make bench: what perf record --call-graph fp,defer with SFrame costs and
# gives, side by side with frame pointers and with --call-graph dwarf.
#   scripts/bench.sh [--no-boot]
# Not a test: it prints ratios and fails only when a run fails or records no
# samples. Builds workloads/ (chain, and deep: a 100-frame recursion), boots
# the built kernel once and runs each workload for a fixed amount of work
# (-n ROUNDS) in four variants, BENCH_REPS times, interleaved:
#   none    the SFrame build without perf: the baseline of the cost
#   sframe  SFrame build,  perf record --call-graph fp,defer
#   fp      frame pointers, perf record --call-graph fp,defer
#   dwarf   neither,        perf record --call-graph dwarf (8 KiB stack copies)
# all with -e cpu-clock:u -F $E2E_FREQ (config/e2e.conf). Then per variant:
# perf.data bytes per sample, the share of leaf samples whose callchain
# reaches main, and the workload's CPU and wall time (medians) relative to
# the baseline. Raw numbers: build/bench/results.txt.
# --no-boot analyses the runs of the last boot (build/bench) again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

e2e_parse_args "$@"
e2e_config
out=$BUILD/bench
reps=${BENCH_REPS:-3}
# Rounds of work per run: about 0.8 s of CPU each under QEMU's TCG.
workloads=("chain:${BENCH_CHAIN_ROUNDS:-1000}" "deep:${BENCH_DEEP_ROUNDS:-1000}")
# NAME:FLAVOUR:CALLGRAPH ("-": no perf); the first one is the baseline.
variants=(none:sframe:- "sframe:sframe:fp,defer" "fp:fp:fp,defer" dwarf:nofp:dwarf)
t0=$(date +%s)

if [ "$boot" = 1 ]; then
	stage "bench workloads"
	e2e_workloads
	stage "bench boot (${VARIANT:-default} kernel): ${workloads[*]} x ${variants[*]}, $reps times"
	e2e_vm "$out" "$TOP/scripts/bench-guest.sh" --no-throttle --freq "$E2E_FREQ" --reps "$reps" \
		"$out" "${workloads[@]}" -- "${variants[@]}"
	stage "bench: perf script of every perf.data (in the build root)"
	# Outside the guest: perf's own DWARF unwinding runs at native speed
	# here, and sees the same binaries and libraries at the same paths.
	in_root bash -c 'set -e; for d in "$@"; do
		perf script -i "$d" > "${d%.data}.txt" 2> "${d%.data}.script.log"; done' \
		- "$out"/*.data
fi
[ -f "$out/guest.out" ] || die "no ${out#"$TOP"/}/guest.out: run without --no-boot"

stage "bench results (perf record -F $E2E_FREQ -e cpu-clock:u; medians of $reps runs)"
"$TOP/scripts/bench.py" --reps "$reps" --freq "$E2E_FREQ" --results "$out/results.txt" \
	"$out" "${workloads[@]%%:*}" -- "${variants[@]}"
info "took $(( $(date +%s) - t0 )) s; raw numbers: ${out#"$TOP"/}/results.txt"
