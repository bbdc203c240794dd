#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_install.sh [KVER] - make install into a temporary DESTDIR for the
# installed Debian kernel KVER (default 6.1), check every file lands where
# it belongs, then check make uninstall removes exactly those files. Also
# checks that make install, with no kernel named, targets the running kernel
# and refuses when that kernel's headers are missing. Prints
# "install: N passed, N failed".
set -u
# The kernel is chosen here, not by the make that runs this.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES KVER KDIR KRELEASE

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:-6.1}
dest=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$dest" "$log"' EXIT
passed=0
failed=0

pass() {
	passed=$((passed + 1))
}

fail() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

check() {
	if [ -e "$dest/$1" ]; then pass; else fail "$1 not installed"; fi
}

running=$(uname -r)
rel=$(make -C "$top" -s --no-print-directory print-krelease KVER="$kver")
moddir=lib/modules/$rel/updates/dkms

# Files make install must not touch, in the directories it writes to.
mkdir -p "$dest/usr/bin" "$dest/$moddir"
echo keep >"$dest/usr/bin/other"
echo keep >"$dest/$moddir/other.ko"

# No kernel named: the running one, or a refusal naming its headers package.
if [ -d "/lib/modules/$running/build" ]; then
	if make -C "$top" -s install DESTDIR="$dest/running" PREFIX=/usr \
		>"$log" 2>&1 &&
		modinfo -F vermagic "$dest/running/lib/modules/$running/updates/dkms/fairdie.ko"* |
		grep -q "^$running "; then
		pass
	else
		cat "$log"
		fail "make install did not build for the running kernel $running"
	fi
else
	if make -C "$top" -s install DESTDIR="$dest/running" PREFIX=/usr \
		>"$log" 2>&1; then
		fail "make install succeeded without headers for $running"
	elif ! grep -q "install linux-headers-$running" "$log"; then
		cat "$log"
		fail "make install refused without naming linux-headers-$running"
	elif [ -n "$(find "$dest/running" -type f 2>/dev/null)" ]; then
		fail "the refused make install installed files"
	else
		pass
	fi
fi
rm -rf "$dest/running"

if ! make -C "$top" -s install DESTDIR="$dest" PREFIX=/usr KVER="$kver" \
	>"$log" 2>&1; then
	cat "$log"
	fail "make install KVER=$kver"
fi
# Debian's headers have no signing key: one line says so, no sign-file noise.
if grep -qi -e sign-file -e ssl "$log"; then
	fail "signing errors in make install's output"
	grep -i -e sign-file -e ssl "$log"
elif ! grep -sqx CONFIG_MODULE_SIG_ALL=y "/lib/modules/$rel/build/.config" ||
	[ -e "/lib/modules/$rel/build/certs/signing_key.x509" ] ||
	grep -q "installing the module unsigned" "$log"; then
	pass
else
	fail "make install did not say the module is unsigned"
fi

# The kernel's configuration may compress installed modules.
ko=$(ls "$dest/$moddir/fairdie.ko"* 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then check "${ko#"$dest"/}"; else fail "$moddir/fairdie.ko not installed"; fi
check usr/bin/fairdie
check usr/share/man/man1/fairdie.1
check etc/udev/rules.d/60-fairdie.rules
check usr/include/linux/fairdie.h
# The JSON Schemas of the tool's output, every one of them, as they are.
for f in "$top"/tools/cli/schema/*.json; do
	check "usr/share/fairdie/schema/${f##*/}"
	cmp -s "$f" "$dest/usr/share/fairdie/schema/${f##*/}" ||
		fail "installed schema ${f##*/} differs from tools/cli/schema/"
done
if cmp -s "$top/uapi/linux/fairdie.h" "$dest/usr/include/linux/fairdie.h"; then
	pass
else
	fail "installed header differs from uapi/linux/fairdie.h"
fi
if [ -x "$dest/usr/bin/fairdie" ] && "$dest/usr/bin/fairdie" --help >/dev/null; then
	pass
else
	fail "installed fairdie --help"
fi
if [ -n "$ko" ] && modinfo -F vermagic "$ko" | grep -q "^$rel "; then
	pass
else
	fail "installed module not built for $rel"
fi

make -C "$top" -s uninstall DESTDIR="$dest" PREFIX=/usr KVER="$kver" >"$log" 2>&1 ||
	fail "make uninstall"
left=$(cd "$dest" && find . -type f | sort | tr '\n' ' ')
if [ "$left" = "./$moddir/other.ko ./usr/bin/other " ]; then
	pass
else
	fail "after uninstall, files are: $left"
fi

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
