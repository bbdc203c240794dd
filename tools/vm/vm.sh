#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - run a command in a throw-away QEMU (TCG) guest that boots Debian's
# own kernel, with out-of-tree kernel modules loaded.  This is fairdie's VM
# test bench: the host kernel cannot load modules, so every kernel-side test
# goes through here.  Needs qemu-system-x86, busybox-static, cpio and
# Debian's linux-image packages; no network.  Runs as root or as any user
# who can read /boot/vmlinuz-*.
#
# Usage:
#   tools/vm/vm.sh [OPTIONS] [--] [CMD...]
#
# Options:
#   --kver V         kernel to boot: "6.1" (default: the newest
#                    /boot/vmlinuz-6.1.*-amd64), "6.12" (the newest
#                    /boot/vmlinuz-6.12.*-amd64) or a full release such as
#                    6.1.0-56-amd64.  Default from the environment: VM_KVER.
#   --kernel PATH    boot this bzImage instead (its release is read from the
#                    file); overrides --kver.
#   --module PATH    insmod PATH (a .ko) in the guest; repeatable, loaded in
#                    the order given.  The in-tree modules it depends on
#                    ("depends=" in its modinfo) are taken from the host's
#                    /lib/modules/RELEASE and loaded first.  It must be built
#                    for the booted kernel: vermagic is checked on the host.
#   --modparams "k=v k2=v2"
#                    parameters for the LAST --module (ours).  Word-split: no
#                    spaces inside values.  Names are checked on the host
#                    against the module's parameters (the kernel would only
#                    ignore an unknown one).
#   --bin PATH       copy an executable to the guest's /usr/bin; repeatable.
#                    For a dynamically linked one, the shared libraries that
#                    ldd reports and the dynamic loader are copied too.  One
#                    named like a busybox applet (od, shuf, ...) must be
#                    called by its full path: busybox's sh prefers applets.
#   --file PATH      copy a file or directory into the guest's /root;
#                    repeatable.
#   --rmmod          after CMD, rmmod the --module modules in reverse order;
#                    a failed rmmod fails the run (exercises the unload path).
#   --timeout SECS   hard limit on the whole VM run (default 900).
#   --mem SIZE       guest memory (default 1G).
#   --smp N          guest CPUs (default 2).
#   --append ARGS    extra kernel command line arguments.
#   --klog-ignore ERE
#                    kernel log lines matching this extended regex do not
#                    fail the run (for a report a test provokes on purpose).
#   --console        also stream the guest's kernel console to stderr, live
#                    (same as VM_CONSOLE=1; --keep-console is an alias).
#   --keep           keep the run directory (logs and initramfs) and print
#                    its path.  Without it, the directory is removed after a
#                    good run and kept, less the initramfs, after a failure
#                    found by vm.sh (codes 121-125 below, and interrupts).
#   -q, --quiet      no summary line on stderr.
#   -h, --help       print this text.
#
# The guest:
#   CMD (all remaining words, joined with spaces as ssh does) runs as
#   "sh -c CMD" in /root, as root, with stdin from /dev/null, HOME=/root and
#   PATH=/usr/local/bin:/usr/bin:/bin:/sbin:/usr/sbin; busybox provides the
#   usual commands.  CMD's stdout is a serial tty in raw mode, so stdio is
#   line-buffered and isatty(1) is true.  Without CMD, the modules are only
#   loaded (and unloaded with --rmmod) and the kernel log is checked.
#   Mounted: proc, sysfs, devtmpfs on /dev (device nodes appear by
#   themselves, e.g. /dev/fairdie), devpts, tmpfs on /tmp and /dev/shm,
#   debugfs.  The guest's CPU (-cpu max under TCG) has RDRAND and RDSEED.
#   Note: busybox insmod retries with init_module() when finit_module()
#   fails, so a module whose init fails has its init run twice.
#
# Output and exit status:
#   CMD's stdout and stderr, merged in order and byte-exact, are printed on
#   stdout while CMD runs (the port carries roughly 200-300 KB/s: reduce
#   bulk data in the guest).  vm.sh's own messages, including a one-line
#   summary (release, CMD's status, guest uptime at CMD start and end, wall
#   time), go to stderr.  The exit status is CMD's, except:
#     121  the guest died before reporting (panic, triple fault, ...): the
#          problem lines of the console and its last 50 lines are shown
#     122  a module failed to load (or, with --rmmod, to unload): the insmod
#          error and the tail of the guest's dmesg are shown
#     123  the kernel log has a report: WARNING:, BUG:, Oops, general
#          protection fault, Call Trace, KASAN, UBSAN, kernel BUG, list
#          corruption, refcount_t, lockdep or locking, Kernel panic, hung
#          task; the lines and some context are shown, and CMD's status in
#          the summary.  Taint notices ("loading out-of-tree module taints
#          kernel", "module verification failed") are fine.
#     124  timeout: the VM was killed, the console's last 50 lines are shown
#     125  vm.sh itself failed (usage, missing kernel or file, wrong vermagic,
#          unknown module parameter, ...)
#     129/130/143  vm.sh was interrupted (SIGHUP/SIGINT/SIGTERM); the VM is
#          killed
#
# How it works:
#   The guest boots /boot/vmlinuz-RELEASE with qemu-system-x86_64 -accel tcg
#   -cpu max (never KVM, which hangs here) -no-reboot, no display.  As the
#   bzImage's own decompression is slow under TCG, the ELF vmlinux inside is
#   unpacked once into .build/vm/ and booted through its PVH entry (about
#   10 s saved a run under load); VM_BZIMAGE=1 boots the bzImage instead.
#   The initramfs is two concatenated gzip'd cpio archives: a cached base
#   (busybox-static with its applet links and a minimal /etc, in
#   .build/vm/base-KEY.cpio.gz, rebuilt when busybox changes) and a per-run
#   part (/init, modules, binaries, files, CMD) built in a run directory
#   .build/vm/run.XXXXXX.  Results never go through the kernel console,
#   where kernel messages interleave; the guest has three serial ports:
#     ttyS0  kernel console           -> RUNDIR/console
#     ttyS1  CMD's stdout+stderr      -> RUNDIR/output (streamed live)
#     ttyS2  status records + dmesg   -> RUNDIR/status
#   The status port carries lines "@@vm WORD ARGS": uptime-start,
#   insmod-ok/insmod-fail, cmd-start, rc, cmd-end, rmmod-fail, uptime-end,
#   the whole dmesg between dmesg-begin and dmesg-end (log_buf_len=16M, so
#   nothing is lost), then done.  After CMD the guest's init kills what CMD
#   left running, closes the ports (the last close waits until all is sent)
#   and powers off; a panic reboots at once (panic=-1), which -no-reboot
#   turns into QEMU's exit.  Runs are independent: several may go at once.
#
# Environment: VM_KVER, VM_CONSOLE=1, VM_BUILD_DIR (default REPO/.build/vm),
# VM_BUSYBOX (default /bin/busybox),
# VM_BZIMAGE=1.  See also tools/vm/README.
#
# Examples:
#   tools/vm/vm.sh --module fairdie.ko --modparams "sides=20" -- \
#           'head -c 8 /dev/fairdie | od -An -tu1'
#   tools/vm/vm.sh --kver 6.12 --module fairdie.ko --rmmod \
#           --bin selftests/fairdie_test -- fairdie_test
#   tools/vm/vm.sh --bin /usr/bin/ent -- 'head -c 100000 /dev/urandom | ent'

