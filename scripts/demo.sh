#!/usr/bin/env bash
# make demo: what the deferred user unwinder gives perf for a program built
# without frame pointers, with SFrame V3 (-sframe) and without (-nofp).
#   scripts/demo.sh [--no-boot]
# Expects the root, base, tree and kernel made (the Makefile does that
# first). Builds workloads/ and the real program (scripts/real.sh, sqlite3)
# in both flavours, boots the kernel once, profiles each with perf record
# -e cpu-clock:u --call-graph fp,defer, and shows perf report's call graphs
# and the share of complete callchains; then the real program's two flame
# graphs side by side (scripts/flamegraph.sh: build/demo/flame/index.html,
# a screenshot beside it) and their checks, "N passed, N failed".
# --no-boot shows the results of the last run (build/demo) again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

e2e_parse_args "$@"
e2e_config
out=$BUILD/demo
read -r -a flavours <<< "${DEMO_FLAVOURS:-sframe nofp}"
name=$E2E_WORKLOAD
# The real program in the same two flavours, for the flame graphs.
real_demo_runs=("real-sframe:fp,defer:sframe" "real-nofp:fp,defer:nofp")

describe() {
	case "$1" in
	fp) echo "frame pointers: -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer" ;;
	sframe) echo "SFrame V3, no frame pointers: -fomit-frame-pointer -Wa,--gsframe-3" ;;
	nofp) echo "no frame pointers, no SFrame: -fomit-frame-pointer" ;;
	*) echo "$1" ;;
	esac
}

stage "demo: user call graphs from perf record --call-graph fp,defer"
chain=$(workloads chain "$name")
info "workload: workloads/$name.c, ${chain##* <- } calls down to ${chain%% *}, which spins"
info "for 1.5 s of CPU; every sample in ${chain%% *} should carry the callchain"
info "$chain. Built with -O2 as:"
for f in "${flavours[@]}"; do
	info "  $name-$f: $(describe "$f")"
done
info "The real program of make e2e, sqlite3 (real.pin) running workloads/real.sql,"
info "built as sqlite3-sframe and sqlite3-nofp the same way, for flame graphs."

if [ "$boot" = 1 ]; then
	stage "demo workloads"
	e2e_workloads
	"$TOP/scripts/real.sh" sframe nofp
	# Installs what it lacks before the boot, not after it; the guest makes
	# the flame graphs with the template (from where it sees it).
	tools=$("$TOP/scripts/flame-tools.sh") ||
		{ printf '%s\n' "$tools"; die "scripts/flame-tools.sh failed"; }
	printf '%s\n' "$tools" | grep -v '^template: ' || true
	cp "${tools##*template: }" "$out.template.html"

	stage "demo boot (${VARIANT:-default} kernel): perf record -F $E2E_FREQ -e cpu-clock:u --call-graph fp,defer"
	RUNS=() opts=()
	e2e_runs "${flavours[@]}"
	real_runs "${real_demo_runs[@]}"
	for f in "${flavours[@]}"; do
		opts+=(--report "$f")
	done
	# The real program's runs: flame graphs (scripts/flamegraph.sh shows
	# and checks them), no perf script listing.
	for r in "${real_demo_runs[@]%%:*}"; do
		opts+=(--record-only "$r" --flame "$r=$out.template.html")
	done
	e2e_boot "$out" "${opts[@]}" "${RUNS[@]}"
fi

for f in "${flavours[@]}"; do
	[ -f "$out/$f.report" ] || die "no $out/$f.report: run without --no-boot"
	stage "perf report --stdio --no-children --percent-limit 5: $name-$f"
	info "$(describe "$f")"
	echo
	# Without perf's comment lines and runs of blank lines.
	grep -v '^#' "$out/$f.report" | cat -s | sed -e '1{/^$/d}' -e '${/^$/d}'
done

stage "one sample in ${chain%% *}, as perf script prints it"
for f in "${flavours[@]}"; do
	info "$name-$f:"
	awk -v leaf=" ${chain%% *}+" 'BEGIN { RS = ""; FS = "\n" } index($2, leaf) { print; exit }' "$out/$f.txt" |
		expand | sed 's/^/    /'
done

stage "callchain completeness (samples in ${chain%% *} with $chain)"
e2e_table "$out" --figures --quiet "${flavours[@]}"

"$TOP/scripts/flamegraph.sh" "$out" "real-sframe=sqlite3-sframe: $(describe sframe)" \
	"real-nofp=sqlite3-nofp: $(describe nofp)"
