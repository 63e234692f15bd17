# shellcheck shell=bash
# The user-space harness of the SFrame reader (tools/testing/sframe of
# build/linux) for harness.sh, fuzz.sh and difftest.sh. Sourced after lib.sh.

H=$TREE/tools/testing/sframe

# harness_need: skip the stage when the series has no harness (yet).
harness_need() {
	[ -f "$H/harness.c" ] ||
		skip "build/linux has no tools/testing/sframe: the series has no user-space harness yet"
}

# harness_build LOG [MAKE ARGS...]: build in the root; on failure, show the
# end of LOG and die.
harness_build() {
	local log=$1
	shift
	in_root make -s -C "$H" "$@" > "$log" 2>&1 ||
		{ tail -n 30 "$log"; die "tools/testing/sframe does not build (log: ${log#"$TOP"/})"; }
	# Warnings fail too: the harness must build clean.
	if grep -q 'warning:' "$log"; then
		grep -A3 'warning:' "$log" | head -n 20
		die "tools/testing/sframe builds with warnings (log: ${log#"$TOP"/})"
	fi
}

# sframe_files 3|all: the files of build/sframe-inputs/list, paths as the
# root sees them (scripts/sframe-inputs.sh makes the list).
sframe_files() {
	awk -v v="$1" 'v == "all" || $1 == v { print $2 }' "$BUILD/sframe-inputs/list"
}
