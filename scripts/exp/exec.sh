#!/bin/sh
# Where exec's SFrame registration goes (a kernel that registered at exec:
# patch 39's, built apart, booted with SFRAME_KOBJ): N (200) execs of a
# static SFrame program from tmpfs, function_graph below elf_add_sframe and
# sframe_free_mm on FILTER's functions: build/exp/OUT/trace.txt.
. scripts/exp/lib.sh
mkdir -p /tmp/x
cp -a build/workloads/bench /tmp/x/
/tmp/x/bench/execs 50 /tmp/x/bench/nothing-sframe > /dev/null
graph "${FILTER:-elf_add_sframe sframe_free_mm handle_mm_fault fault_in_readable sframe_add_section}" \
	"elf_add_sframe sframe_free_mm" 0
traced "$out/trace.txt" /tmp/x/bench/execs "${N:-200}" /tmp/x/bench/nothing-sframe > "$out/execs.out" 2>&1
wc -l "$out/trace.txt"