set -u

# The body is one { } block: bash reads it whole before running any of it,
# so editing this file cannot upset runs already under way.
{
prog=vm.sh
top=$(cd "$(dirname "$0")/../.." && pwd)

# Reserved exit codes (documented above).
EX_DIED=121
EX_MODULE=122
EX_KLOG=123
EX_TIMEOUT=124
EX_SETUP=125

run=
die() {
	echo "$prog: $*" >&2
	[ -n "$run" ] && rm -rf "$run"
	exit $EX_SETUP
}

usage() {
	# The header comment, from "Usage:" to its end.
	sed -n '/^# Usage:/,/^[^#]/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

# ---------------------------------------------------------------- arguments

kver=${VM_KVER:-6.1}
kernel=
modules=()
modparams=
modparams_set=0
bins=()
files=()
rmmod=0
timeout_s=900
mem=1G
smp=2
append=
klog_ignore=
console=${VM_CONSOLE:-0}
keep=0
quiet=0

need_arg() {
	[ "$2" -ge 2 ] || die "option $1 needs an argument (try --help)"
}

while [ $# -gt 0 ]; do
	case $1 in
	--kver) need_arg "$1" $#; kver=$2; shift 2 ;;
	--kernel) need_arg "$1" $#; kernel=$2; shift 2 ;;
	--module) need_arg "$1" $#; modules+=("$2"); shift 2 ;;
	--modparams) need_arg "$1" $#; modparams=$2; modparams_set=1; shift 2 ;;
	--bin) need_arg "$1" $#; bins+=("$2"); shift 2 ;;
	--file) need_arg "$1" $#; files+=("$2"); shift 2 ;;
	--rmmod) rmmod=1; shift ;;
	--timeout) need_arg "$1" $#; timeout_s=$2; shift 2 ;;
	--mem) need_arg "$1" $#; mem=$2; shift 2 ;;
	--smp) need_arg "$1" $#; smp=$2; shift 2 ;;
	--append) need_arg "$1" $#; append=$2; shift 2 ;;
	--klog-ignore) need_arg "$1" $#; klog_ignore=$2; shift 2 ;;
	--console | --keep-console) console=1; shift ;;
	--keep) keep=1; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (try --help)" ;;
	*) break ;;
	esac
