#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_install.sh - make install into a temporary DESTDIR, check every file
# lands where it belongs, then make uninstall removes them. Prints
# "N passed, N failed".
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
passed=0
failed=0

check() {
	if [ -e "$dest/$1" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $1 not installed"
	fi
}

make -C "$top" -s install DESTDIR="$dest" PREFIX=/usr >"$dest.log" 2>&1 || {
	cat "$dest.log"
	echo "FAIL: make install"
	failed=$((failed + 1))
}
rel=$(make -C "$top" -s --no-print-directory -f Makefile print-krelease)
# The kernel's configuration may compress installed modules.
ko=$(ls "$dest/lib/modules/$rel/extra/fairdie.ko"* 2>/dev/null | head -n 1)
check "${ko#"$dest"/}"
check usr/bin/fairdie
check usr/share/man/man1/fairdie.1
check etc/udev/rules.d/60-fairdie.rules
check usr/include/linux/fairdie.h
if [ -x "$dest/usr/bin/fairdie" ] && "$dest/usr/bin/fairdie" --help >/dev/null; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: installed fairdie --help"
fi
if [ -n "$ko" ] && modinfo -F vermagic "$ko" | grep -q "^$rel "; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: installed module not built for $rel"
fi
make -C "$top" -s uninstall DESTDIR="$dest" PREFIX=/usr >>"$dest.log" 2>&1
left=$(find "$dest" -type f | wc -l)
if [ "$left" = 0 ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: uninstall left $left files"
	find "$dest" -type f
fi
rm -f "$dest.log"
echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
