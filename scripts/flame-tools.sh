#!/usr/bin/env bash
# make flame-tools: what the demo's flame graphs need on the host, once.
#   scripts/flame-tools.sh
# - d3-flame-graph's HTML template (the one perf script report flamegraph
#   is written for), from npm with the versions and sha512 sums pinned in
#   config/npm/package-lock.json, installed with "npm ci" into
#   ~/.cache/linux-sframe/npm/LOCKHASH/; a new lock file installs again.
#   perf reads it from there with --template: no network at run time.
# - Debian's chromium (headless: the screenshot and the rendering check)
#   and a font, with apt; npm too when the host has none.
# Prints the template's path on its last line ("template: PATH").
# Idempotent: with everything in place it only checks (well under 1 s).
. "$(dirname "$0")/lib.sh"

LOCK=$TOP/config/npm/package-lock.json
# perf's flamegraph.py downloads this same file when allowed to, and checks
# it against this md5 sum: a template that differs is not the one perf
# expects.
TEMPLATE_MD5=143e0d06ba69b8370b9848dcd6ae3f36
NPM_DIR=$CACHE/npm/$(cat "$TOP/config/npm/package.json" "$LOCK" | sha256sum | cut -c1-12)
TEMPLATE=$NPM_DIR/node_modules/d3-flame-graph/dist/templates/d3-flamegraph-base.html

# apt_install PACKAGE...: install on the host what is missing (apt lists
# refreshed only when the first try fails).
apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return
	info "installing on the host with apt: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } ||
		die "apt-get install ${missing[*]} failed"
}

stage "flame graph tools (d3-flame-graph from npm, chromium)"
# A font, or headless chromium draws no text.
apt_install chromium fonts-dejavu-core
command -v npm >/dev/null || apt_install npm
command -v chromium >/dev/null || die "no chromium after installing it"
info "$(chromium --version 2>/dev/null | head -1)"

if [ ! -f "$NPM_DIR/.complete" ]; then
	info "npm ci (config/npm/package-lock.json) into $NPM_DIR"
	rm -rf "$NPM_DIR"
	mkdir -p "$NPM_DIR"
	cp "$TOP/config/npm/package.json" "$LOCK" "$NPM_DIR/"
	# npm's own download cache beside it, not in the user's ~/.npm.
	(cd "$NPM_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error \
		--cache "$CACHE/npm/cache") > "$NPM_DIR.log" 2>&1 ||
		{ cat "$NPM_DIR.log"; die "npm ci failed (log: $NPM_DIR.log)"; }
	[ -f "$TEMPLATE" ] || die "d3-flame-graph has no template at $TEMPLATE"
	touch "$NPM_DIR/.complete"
fi
got=$(md5sum < "$TEMPLATE" | cut -d' ' -f1)
[ "$got" = "$TEMPLATE_MD5" ] ||
	die "$TEMPLATE: md5 $got, perf's flamegraph.py expects $TEMPLATE_MD5"
info "d3-flame-graph $(sed -n 's/^  "version": "\(.*\)",$/\1/p' \
	"$NPM_DIR/node_modules/d3-flame-graph/package.json") template (md5 as perf expects)"
echo "template: $TEMPLATE"