done
cmd="$*"

case $timeout_s in
'' | *[!0-9]*) die "--timeout wants whole seconds, got '$timeout_s'" ;;
esac
case $smp in
'' | *[!0-9]*) die "--smp wants a number, got '$smp'" ;;
esac
if [ $modparams_set = 1 ] && [ ${#modules[@]} = 0 ]; then
	die "--modparams given without --module"
fi

# QEMU 10.0 from bookworm-backports, unpacked by tools/scripts/qemu.sh
# (make deps): its TCG guests have RDSEED, bookworm's QEMU 7.2 gives none.
qdir=$("$top/tools/scripts/qemu.sh" path)
qemu=$qdir/usr/bin/qemu-system-x86_64
busybox=${VM_BUSYBOX:-/bin/busybox}
"$top/tools/scripts/qemu.sh" check || die "no QEMU 10 in $qdir: run 'make deps'"
[ -x "$busybox" ] || die "$busybox not found (apt-get install busybox-static)"
command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"

# ------------------------------------------------------------------- kernel

# Pick the kernel image and its release string (the /lib/modules name).
if [ -n "$kernel" ]; then
	[ -f "$kernel" ] || die "no kernel image $kernel"
	# "Linux kernel x86 boot executable bzImage, version 6.1.0-56-amd64 (...)"
	krel=$(file -b "$kernel" | sed -n 's/.*, version \([^ ]*\) .*/\1/p')
	[ -n "$krel" ] || die "cannot tell the release of $kernel"
elif [ -f "/boot/vmlinuz-$kver" ]; then
	kernel=/boot/vmlinuz-$kver
	krel=$kver
else
	# Newest /boot/vmlinuz-KVER.*-amd64 ("6.1.*" does not match 6.12).
	kernel=$(printf '%s\n' /boot/vmlinuz-"$kver".*-amd64 | sort -V | tail -n 1)
	[ -f "$kernel" ] || die "no /boot/vmlinuz-$kver.*-amd64 installed (--kver $kver)"
	krel=${kernel#/boot/vmlinuz-}
fi
[ -r "$kernel" ] || die "cannot read $kernel"
moddir=/lib/modules/$krel

# ------------------------------------------------------------- directories

build=${VM_BUILD_DIR:-$top/.build/vm}
mkdir -p "$build" || die "cannot create $build"
# Forget the logs of failed runs after a day.  A run directory still holding
# its initramfs may belong to a run under way (or to --keep): never touched.
find "$build" -mindepth 1 -maxdepth 1 -type d -name 'run.*' -mmin +1440 2>/dev/null |
	while read -r d; do
		[ -e "$d/initrd" ] || rm -rf "$d"
	done
run=$(mktemp -d "$build/run.XXXXXX") || die "cannot create a run directory in $build"
stage=$run/root
mkdir -p "$stage"

qpid=
tpids=()
# shellcheck disable=SC2317 # cleanup and on_signal run from traps
cleanup() {
	local p
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	for p in "${tpids[@]}"; do
		kill "$p" 2>/dev/null
	done
}
# shellcheck disable=SC2317
on_signal() {
	cleanup
	rm -f "$run/initrd"
	echo "$prog: interrupted by SIG$1; logs kept in $run" >&2
	case $1 in
	HUP) exit 129 ;;
	INT) exit 130 ;;
	*) exit 143 ;;
	esac
}
trap 'on_signal HUP' HUP
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
# A reader of our output that goes away must not stop the cleanup.
trap '' PIPE

