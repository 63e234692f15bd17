#!/bin/sh
# Runs inside the guest: save the kernel log (KUnit's KTAP), then run the
# installed kselftests of $1 (build/kselftest) with their own runner,
# run_kselftest.sh: its TAP (one result a program) in $2/kselftest.tap and
# each program's own TAP in $2/kselftest/NAME (--per-test-log). $3: how long
# the stress test runs (SFRAME_STRESS_SEC, seconds); $4, if given: seconds
# each program may run (run_kselftest.sh --override-timeout).
tests=$1 out=$2
export SFRAME_STRESS_SEC="${3:-10}"
set -- ${4:+--override-timeout "$4"}
dmesg > "$out/dmesg"
# The per-test logs are written a byte at a time (kselftest/prefix.pl):
# on the guest's tmpfs, not through 9p to build/, where that costs seconds,
# and copied there every 10 s, so that a guest that hangs leaves them too.
if [ -x "$tests/run_kselftest.sh" ]; then
	logs=$(mktemp -d)
	mkdir -p "$out/kselftest"
	(while sleep 10; do cp -r "$logs/." "$out/kselftest/"; done) &
	copier=$!
	# sframe/settings (the series') gives each program 300 s, not 45.
	"$tests/run_kselftest.sh" --per-test-log "$logs" "$@" > "$out/kselftest.tap" 2>&1
	echo "$?" > "$out/kselftest.rc"
	kill "$copier"
	cp -r "$logs/." "$out/kselftest/"
fi
# A kernel with kmemleak (VARIANT=debug): ask for two scans after the tests,
# and put what it finds into the kernel log, where vm.sh looks for it.
if [ -d /sys/kernel/debug ] && ! [ -e /sys/kernel/debug/kmemleak ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > "$out/kmemleak"
	if [ -s "$out/kmemleak" ]; then
		echo "kmemleak found leaks after the tests:" > /dev/kmsg
		head -40 "$out/kmemleak" > /dev/kmsg
	fi
fi
# A kernel with gcov (make coverage): kernel/unwind's counters, after all
# the tests, into $2/gcov (read by scripts/coverage.py).
if [ -d /sys/kernel/debug/gcov ]; then
	mkdir -p "$out/gcov"
	find /sys/kernel/debug/gcov -path '*/kernel/unwind/*.gcda' |
		while read -r f; do cat "$f" > "$out/gcov/${f##*/}"; done
fi
dmesg > "$out/dmesg.after"
echo done > "$out/done"
