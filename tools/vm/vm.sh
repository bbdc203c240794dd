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
clones=0
run=
qpid=
# The run's guest ports and logs: $run, or $run/cloneN for the Nth clone.
io=
# More QEMU arguments for the next run_vm.
extra=()

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
  --append ARGS         more kernel command line (each one adds)
  --qemu ARGS           more QEMU arguments (split on blanks)
  --klog-ignore ERE     kernel log reports matching ERE do not fail the run
  --clone N             when CMD prints a line "@@clone ready", stop the
                        guest, save it to a file and restore it N times,
                        each with a new VM generation ID (vmgenid); each
                        clone's output follows a line "@@vm clone I"
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
		--append) append="${append:+$append }$2" ;;
		--qemu) qemu_args=$2 ;;
		--klog-ignore) klog_ignore=$2 ;;
		--clone) clones=$2 ;;
		*) die "unknown option $1 (try --help)" ;;
		esac
		shift 2
	done
	cmd="$*"
	[ -f "$kernel" ] || die "no kernel image '$kernel' (--kernel)"
	[ "$timeout" -gt 0 ] 2>/dev/null || die "--timeout wants seconds"
	[ "$clones" -ge 0 ] 2>/dev/null || die "--clone wants a number"
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
# The ports and logs go to $io; with --clone, QEMU also has a monitor (HMP
# on the pipes $io/mon.in and $io/mon.out, logged in $io/mon.log).
run_vm() {
	local left=$((timeout - SECONDS)) mon=()

	"$TOP/tools/scripts/qemu.sh" check || die "no QEMU 10 in $QEMU_DIR: run 'make deps'"
	[ "$left" -gt 0 ] || left=1
	mkdir -p "$io" || die "cannot create $io"
	touch "$io/console" "$io/output" "$io/status"
	if [ "$clones" -gt 0 ]; then
		rm -f "$io/mon.in" "$io/mon.out"
		mkfifo "$io/mon.in" "$io/mon.out" || die "cannot create the monitor's pipes"
		: >"$io/mon.log"
		mon=(-chardev "pipe,id=mon,path=$io/mon" -mon "chardev=mon,mode=readline")
	fi
	# shellcheck disable=SC2086 # $qemu_args: one word per argument
	timeout -k 5 "$left" "$QEMU_DIR/usr/bin/qemu-system-x86_64" \
		-L "$QEMU_DIR/usr/share/qemu" -L "$QEMU_DIR/usr/share/seabios" \
		-accel tcg -cpu max -smp 2 -m "$mem" -nodefaults -no-user-config \
		-display none -monitor none -no-reboot \
		-kernel "$1" -initrd "$run/initrd" -append \
		"console=ttyS0 rdinit=/init panic=-1 log_buf_len=16M 8250.nr_uarts=4 $append" \
		-chardev file,id=s0,path="$io/console" -serial chardev:s0 \
		-chardev file,id=s1,path="$io/output" -serial chardev:s1 \
		-chardev file,id=s2,path="$io/status" -serial chardev:s2 \
		"${mon[@]}" "${extra[@]}" $qemu_args </dev/null >"$io/qemu.log" 2>&1 &
	qpid=$!
	if [ ${#mon[@]} -gt 0 ]; then
		# Opened read-write, as QEMU opens them: neither side blocks.
		exec 7<>"$io/mon.in" 8<>"$io/mon.out"
		cat <&8 >>"$io/mon.log" &
		mpid=$!
	fi
	tail -c +1 -s 0.2 -f --pid=$qpid "$io/output" &
	while kill -0 $qpid 2>/dev/null; do
		if grep -q '^@@vm done' "$io/status"; then
			sleep 2
			kill $qpid 2>/dev/null
		fi
		[ "$clones" = 0 ] || clone_step
		sleep 0.5
	done
	wait $qpid
	qrc=$?
	qpid=
	if [ -n "$mpid" ]; then
		kill "$mpid" 2>/dev/null
		exec 7>&- 8>&-
		mpid=
	fi
	wait
}

# ---------------------------------------------------------------------
# --clone: save a running guest, restore it as several clones.

phase=
saved=
mpid=

# A command to the monitor.
mon() {
	printf '%s\n' "$*" >&7
}

# Wait up to $2 tenths of a second for ERE $1 in the monitor's answers,
# asking again with command $3 (if any) every tenth.
mon_wait() {
	local i

	for i in $(seq "$2"); do
		[ -z "${3:-}" ] || mon "$3"
		sleep 0.1
		grep -Eq "$1" "$io/mon.log" && return 0
		kill -0 "$qpid" 2>/dev/null || return 1
	done
	return 1
}

# The guest is ready: stop it, save it to $run/snapshot (a migration to a
# file), quit.  On failure QEMU is killed and the run ends unsaved.
save_guest() {
	echo "vm.sh: guest ready: stopping it and saving it at ${SECONDS}s" >&2
	mon stop
	mon "migrate file:$run/snapshot"
	if mon_wait '[Ss]tatus:[[:space:]]*(completed|failed|cancelled)' 600 'info migrate' &&
	   grep -Eq '[Ss]tatus:[[:space:]]*completed' "$io/mon.log"; then
		saved=$(stat -c %s "$run/snapshot")
		echo "vm.sh: saved $saved bytes at ${SECONDS}s" >&2
		mon quit
	else
		echo "vm.sh: saving the guest failed; the monitor said:" >&2
		tr -d '\r' <"$io/mon.log" | tail -n 20 >&2
		kill "$qpid" 2>/dev/null
	fi
}

# One look at a --clone run, from run_vm's loop.
clone_step() {
	case $phase in
	parent)
		grep -q '^@@clone ready' "$io/output" || return
		phase=saving
		save_guest
		;;
	incoming)
		# Loaded, and paused as it was saved: let it run.
		mon 'info status'
		grep -Eq 'VM status: paused[[:space:]]*$' "$io/mon.log" || return
		mon cont
		phase=running
		;;
	esac
}

