#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sizes.sh [MODULE.ko] - the sizes of the module's main structures, in bytes,
# as the compiler laid them out: read with pahole (Debian package dwarves)
# from the debugging information of a built module. Without an argument,
# the module make vm-module built for the newest 6.1 kernel installed.
# Documentation/design/fairdie.rst quotes these figures.
set -eu

structs="fairdie_file fd_pipe fd_pool fd_sampler fd_health fd_peres fd_well fairdie_hwrng"

ko=${1:-}
if [ -z "$ko" ]; then
	rel=$(tools/scripts/kernel.sh 6.1)
	ko=.build/mod-$rel/fairdie.ko
fi
if [ ! -f "$ko" ]; then
	echo "sizes.sh: no module at $ko (make vm-module, or name a .ko)" >&2
	exit 1
fi
if ! command -v pahole >/dev/null; then
	echo "sizes.sh: pahole is missing: install the Debian package dwarves" >&2
	exit 1
fi
for s in $structs; do
	size=$(pahole -C "$s" "$ko" | sed -n "s,.*/\* size: \([0-9]*\).*,\1,p")
	if [ -z "$size" ]; then
		echo "sizes.sh: struct $s not in $ko (built without debugging information?)" >&2
		exit 1
	fi
	echo "struct $s $size"
done
