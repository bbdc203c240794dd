#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh - build fairdie's Debian packages: fairdie-dkms (the module's
# source, built by DKMS on the target) and fairdie (the tool, its manual
# page, the udev rule and the header). The sources the packages need and
# tools/debian/ are assembled into .build/deb/fairdie-VERSION/, built there
# with dpkg-buildpackage -us -uc -b, and checked with lintian; the .deb
# files land in .build/deb/.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

for t in dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms \
	fakeroot:fakeroot lintian:lintian; do
	command -v "${t%%:*}" >/dev/null || {
		echo "deb: ${t%%:*} not found: install ${t#*:}" \
			"(apt install dpkg-dev debhelper dh-dkms fakeroot lintian)" >&2
		exit 1
	}
done
make -s --no-print-directory cc-check

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
out=$top/.build/deb
src=$out/fairdie-$ver
rm -rf "$out"
mkdir -p "$src/driver" "$src/uapi/linux" "$src/tools/cli/schema" \
	"$src/tools/include" "$src/tools/udev"

# Sources only: no build outputs, whatever state the tree is in.
cp Kbuild dkms.conf "$src/"
cp driver/*.c driver/*.h "$src/driver/"
cp uapi/linux/fairdie.h "$src/uapi/linux/"
cp tools/cli/Makefile tools/cli/*.c tools/cli/*.h tools/cli/*.1 "$src/tools/cli/"
cp tools/cli/schema/*.json "$src/tools/cli/schema/"
cp tools/include/*.h "$src/tools/include/"
cp tools/udev/60-fairdie.rules "$src/tools/udev/"
cp -r tools/debian "$src/debian"

deb_ver=$(cd "$src" && dpkg-parsechangelog -S Version)
if [ "$deb_ver" != "$ver" ]; then
	echo "deb: tools/debian/changelog is at $deb_ver, dkms.conf at $ver" >&2
	exit 1
fi

(cd "$src" && dpkg-buildpackage -us -uc -b)

changes=$(ls "$out"/fairdie_"$ver"_*.changes)
echo "== lintian $(basename "$changes")"
lintian --info "$changes" | tee "$out/lintian.txt"
if grep -q '^E: ' "$out/lintian.txt"; then
	echo "deb: lintian reports errors" >&2
	exit 1
fi
ls "$out"/*.deb
