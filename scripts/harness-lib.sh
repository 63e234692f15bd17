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

# harness_driver SRC OUT LOG: build a driver of the reader (a program that
# #includes kernel/unwind/sframe.c, as scripts/sframe/scale.c and miss.c
# do) at -O2 as the kernel, against the harness's shims, into OUT; on
# failure, show the end of LOG and die.
harness_driver() {
	local src=$1 out=$2 log=$3
	in_root gcc -O2 -g -std=gnu11 -Wall -Werror -Wno-unused-function \
		-fno-strict-aliasing -fno-strict-overflow \
		-iquote "$TREE" -I"$H" -I"$TREE/tools/include" \
		-I"$TREE/tools/arch/x86/include" -DCONFIG_HAVE_UNWIND_USER_SFRAME=1 \
		-o "$out" "$src" > "$log" 2>&1 ||
		{ tail -n 30 "$log"; die "${src#"$TOP"/} does not build against build/linux (log: ${log#"$TOP"/})"; }
}
