#!/bin/sh
# The junk at the end of the frame-pointer build's walks: the real program
# (BUILD, fp) run from each of DIRS (/tmp/r /tmp/bench-real: the same
# files, paths of other bytes). For each: the IPs sframe_probe() was asked
# about (a kprobe), the function_graph trace below unwind_user of FUNCS
# (the probe, the registry lookup, the page faults and their fixups), and
# the first samples' chains (perf script). Functions the kernel cannot
# trace (notrace) are left out of the filter.
# build/exp/OUT/D.ips, D.trace, D.script, D.counts, D the directory with
# its slashes made underscores (_tmp_r).
. scripts/exp/lib.sh
funcs=${FUNCS:-unwind_user sframe_find __sframe_find sframe_get sframe_probe lock_vma_under_rcu do_user_addr_fault handle_mm_fault fixup_exception}
for d in ${DIRS:-/tmp/r /tmp/bench-real}; do
	mkdir -p "$d"
	cp -a "build/real/${BUILD:-fp}" "$d/"
done
for d in ${DIRS:-/tmp/r /tmp/bench-real}; do
	n=$(echo "$d" | tr / _)
	p=$d/${BUILD:-fp}/sqlite3
	# The IPs probed: a kprobe (x86-64's second argument), where the
	# kernel has kprobe events (the debug kernel; the default one has not).
	if [ -e $T/kprobe_events ]; then
		echo nop > $T/current_tracer
		echo 'p:sp sframe_probe ip=%si:x64' > $T/kprobe_events
		echo > $T/trace
		echo 1 > $T/events/kprobes/sp/enable
		echo 1 > $T/tracing_on
		profile "$p"
		echo 0 > $T/events/kprobes/sp/enable
		grep -o "ip=0x[0-9a-f]*" $T/trace | sort | uniq -c | sort -rn | head -8 > "$out/$n.ips"
		echo > $T/kprobe_events
	else
		profile "$p"
	fi
	perf script -i /tmp/p.data -F ip,sym,dso 2>/dev/null | head -80 > "$out/$n.script"
	graph "$funcs" unwind_user 0
	traced "$out/$n.trace" profile "$p"
	{
		printf '%s: %s walks' "$n" "$(grep -c 'unwind_user() {\|unwind_user();' "$out/$n.trace")"
		for f in $funcs; do
			[ "$f" = unwind_user ] || printf ', %s %s' "$f" "$(grep -c " $f()" "$out/$n.trace")"
		done
		echo
	} | tee "$out/$n.counts"
done
