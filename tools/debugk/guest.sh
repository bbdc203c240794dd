#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh [CMD...] - the debug kernel's part of a VM run (make vmtest
# KVER=debug), in the guest, fairdie loaded by vm.sh:
#   1. the checkers are live: KASAN, kmemleak, lockdep (and fairdie's lock
#      classes are in /proc/lockdep), UBSAN, fault injection
#   2. CMD: the VM suite (tools/guest/vmtest.sh), which ends with fairdie
#      unloaded
#   3. fault injection (tools/debugk/fdfault): each fault point of open,
#      every ioctl, read, poll and module load failed in turn, then every
#      allocation of one task; ENOMEM or success only, the device works
#      afterwards
#   4. rmmod, then a kmemleak scan that must find nothing, and the kernel
#      log must hold no stack dump other than those of the allocation
#      failures injected on purpose (vm.sh fails the run on every other
#      report: KASAN, UBSAN, lockdep, WARNING, BUG, ...)
# Environment: FAIRDIE_KO (default /root/fairdie.ko), FAIRDIE_PARAMS
# (default "hwrng=rdrand"), DEBUGK_STEPS (default "all"; "leakcheck" or
# "stacks" run only that check, for tools/debugk/canary-guest.sh).
set -u

dbg=/sys/kernel/debug
ko=${FAIRDIE_KO:-/root/fairdie.ko}
params=${FAIRDIE_PARAMS:-hwrng=rdrand}
passed=0
failed=0

step() {
	name=$1
	shift
	echo "# --- debugk: $name"
	step_t0=$(cut -d' ' -f1 /proc/uptime)
	if "$@"; then
		passed=$((passed + 1))
		echo "ok - debugk: $name"
	else
		failed=$((failed + 1))
		echo "not ok - debugk: $name"
	fi
	echo "# debugk: $name: $(awk -v t0="$step_t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s"
}

# ------------------------------------------------------------ checkers

kasan_live() {
	zcat /proc/config.gz | grep -qx 'CONFIG_KASAN=y' || return 1
	dmesg | grep -m 1 'KernelAddressSanitizer initialized' || return 1
}

ubsan_live() {
	zcat /proc/config.gz | grep -x 'CONFIG_UBSAN_SANITIZE_ALL=y'
}

# kmemleak takes every command but "clear" with EPERM once it has turned
# itself off; "scan=off" stops the automatic scans, which are off already.
# No scan here: the first scan only takes each object's checksum and
# reports nothing (an object is reported when a scan finds it unchanged
# since the one before), so a scan at boot set nothing aside and took 35 s
# under TCG.
kmemleak_live() {
	[ -e $dbg/kmemleak ] || return 1
	echo scan=off >$dbg/kmemleak || return 1
	echo "kmemleak enabled"
}

lockdep_live() {
	grep -E 'debug_locks:|lock-classes:' /proc/lockdep_stats
	grep -Eq 'debug_locks: +1$' /proc/lockdep_stats
}

