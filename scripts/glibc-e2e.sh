#!/usr/bin/env bash
# make glibc: the glibc stage of make check, the deferred user unwinder on
# programs whose C library has SFrame too.
#   scripts/glibc-e2e.sh [--no-boot]
# sid's libc has neither SFrame nor frame pointers; e2e's chains cross it
# only where the kernel's guesses work. Here the C library is glibc from
# Debian's source built with SFrame V3 (scripts/glibc.sh, glibc.pin: once,
# then kept in the build root), and four programs are built against it
# (workloads/Makefile's target glibc: its crt1.o, libc.so, loader,
# RUNPATH, -z now; nothing of the system's libc), -O2
# -fomit-frame-pointer -Wa,--gsframe-3:
#   real     sqlite3 (real.pin, e2e's real program) on workloads/real.sql
#   signal   workloads/glibc/sigprof.c: a SIGPROF handler that spends half
#            the time: chains through libc's __restore_rt (no FDE: the
#            kernel knows it by its bytes) into the interrupted code
#   threads  workloads/glibc/threads.c: two pthreads: chains end at
#            start_thread <- __clone3
#   guesses  workloads/glibc/guesses.c: a frameless leaf and a function
#            with a frame pointer built without SFrame (but .eh_frame):
#            the kernel's leaf and frame-pointer guesses, every sample
# One boot (scripts/e2e-guest.sh) records each under
#   perf record -e cpu-clock:u --call-graph fp,defer   (LABEL libc-NAME)
#   perf record -e cpu-clock:u --call-graph dwarf      (libc-NAME-dwarf)
# with every walk of the deferred unwinder traced (function_graph on
# unwind_user() and unwind_user_call_before(), which only the kernel's
# guesses call: the kernel has no tracepoint or counter for them), and
# scripts/glibc-chains.py checks (config/e2e.conf), in each case:
#   complete  >= GLIBC_MIN_COMPLETE% of the fp,defer samples end in their
#             outermost frame (_start, _dl_start, __clone3, start_thread...)
#             with no unknown frame, and at least dwarf's share;
#   shape     signal, threads, guesses: of the fp,defer samples at a leaf
#             function dwarf sampled too, >= GLIBC_MIN_AGREE% have the
#             sequence of functions (with their objects) of a dwarf chain
#             of that leaf;
#   guesses   every fp,defer chain that stepped out of code without SFrame
#             by a guess has the shape (or the start, if it stops short)
#             of a dwarf chain of its leaf; in guesses, at least
#             E2E_MIN_SAMPLES such chains;
# and prints how often and where the guesses fired, from the chains and
# from the kernel's trace. Samples in a .plt.got stub are counted apart:
# GNU ld's SFrame for them is wrong (glibc-chains.py). --no-boot checks the
# results of the last run (build/glibc-e2e) again. Ends with "counts: P F S".
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

e2e_parse_args "$@"
e2e_config
out=$BUILD/glibc-e2e
bin=build/glibc/bin
t0=$(date +%s)
# The cases: each one's command (paths relative to the checkout) and its
# name in perf's samples (perf's own samples before the exec do not count).
CASES="real signal threads guesses"
declare -A CMD=([real]="$bin/sqlite3 $REAL_ARGS" [signal]="$bin/sigprof 2" [threads]="$bin/threads 1"
	[guesses]="$bin/guesses 2")
declare -A COMM=([real]=sqlite3 [signal]=sigprof [threads]=threads [guesses]=guesses)
# --call-graph dwarf copies 8 KiB of stack a sample by default: sqlite3's
# main alone has a frame of 4.9 KiB, and its chains would all end there.
declare -A DWARF=([real]="dwarf,16384" [signal]=dwarf [threads]=dwarf [guesses]=dwarf)

if [ "$boot" = 1 ]; then
	"$TOP/scripts/glibc.sh"
	prefix=$(cat "$BUILD/glibc/prefix")
	# The real program's amalgamation (build/real/src).
	"$TOP/scripts/real.sh" sframe
	stage "glibc stage programs (against $prefix)"
	t=$(date +%s)
	in_root make -s -j"$(nproc)" -C workloads glibc GLIBC_PREFIX="$prefix" \
		REAL_SRC="$BUILD/real/src"
	info "built in $(( $(date +%s) - t )) s: $(cd "$TOP/$bin" && echo *)"
	RUNS=() opts=(--walks)
	for name in $CASES; do
		RUNS+=("libc-$name:fp,defer:${CMD[$name]}" "libc-$name-dwarf:${DWARF[$name]}:${CMD[$name]}")
		opts+=(--walk-functions "libc-$name=unwind_user_call_before"
			--dsoff "libc-$name" --dsoff "libc-$name-dwarf")
	done
	stage "glibc boot (${VARIANT:-default} kernel): perf record, $E2E_FREQ Hz: ${RUNS[*]%%:build/*}"
	e2e_boot "$out" "${opts[@]}" "${RUNS[@]}"
fi

prefix=$(cat "$BUILD/glibc/prefix")
stage "glibc objects: SFrame sections and the functions without an FDE"
in_root python3 "$TOP/scripts/glibc-chains.py" objects "$prefix/lib/libc.so.6" \
	"$prefix/lib/ld-linux-x86-64.so.2" "$TOP/$bin/sqlite3" "$TOP/$bin/libsqlite3.so.0" \
	"$TOP/$bin/sigprof" "$TOP/$bin/threads" "$TOP/$bin/guesses"
cases=() args=()
for name in $CASES; do
	cases+=("$name:libc-$name:libc-$name-dwarf")
	args+=(--comm "$name=${COMM[$name]}" --walks "$name")
done
stage "glibc callchains (fp,defer: >= $GLIBC_MIN_COMPLETE% complete and >= dwarf's; signal, threads, guesses: >= $GLIBC_MIN_AGREE% of dwarf's shape)"
info "took $(( $(date +%s) - t0 )) s; perf script output: ${out#"$TOP"/}/LABEL.txt"
rc=0
in_root python3 "$TOP/scripts/glibc-chains.py" --min-complete "$GLIBC_MIN_COMPLETE" \
	--min-samples "$E2E_MIN_SAMPLES" --agree signal="$GLIBC_MIN_AGREE" \
	--agree threads="$GLIBC_MIN_AGREE" --agree guesses="$GLIBC_MIN_AGREE" \
	--need signal=__restore_rt:"$E2E_MIN_SAMPLES" --need threads=start_thread:"$E2E_MIN_SAMPLES" \
	--min-guessed guesses="$E2E_MIN_SAMPLES" \
	--vdso "$KOBJ/arch/x86/entry/vdso/vdso64/vdso64.so.dbg" "${args[@]}" "$out" "${cases[@]}" || rc=$?
exit "$rc"
