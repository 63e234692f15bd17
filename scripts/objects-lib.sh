# shellcheck shell=bash
# Build the kernel objects the series touches in one configuration, without
# building a whole kernel: used by 'make configs' (scripts/configs.sh) and
# 'make mainline' (scripts/mainline.sh). Sourced after lib.sh, never run.

# Two jobs at most and a lower priority: other builds share the machine.
JOBS=$(( ${JOBS:-2} > 2 ? 2 : ${JOBS:-2} ))
# A header with more direct includers than this is compiled by nearly every
# object (mm_types.h, uapi/linux/elf.h): its users are not listed one by one.
WIDE_HEADER=25
# Arguments for every make of one configuration (e.g. ARCH=i386).
KMAKE_ARGS=()
# The architecture whose objects are listed and built (its arch/ directory:
# x86 or arm64), and its compiler (aarch64-linux-gnu-gcc for arm64).
SARCH=x86
KCC=gcc

# kmake_in TREE OBJDIR MAKE-ARGS...: make in the build root, niced.
kmake_in() {
	local tree=$1 obj=$2
	shift 2
	in_root nice -n 10 make -s -C "$tree" O="$obj" CC="ccache $KCC" -j"$JOBS" "$@"
}

# Package lists of sid and experimental of our own, beside the root's (which
# know sid only), so that the root's apt state stays as root.sh made it.
APTDIR=/var/cache/sframe-mainline
APTOPT=(-o "Dir::Etc::SourceList=$APTDIR/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	-o "Dir::State::Lists=$APTDIR/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	-o Acquire::Check-Valid-Until=false)

