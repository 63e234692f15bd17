#!/bin/bash
# bench-guest.sh [--no-throttle] --freq HZ --reps N OUTDIR WORKLOAD:ROUNDS...
#   -- VARIANT...
# runs inside the guest (scripts/vm.sh) for scripts/bench.sh. For every
# repetition, every WORKLOAD and every VARIANT, runs
#   build/workloads/WORKLOAD-FLAVOUR -n ROUNDS
# alone (CALLGRAPH "-") or under
#   perf record -F HZ -e cpu-clock:u --call-graph CALLGRAPH
# where VARIANT is NAME:FLAVOUR:CALLGRAPH. The variants are interleaved and
# their order rotates by one from one repetition to the next, so a drift of
# the machine's speed during the boot does not favour one of them.
# Leaves in OUTDIR, for each run WORKLOAD-NAME-REP:
#   .log   the workload's and perf's messages
#   .data  perf.data (perf runs only)
#   guest.out  one line per run; dmesg: the kernel log
# --no-throttle: set kernel.perf_cpu_time_max_percent=0 (only in the guest!)
# Exits non-zero when a run fails.
set -u
freq=999 reps=3 nothrottle=0
while :; do
	case "$1" in
	--no-throttle) nothrottle=1; shift ;;
	--freq) freq=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) break ;;
	esac
done
out=$1
shift
workloads=()
while [ "$1" != -- ]; do workloads+=("$1"); shift; done
shift
variants=("$@")
# As in e2e-guest.sh: record into the tmpfs on /tmp, then copy to build/.
export HOME=/tmp
tmp=/tmp/bench
mkdir -p "$out" "$tmp"

# run WORKLOAD ROUNDS NAME FLAVOUR CALLGRAPH REP
run() {
	local w=$1 rounds=$2 name=$3 flavour=$4 cg=$5 rep=$6
	local id=$w-$name-$rep bin=build/workloads/$w-$flavour
	local log=$tmp/$id.log line
	if [ "$cg" = - ]; then
		"$bin" -n "$rounds" > "$log" 2>&1 || return 1
	else
		perf record -F "$freq" -e cpu-clock:u --call-graph "$cg" \
			-o "$tmp/$id.data" -- "$bin" -n "$rounds" > "$log" 2>&1 || return 1
	fi
	# "chain: 1000 rounds of 200000, 0.8123 s CPU, 0.8130 s wall, ..."
	line=$(grep -E "^$w: " "$log") || return 1
	line=${line#*, }
	printf '%-22s %s' "$id" "${line%, checksum*}"
	sed -n 's/.*(\([0-9]*\) samples).*/, \1 samples/p' "$log" | tr -d '\n'
	echo
	cp "$tmp/$id".* "$out/" || return 1
	rm -f "$tmp/$id".*
}

rc=0
{
	echo "--- kernel $(uname -r), $(perf --version), CPUs: $(nproc)," \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	# The kernel lowers perf's sample rate for good once a sample takes too
	# long (likely with 8 KiB dwarf copies under emulation): that would slow
	# the sampling of every later run. No such limit for the benchmark.
	if [ "$nothrottle" = 1 ]; then
		echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent || rc=1
	fi
	for ((rep = 1; rep <= reps; rep++)); do
		for wr in "${workloads[@]}"; do
			n=${#variants[@]}
			for ((i = 0; i < n; i++)); do
				v=${variants[(i + rep - 1) % n]}
				IFS=: read -r name flavour cg <<< "$v"
				if ! run "${wr%%:*}" "${wr#*:}" "$name" "$flavour" "$cg" "$rep"; then
					echo "run failed: ${wr%%:*} $v (repetition $rep):"
					cat "$tmp/${wr%%:*}-$name-$rep.log"
					rc=1
				fi
			done
		done
	done
} > "$tmp/guest.out" 2>&1
cp "$tmp/guest.out" "$out/"
cat "$tmp/guest.out"
dmesg > "$out/dmesg"
exit $rc
