#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# canary-guest.sh - in the debug-kernel VM (tools/debugk/canary.sh): load
# fdbug.ko once per bug and check that the matching checker reported it.
# Prints "caught: BUG" for each; exit status 0 when all were caught.
set -u

missed=0

# kmemleak: guest.sh's own leak check must fail, naming the lost buffer.
insmod /root/fdbug.ko bug=leak && rmmod fdbug
out=$(DEBUGK_STEPS=leakcheck sh /root/guest.sh)
rc=$?
echo "$out" | head -n 20
if [ $rc != 0 ] && echo "$out" | grep -q 'fdbug: leaked'; then
	echo "caught: leak (kmemleak; guest.sh's leak check failed)"
else
	echo "MISSED: leak"
	missed=1
fi

# A stack dump with no allocation failure before it: guest.sh must refuse
# it (make vmtest KVER=debug lets vm.sh ignore "Call Trace:" lines, since
# guest.sh explains each one).
insmod /root/fdbug.ko bug=stack && rmmod fdbug
out=$(DEBUGK_STEPS=stacks sh /root/guest.sh)
rc=$?
echo "$out"
if [ $rc != 0 ] && echo "$out" | grep -q 'unexplained stack dump'; then
	echo "caught: stack (guest.sh's stack dump check failed)"
else
	echo "MISSED: stack"
	missed=1
fi

# The others: the report's headline in the kernel log, which vm.sh fails
# the run on.
# Lockdep first: it turns itself off after any report that makes it
# unreliable, such as KASAN's.
for b in abba:'possible circular locking dependency detected' \
	 sleep:'BUG: sleeping function called from invalid context' \
	 shift:'UBSAN: shift-out-of-bounds' \
	 oob:'BUG: KASAN: slab-out-of-bounds'; do
	name=${b%%:*}
	want=${b#*:}
	insmod /root/fdbug.ko bug="$name" && rmmod fdbug
	if dmesg | grep -q "$want"; then
		echo "caught: $name ($want)"
	else
		echo "MISSED: $name ($want)"
		missed=1
	fi
done
exit $missed