# ------------------------------------------------ uncompressed kernel (cached)

# Under TCG the bzImage's own decompression is slow (seconds; Debian's 6.1
# is xz-compressed).  So the ELF vmlinux inside it is unpacked once on the
# host, cached in $build, and booted through its PVH entry point, which
# QEMU's -kernel supports for an ELF with the PVH note.  If that fails for
# any reason, the bzImage is booted as it is.

# True if $1 is a complete ELF kernel with a PVH entry note: every LOAD
# segment lies inside the file.
vmlinux_ok() {
	local t o fs end=0

	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] || return 1
	# XEN_ELFNOTE_PHYS32_ENTRY is note type 18.
	LC_ALL=C readelf -nW "$1" 2>/dev/null | grep -q '(0x00000012)' || return 1
	while read -r t o _ _ fs _; do
		[ "$t" = LOAD ] || continue
		[ $((o + fs)) -gt $end ] && end=$((o + fs))
	done < <(LC_ALL=C readelf -lW "$1" 2>/dev/null)
	[ $end -gt 0 ] && [ $end -le "$(stat -c %s "$1")" ]
}

# Print the path of the cached vmlinux of bzImage $1, making it if needed;
# fail if it cannot be had.
vmlinux_of() {
	local bz=$1 out pat dec off

	command -v readelf >/dev/null || return 1
	out=$build/vmlinux-$krel-$(stat -c %s-%Y "$bz")
	if [ ! -s "$out" ]; then
		for dec in xz zstd gzip; do
			case $dec in
			xz) pat=$'\xfd7zXZ' ;;
			zstd) pat=$'\x28\xb5\x2f\xfd' ;;
			gzip) pat=$'\x1f\x8b\x08' ;;
			esac
			command -v $dec >/dev/null || continue
			# The payload starts at one of the first few magic matches.
			for off in $(LC_ALL=C grep -aboF "$pat" "$bz" | head -n 3 | cut -d: -f1); do
				# Trailing bytes after the payload make the tool
				# complain: only the result counts.
				tail -c +$((off + 1)) "$bz" 2>/dev/null |
					$dec -dc >"$out.$$" 2>/dev/null
				vmlinux_ok "$out.$$" && break 2
			done
		done
		if ! vmlinux_ok "$out.$$"; then
			rm -f "$out.$$"
			return 1
		fi
		mv -f "$out.$$" "$out"
		# Drop vmlinux files of older builds of the same release.
		for f in "$build/vmlinux-$krel"-*; do
			# Skip files being written: NAME.PID.
			case ${f##*-} in *.*) continue ;; esac
			[ "$f" = "$out" ] || rm -f "$f"
		done
	fi
	echo "$out"
}

boot_image=$kernel
if [ "${VM_BZIMAGE:-0}" != 1 ] &&
   [ "$(head -c 4 "$kernel" | od -An -c | tr -d ' ')" != '177ELF' ]; then
	if vm_elf=$(vmlinux_of "$kernel"); then
		boot_image=$vm_elf
	else
		echo "$prog: note: cannot unpack $kernel; booting it compressed (slower)" >&2
	fi
fi

# ---------------------------------------------------- base initramfs (cached)

