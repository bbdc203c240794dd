#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of a directory holding the files fairdie takes from Debian's
# linux-source-6.1 package at build time (never copied into the repository):
# scripts/checkpatch.pl and friends, scripts/kernel-doc, the kselftest
# harness and scripts/extract-vmlinux (for the VM). They are unpacked once
# into $KSRC_CACHE (default .build/ksrc), again when this list changes.
set -eu

FILES='*/scripts/checkpatch.pl */scripts/spelling.txt
*/scripts/const_structs.checkpatch */scripts/kernel-doc
*/scripts/extract-vmlinux
*/tools/testing/selftests/kselftest_harness.h
*/tools/testing/selftests/kselftest.h */.clang-format'

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${KSRC_CACHE:-$top/.build/ksrc}
tarball=${KSRC_TARBALL:-$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)}

if [ "$(cat "$cache/.done" 2>/dev/null)" != "$FILES" ]; then
	if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
		echo "ksrc: /usr/src/linux-source-6.1.tar.* missing: run 'make deps'" >&2
		exit 1
	fi
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	# shellcheck disable=SC2086 # one word per pattern, not globbed here
	(set -f; tar -xf "$tarball" -C "$cache.tmp" --strip-components=1 \
		--wildcards $FILES)
	echo "$FILES" >"$cache.tmp/.done"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
fi
echo "$cache"
