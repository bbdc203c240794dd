#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh check|install - the Debian packages fairdie needs, and nothing else.
# Packages and their test (make deb, make pkgtest): debhelper, dh-dkms, dkms,
# fakeroot, lintian.
#
# Build: gcc, make, perl, Debian's 6.1 kernel headers; the 6.12 kernel
# (image and headers, from bookworm-security) for the second VM run;
# nettle-dev for the tool's SHA-256 ('fairdie extract --method hash'),
# libgmp-dev for the exact distributions of 'fairdie roll --stats'.
# libjansson-dev for reading the log of sealed draws (fairdie verify).
# linux-source-6.1 provides checkpatch.pl, kernel-doc and the kselftest
# harness, unpacked at build time, and the debug kernel (make vmtest
# KVER=debug), built from it with flex, bison, libelf-dev, libssl-dev.
# The VM: busybox-static, Debian's kernel image, and QEMU 10.0 from
# bookworm-backports, unpacked under .build/ by tools/scripts/qemu.sh
# (nothing installed on the host for it). Tests and docs: sparse,
# rng-tools5, ent, dieharder, python3-docutils, gnuplot-nox; valgrind for
# the constant-time check (make ctcheck); python3-jsonschema checks the
# tool's JSON against tools/cli/schema/, mandoc lints the man page; time
# (the tool's peak memory) and bsdutils (script: the tool on a terminal).
# chromium renders the report of 'fairdie certify' in its test (headless);
# fonts-dejavu-core gives it a font.
set -eu

PKGS="debhelper dh-dkms dkms fakeroot lintian
gcc make perl libc6-dev cpio xz-utils kmod bc
linux-headers-amd64 linux-image-amd64 linux-source-6.1
busybox-static sparse rng-tools5 ent dieharder
python3-docutils gnuplot-nox groff-base gcc-multilib
python3-jsonschema mandoc time bsdutils chromium fonts-dejavu-core
flex bison libelf-dev libssl-dev nettle-dev libgmp-dev libjansson-dev valgrind"

here=$(cd "$(dirname "$0")" && pwd)

missing() {
	for p in $PKGS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed' || echo "$p"
	done
	"$here/kernel.sh" 6.12 >/dev/null 2>&1 || echo "kernel-6.12"
	"$here/qemu.sh" check || echo "qemu-10"
}

case ${1:-check} in
check)
	m=$(missing)
	if [ -n "$m" ]; then
		echo "deps: missing:" $m >&2
		exit 1
	fi
	echo "deps: all present"
	;;
install)
	m=$(missing)
	if [ -z "$m" ]; then
		echo "deps: all present"
		exit 0
	fi
	if echo "$m" | grep -q '^qemu-10$'; then
		"$here/qemu.sh" install
		m=$( (echo "$m"; "$here/qemu.sh" libs) | grep -v -e '^qemu-10$' -e '^$' || true)
		if [ -z "$m" ]; then
			"$here/qemu.sh" check && exit 0
			echo "deps: $("$here/qemu.sh" path) does not run" >&2
			exit 1
		fi
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing:" $m "- run 'sudo make deps'" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	pkgs=$(echo "$m" | grep -v '^kernel-6.12$' || true)
	if echo "$m" | grep -q '^kernel-6.12$'; then
		# The versioned packages behind Debian's 6.12 meta-package.
		hdr=$(apt-cache depends linux-headers-6.12-amd64 |
			sed -n 's/.*Depends: \(linux-headers-6\.12\.[^ ]*-amd64\)$/\1/p' |
			head -n 1)
		if [ -z "$hdr" ]; then
			echo "deps: Debian's 6.12 kernel is not in the package lists" >&2
			exit 1
		fi
		rel=${hdr#linux-headers-}
		pkgs="$pkgs $hdr linux-image-$rel-unsigned"
	fi
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $pkgs
	"$here/qemu.sh" check || {
		echo "deps: $("$here/qemu.sh" path) does not run" >&2
		exit 1
	}
	;;
*)
	echo "usage: deps.sh check|install" >&2
	exit 2
	;;
esac
