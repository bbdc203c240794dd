#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# qemu.sh check|install|path - the QEMU the VM test bench runs.
#
# Bookworm's QEMU 7.2 gives TCG guests RDRAND but not RDSEED; QEMU 10.0 from
# Debian's bookworm-backports suite gives them both, and runs against
# bookworm's own libraries.  So the project takes qemu-system-x86,
# qemu-system-data and seabios from bookworm-backports with a private apt
# configuration (its own sources.list, state and cache under .build/apt/)
# and unpacks them with dpkg -x into .build/qemu-10/.  Nothing is installed
# on the host and the host's apt sources are left alone; no root needed.
#
#   check    exit 0 if .build/qemu-10 holds a working qemu-system-x86_64
#   install  fetch and unpack it (idempotent)
#   libs     print the bookworm packages it needs (its Depends less QEMU's
#            own and the firmware) that are not installed yet
#   path     print the directory (the binary is in usr/bin, the firmware
#            in usr/share/qemu and usr/share/seabios)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/.build/qemu-10
apt=$top/.build/apt
PKGS="qemu-system-x86 qemu-system-data seabios"
SUITE=bookworm-backports

works() {
	[ -f "$dir/.done" ] &&
		"$dir/usr/bin/qemu-system-x86_64" --version 2>/dev/null |
		grep -q 'version \(1[0-9]\|[2-9][0-9]\)\.'
}

install() {
	mkdir -p "$top/.build"
	# One fetch at a time; a second caller finds the first one's result.
	exec 9>"$top/.build/qemu-10.lock"
	flock 9
	[ -f "$dir/.done" ] && return 0
	echo "qemu: fetching $PKGS from $SUITE into $dir"
	rm -rf "$apt" "$dir.tmp"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/deb" "$dir.tmp"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian $SUITE main" >"$apt/sources.list"
	: >"$apt/status"
	set -- -q -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State="$apt" -o Dir::State::Lists="$apt/lists" \
		-o Dir::State::status="$apt/status" -o Dir::Cache="$apt" \
		-o Dir::Cache::Archives="$apt/archives" \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)"
	apt-get "$@" update >/dev/null
	# shellcheck disable=SC2086 # one word per package
	(cd "$apt/deb" && apt-get "$@" download $PKGS)
	for deb in "$apt"/deb/*.deb; do
		dpkg -x "$deb" "$dir.tmp"
	done
	dpkg-deb -f "$apt"/deb/qemu-system-x86_*.deb Depends >"$dir.tmp/.done"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

# "libaio1 (>= 0.3.93), libbpf1 (>= 1:0.0.8), ..., seabios (>> 1.16.3-1~)"
libs() {
	tr ',' '\n' <"$dir/.done" | sed 's/ *(.*//; s/^ *//' |
		grep -v -e '^qemu-' -e '^seabios$' -e '^ipxe-qemu$' |
		while read -r p; do
			dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
				grep -q '^install ok installed' || echo "$p"
		done
}

case ${1:-check} in
check) works ;;
install) install ;;
libs) libs ;;
path) echo "$dir" ;;
*)
	echo "usage: qemu.sh check|install|path" >&2
	exit 2
	;;
esac
