#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# canary.sh - prove that a debug-kernel VM run fails when a checker fires.
# Builds the test-only module fdbug.ko against the debug kernel, boots the
# debug kernel with it and commits each bug in turn (canary-guest.sh):
# every one must be reported by its checker (KASAN, kmemleak, UBSAN,
# DEBUG_ATOMIC_SLEEP, lockdep), guest.sh's leak check must fail, and vm.sh
# must fail the run (status 123: the kernel log is not clean).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kdir=$("$here/build.sh")
mod=$top/.build/debugk/fdbug
rm -rf "$mod"
mkdir -p "$mod"
cp "$here/fdbug/Kbuild" "$here/fdbug/fdbug.c" "$mod/"
make -s -C "$kdir" M="$mod" modules

log=$top/.build/debugk/canary.log
set +e
"$top/tools/vm/vm.sh" --kernel "$kdir/arch/x86/boot/bzImage" --mem 3G \
	--timeout "${VM_TIMEOUT:-900}" --append no_hash_pointers \
	--klog-ignore 'RCU lockdep checking is enabled' \
	--file "$mod/fdbug.ko" --file "$here/guest.sh" \
	--file "$here/canary-guest.sh" -- sh /root/canary-guest.sh >"$log" 2>&1
rc=$?
set -e
cat "$log"
fail=0
for b in leak stack oob shift sleep abba; do
	grep -q "^caught: $b " "$log" || { echo "canary: $b was not caught"; fail=1; }
done
if [ $rc != 123 ]; then
	echo "canary: vm.sh exited with $rc, want 123 (kernel log not clean)"
	fail=1
fi
[ $fail = 0 ] || exit 1
echo "canary: every checker fired and the run failed, as it must"