# The base archive holds busybox, its applet links at their usual places
# (/bin/sh, /usr/bin/env, /sbin/insmod, ...), the directory skeleton and a
# minimal /etc.  It only depends on the busybox binary and on this layout,
# so its name carries a checksum of both.
BASE_LAYOUT=1
base_key=$( { echo "layout $BASE_LAYOUT"; cksum <"$busybox"; } | cksum | cut -d' ' -f1)
base=$build/base-$base_key.cpio.gz
if [ ! -s "$base" ]; then
	b=$run/base
	mkdir -p "$b" || die "cannot create $b"
	(
		set -e
		cd "$b"
		mkdir -p bin sbin usr/bin usr/sbin usr/local/bin lib lib64 \
			etc proc sys dev tmp root run mnt var/tmp vm
		cp "$busybox" bin/busybox
		"$busybox" --list-full | while read -r a; do
			[ "$a" = bin/busybox ] && continue
			mkdir -p "$(dirname "$a")"
			ln -sf /bin/busybox "$a"
		done
		echo 'root:x:0:0:root:/root:/bin/sh' >etc/passwd
		echo 'root:x:0:' >etc/group
		echo vm >etc/hostname
		find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 | gzip -6 >"$base.$$"
	) || die "building the base initramfs failed"
	mv -f "$base.$$" "$base"
	rm -rf "$b"
	# Drop bases of older busybox binaries or layouts.
	for f in "$build"/base-*.cpio.gz; do
		[ "$f" = "$base" ] || rm -f "$f"
	done
fi

# ------------------------------------------------------ per-run initramfs

mkdir -p "$stage/vm" "$stage/root" "$stage/usr/bin" "$stage/lib/x86_64-linux-gnu" \
	"$stage/lib64" || die "cannot populate $stage"

# Module name as the kernel knows it: basename, no .ko*, '-' as '_'.
modname() {
	local n=${1##*/}

	n=${n%%.ko*}
	echo "${n//-/_}"
}

# Copy a module into the guest, decompressing Debian's .ko.xz/.ko.zst.
# Appends its guest path to the load list.
modlist=()
modseen=" "
add_module() {
	local src=$1 name dst

	name=$(modname "$src")
	case $modseen in *" $name "*) return 0 ;; esac
	modseen="$modseen$name "
	dst=/vm/mod/$(printf '%02d' ${#modlist[@]})-$name.ko
	mkdir -p "$stage/vm/mod"
	case $src in
	*.ko.xz) xz -dc "$src" >"$stage$dst" ;;
	*.ko.zst) zstd -qdc "$src" >"$stage$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$stage$dst" ;;
	*) cp "$src" "$stage$dst" ;;
	esac || die "cannot copy module $src"
	modlist+=("$dst")
}