# newest_source: NEWEST="linux-source-X.Y VERSION", the kernel source
# package with the highest version in sid and experimental (fresh package
# lists when the registry answers, those of the last run otherwise).
newest_source() {
	mkdir -p "$ROOT$APTDIR/lists/partial"
	printf 'deb http://deb.debian.org/debian %s main\n' sid experimental > "$ROOT$APTDIR/sources.list"
	in_root apt-get "${APTOPT[@]}" update -qq >/dev/null 2>&1 ||
		info "apt-get update failed: the package lists of the last run"
	# shellcheck disable=SC2016
	NEWEST=$(in_root bash -c '
		for p in $(apt-cache "$@" pkgnames linux-source- | grep -E "^linux-source-[0-9]+\.[0-9]+$"); do
			apt-cache "$@" madison "$p" | awk -v p="$p" "{ print p, \$3 }"
		done | sort -u | while read -r p v; do
			if [ -z "${best:-}" ] || dpkg --compare-versions "$v" gt "$best"; then
				best=$v bestp=$p
			fi
			echo "$bestp $best"
		done | tail -1' - "${APTOPT[@]}")
	[ -n "$NEWEST" ]
}

# arch_paths: the lines of stdin that are kernel code built for SARCH (not
# tools/, Documentation/, other architectures).
arch_paths() {
	grep -v -E '^(tools|Documentation|samples|scripts|usr)/' |
		awk -v a="arch/$SARCH/" '!/^arch\// || index($0, a) == 1' || true
}

# includers TREE FILE...: "FILE<TAB>INCLUDER" for every file of TREE built
# for SARCH that #includes one of the FILEs (paths in the tree): as <x.h>
# from include/ (also <uapi/x.h>) and arch/SARCH/include/, as "x.h" or "x.c"
# from its own directory otherwise.
includers() {
	local tree=$1 alts
	shift
	alts=$(printf '%s\n' "$@" | sed -E "\\,^(arch/$SARCH/)?include/, ! s,^.*/,,; s,^(arch/$SARCH/)?include/(uapi/)?,," |
		sed 's/[.+]/\\&/g' | sort -u | paste -sd'|')
	{ git -C "$tree" grep -o -E "#include [<\"](uapi/)?($alts)[>\"]" \
		-- '*.c' '*.h' || true; } | arch_paths |
	awk -v files="$*" -v arch="$SARCH" '
		BEGIN {
			n = split(files, f, " ")
			for (i = 1; i <= n; i++) {
				p = f[i]
				if (p ~ "^(arch/" arch "/)?include/") {
					name = p; sub("^(arch/" arch "/)?include/(uapi/)?", "", name)
					global[name] = global[name] " " p
				} else {
					local[p] = 1
				}
			}
		}
		{
			file = $0; sub(/:#include .*/, "", file)
			name = $0; sub(/^[^:]*:#include [<"](uapi\/)?/, "", name); sub(/[>"]$/, "", name)
			if (name in global) {
				m = split(global[name], g, " ")
				for (i = 1; i <= m; i++) print g[i] "\t" file
			}
			dir = file; sub(/[^\/]*$/, "", dir)
			if ((dir name) in local) print dir name "\t" file
		}' | sort -u
}

# series_objects TREE: what the series (TREE against its tag base, with
# uncommitted changes) touches, one a line, sorted: objects, and
# directories (D/) where it changes how a directory is built.
# - every .c or .S file it changes or adds, and every .c file that
#   #includes one (compat_binfmt_elf.c includes binfmt_elf.c);
# - every .c file that includes a header it changes or adds, directly or
#   through one header that does. A header with more than WIDE_HEADER
#   includers is compiled by nearly every object anyway, and a UAPI header
#   adds definitions that the objects above use: they land in
#   OTHER_HEADERS;
# - a Makefile or Kbuild change: the objects it lists, or, when it changes
#   more than lists of objects (flags, rules), its directory; a linker
#   script or an included makefile: the directory of the nearest Makefile.
series_objects() {
	local tree=$1 h
	local -a changed headers hop
	OTHER_HEADERS=()
	mapfile -t changed < <(git -C "$tree" diff --name-only --diff-filter=AM base | arch_paths)
	for h in "${changed[@]}"; do
		case "$h" in
		*/uapi/*) OTHER_HEADERS+=("$h") ;;
		*.h|*.c) headers+=("$h") ;;
		esac
	done
	local inc=$BUILD/.includers out=$BUILD/.objects
	printf '%s\n' "${changed[@]}" | grep '\.c$' > "$out" || true
	includers "$tree" "${headers[@]}" > "$inc"
	for h in "${headers[@]}"; do
		if [ "$(grep -c "^$h	" "$inc")" -gt "$WIDE_HEADER" ]; then
			OTHER_HEADERS+=("$h")
			sed -i "\\,^$h	,d" "$inc"
		fi
	done
	cut -f2 "$inc" | grep '\.c$' >> "$out" || true
	mapfile -t hop < <(cut -f2 "$inc" | grep '\.h$' | sort -u)
	if [ "${#hop[@]}" != 0 ]; then
		includers "$tree" "${hop[@]}" > "$inc"
		for h in "${hop[@]}"; do
			[ "$(grep -c "^$h	" "$inc")" -gt "$WIDE_HEADER" ] ||
				grep "^$h	" "$inc" | cut -f2 | grep '\.c$' >> "$out" || true
		done
	fi
	for h in "${changed[@]}"; do
		case "$h" in
		# Kconfig: the configurations build what it selects; .kunitconfig: read
		# by kunit.py only.
		*/uapi/*|*.c|*.h|*Kconfig*|*/.kunitconfig) ;;
		*/Makefile|*/Kbuild)
			git -C "$tree" diff -U0 base -- "$h" | sed -n '/^+++ /d; s/^+//p' > "$inc"
			# A list of objects may go on in continuation lines.
			if grep -v -E '^[[:space:]]*(#.*)?$|^(obj|lib)-[^=]*[:+]?=|^[[:space:]]+([a-z0-9_-]+\.o[[:space:]]*)+\\?$' \
				"$inc" | grep -q .; then
				echo "${h%/*}/" >> "$out"
			else
				grep -o -E '[a-z0-9_][a-z0-9_-]*\.o\b' "$inc" | sed "s,^,${h%/*}/," >> "$out" || true
			fi ;;
		*.S)
			case "$h" in *.lds.S) ;; *) echo "${h%.S}.o" >> "$out"; continue ;; esac ;&
		*)
			h=${h%/*}
			while [ "$h" != "${h%/*}" ] && [ ! -f "$tree/$h/Makefile" ] && [ ! -f "$tree/$h/Kbuild" ]; do
				h=${h%/*}
			done
			[ "$h" = "${h%/*}" ] || echo "$h/" >> "$out" ;;
		esac
	done
	# A directory that its parent builds only as the prerequisite of an
	# object ("$(obj)/vdso-wrap.o: $(obj)/vdso/vdso.so": arm64's vDSO,
	# which kbuild does not descend into) is built through that object.
	local d p o
	while read -r d; do
		p=${d%/}
		p=${p%/*}
		o=$(sed -n -E "s,^\\\$\(obj\)/([A-Za-z0-9_-]+\.o):[[:space:]]*\\\$\(obj\)/${d#"$p"/}.*,\1,p" \
			"$tree/$p/Makefile" 2>/dev/null | head -1)
		[ -z "$o" ] || sed -i "s,^$d\$,$p/$o," "$out"
	done < <(grep '/$' "$out" || true)
	# A directory builds everything below it: no other directory there.
	sed 's/\.c$/.o/' "$out" | sort -u > "$inc"
	awk 'NR == FNR { if ($0 ~ /\/$/) dirs[$0] = 1; next }
		/\/$/ { for (d in dirs) if (d != $0 && index($0, d) == 1) next }
		{ print }' "$inc" "$inc"
	rm -f "$inc" "$out"
}

# config_objects TREE OBJDIR TARGET...: the TARGETs (objects, directories
# D/) that this configuration builds (into vmlinux or a module), one a
# line: kbuild names the objects and subdirectories of every directory on
# the way (its Makefile evaluated by scripts/Makefile.build against
# OBJDIR's include/config/auto.conf), and an object counts when its
# directory lists it and every directory above lists the one below, up to
# a top-level directory (always built).
config_objects() {
	local tree=$1 obj=$2 o d bits=64
	shift 2
	grep -q '^CONFIG_X86_32=y' "$obj/.config" && bits=32
	for o in "$@"; do
		d=${o%/*}
		while [ "$d" != arch ]; do
			echo "$d"
			[ "$d" != "${d%/*}" ] || break
			d=${d%/*}
		done
	done | sort -u > "$BUILD/.dirs"
	# shellcheck disable=SC2016
	in_root bash -c 'cd "$1" && tree=$2 bits=$3 arch=$4 && shift 4 &&
		while read -r d; do
			printf "%s|" "$d"
			make -s -f "$tree/scripts/Makefile.build" srctree="$tree" objtree=. \
				obj="$d" src="$tree/$d" SRCARCH="$arch" BITS="$bits" need-modorder=1 "$@" \
				--eval "print-objs: ; @echo \"\$(real-obj-y) \$(real-obj-m)|\$(subdir-ym)\"" \
				print-objs
		done' - "$obj" "$tree" "$bits" "$SARCH" "${KMAKE_ARGS[@]}" < "$BUILD/.dirs" > "$BUILD/.dirobjs" ||
		die "kbuild did not list the objects of the directories of the series"
	rm -f "$BUILD/.dirs"
	for o in "$@"; do
		local in=1 d=${o%/*} line
		if [[ $o != */ ]]; then
			line=$(grep "^$d|" "$BUILD/.dirobjs" || true)
			[[ " $(cut -d'|' -f2 <<<"$line") " == *" $o "* ]] || in=0
		fi
		while [ "$in" = 1 ] && [ "$d" != "${d%/*}" ] && [ "$d" != "arch/$SARCH" ]; do
			line=$(grep "^${d%/*}|" "$BUILD/.dirobjs" || true)
			[[ " $(cut -d'|' -f3 <<<"$line") " == *" $d "* ]] || in=0
			d=${d%/*}
		done
		[ "$in" = 0 ] || echo "$o"
	done
	rm -f "$BUILD/.dirobjs"
}

# added_lines TREE: "file:line" for every line the series (TREE against base, uncommitted changes too) adds
# to TREE, one a line: a sparse warning there is the series'.
added_lines() {
	git -C "$1" diff -U0 base | awk '
		/^\+\+\+ b\// { file = substr($0, 7); next }
		/^@@ / {
			split($3, r, ",")
			start = substr(r[1], 2); n = (2 in r) ? r[2] : 1
			for (i = 0; i < n; i++) print file ":" (start + i)
		}'
}

# build_objects TREE OBJDIR LOGDIR OBJECT...: in the configured OBJDIR,
# make prepare, then build the OBJECTs with W=1 (KMAKE_ARGS, e.g. ARCH=i386,
# go to every make). Fails on any compiler warning or error in them, on a
# sparse warning in a line the series adds, and on an objtool warning (run
# on each object here when the config leaves objtool to the vmlinux link,
# as with IBT). Sets BUILT and ABSENT (the objects this config does not
# build) and NOTE (one line for the report). Logs in LOGDIR.
build_objects() {
	local tree=$1 obj=$2 logs=$3 o t0 rc=0 args delay flags n rtree
	shift 3
	local -a objects=("$@")
	BUILT=() ABSENT=() NOTE=
	mkdir -p "$logs"
	t0=$(date +%s)
	if ! kmake_in "$tree" "$obj" "${KMAKE_ARGS[@]}" prepare > "$logs/prepare.log" 2>&1; then
		tail -20 "$logs/prepare.log"
		info "make prepare failed (log: ${logs#"$TOP"/}/prepare.log)"
		return 1
	fi
	info "prepare: $(( $(date +%s) - t0 )) s"

	mapfile -t BUILT < <(config_objects "$tree" "$obj" "${objects[@]}")
	mapfile -t ABSENT < <(printf '%s\n' "${objects[@]}" "${BUILT[@]}" | sort | uniq -u)
	[ "${#BUILT[@]}" != 0 ] || { info "this configuration builds none of the objects"; return 1; }

	# Build from scratch every time (ccache makes it cheap): a warning is
	# printed again on every run, not only when the object changes.
	for o in "${BUILT[@]}"; do
		case "$o" in
		*/) rm -rf "${obj:?}/$o" ;;
		*) rm -f "$obj/$o" ;;
		esac
	done
	t0=$(date +%s)
	kmake_in "$tree" "$obj" "${KMAKE_ARGS[@]}" W=1 "${BUILT[@]}" > "$logs/build.log" 2>&1 || rc=$?
	for o in "${BUILT[@]}"; do
		case "$o" in
		*/) [ -n "$(find "$obj/$o" -name '*.o' -print -quit 2>/dev/null)" ] ;;
		*) [ -f "$obj/$o" ] ;;
		esac || { info "$o was not built"; rc=1; }
	done
	n=$(grep -c -E '(warning|error):' "$logs/build.log" || true)
	if [ "$rc" != 0 ] || [ "$n" != 0 ]; then
		grep -E -B2 -A3 '(warning|error):' "$logs/build.log" | head -60
		info "the objects do not build cleanly: $n warning(s) or error(s), make exit $rc (log: ${logs#"$TOP"/}/build.log)"
		return 1
	fi
	info "W=1 build of ${#BUILT[@]} targets: no warning ($(( $(date +%s) - t0 )) s)"

	# sparse (C=2 checks the objects without building them again).
	kmake_in "$tree" "$obj" "${KMAKE_ARGS[@]}" C=2 "${BUILT[@]}" > "$logs/sparse.log" 2>&1 ||
		{ tail -20 "$logs/sparse.log"; info "sparse failed (log: ${logs#"$TOP"/}/sparse.log)"; return 1; }
	added_lines "$tree" > "$logs/added-lines"
	rtree=${tree/#"$TOP"/"$RTOP"}
	sed -n -E "s,^$rtree/([^:]+):([0-9]+):[0-9]+: (warning|error): .*,\\1:\\2 &,p" "$logs/sparse.log" |
		sort -u > "$logs/sparse-warnings"
	n=$(awk 'NR == FNR { added[$1] = 1; next } ($1 in added)' \
		"$logs/added-lines" "$logs/sparse-warnings" | tee "$logs/sparse-series" | wc -l)
	if [ "$n" != 0 ]; then
		cut -d' ' -f2- "$logs/sparse-series" | head -20
		info "sparse: $n warning(s) in lines the series adds (log: ${logs#"$TOP"/}/sparse.log)"
		return 1
	fi
	NOTE="sparse: none in the series' lines ($(wc -l < "$logs/sparse-warnings") in base code)"

	# objtool, where kbuild runs it only on vmlinux.o (delay-objtool, as
	# with IBT): its flags for this config, asked from kbuild itself.
	grep -q '^CONFIG_OBJTOOL=y' "$obj/.config" || return 0
	# shellcheck disable=SC2016
	flags=$(in_root bash -c 'cd "$1" && make -s -f "$2/scripts/Makefile.build" \
		srctree="$2" objtree=. obj=kernel src="$2/kernel" need-modorder=1 "${@:3}" \
		--eval "objtool-flags: ; @echo \"\$(delay-objtool)|\$(objtool-args-y)\"" objtool-flags' \
		- "$obj" "$tree" "${KMAKE_ARGS[@]}") || { info "cannot ask kbuild for objtool's flags"; return 1; }
	delay=${flags%%|*} args=${flags#*|}
	if [ -z "$delay" ]; then
		NOTE+="; objtool: run by kbuild, clean"
		return 0
	fi
	# --ibt needs the linked vmlinux.o; everything else holds per object.
	args=$(sed 's/ *--ibt//' <<<"$args")
	local -a objs
	mapfile -t objs < <(printf '%s\n' "${BUILT[@]}" | grep '\.o$' || true)
	# shellcheck disable=SC2016
	in_root bash -c 'cd "$1"; shift; args=$1; shift
		for o in "$@"; do
			# kbuild ran it on a single-object module: in build.log.
			grep -q "objtool/objtool " "$(dirname "$o")/.$(basename "$o").cmd" && continue
			./tools/objtool/objtool $args --dry-run "$o" 2>&1 || echo "objtool failed on $o"
		done' - "$obj" "$args" "${objs[@]}" > "$logs/objtool.log"
	if [ -s "$logs/objtool.log" ]; then
		head -20 "$logs/objtool.log"
		info "objtool: warnings (log: ${logs#"$TOP"/}/objtool.log)"
		return 1
	fi
	NOTE+="; objtool $args: clean"
	return 0
}
