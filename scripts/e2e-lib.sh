# shellcheck shell=bash
# Shared by scripts/e2e.sh, scripts/demo.sh and scripts/bench.sh: settings,
# the workloads and the real program, one guest boot that profiles them,
# and the callchain completeness tables.
# Sourced after lib.sh, never run.

# Settings from config/e2e.conf; a variable set in the environment wins.
E2E_VARS="E2E_WORKLOAD E2E_FREQ E2E_MIN_SAMPLES FP_MIN_COMPLETE SFRAME_MIN_COMPLETE NOFP_MAX_COMPLETE
REAL_SFRAME_MIN_COMPLETE REAL_SFRAME_MAX_BEHIND_DWARF PROBE_ROUNDS PROBE_MIN_COMPLETE
FLAME_MIN_DEPTH FLAME_SFRAME_MIN_MAIN FLAME_NOFP_MAX_MAIN ARM64_CHAINS_SEC ARM64_MIN_COMPLETE
GLIBC_MIN_COMPLETE GLIBC_MIN_AGREE"
e2e_config() {
	local v saved=()
	for v in $E2E_VARS; do
		[ -n "${!v:-}" ] && saved+=("$v=${!v}")
	done
	# shellcheck source=../config/e2e.conf
	. "$TOP/config/e2e.conf"
	for v in "${saved[@]}"; do
		export "${v?}"
	done
	for v in $E2E_VARS; do
		[ -n "${!v:-}" ] || die "config/e2e.conf does not set $v"
	done
}

# e2e_workloads: build the three flavours of every workload (in the root).
e2e_workloads() {
	in_root make -s -C workloads
	info "$(cd "$BUILD/workloads" && ls -m "$E2E_WORKLOAD"-*)"
}

# e2e_runs FLAVOUR...: append to the array RUNS the runs of e2e-guest.sh
# (LABEL:CALLGRAPH:COMMAND) that profile $E2E_WORKLOAD-FLAVOUR with
# --call-graph fp,defer; the label is FLAVOUR.
e2e_runs() {
	local f
	for f in "$@"; do
		RUNS+=("$f:fp,defer:build/workloads/$E2E_WORKLOAD-$f")
	done
}

# The workloads, their expected chains, the real program and the
# completeness rule are scripts/workloads.py's: it says them once.
workloads() { python3 "$TOP/scripts/workloads.py" "$@"; }
# The real program (real.pin, scripts/real.sh): the file names of its own
# code, its fixed workload (paths relative to the checkout, no blanks), and
# its runs LABEL:CALLGRAPH:BUILD (build/real/BUILD/).
REAL_OBJECTS=$(workloads real-objects)
REAL_ARGS=$(workloads real-args)
REAL_RUNS="real-sframe:fp,defer:sframe real-fp:fp,defer:fp real-dwarf:dwarf:sframe"

# real_runs [RUN...]: append the real program's runs (LABEL:CALLGRAPH:BUILD,
# by default REAL_RUNS) to the array RUNS.
real_runs() {
	local r
	# shellcheck disable=SC2086 # the runs, one word each
	[ $# -gt 0 ] || set -- $REAL_RUNS
	for r in "$@"; do
		RUNS+=("${r%:*}:build/real/${r##*:}/sqlite3 $REAL_ARGS")
	done
}

# Probes (perf probe, issue 11 item 5), runs LABEL=POINT[,POINT] on
# chain-sframe (workloads/chain.c: the functions named here are its own),
# each recorded with --call-graph fp,defer for PROBE_ROUNDS rounds, every
# hit a sample: probe-func at leaf's first instruction (a store, which
# uprobes single-step out of line) and at mid2 past its prologue ("+@":
# probe_point), probe-sdt at the USDT marker at the end of leaf (a nop,
# emulated), probe-uret at that marker while a uretprobe on mid1 is
# pending, so that each chain crosses the uretprobe trampoline, and the
# uretprobe's own hits, which start in top. Every hit counts
# (callchains.py --every).
PROBE_RUNS="probe-func=leaf,mid2+@ probe-sdt=sdt_chain:leaf_done
probe-uret=sdt_chain:leaf_done,mid1%return"
PROBE_WORKLOAD=chain
PROBE_BIN=build/workloads/$PROBE_WORKLOAD-sframe

# probe_point BIN POINT: POINT with "FUNC+@" made FUNC+OFF, OFF the offset of
# the instruction after FUNC's stack allocation (sub $N,%rsp): past the
# prologue, and one that uprobes single-step (not a push, nop, call or
# jump, which they emulate).
probe_point() {
	local fn dis start at insn
	case "$2" in
	*+@) fn=${2%+@} ;;
	*) echo "$2"; return ;;
	esac
	dis=$(in_root objdump -d --no-show-raw-insn --disassemble="$fn" "$1")
	start=$(sed -n "s/^0*\([0-9a-f]*\) <$fn>:\$/\1/p" <<<"$dis")
	read -r at insn < <(awk '/sub +\$0x[0-9a-f]+,%rsp/ { getline; sub(/:/, ""); print $1, $2; exit }' <<<"$dis") || true
	if [ -z "$start" ] || [ -z "${at:-}" ]; then
		die "$1: no stack allocation in $fn: no probe point past its prologue"
	fi
	case "$insn" in
	push*|nop*|call*|j*) die "$1: $fn+$((0x$at - 0x$start)) is $insn, which uprobes emulate" ;;
	esac
	printf '%s+%d\n' "$fn" $((0x$at - 0x$start))
}

