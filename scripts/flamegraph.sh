#!/usr/bin/env bash
# The demo's flame graphs: two perf recordings side by side, checked in
# headless Chromium.
#   scripts/flamegraph.sh DIR DEEP=TITLE SHALLOW=TITLE
# DIR/LABEL.flame.html are the flame graphs that the guest made of its perf
# record --call-graph fp,defer runs (e2e-guest.sh --flame: perf script
# report flamegraph, perf's own flame graph report, with d3-flame-graph's
# template from npm, scripts/flame-tools.sh: one file, no network; demo.sh:
# the real program's SFrame build, DEEP, and the same build without SFrame,
# SHALLOW). Writes into DIR/flame/:
#   LABEL.html        that flame graph
#   index.html        both graphs side by side under their TITLEs: open it
#   flamegraph.png    headless Chromium's screenshot of index.html
#   LABEL.dom.html    each graph as Chromium drew it (--dump-dom)
# and checks them (scripts/flames.py check, thresholds in config/e2e.conf):
# DEEP's stacks reach main and go FLAME_MIN_DEPTH frames up from it, in the
# data and as drawn; SHALLOW's do not. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/e2e-lib.sh"

[ $# = 3 ] || die "usage: flamegraph.sh DIR DEEP=TITLE SHALLOW=TITLE"
e2e_config
out=$(cd "$1" && pwd -P) deep=${2%%=*} shallow=${3%%=*}
fl=$out/flame
# The screenshot's width; each graph gets about half of it.
width=1600 col=784

# Chromium (and the template, which the guest had).
tools=$("$TOP/scripts/flame-tools.sh") ||
	{ printf '%s\n' "$tools"; die "scripts/flame-tools.sh failed"; }

stage "flame graphs: perf script report flamegraph in the guest (${fl#"$TOP"/})"
t0=$(date +%s)
rm -rf "$fl"
mkdir -p "$fl"
for l in "$deep" "$shallow"; do
	[ -f "$out/$l.flame.html" ] ||
		die "no ${out#"$TOP"/}/$l.flame.html (guest log: $l.log): run make demo without --no-boot"
	cp "$out/$l.flame.html" "$fl/$l.html"
done

# chrome ARG...: headless Chromium (as root it needs --no-sandbox), with a
# throwaway profile; virtual time lets the graphs' transitions finish.
chrome() {
	local prof rc=0
	prof=$(mktemp -d)
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--user-data-dir="$prof" --virtual-time-budget=5000 "$@" 2>> "$fl/chromium.log" || rc=$?
	rm -rf "$prof"
	return "$rc"
}
url() { python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).as_uri())' "$1"; }
# Each graph as wide as index.html's iframes will be; the index's height
# follows what Chromium drew.
for l in "$deep" "$shallow"; do
	chrome --window-size="$col,900" --dump-dom "$(url "$fl/$l.html")" > "$fl/$l.dom.html" ||
		die "chromium failed on $l.html (log: ${fl#"$TOP"/}/chromium.log)"
done
size=$("$TOP/scripts/flames.py" index --width "$width" \
	--title "sqlite3 (real.pin) running workloads/real.sql: user stacks from perf record --call-graph fp,defer" \
	--note "Both builds: gcc -O2 -fomit-frame-pointer. Kernel $(sed -n \
's/^--- kernel \([^,]*\),.*/\1/p' "$out/guest.out") with the SFrame series, under QEMU; perf record -F $E2E_FREQ -e cpu-clock:u. Click a frame to zoom in." \
	"$fl" "$2" "$3")

chrome --window-size="$size" --screenshot="$fl/flamegraph.png" "$(url "$fl/index.html")" ||
	die "chromium failed to take the screenshot (log: ${fl#"$TOP"/}/chromium.log)"
info "made in $(( $(date +%s) - t0 )) s; open ${fl#"$TOP"/}/index.html in a browser"
info "  ($(url "$fl/index.html")), screenshot: ${fl#"$TOP"/}/flamegraph.png"

stage "flame graph checks ($deep: >= $FLAME_SFRAME_MIN_MAIN% reach main, $FLAME_MIN_DEPTH frames from main up; $shallow: <= $FLAME_NOFP_MAX_MAIN%, fewer)"
"$TOP/scripts/flames.py" check --depth "$FLAME_MIN_DEPTH" \
	--min-main "$deep=$FLAME_SFRAME_MIN_MAIN" --max-main "$shallow=$FLAME_NOFP_MAX_MAIN" \
	--deep "$deep" --shallow "$shallow" --screenshot "$fl/flamegraph.png" "$fl"
