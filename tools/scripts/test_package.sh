#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_package.sh - the Debian packages as a user gets them: make deb
# (dpkg-buildpackage and lintian, no errors), their contents, then, as root,
# install both, check that DKMS built and installed the module for Debian's
# 6.1 and 6.12 kernels, that the tool, manual page and header work, that the
# VM loads the module DKMS built, and that purging removes it all. Prints
# "package: N passed, N failed". APT is the apt-get command to use (a lock
# wrapper, for example), apt-get by default.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

pass() {
	passed=$((passed + 1))
}

fail() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

# ok DESCRIPTION COMMAND...: COMMAND must succeed.
ok() {
	what=$1
	shift
	if "$@" >"$log" 2>&1; then pass; else cat "$log"; fail "$what"; fi
}

finish() {
	echo "package: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

if [ "$(id -u)" != 0 ]; then
	echo "package: installing packages needs root" >&2
	exit 1
fi
if dpkg-query -W -f='${Status}\n' fairdie fairdie-dkms 2>/dev/null |
	grep -q ' installed$'; then
	echo "package: fairdie packages are installed; purge them first" \
		"(apt purge fairdie fairdie-dkms)" >&2
	exit 1
fi

# A command and its options, word-split where used.
apt="${APT:-apt-get} -o DPkg::Lock::Timeout=600"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
out=.build/deb
dkms_deb=$out/fairdie-dkms_${ver}_all.deb

# Build, with lintian: deb.sh fails on any lintian error.
if ! make -s deb >"$log" 2>&1; then
	cat "$log"
	fail "make deb"
	finish
fi
pass
# Named after the build: the glob matches nothing in a fresh clone.
tool_deb=$(echo "$out/fairdie_${ver}_"*.deb)
echo "lintian: $(grep -c '^[EWIPX]: ' "$out/lintian.txt") tags," \
	"$(grep -c '^E: ' "$out/lintian.txt") errors"
sed 's/^/lintian: /' "$out/lintian.txt"

# Contents.
has() {
	if dpkg-deb -c "$1" | awk '{ print $6 }' | grep -qx "$2"; then
		pass
	else
		fail "$(basename "$1") lacks $2"
	fi
}
has "$tool_deb" ./usr/bin/fairdie
has "$tool_deb" ./usr/share/man/man1/fairdie.1.gz
has "$tool_deb" ./lib/udev/rules.d/60-fairdie.rules
has "$tool_deb" ./usr/include/linux/fairdie.h
for f in "$top"/tools/cli/schema/*.json; do
	has "$tool_deb" "./usr/share/fairdie/schema/${f##*/}"
done
src=./usr/src/fairdie-$ver
for f in dkms.conf Kbuild driver/main.c driver/fd_sampler.c \
	uapi/linux/fairdie.h; do
	has "$dkms_deb" "$src/$f"
done
# fairdie-dkms holds only the module's sources and its documentation.
extra=$(dpkg-deb -c "$dkms_deb" | awk '{ print $6 }' |
	grep -v -e "^$src/" -e '^./usr/share/doc/' -e '^\./$' -e '^\./usr/$' \
		-e '^\./usr/src/$' -e '^\./usr/share/$')
if [ -z "$extra" ]; then pass; else fail "fairdie-dkms also holds: $extra"; fi
other=$(dpkg-deb -c "$dkms_deb" | awk '{ print $6 }' | grep "^$src/" |
	grep -v -e '/$' -e '\.[ch]$' -e '/Kbuild$' -e '/dkms\.conf$')
if [ -z "$other" ]; then pass; else fail "fairdie-dkms holds non-sources: $other"; fi
# ${shlibs:Depends} names the shared libraries the tool links.
deps=$(dpkg-deb -f "$tool_deb" Depends)
case "$deps" in
*libnettle*libgmp* | *libgmp*libnettle*) pass ;;
*) fail "io_deb_dynamic: fairdie's Depends lacks libnettle or libgmp: $deps" ;;
esac
if [ "$(dpkg-deb -f "$dkms_deb" Architecture)" = all ]; then
	pass
else
	fail "fairdie-dkms is not Architecture: all"
fi

# Install both, as the README says.
# shellcheck disable=SC2086
if ! $apt install -y -q \
	"./$dkms_deb" "./$tool_deb" >"$log" 2>&1; then
	cat "$log"
	fail "apt install of the packages"
	finish
fi
pass
status=$(dkms status -m fairdie -v "$ver" 2>/dev/null)
echo "$status" | sed 's/^/dkms status: /'
for series in 6.1 6.12; do
	rel=$(tools/scripts/kernel.sh "$series") || {
		fail "no Debian $series kernel installed"
		continue
	}
	if echo "$status" | grep -q "^fairdie/$ver, $rel, [^:]*: installed"; then
		pass
	else
		fail "DKMS did not install fairdie for $rel"
	fi
	ko=$(ls "/lib/modules/$rel/updates/dkms/fairdie.ko"* 2>/dev/null)
	if [ -n "$ko" ] && modinfo -F vermagic "$ko" | grep -q "^$rel "; then
		pass
	else
		fail "no fairdie.ko for $rel in /lib/modules/$rel/updates/dkms"
	fi
done
ok "installed fairdie --help" /usr/bin/fairdie --help
ok "man -w fairdie" man -w fairdie
ok "the installed header compiles" sh -c \
	"printf '#include <linux/fairdie.h>\nint main(void) { return FAIRDIE_FMT_BINARY; }\n' |
	cc -x c -o /dev/null -"
# Debian policy 10.2: nettle's and GMP's security updates must reach the
# tool, so it links them dynamically (the static build is the VM's only).
ok "io_deb_dynamic: fairdie links libnettle and libgmp dynamically" sh -c \
	"readelf -d /usr/bin/fairdie | grep -q 'NEEDED.*libnettle\\.so' &&
	readelf -d /usr/bin/fairdie | grep -q 'NEEDED.*libgmp\\.so'"

# The module DKMS built for 6.1, loaded in the VM: three rolls of 3d6.
rel=$(tools/scripts/kernel.sh 6.1)
ko=/lib/modules/$rel/updates/dkms/fairdie.ko
if [ -f "$ko" ] &&
	make -s vmrun KVER=6.1 KO="$ko" \
		CMD='grep -c "^fairdie " /proc/modules; fairdie roll 3d6 -n 3' \
		>"$log" 2>&1 &&
	[ "$(grep -cE '^([3-9]|1[0-8])$' "$log")" -ge 3 ] &&
	grep -qx 1 "$log"; then
	pass
else
	cat "$log"
	fail "the VM did not run the DKMS-built $ko"
fi

# Purge: nothing of either package is left.
# shellcheck disable=SC2086
ok "apt purge" $apt purge -y -q \
	fairdie fairdie-dkms
left=$(ls /usr/bin/fairdie /lib/udev/rules.d/60-fairdie.rules \
	/usr/include/linux/fairdie.h "/usr/src/fairdie-$ver" \
	/var/lib/dkms/fairdie /lib/modules/*/updates/dkms/fairdie.ko* 2>/dev/null)
if [ -z "$left" ] && [ -z "$(dkms status -m fairdie 2>/dev/null)" ]; then
	pass
else
	fail "left after purge: $left $(dkms status -m fairdie 2>/dev/null)"
fi
finish
