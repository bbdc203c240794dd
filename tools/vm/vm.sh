#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - run a command in a throw-away QEMU guest (TCG, -cpu max) that boots
# a given kernel with out-of-tree modules loaded: fairdie's VM test bench.
# tools/vm/README tells how it works; tools/vm/init is the guest's /init.

set -u

readonly EX_DIED=121 EX_MODULE=122 EX_KLOG=123 EX_TIMEOUT=124 EX_SETUP=125
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$TOP/.build/vm
QEMU_DIR=$("$TOP/tools/scripts/qemu.sh" path)
# Kernel log reports that fail a run (lockdep's start with WARNING: or BUG:;
# its banner and taint notices do not count).
BAD_RE='WARNING:|BUG:|Oops|general protection fault|Call Trace|KASAN|UBSAN'
BAD_RE+='|kernel BUG|list_(add|del) corruption|refcount_t|possible recursive locking'
BAD_RE+='|circular locking|Kernel panic|blocked for more than|stack-protector|double fault'

kernel=
modules=()
modparams=
bins=()
files=()
mem=1G
timeout=900
append=
qemu_args=
klog_ignore=
run=
qpid=

usage() {
	cat <<EOF
Usage: $0 --kernel BZIMAGE [OPTIONS] [--] [CMD...]

Boot BZIMAGE under QEMU, insmod the modules, run CMD with "sh -c" in the
guest's /root; exit with its status or 121-125 (see tools/vm/README).

  --kernel BZIMAGE      the kernel to boot (required)
  --module KO           insmod KO, built for that kernel (repeatable)
  --modparams "k=v ..." parameters of the last --module
  --bin PATH            copy an executable and its libraries to /usr/bin
  --file PATH           copy a file or directory to /root
  --mem SIZE            guest memory (default $mem)
  --timeout SECS        limit on the whole run (default $timeout)
  --append ARGS         more kernel command line
  --qemu ARGS           more QEMU arguments (split on blanks)
  --klog-ignore ERE     kernel log reports matching ERE do not fail the run
EOF
}

