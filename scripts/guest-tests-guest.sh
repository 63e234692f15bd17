#!/bin/sh
# Runs inside the guest: save the kernel log (KUnit's KTAP), then run every
# kselftest binary of $1, leaving its TAP output in $2/selftest-NAME.tap and
# how long it took in $2/selftest-NAME.secs. $3: how long the stress test
# runs (SFRAME_STRESS_SEC, seconds).
tests=$1 out=$2
export SFRAME_STRESS_SEC="${3:-10}"
dmesg > "$out/dmesg"
if [ -d "$tests" ]; then
	for t in "$tests"/*; do
		case "$t" in *.so) continue ;; esac
		[ -f "$t" ] && [ -x "$t" ] || continue
		name=$(basename "$t")
		# Each test samples until it has enough, with caps of its own
		# (60 s a profile): this only catches a hang.
		start=$(cut -d. -f1 /proc/uptime)
		(cd "$tests" && timeout 1200 "./$name") > "$out/selftest-$name.tap" 2>&1
		echo "$?" > "$out/selftest-$name.rc"
		echo $(( $(cut -d. -f1 /proc/uptime) - start )) > "$out/selftest-$name.secs"
	done
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
dmesg > "$out/dmesg.after"
echo done > "$out/done"
