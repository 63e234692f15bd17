#!/bin/sh
# Runs inside the guest: save the kernel log (KUnit's KTAP), then run every
# kselftest binary of $1, leaving its TAP output in $2/selftest-NAME.tap.
tests=$1 out=$2
dmesg > "$out/dmesg"
if [ -d "$tests" ]; then
	for t in "$tests"/*; do
		case "$t" in *.so) continue ;; esac
		[ -f "$t" ] && [ -x "$t" ] || continue
		name=$(basename "$t")
		(cd "$tests" && timeout 300 "./$name") > "$out/selftest-$name.tap" 2>&1
		echo "$?" > "$out/selftest-$name.rc"
	done
fi
dmesg > "$out/dmesg.after"
echo done > "$out/done"
