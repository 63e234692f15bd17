#!/usr/bin/env bash
# Boot the built kernel under virtme-ng and run one command in it.
#   scripts/vm.sh [--log FILE] [--timeout SEC] [--append ARGS] COMMAND...
# The guest sees the build root as its root file system and this repository
# where the root does (build/ read-write), and runs COMMAND there. Its
# stdout and stderr come back as they are (written to files in build/, not
# taken from the console), and so does its exit status; the console (boot
# and kernel messages) goes to the log only. A guest that hangs or panics is
# killed after the timeout.
# Environment: VM_TIMEOUT (seconds, default 600), VM_APPEND (more kernel
# parameters, as --append), VM_QEMU_OPTS (more QEMU options, vm-raw.sh).
#   scripts/vm.sh sh -c 'dmesg | grep -i sframe'     (what make vm CMD=... runs)
# Warnings, BUG, KASAN, UBSAN, lockdep or kmemleak reports in the guest's
# kernel log fail the run, whatever the command returned.
. "$(dirname "$0")/lib.sh"

log=$BUILD/vm.log
timeout=${VM_TIMEOUT:-600}
append=${VM_APPEND:-}
while [ $# -gt 0 ]; do
	case "$1" in
	--log) log=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append="$append $2"; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "usage: vm.sh [--log FILE] [--timeout SEC] [--append ARGS] COMMAND..."
kernel=$KOBJ/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make kernel'"

# Nested KVM hangs on some hosts: use it only where a probe boot worked.
kvm_flag() {
	local probe=$CACHE/kvm-probe
	case "${SFRAME_KVM:-auto}" in
	0) echo --disable-kvm; return ;;
	1) return ;;
	esac
	if [ ! -f "$probe" ]; then
		if [ -w /dev/kvm ] && timeout 60 "$TOP/scripts/vm-raw.sh" "$kernel" "" true \
			>/dev/null 2>&1; then
			echo ok > "$probe"
		else
			echo no > "$probe"
		fi
	fi
	[ "$(cat "$probe")" = ok ] || echo --disable-kvm
}

out=$BUILD/vm-$(basename "$KOBJ")
rm -rf "$out"
mkdir -p "$out" "$(dirname "$log")"
printf '%s\n' "$@" > "$out/argv"
# The guest leaves the command's output and status in $out (the paths go in
# as arguments: vm-raw.sh gives them as the guest sees them). The root has
# no poweroff for virtme-init's bash fallback to call at the end (its init
# then exits and the kernel panics), and the kernel has no ACPI power off
# anyway: end the guest with a reboot, which makes QEMU exit.
# shellcheck disable=SC2016
guest='out=$2; cd "$1" && shift 2 && "$@" > "$out/stdout" 2> "$out/stderr"
	echo $? > "$out/status"; sync
	command -v poweroff >/dev/null || busybox reboot -f'
info "booting ${kernel#"$TOP"/} (console: ${log#"$TOP"/})" >&2
set +e
start=$(date +%s)
timeout --kill-after=10 "$timeout" "$TOP/scripts/vm-raw.sh" "$kernel" "$(kvm_flag)" \
	"$append" sh -c "$guest" vm-guest "$TOP" "$out" "$@" > "$log" 2>&1
rc=$?
set -e
secs=$(( $(date +%s) - start ))
# What the command printed, also when the guest did not finish.
[ ! -f "$out/stdout" ] || cat "$out/stdout"
[ ! -f "$out/stderr" ] || cat "$out/stderr" >&2
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	tail -n 20 "$log" >&2
	die "the guest did not finish within $timeout s (hung or panicked); log: $log"
fi
if [ ! -f "$out/status" ]; then
	tail -n 20 "$log" >&2
	die "the guest ended without the command's status (crash?); log: $log"
fi
status=$(cat "$out/status")

bad=$(grep -E -m 10 '(WARNING:|BUG:|Oops|Kernel panic|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|unreferenced object|general protection fault|Call Trace:)' "$log" || true)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" >&2
	die "the guest kernel reported problems (above); log: $log"
fi
info "guest ran in $secs s, exit status $status (log: ${log#"$TOP"/})" >&2
exit "$status"