# probe_runs: append the probe runs to the array RUNS and their points, as
# e2e-guest.sh options, to the array PROBE_OPTS.
probe_runs() {
	local r label pts pt p
	for r in $PROBE_RUNS; do
		label=${r%%=*} pts=
		IFS=, read -ra p <<<"${r#*=}"
		for pt in "${p[@]}"; do
			pts+=${pts:+,}$(probe_point "$TOP/$PROBE_BIN" "$pt")
		done
		RUNS+=("$label:fp,defer:$PROBE_BIN -n $PROBE_ROUNDS")
		PROBE_OPTS+=(--probe "$label=$pts")
	done
}

# e2e_boot OUTDIR [OPTION]... RUN...: one boot that profiles each RUN
# (e2e_runs, real_runs, probe_runs: with the options PROBE_OPTS; bench.sh
# makes its own) with e2e-guest.sh and its OPTIONs (--report LABEL and
# --record-only LABEL, bench.sh's --walks and others); results in OUTDIR.
# The arguments reach the guest in the file OUTDIR.args: on the kernel
# command line, which carries the guest's command, they would not fit in
# its 2048 bytes.
e2e_boot() {
	local out=$1 opts=()
	shift
	while :; do
		case "$1" in
		--report|--record-only|--size-only|--freq|--freq-of|--probe|--walk-functions|\
		--time-functions|--flame|--dsoff)
			opts+=("$1" "$2"); shift 2 ;;
		--walks|--no-throttle) opts+=("$1"); shift ;;
		*) break ;;
		esac
	done
	# As the guest sees them (vm-raw.sh does the same for a command).
	root_args --freq "$E2E_FREQ" ${opts[@]+"${opts[@]}"} \
		${PROBE_OPTS[@]+"${PROBE_OPTS[@]}"} "$out" "$@"
	printf '%s\n' "${RARGS[@]}" > "$out.args"
	e2e_vm "$out" "$TOP/scripts/e2e-guest.sh" --args-file "$out.args"
}

# e2e_vm OUTDIR GUEST-SCRIPT ARG...: one boot that runs GUEST-SCRIPT, which
# leaves what it printed in OUTDIR/guest.out; OUTDIR is emptied first. Shows
# guest.out, dies when the guest or the script fails.
e2e_vm() {
	local out=$1 rc=0
	shift
	rm -rf "$out"
	mkdir -p "$out"
	"$TOP/scripts/vm.sh" --log "$out/console.log" "$@" > "$out/vm.out" 2>&1 || rc=$?
	# What the guest script printed, and vm.sh's summary: not the boot noise.
	[ ! -f "$out/guest.out" ] || cat "$out/guest.out"
	grep -E '^    guest ran in' "$out/vm.out" || true
	if [ "$rc" != 0 ]; then
		tail -n 20 "$out/vm.out"
		die "the guest run failed (exit $rc); logs: ${out#"$TOP"/}/vm.out, console.log"
	fi
}

# e2e_table OUTDIR [callchains.py options] FLAVOUR...: the completeness
# table and the checks of config/e2e.conf.
e2e_table() {
	local out=$1
	shift
	"$TOP/scripts/callchains.py" --workload "$E2E_WORKLOAD" --min-samples "$E2E_MIN_SAMPLES" \
		--min fp="$FP_MIN_COMPLETE" --min sframe="$SFRAME_MIN_COMPLETE" \
		--max nofp="$NOFP_MAX_COMPLETE" \
		"$out" "$@"
}

# real_table OUTDIR [callchains.py options]: the real program's table (A,
# B per run) and the checks of config/e2e.conf.
real_table() {
	local out=$1 o objs=()
	shift
	for o in $REAL_OBJECTS; do
		objs+=(--object "$o")
	done
	# shellcheck disable=SC2046 # the labels, one word each
	"$TOP/scripts/callchains.py" --min-samples "$E2E_MIN_SAMPLES" "${objs[@]}" \
		--min real-sframe="$REAL_SFRAME_MIN_COMPLETE" \
		--near real-sframe=real-dwarf:"$REAL_SFRAME_MAX_BEHIND_DWARF" \
		--agree real-sframe=real-dwarf:"$REAL_SFRAME_MIN_AGREE" \
		${REAL_SFRAME_B_PENDING:+--pending real-sframe="$REAL_SFRAME_B_PENDING"} \
		"$@" "$out" $(for r in $REAL_RUNS; do echo "${r%%:*}"; done)
}

# probe_table OUTDIR [callchains.py options]: the probe runs' table and
# the checks of config/e2e.conf.
probe_table() {
	local out=$1 r args=()
	shift
	for r in $PROBE_RUNS; do
		args+=(--min "${r%%=*}=$PROBE_MIN_COMPLETE" --every "${r%%=*}")
	done
	# shellcheck disable=SC2046 # the labels, one word each
	"$TOP/scripts/callchains.py" --workload "$PROBE_WORKLOAD" --min-samples "$E2E_MIN_SAMPLES" "${args[@]}" \
		"$@" "$out" $(for r in $PROBE_RUNS; do echo "${r%%=*}"; done)
}

# e2e_parse_args ARGS...: the one option of e2e.sh, demo.sh and bench.sh:
# --no-boot (boot=0) looks at the results of the last boot again.
e2e_parse_args() {
	boot=1
	case "${1:-}" in
	--no-boot) boot=0 ;;
	"") ;;
	*) die "usage: $(basename "$0") [--no-boot]" ;;
	esac
}
