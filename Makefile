# linux-sframe workbench: thin targets, each one small script in scripts/.
# Every stage of make check is a target of the same name (scripts/check.sh
# prints it when the stage fails). VARIANT=debug selects the KASAN/UBSAN/
# lockdep kernel (build/obj-debug), VARIANT=arm64 the arm64 kernel
# (build/obj-arm64, cross-built, booted by qemu-system-aarch64). "make help" lists the targets from the
# "## " comments below.
SHELL := /bin/bash
S := scripts

.PHONY: help demo check check-debug root base series tree quilt b4 checkpatch \
	bisect-check configs-check mainline-check coverage-check harness fuzz difftest kernel \
	selftests-build guest paths e2e glibc libc real flame-tools bench bench-arm64 bench-scaling miss-cost stress fault coverage bisect export configs \
	mainline vm fuzz-mutants arm64 clean distclean

help: ## this list
	@echo "make TARGET [VARIANT=debug|arm64] [JOBS=N]; the stages of make check are marked *"
	@awk -F ':[^#]*## ' '/^[a-z][a-z0-9-]*:.*## / { printf "  %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

demo: kernel           ## build, boot, profile programs built without frame pointers; flame graphs
	@$(S)/demo.sh
check:                 ## the whole test suite: every stage below marked *, then kernel, selftests-build, guest with VARIANT=arm64 and VARIANT=debug
	@$(S)/check.sh
check-debug:           ## make check with the debug kernel (VARIANT=debug): no e2e, no user-space stages
	@VARIANT=debug $(S)/check.sh

# The stages of make check, in its order.
root:                  ## * the Debian sid build root (~/.cache/linux-sframe)
	@$(S)/root.sh
base: root             ## * the pinned base kernel, fetched and checked
	@$(S)/base.sh
series: base           ## * build/linux = base + git am of patches/series
	@$(S)/tree.sh
tree: series           ## the same as series (keeps your work in build/linux)
quilt: series          ## * the series applies with quilt and gives the same tree
	@$(S)/quilt.sh
b4: series             ## * b4 am (offline) takes patches/ as a mail thread; git am of it gives the same tree
	@$(S)/b4.sh
checkpatch: series     ## * checkpatch --strict; warnings only with a waiver
	@$(S)/checkpatch.sh
bisect-check: series   ## * patches/bisect.ok and bisect-arm64.ok name exactly this series
	@$(S)/bisect-check.sh
configs-check: series  ## * patches/configs.ok names exactly this series
	@$(S)/record-check.sh configs
mainline-check: series ## * patches/mainline.ok names exactly this series
	@$(S)/record-check.sh mainline
coverage-check: series ## * patches/coverage.ok names exactly this series
	@$(S)/record-check.sh coverage
# The reader in user space (tools/testing/sframe of build/linux): no kernel
# build, so they use build/linux as it is, with the work in it.
harness: root          ## * the reader's user-space harness: self-tests, every IP of real files
	@$(S)/harness.sh
fuzz: root             ## * libFuzzer on the harness, 10^6 executions (FUZZ_RUNS, FUZZ_TIME)
	@$(S)/fuzz.sh
difftest: root         ## * the reader against binutils' libsframe, every IP of real files
	@$(S)/difftest.sh
kernel: series         ## * the kernel builds (build/obj)
	@$(S)/kernel.sh
selftests-build: kernel ## * the kselftests build against the new UAPI headers and install (build/kselftest)
	@$(S)/selftests.sh
guest: selftests-build ## * one boot: KUnit at boot, run_kselftest.sh; kunit.py parse reads both
	@$(S)/guest-tests.sh
paths: kernel          ## * the workbench runs from a path with a space under /tmp
	@$(S)/paths.sh
e2e: kernel            ## * perf callchains of three workload builds, with thresholds
	@$(S)/e2e.sh
glibc: kernel          ## * perf callchains on a glibc built with SFrame (glibc.pin): signals, threads, guesses, sqlite3; against dwarf
	@$(S)/glibc-e2e.sh

real: root             ## the real program of e2e (real.pin), built into build/real
	@$(S)/real.sh
libc: root             ## the glibc stage's C library (glibc.pin) with SFrame, built once into the root's /opt
	@$(S)/glibc.sh
flame-tools:           ## what the demo's flame graphs need: d3-flame-graph (npm), chromium
	@$(S)/flame-tools.sh
bench: kernel          ## not a test: the unwinder's time per frame, program, exec, memory costs (x86-64, arm64)
	@$(S)/bench.sh
bench-arm64: series    ## not a test: make bench's arm64 part alone (its own kernel, build/obj-arm64-bench)
	@$(S)/bench.sh --arm64
stress: series         ## not in make check: the stress kselftest for 10 min (STRESS_SEC) on the debug kernel
	@$(S)/stress.sh
coverage: series       ## not in make check: gcov of kernel/unwind on the debug kernel after all its tests (>= 95% of lines); records patches/coverage.ok
	@$(S)/coverage.sh
fault: series          ## the fail-nth sweeps (sframe_fault_test) alone in a debug boot (make check runs them in its debug stage)
	@$(S)/fault.sh
bench-scaling: root    ## not a test: instructions per SFrame lookup, 10^3 to 10^6 FDEs (callgrind)
	@$(S)/bench-scaling.sh
miss-cost: real        ## not a test: instructions of a rule-cache miss, real files' random IPs (callgrind, user space)
	@$(S)/miss-cost.sh
arm64: series          ## kernel, selftests-build and guest with VARIANT=arm64 (as make check runs them)
	@VARIANT=arm64 $(S)/kernel.sh && VARIANT=arm64 $(S)/selftests.sh && VARIANT=arm64 $(S)/guest-tests.sh
fuzz-mutants: root     ## plant bugs in a copy of sframe.c: do harness and fuzzer catch them?
	@$(S)/fuzz-mutants.sh
bisect: series         ## build the kernel at every patch; records patches/bisect.ok (VARIANT=arm64: bisect-arm64.ok)
	@$(S)/bisect.sh
configs: series        ## the series' objects in Debian's config, allmodconfig, i386, tiny64
	@$(S)/configs.sh
mainline: series       ## the series on Debian's newest kernel source: applies, builds
	@$(S)/mainline.sh
export:                ## make bisect, then rewrite patches/ from build/linux
	@$(S)/export.sh
# CMD goes to the guest's sh as it was written (pipes, quotes, $).
vm:                    ## make vm CMD='dmesg | grep -i sframe': run it in the built kernel
	@$(if $(value CMD),,echo "usage: make vm CMD='shell command'" >&2; exit 2;) \
	$(S)/vm.sh sh -c '$(subst ','\'',$(value CMD))'

clean:                 ## remove build products, keep build/linux
	rm -rf build/obj build/obj-debug build/obj-arm64 build/vm-* build/vm.log build/selftests \
		build/selftests-debug build/selftests-arm64 build/kselftest build/kselftest-debug \
		build/kselftest-arm64 build/guest-tests build/guest-tests-debug build/guest-tests-arm64 \
		build/workloads build/real build/real-arm64 build/e2e build/demo build/bench build/check \
		build/*.args build/*.template.html build/harness build/fuzz build/difftest build/sframe-inputs \
		build/fuzz-mutants build/bench-scaling build/miss-cost build/bench-arm64 build/obj-arm64-bench build/b4 \
		build/configs build/mainline build/glibc build/glibc-e2e build/stress build/fault
distclean: clean       ## remove build/ (not the caches in ~/.cache)
	rm -rf build