die() {
	echo "vm.sh: $*" >&2
	exit $EX_SETUP
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		--*) [ $# -ge 2 ] || die "$1 needs an argument" ;;
		*) break ;;
		esac
		case $1 in
		--kernel) kernel=$2 ;;
		--module) modules+=("$2") ;;
		--modparams) modparams=$2 ;;
		--bin) bins+=("$2") ;;
		--file) files+=("$2") ;;
		--mem) mem=$2 ;;
		--timeout) timeout=$2 ;;
		--append) append=$2 ;;
		--qemu) qemu_args=$2 ;;
		--klog-ignore) klog_ignore=$2 ;;
		*) die "unknown option $1 (try --help)" ;;
		esac
		shift 2
	done
	cmd="$*"
	[ -f "$kernel" ] || die "no kernel image '$kernel' (--kernel)"
	[ "$timeout" -gt 0 ] 2>/dev/null || die "--timeout wants seconds"
	[ -z "$modparams" ] || [ ${#modules[@]} -gt 0 ] || die "--modparams without --module"
}

# The release string of a bzImage: the x86 boot protocol's kernel_version
# field (offset 0x20e) points at it, 0x200 bytes before.
release_of() {
	local off

	[ "$(tail -c +515 "$1" | head -c 4)" = HdrS ] || return
	off=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	tail -c +$((off + 513)) "$1" | head -c 80 | cut -d' ' -f1 | tr -d '\0'
}

# Under TCG the bzImage decompresses itself slowly; the ELF vmlinux inside
# it, extracted once with the kernel's own scripts/extract-vmlinux, boots
# at once through its PVH entry (note type 18).  Else: the bzImage.
boot_image() {
	local out ksrc

	out=$BUILD/vmlinux-$krel-$(stat -c %s-%Y "$kernel")
	if [ ! -s "$out" ] && ksrc=$("$TOP/tools/scripts/ksrc.sh"); then
		sh "$ksrc/scripts/extract-vmlinux" "$kernel" >"$out.$$" 2>/dev/null &&
			LC_ALL=C readelf -n "$out.$$" | grep -q '(0x00000012)' &&
			mv "$out.$$" "$out"
		rm -f "$out.$$"
	fi
	if [ -s "$out" ]; then echo "$out"; else echo "$kernel"; fi
}

# Copy module $1 into the guest, decompressed, and add it to the load list
# with parameters $2.
add_module() {
	local name=${1##*/} dst

	name=${name%%.ko*}
	dst=/vm/mod/$(printf '%02d' "$(wc -l <"$run/root/vm/modules")")-$name.ko
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac >"$run/root$dst" || die "cannot copy $1"
	echo "$dst ${2:-}" >>"$run/root/vm/modules"
}

# The in-tree modules the --module modules need, in load order.
module_deps() {
	local m dep

	for m in "${modules[@]}"; do
		for dep in $(modinfo -F depends "$m" | tr , ' '); do
			modprobe -S "$krel" --show-depends "$dep" 2>/dev/null |
				sed -n 's/^insmod \([^ ]*\).*/\1/p'
		done
	done
}

# The --module modules, after the in-tree modules they depend on; each is
# checked against the booted release and the parameters against the last.
stage_modules() {
	local m dep known kv last=

	[ ${#modules[@]} = 0 ] || last=${modules[-1]}
	mkdir -p "$run/root/vm/mod" && : >"$run/root/vm/modules"
	for m in "${modules[@]}"; do
		[ -f "$m" ] || die "no module $m"
		[ "$(modinfo -F vermagic "$m" | cut -d' ' -f1)" = "$krel" ] ||
			die "$m is not built for $krel (modinfo -F vermagic)"
	done
	for dep in $(module_deps | awk '!seen[$0]++'); do
		add_module "$dep"
	done
	for m in "${modules[@]}"; do
		[ "$m" = "$last" ] || add_module "$m"
	done
	[ -z "$last" ] && return
	# The kernel ignores unknown parameter names: catch typos here.
	known=" $(modinfo -F parmtype "$last" | cut -d: -f1 | tr '\n' ' ')"
	for kv in $modparams; do
		case $known in
		*" ${kv%%=*} "*) ;;
		*) die "$last has no parameter '${kv%%=*}' (it has:${known% })" ;;
		esac
	done
	add_module "$last" "$modparams"
}

# Executables to /usr/bin with the shared libraries ldd names (static
# binaries and scripts have none); files to /root.
stage_files() {
	local f lib

	mkdir -p "$run/root/usr/bin" "$run/root/root" "$run/root/bin"
	for f in "${bins[@]}"; do
		cp -L "$f" "$run/root/usr/bin/" || die "cannot copy $f"
		for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
			mkdir -p "$run/root${lib%/*}"
			cp -L "$lib" "$run/root$lib" || die "cannot copy $lib"
		done
	done
	for f in "${files[@]}"; do
		cp -rL "$f" "$run/root/root/" || die "cannot copy $f"
	done
	cp /bin/busybox "$run/root/bin/" || die "no /bin/busybox (make deps)"
	install -m 0755 "$TOP/tools/vm/init" "$run/root/init"
	printf '%s\n' "$cmd" >"$run/root/vm/cmd"
	(cd "$run/root" && find . | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 | gzip -1) >"$run/initrd" ||
		die "cannot build the initramfs"
	rm -rf "$run/root"
}

# Boot image $1; stream CMD's output (ttyS1) while the guest runs.  Once
# the guest has reported everything ("@@vm done" on ttyS2), QEMU is stopped
# if it has not powered off by itself (a kernel without ACPI halts instead).
run_vm() {
	"$TOP/tools/scripts/qemu.sh" check || die "no QEMU 10 in $QEMU_DIR: run 'make deps'"
	touch "$run/console" "$run/output" "$run/status"
	# shellcheck disable=SC2086 # $qemu_args: one word per argument
	timeout -k 5 "$timeout" "$QEMU_DIR/usr/bin/qemu-system-x86_64" \
		-L "$QEMU_DIR/usr/share/qemu" -L "$QEMU_DIR/usr/share/seabios" \
		-accel tcg -cpu max -smp 2 -m "$mem" -nodefaults -no-user-config \
		-display none -monitor none -no-reboot \
		-kernel "$1" -initrd "$run/initrd" -append \
		"console=ttyS0 rdinit=/init panic=-1 log_buf_len=16M 8250.nr_uarts=4 $append" \
		-chardev file,id=s0,path="$run/console" -serial chardev:s0 \
		-chardev file,id=s1,path="$run/output" -serial chardev:s1 \
		-chardev file,id=s2,path="$run/status" -serial chardev:s2 \
		$qemu_args </dev/null >"$run/qemu.log" 2>&1 &
	qpid=$!
	tail -c +1 -s 0.2 -f --pid=$qpid "$run/output" &
	while kill -0 $qpid 2>/dev/null; do
		if grep -q '^@@vm done' "$run/status"; then
			sleep 2
			kill $qpid 2>/dev/null
		fi
		sleep 0.5
	done
	wait $qpid
	qrc=$?
	qpid=
	wait
}

# Show the kernel log's reports in file $1, and fail, if it has any that
# --klog-ignore does not cover.
klog_check() {
	local bad

	bad=$(grep -E "$BAD_RE" "$1")
	[ -z "$klog_ignore" ] || bad=$(printf '%s\n' "$bad" | grep -Ev -e "$klog_ignore")
	[ -n "$bad" ] || return 0
	echo "vm.sh: ---- kernel log reports ($1) ----" >&2
	grep -E -B 1 -A 12 "$BAD_RE" "$1" | tr -d '\r' | head -n 120 >&2
	return 1
}

console_tail() {
	echo "vm.sh: ---- last 50 lines of the console ----" >&2
	tail -n 50 "$run/console" | tr -d '\r' >&2
}

# The first status record $1.
st() {
	sed -n "s/^@@vm $1 //p" "$run/status" | head -n 1
}

# The run's exit status, with a diagnosis on stderr.
report() {
	local rc

	sed -n '/^@@vm dmesg-begin$/,/^@@vm dmesg-end$/{//!p}' "$run/status" >"$run/dmesg"
	if ! grep -qx '@@vm done' "$run/status"; then
		if [ $qrc = 124 ] || [ $qrc = 137 ]; then
			echo "vm.sh: TIMEOUT after ${timeout}s ($krel): VM killed" >&2
			console_tail
			return $EX_TIMEOUT
		fi
		echo "vm.sh: the guest ($krel) died before reporting (QEMU status $qrc)" >&2
		sed 's/^/qemu: /' "$run/qemu.log" >&2
		klog_check "$run/console"
		console_tail
		return $EX_DIED
	fi
	if [ -n "$(st insmod-fail)" ]; then
		echo "vm.sh: insmod failed in the guest ($krel): $(st insmod-fail)" >&2
		tail -n 25 "$run/dmesg" >&2
		return $EX_MODULE
	fi
	rc=$(st rc)
	[ -n "$rc" ] || { console_tail; return $EX_DIED; }
	echo "vm.sh: $krel: CMD status $rc; guest uptime at CMD start $(st cmd-start)s," \
		"at end $(st cmd-end)s; wall ${SECONDS}s" >&2
	if ! klog_check "$run/dmesg"; then
		echo "vm.sh: CMD exited with status $rc, but the kernel log is not clean" >&2
		return $EX_KLOG
	fi
	return "$rc"
}

# On exit: stop what still runs; keep the logs of a failed run (without the
# initramfs) for a day, remove a good run's.
# shellcheck disable=SC2317 # run by trap
cleanup() {
	local code=$?

	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	if [ "$code" -ge "$EX_DIED" ] && [ "$code" != "$EX_SETUP" ]; then
		rm -f "$run/initrd"
		echo "vm.sh: logs kept in $run" >&2
	else
		rm -rf "$run"
	fi
}

main() {
	parse_args "$@"
	krel=$(release_of "$kernel")
	[ -n "$krel" ] || die "$kernel is not a bzImage"
	mkdir -p "$BUILD" || die "cannot create $BUILD"
	find "$BUILD" -maxdepth 1 -name 'run.*' -mmin +1440 -exec rm -rf {} +
	run=$(mktemp -d "$BUILD/run.XXXXXX") || die "cannot create a run directory"
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	set -f
	stage_modules
	set +f
	stage_files
	image=$(boot_image)
	run_vm "$image"
	# A vmlinux whose PVH entry fails (with KASAN) dies before its first
	# console line: boot the bzImage instead, now and from now on.
	if [ ! -s "$run/console" ] && [ "$qrc" != 124 ] && [ "$image" != "$kernel" ] &&
	   [ ! -L "$image" ]; then
		echo "vm.sh: $image did not start; booting $kernel" >&2
		ln -sf "$kernel" "$image" && run_vm "$kernel"
	fi
	report
}

main "$@"
exit
