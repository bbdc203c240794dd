#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel.sh [KVER] - print the kernel release fairdie builds for and tests on.
#
# With KVER (a series such as 6.1 or 6.12, or a full release), the newest
# installed Debian kernel of that series that has both its headers and its
# image. Without it, the running kernel if its build directory exists, else
# the newest installed linux-headers-*-amd64.
set -eu

kver=${1:-}

newest() {
	# Releases with headers (and an image when $1 is "image").
	for d in /usr/src/linux-headers-*-amd64; do
		[ -d "$d" ] || continue
		rel=${d#/usr/src/linux-headers-}
		[ "$1" = image ] && [ ! -f "/boot/vmlinuz-$rel" ] && continue
		echo "$rel"
	done | sort -V | grep -E "^$2" | tail -n 1
}

if [ -z "$kver" ]; then
	if [ -d "/lib/modules/$(uname -r)/build" ]; then
		uname -r
		exit 0
	fi
	rel=$(newest headers '')
else
	case $kver in
	*-amd64) rel=$(newest image "$(echo "$kver" | sed 's/[.+]/\\&/g')\$") ;;
	*) rel=$(newest image "$(echo "$kver" | sed 's/\./\\./g')[.-]") ;;
	esac
fi
if [ -z "$rel" ]; then
	echo "kernel.sh: no Debian kernel ${kver:-headers} installed: run 'make deps'" >&2
	exit 1
fi
echo "$rel"