# Load the in-tree modules NAME needs, then NAME itself, from modules.dep.
# Names given with --module are skipped (they are loaded in the given order).
given_names=" "
add_dep() {
	local want=$1 line path deps d

	case $given_names in *" $want "*) return 0 ;; esac
	case $modseen in *" $want "*) return 0 ;; esac
	if [ -f "$moddir/modules.builtin" ] &&
	   sed 's,.*/,,; s,\.ko.*,,; s,-,_,g' "$moddir/modules.builtin" | grep -qx "$want"; then
		return 0
	fi
	line=
	if [ -f "$moddir/modules.dep" ]; then
		line=$(awk -v want="$want" '{
			n = $1; sub(/:$/, "", n); sub(/.*\//, "", n)
			sub(/\.ko.*/, "", n); gsub(/-/, "_", n)
			if (n == want) { print; exit }
		}' "$moddir/modules.dep")
	fi
	if [ -z "$line" ]; then
		echo "$prog: warning: module '$want' needed but not found in $moddir" >&2
		return 0
	fi
	path=${line%%:*}
	deps=${line#*:}
	for d in $deps; do
		add_dep "$(modname "$d")"
	done
	add_module "$moddir/$path"
}

for m in "${modules[@]}"; do
	[ -f "$m" ] || die "no module file $m"
	given_names="$given_names$(modname "$m") "
done
for m in "${modules[@]}"; do
	vm=$(modinfo -F vermagic "$m" 2>/dev/null | cut -d' ' -f1)
	[ -n "$vm" ] || die "$m: not a kernel module (no vermagic)"
	if [ "$vm" != "$krel" ]; then
		die "$m was built for $vm but the VM boots $krel;" \
			"rebuild it against /lib/modules/$krel/build (or pick --kver)"
	fi
	old_ifs=$IFS
	IFS=,
	for d in $(modinfo -F depends "$m"); do
		IFS=$old_ifs
		[ -n "$d" ] && add_dep "$(modname "$d")"
	done
	IFS=$old_ifs
done
for m in "${modules[@]}"; do
	add_module "$m"
done
# The kernel ignores unknown parameter names (with a notice only): catch
# typos here.  parmtype lists every module_param() as "name:type".
if [ ${#modules[@]} -gt 0 ]; then
	last_mod=${modules[${#modules[@]} - 1]}
	known=" $(modinfo -F parmtype "$last_mod" | cut -d: -f1 | tr '\n' ' ')"
	set -f
	for kv in $modparams; do
		k=${kv%%=*}
		case $known in
		*" $k "*) ;;
		*) die "$last_mod has no parameter '$k' (it has:${known% })" ;;
		esac
	done
	set +f
fi
printf '%s\n' "${modlist[@]}" >"$stage/vm/modules"
[ ${#modlist[@]} = 0 ] && : >"$stage/vm/modules"
printf '%s\n' "$modparams" >"$stage/vm/modparams"
# Names of the --module modules, for --rmmod (unloaded in reverse order).
if [ $rmmod = 1 ]; then
	for m in "${modules[@]}"; do
		modname "$m"
	done >"$stage/vm/rmmod"
fi

# Copy a file to the same path in the guest, following symlinks.
copy_lib() {
	if ! mkdir -p "$stage$(dirname "$1")" || ! cp -L "$1" "$stage$1"; then
		die "cannot copy $1"
	fi
}

applets=" $("$busybox" --list | tr '\n' ' ') "
for bin in "${bins[@]}"; do
	[ -f "$bin" ] || die "no executable $bin"
	# busybox's shell runs its own applet for a bare command name, before
	# any PATH lookup: such a binary must be called by its full path.
	case $applets in
	*" ${bin##*/} "*)
		echo "$prog: note: ${bin##*/} is also a busybox applet; in the guest," \
			"call /usr/bin/${bin##*/} by its full path" >&2 ;;
	esac
	if ! cp -L "$bin" "$stage/usr/bin/" || ! chmod 0755 "$stage/usr/bin/${bin##*/}"; then
		die "cannot copy $bin"
	fi
	# ldd lines: "libm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)" and
	# "/lib64/ld-linux-x86-64.so.2 (0x...)"; static binaries and scripts
	# make ldd fail, and need nothing.
	libs=$(ldd "$bin" 2>/dev/null | sed -n -e 's,.*=> \(/[^ ]*\) .*,\1,p' \
		-e 's,^[[:space:]]*\(/[^ ]*\) .*,\1,p')
	for lib in $libs; do
		copy_lib "$lib"
	done
done

for f in "${files[@]}"; do
	[ -e "$f" ] || die "no file $f"
	cp -rL "$f" "$stage/root/" || die "cannot copy $f"
done

printf '%s\n' "$cmd" >"$stage/vm/cmd"

# The guest's /init.  Busybox ash, PID 1.  It must always end in a power
# off: if it exits instead, the kernel panics, which also ends QEMU.
cat >"$stage/init" <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest init written by tools/vm/vm.sh: mount, insmod, run CMD, report, off.
export PATH=/usr/local/bin:/usr/bin:/bin:/sbin:/usr/sbin HOME=/root TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname vm

# ttyS1 carries CMD's output, ttyS2 the status records: raw, so that bytes
# pass unchanged (no \n -> \r\n).  Init holds both open until the end, so
# that its final close is the last one, which waits until all is sent.
stty -F /dev/ttyS1 raw -echo
stty -F /dev/ttyS2 raw -echo
exec 3>/dev/ttyS1 4>/dev/ttyS2

say() {
	echo "@@vm $*" >&4
}

# Stop whatever CMD left behind, so that nothing else holds the ports.
others() {
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = 1 ] && continue
		# Kernel threads and zombies have no exe.
		[ -e "$p/exe" ] && return 0
	done
	return 1
}
reap() {
	kill -TERM -1 2>/dev/null
	i=0
	while others && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL -1 2>/dev/null
	i=0
	while others && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

finish() {
	reap
	say "uptime-end $(cut -d' ' -f1 /proc/uptime)"
	say dmesg-begin
	dmesg -s 33554432 >&4
	say dmesg-end
	say "done"
	exec 3>&- 4>&-
	poweroff -f
	sleep 5
	reboot -f
}

say "uptime-start $(cut -d' ' -f1 /proc/uptime)"

# Load the modules in order; the parameters go to the last one.
set -f
params=$(cat /vm/modparams)
last=$(tail -n 1 /vm/modules)
while read -r m; do
	[ -n "$m" ] || continue
	if [ "$m" = "$last" ]; then
		# shellcheck disable=SC2086 # one word per parameter
		insmod "$m" $params >/tmp/insmod.log 2>&1 3>&- 4>&-
	else
		insmod "$m" >/tmp/insmod.log 2>&1 3>&- 4>&-
	fi
	rc=$?
	if [ $rc != 0 ]; then
		say "insmod-fail $rc ${m##*/} $(tr '\n' ' ' </tmp/insmod.log)"
		finish
	fi
	say "insmod-ok ${m##*/}"
done </vm/modules
set +f

say "cmd-start $(cut -d' ' -f1 /proc/uptime)"
cd /root || say "no /root"
sh -c "$(cat /vm/cmd)" </dev/null >&3 2>&3 3>&- 4>&-
rc=$?
say "rc $rc"
say "cmd-end $(cut -d' ' -f1 /proc/uptime)"
cd /

if [ -f /vm/rmmod ]; then
	reap
	sed '1!G;h;$!d' /vm/rmmod | while read -r m; do
		if ! rmmod "$m" >/tmp/rmmod.log 2>&1 3>&- 4>&-; then
			say "rmmod-fail $m $(tr '\n' ' ' </tmp/rmmod.log)"
		fi
	done
fi
finish
EOF
chmod 0755 "$stage/init"

(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 |
	gzip -1 >"$run/run.cpio") || die "building the per-run initramfs failed"
# Linux unpacks concatenated archives.  (An uncompressed one right after a
# gzip'd one was refused here: "invalid magic", so both are gzip'd.)
cat "$base" "$run/run.cpio" >"$run/initrd" || die "cannot write $run/initrd"
rm -f "$run/run.cpio"
rm -rf "$stage"

# --------------------------------------------------------------------- boot

out=$run/output
status=$run/status
con=$run/console
: >"$out"
: >"$status"
: >"$con"

# panic=-1: reboot at once on a panic, which -no-reboot turns into an exit.
# log_buf_len: big enough that a chatty test cannot push early reports out.
cmdline="console=ttyS0,115200 rdinit=/init panic=-1 log_buf_len=16M"
cmdline="$cmdline 8250.nr_uarts=4 $append"

t0=$(date +%s.%N)
timeout -k 5 "$timeout_s" "$qemu" \
	-L "$qdir/usr/share/qemu" -L "$qdir/usr/share/seabios" \
	-accel tcg -cpu max -smp "$smp" -m "$mem" \
	-nodefaults -no-user-config -display none -monitor none -no-reboot \
	-kernel "$boot_image" -initrd "$run/initrd" -append "$cmdline" \
	-chardev file,id=s0,path="$con",append=on \
	-chardev file,id=s1,path="$out",append=on \
	-chardev file,id=s2,path="$status",append=on \
	-serial chardev:s0 -serial chardev:s1 -serial chardev:s2 \
	</dev/null >"$run/qemu.log" 2>&1 &
qpid=$!

# Stream CMD's output (and the console if asked) while the guest runs;
# tail exits once QEMU has, after a last read.
tail -c +1 -s 0.2 -f --pid="$qpid" "$out" &
tpids+=($!)
if [ "$console" = 1 ]; then
	tail -c +1 -s 0.2 -f --pid="$qpid" "$con" >&2 &
	tpids+=($!)
fi

wait "$qpid"
qrc=$?
qpid=
for p in "${tpids[@]}"; do
	wait "$p"
done
tpids=()
t1=$(date +%s.%N)
elapsed=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')

# ------------------------------------------------------------------ results

# Kernel log reports that fail a run.  Plain taint notices ("loading
# out-of-tree module taints kernel", "module verification failed") are fine.
bad_re='WARNING:|BUG:|Oops|general protection fault|Call Trace|KASAN|UBSAN'
bad_re="$bad_re|kernel BUG|list_del corruption|list_add corruption|refcount_t"
bad_re="$bad_re|lockdep|possible recursive locking|circular locking"
bad_re="$bad_re|Kernel panic|blocked for more than|stack-protector|double fault"

st() {
	# Value of the first status record WORD.
	sed -n "s/^@@vm $1 //p" "$status" | head -n 1
}

console_tail() {
	echo "$prog: ---- last 50 lines of the guest console ($con) ----" >&2
	tail -n 50 "$con" | tr -d '\r' >&2
	echo "$prog: ---- end of console ----" >&2
}

# Exit with CODE; keep the run directory (without the initramfs) if vm.sh
# found a failure (FAILED=1), all of it with --keep.
finish() {
	local code=$1 failed=${2:-1}

	if [ "$failed" = 1 ] || [ $keep = 1 ]; then
		[ $keep = 1 ] || rm -f "$run/initrd"
		echo "$prog: logs kept in $run" >&2
	else
		rm -rf "$run"
	fi
	exit "$code"
}

# Check a kernel log; show its bad lines with some context, and fail, if
# it has any (lines matching --klog-ignore do not count).
check_klog() {
	local log=$1 bad

	bad=$(grep -E "$bad_re" "$log")
	if [ -n "$klog_ignore" ] && [ -n "$bad" ]; then
		bad=$(printf '%s\n' "$bad" | grep -Ev -e "$klog_ignore")
	fi
	[ -z "$bad" ] && return 0
	echo "$prog: ---- kernel log problem reports ($log) ----" >&2
	grep -E -B 1 -A 12 "$bad_re" "$log" | head -n 120 >&2
	echo "$prog: ---- end of reports ----" >&2
	return 1
}

tr -d '\r' <"$status" >"$status.txt"
status=$status.txt
sed -n '/^@@vm dmesg-begin$/,/^@@vm dmesg-end$/p' "$status" | sed '1d;$d' >"$run/dmesg"

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "$prog: TIMEOUT after ${timeout_s}s ($krel): VM killed" >&2
	console_tail
	finish $EX_TIMEOUT
fi

if ! grep -qx '@@vm done' "$status"; then
	echo "$prog: the guest ($krel) died before reporting (QEMU status $qrc, ${elapsed}s)" >&2
	[ -s "$run/qemu.log" ] && sed 's/^/qemu: /' "$run/qemu.log" >&2
	tr -d '\r' <"$con" >"$con.txt"
	check_klog "$con.txt"
	console_tail
	finish $EX_DIED
fi

# The guest reported: from here on, its dmesg is the kernel log to check.
klog_ok=1
check_klog "$run/dmesg" || klog_ok=0

insfail=$(st insmod-fail)
if [ -n "$insfail" ]; then
	read -r irc iname imsg <<<"$insfail"
	echo "$prog: insmod ${iname#[0-9][0-9]-} failed in the guest ($krel)," \
		"status $irc: $imsg" >&2
	echo "$prog: ---- guest dmesg tail ----" >&2
	tail -n 25 "$run/dmesg" >&2
	echo "$prog: ---- end of dmesg ----" >&2
	finish $EX_MODULE
fi

rc=$(st rc)
if [ -z "$rc" ]; then
	echo "$prog: no exit status from the guest" >&2
	console_tail
	finish $EX_DIED
fi

if [ $quiet = 0 ]; then
	echo "$prog: $krel: CMD status $rc; guest uptime at CMD start $(st cmd-start)s," \
		"at end $(st cmd-end)s; wall ${elapsed}s" >&2
fi

fail=0
if grep -q '^@@vm rmmod-fail ' "$status"; then
	sed -n 's/^@@vm rmmod-fail \([^ ]*\) /'"$prog"': rmmod \1 failed: /p' "$status" >&2
	fail=$EX_MODULE
fi
if [ $klog_ok = 0 ]; then
	echo "$prog: CMD exited with status $rc, but the kernel log is not clean" >&2
	fail=$EX_KLOG
fi
if [ $fail != 0 ]; then
	finish $fail
fi
finish "$rc" 0
}
