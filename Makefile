# linux-sframe workbench: thin targets, each one small script in scripts/.
# VARIANT=debug selects the KASAN/UBSAN/lockdep kernel (build/obj-debug).
SHELL := /bin/bash
S := scripts

.PHONY: help root base tree quilt kernel selftests kunit e2e bisect checkpatch \
	export check check-debug demo bench vm clean distclean

help:
	@sed -n 's/^## //p' README.md 2>/dev/null | head -40 || true
	@echo "targets: demo check check-debug bench root base tree kernel bisect checkpatch export vm clean"

root:                  ; @$(S)/root.sh
base: root             ; @$(S)/base.sh
tree: base             ; @$(S)/tree.sh
kernel: tree           ; @$(S)/kernel.sh
checkpatch: tree       ; @$(S)/checkpatch.sh
bisect: tree           ; @$(S)/bisect.sh
quilt: tree            ; @$(S)/quilt.sh
export:                ; @$(S)/export.sh
e2e: kernel            ; @$(S)/e2e.sh
check:                 ; @$(S)/check.sh
check-debug:           ; @VARIANT=debug $(S)/check.sh
demo: kernel           ; @$(S)/demo.sh
# Ratios, not a test: perf.data size, deep-stack completeness, sampling cost
bench: kernel          ; @$(S)/bench.sh
# make vm CMD='dmesg | grep -i sframe': one shell command in the built kernel;
# CMD goes to the guest's sh as it was written (pipes, quotes, $).
vm:
	@$(if $(value CMD),,echo "usage: make vm CMD='shell command'" >&2; exit 2;) \
	$(S)/vm.sh sh -c '$(subst ','\'',$(value CMD))'


clean:
	rm -rf build/obj build/obj-debug build/vm build/selftests build/workloads build/e2e build/demo build/bench
distclean: clean
	rm -rf build