# fairdie's lock classes: their keys lie in the module's memory (the
# addresses are plain with no_hash_pointers).  Take the locks first.
lockdep_classes() {
	head -c 64 /dev/fairdie >/dev/null || return 1
	head -c 64 /dev/hwrng >/dev/null 2>&1
	# The module's core memory: from its lowest section (init sections
	# are gone by now) for coresize bytes.  Addresses are compared in
	# their low 32 bits: modules live at 0xffffffffc0000000 and above.
	lo=
	for f in /sys/module/fairdie/sections/.* /sys/module/fairdie/sections/*; do
		case ${f##*/} in .init* | . | .. | '*' | '.*') continue ;; esac
		a=$(cat "$f")
		case $a in 0xffffffff*) ;; *) continue ;; esac
		a=$((0x${a#0xffffffff}))
		if [ -z "$lo" ] || [ "$a" -lt "$lo" ]; then
			lo=$a
		fi
	done
	[ -n "$lo" ] || { echo "no sections of fairdie"; return 1; }
	hi=$((lo + $(cat /sys/module/fairdie/coresize)))
	n=0
	while read -r key rest; do
		case $key in ffffffff????????) ;; *) continue ;; esac
		k=$((0x${key#ffffffff}))
		[ $k -ge $lo ] && [ $k -lt $hi ] || continue
		echo "lockdep class of fairdie: ${rest##*: }"
		n=$((n + 1))
	done </proc/lockdep
	[ $n -gt 0 ]
}

faultinj_live() {
	for d in failslab fail_page_alloc; do
		[ -d $dbg/$d ] || return 1
		# fail-nth drives the sweep: no random failures; GFP_KERNEL
		# and order-0 allocations are fair game; no log noise.
		echo 0 >$dbg/$d/probability
		echo N >$dbg/$d/ignore-gfp-wait
		echo 0 >$dbg/$d/verbose
	done
	echo 0 >$dbg/fail_page_alloc/min-order
	[ -e /proc/thread-self/fail-nth ] && [ -e /proc/thread-self/make-it-fail ]
}

# ------------------------------------------------------ fault injection

fault_sweep() {
	fdfault sweep
}

fault_load() {
	rmmod fairdie || return 1
	# shellcheck disable=SC2086
	fdfault load "$ko" "$params"
	r=$?
	# shellcheck disable=SC2086
	insmod "$ko" $params || return 1
	return $r
}

# Every allocation of one task fails: the knobs with task-filter aim the
# failures at that task (make-it-fail) and at nothing else.
fault_storm() {
	for d in failslab fail_page_alloc; do
		echo Y >$dbg/$d/task-filter
		echo 1 >$dbg/$d/interval
		echo -1 >$dbg/$d/times
		echo 100 >$dbg/$d/probability
	done
	fdfault storm "$ko" "$params"
	r=$?
	for d in failslab fail_page_alloc; do
		echo 0 >$dbg/$d/probability
		echo N >$dbg/$d/task-filter
	done
	return $r
}

# ------------------------------------------------------------ the end

leakcheck() {
	# kmemleak reports objects unreferenced for 5 s and more, and only
	# when their contents did not change since the scan before (the first
	# scan that sees an object just takes its checksum): scan twice.
	sleep 6
	echo scan >$dbg/kmemleak || { echo "kmemleak is off"; return 1; }
	echo scan >$dbg/kmemleak || { echo "kmemleak is off"; return 1; }
	if grep -q . $dbg/kmemleak; then
		echo "kmemleak found leaks:"
		head -n 100 $dbg/kmemleak
		return 1
	fi
	echo "kmemleak: no leaks"
}

# A "Call Trace:" must follow, within 4 lines, the headline of an injected
# allocation failure; vm.sh catches every other kind of report by its
# own headline (KASAN, UBSAN, WARNING, BUG, lockdep, ...).
stacks_explained() {
	dmesg | awk '
	/vmalloc error:|page allocation failure:/ { alloc = NR; nalloc++ }
	/Call Trace:/ {
		if (alloc && NR - alloc <= 4)
			next
		print "unexplained stack dump at line " NR ": " $0
		bad++
	}
	END {
		printf "%d allocation failure report(s) from injection\n", nalloc
		exit bad != 0
	}'
}

finish() {
	step rmmod rmmod fairdie
	step kmemleak leakcheck
	step "no other stack dumps" stacks_explained
	step "lockdep still on" lockdep_live
	echo "debugk: $passed passed, $failed failed"
	[ "$failed" = 0 ] && [ "${cmdrc:-0}" = 0 ]
	exit
}

case ${DEBUGK_STEPS:-all} in
leakcheck) leakcheck; exit ;;
stacks) stacks_explained; exit ;;
esac

echo "# debug kernel $(uname -r)"
step kasan kasan_live
step ubsan ubsan_live
step kmemleak-on kmemleak_live
step lockdep lockdep_live
step lockdep-classes lockdep_classes
step fault-injection faultinj_live
cmdrc=0
if [ $# -gt 0 ]; then
	"$@"
	cmdrc=$?
	echo "debugk: the suite exited with status $cmdrc"
fi
# The suite leaves fairdie unloaded.
if [ ! -d /sys/module/fairdie ]; then
	# shellcheck disable=SC2086
	step reload insmod "$ko" $params
fi
step fault-sweep fault_sweep
step fault-load fault_load
step fault-storm fault_storm
finish
