#!/usr/bin/env bash
# make demo: what the deferred user unwinder gives perf for a program built
# without frame pointers, with SFrame V3 (-sframe) and without (-nofp).
#   scripts/demo.sh [--no-boot]
# Expects the root, base, tree and kernel made (the Makefile does that
# first). Builds workloads/, boots the kernel once, profiles both flavours
# with perf record -e cpu-clock:u --call-graph fp,defer, and shows perf
# report's call graphs and the share of complete callchains.
# --no-boot shows the results of the last run (build/demo) again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

e2e_parse_args "$@"
e2e_config
out=$BUILD/demo
read -r -a flavours <<< "${DEMO_FLAVOURS:-sframe nofp}"
name=$E2E_WORKLOAD

describe() {
	case "$1" in
	fp) echo "frame pointers: -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer" ;;
	sframe) echo "SFrame V3, no frame pointers: -fomit-frame-pointer -Wa,--gsframe-3" ;;
	nofp) echo "no frame pointers, no SFrame: -fomit-frame-pointer" ;;
	*) echo "$1" ;;
	esac
}

stage "demo: user call graphs from perf record --call-graph fp,defer"
info "workload: workloads/$name.c, main -> top -> mid1 -> mid2 -> leaf, leaf"
info "spins for 1.5 s of CPU; every sample in leaf should carry the callchain"
info "leaf <- mid2 <- mid1 <- top <- main. Built with -O2 as:"
for f in "${flavours[@]}"; do
	info "  $name-$f: $(describe "$f")"
done

if [ "$boot" = 1 ]; then
	stage "demo workloads"
	e2e_workloads
	stage "demo boot (${VARIANT:-default} kernel): perf record -F $E2E_FREQ -e cpu-clock:u --call-graph fp,defer"
	RUNS=()
	e2e_runs "${flavours[@]}"
	e2e_boot "$out" --report "${RUNS[@]}"
fi

for f in "${flavours[@]}"; do
	[ -f "$out/$f.report" ] || die "no $out/$f.report: run without --no-boot"
	stage "perf report --stdio --no-children --percent-limit 5: $name-$f"
	info "$(describe "$f")"
	echo
	# Without perf's comment lines and runs of blank lines.
	grep -v '^#' "$out/$f.report" | cat -s | sed -e '1{/^$/d}' -e '${/^$/d}'
done

stage "one sample in leaf, as perf script prints it"
for f in "${flavours[@]}"; do
	info "$name-$f:"
	awk 'BEGIN { RS = ""; FS = "\n" } $2 ~ / leaf\+/ { print; exit }' "$out/$f.txt" |
		expand | sed 's/^/    /'
done

stage "callchain completeness (samples in leaf with leaf <- mid2 <- mid1 <- top <- main)"
e2e_table "$out" --figures --quiet "${flavours[@]}"
