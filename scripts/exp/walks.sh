#!/bin/sh
# Every deferred walk of the real program timed alone (function_graph on
# unwind_user, depth 1), as make bench times them: BUILDS (fp sframe) run
# from each of WHERE: 9p (build/real, the workbench's share) and tmpfs
# (copied to TMPDIR, /tmp/bench-real as make bench does), REPS (2) times.
# build/exp/OUT/WHERE-BUILD-REP.txt: the trace; .dso: perf report by object.
. scripts/exp/lib.sh
for where in ${WHERE:-9p tmpfs}; do
	case "$where" in
	9p|tmpfs) ;;
	*) echo "WHERE: 9p or tmpfs, not $where" >&2; exit 1 ;;
	esac
done
rm -f "$out"/*-*-*.txt "$out"/*-*-*.dso
tmp=${TMPDIR:-/tmp/bench-real}
mkdir -p "$tmp"
for b in ${BUILDS:-fp sframe}; do
	cp -a "build/real/$b" "$tmp/"
	# shellcheck disable=SC2086 # ARGS: the program's arguments
	"build/real/$b/sqlite3" $ARGS > /dev/null
	# shellcheck disable=SC2086
	"$tmp/$b/sqlite3" $ARGS > /dev/null
done
graph unwind_user unwind_user 1
for rep in $(seq "${REPS:-2}"); do
	for where in ${WHERE:-9p tmpfs}; do
		for b in ${BUILDS:-fp sframe}; do
			p=$tmp/$b
			[ "$where" != 9p ] || p=build/real/$b
			traced "$out/$where-$b-$rep.txt" profile "$p/sqlite3"
			perf report -i /tmp/p.data --stdio --sort dso 2>/dev/null |
				grep -v "^#" | grep . | head -6 > "$out/$where-$b-$rep.dso"
		done
	done
done
for f in "$out"/*-*-*.txt; do
	walk_durations "$f" | awk -v f="${f##*/}" '{ a[NR] = $1 }
			END { if (NR) printf "%-20s %5d walks, median %s us\n", f, NR, a[int((NR + 1) / 2)] }'
done | tee "$out/medians.txt"