# Restore the saved guest $clones times, each with a VM generation ID of its
# own: the exit status of the first clone that fails, or 0.
run_clones() {
	local i rc worst=0

	if [ -z "$saved" ]; then
		echo "vm.sh: the guest was never saved (no '@@clone ready' from CMD, or the save failed)" >&2
		report
		rc=$?
		[ "$rc" != 0 ] || rc=$EX_DIED
		return "$rc"
	fi
	for i in $(seq "$clones"); do
		io=$run/clone$i
		phase=incoming
		extra=(-device "vmgenid,guid=$(cat /proc/sys/kernel/random/uuid)"
		       -incoming "file:$run/snapshot")
		echo "@@vm clone $i"
		run_vm "$image"
		report
		rc=$?
		[ "$worst" != 0 ] || worst=$rc
	done
	return "$worst"
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
	tail -n 50 "$io/console" | tr -d '\r' >&2
}

# The first status record $1.
st() {
	sed -n "s/^@@vm $1 //p" "$io/status" | head -n 1
}

# The run's exit status, with a diagnosis on stderr.
report() {
	local rc

	sed -n '/^@@vm dmesg-begin$/,/^@@vm dmesg-end$/{//!p}' "$io/status" >"$io/dmesg"
	if ! grep -qx '@@vm done' "$io/status"; then
		if [ $qrc = 124 ] || [ $qrc = 137 ]; then
			echo "vm.sh: TIMEOUT after ${timeout}s ($krel): VM killed" >&2
			console_tail
			return $EX_TIMEOUT
		fi
		echo "vm.sh: the guest ($krel) died before reporting (QEMU status $qrc)" >&2
		sed 's/^/qemu: /' "$io/qemu.log" >&2
		klog_check "$io/console"
		console_tail
		return $EX_DIED
	fi
	if [ -n "$(st insmod-fail)" ]; then
		echo "vm.sh: insmod failed in the guest ($krel): $(st insmod-fail)" >&2
		tail -n 25 "$io/dmesg" >&2
		return $EX_MODULE
	fi
	rc=$(st rc)
	[ -n "$rc" ] || { console_tail; return $EX_DIED; }
	# A clone started CMD before it was saved: its record is the parent's.
	echo "vm.sh: $krel: CMD status $rc; guest uptime at CMD start" \
		"$(sed -n 's/^@@vm cmd-start //p' "$run/status" | head -n 1)s," \
		"at end $(st cmd-end)s; wall ${SECONDS}s" >&2
	if ! klog_check "$io/dmesg"; then
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
	[ -n "$mpid" ] && kill "$mpid" 2>/dev/null
	if [ "$code" -ge "$EX_DIED" ] && [ "$code" != "$EX_SETUP" ]; then
		rm -f "$run/initrd" "$run/snapshot"
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
	io=$run
	if [ "$clones" -gt 0 ]; then
		phase=parent
		extra=(-device "vmgenid,guid=$(cat /proc/sys/kernel/random/uuid)")
	fi
	run_vm "$image"
	# A vmlinux whose PVH entry fails (with KASAN) dies before its first
	# console line: boot the bzImage instead, now and from now on.
	if [ ! -s "$run/console" ] && [ "$qrc" != 124 ] && [ "$image" != "$kernel" ] &&
	   [ ! -L "$image" ]; then
		echo "vm.sh: $image did not start; booting $kernel" >&2
		ln -sf "$kernel" "$image" && image=$kernel && run_vm "$kernel"
	fi
	if [ "$clones" -gt 0 ]; then
		run_clones
		return
	fi
	report
}

main "$@"
exit
