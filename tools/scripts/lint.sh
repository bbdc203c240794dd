#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh KDIR - zero findings or failure, from each of: checkpatch.pl
# --strict, sparse (C=2) in a W=1 build, and kernel-doc. The kernel's own
# scripts are taken from Debian's linux-source-6.1 (tools/scripts/ksrc.sh).
# checkpatch and kernel-doc also read the userspace C that follows kernel
# style: the tool (tools/cli), the helpers it shares with the test
# programs (tools/include) and the VM's test programs (tools/guest).
set -eu

kdir=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
ksrc=$("$top/tools/scripts/ksrc.sh")
cd "$top"
files="$(ls driver/*.c driver/*.h) uapi/linux/fairdie.h"
user_files="$(ls tools/cli/*.c tools/cli/*.h tools/include/*.h tools/guest/*.c)"
status=0

echo "lint: checkpatch --strict"
# LINUX_VERSION_CODE is ignored: checkpatch's advice ("code should be for the
# version to which it is merged") is for in-tree code; an out-of-tree module
# that builds on 6.1 to the newest keys its few compat names on the version
# (driver/fd_shim.h, its only use).
# shellcheck disable=SC2086
if ! perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE \
	-f $files $user_files; then
	status=1
fi

echo "lint: kernel-doc"
# shellcheck disable=SC2086
out=$(perl "$ksrc/scripts/kernel-doc" -none $files $user_files 2>&1 || true)
if [ -n "$out" ]; then
	echo "$out"
	status=1
fi

echo "lint: sparse (C=2) and W=1"
build=$top/.build/lint
rm -rf "$build"
mkdir -p "$build"
cp -r Kbuild driver uapi "$build/"
# The fault-injection build: the default one plus driver/fault.c.
out=$(make -C "$kdir" M="$build" C=2 W=1 FAIRDIE_FAULT=1 modules 2>&1) || {
	echo "$out"
	status=1
}
# Any warning or error from the compiler or sparse is a finding.
found=$(echo "$out" | grep -E 'warning:|error:|note:' || true)
if [ -n "$found" ]; then
	echo "$found"
	status=1
fi

echo "lint: layers (no include or call circle)"
if ! python3 "$top/tools/scripts/layers.py" --objs "$build" driver tools/bench; then
	status=1
fi
# The check can fail: a planted circle must be found.
plant=$(mktemp -d)
printf '#include "b.h"\n' >"$plant/a.c"
printf '#include "a.h"\n' >"$plant/b.c"
touch "$plant/a.h" "$plant/b.h"
if python3 "$top/tools/scripts/layers.py" "$plant" >/dev/null; then
	echo "lint: layers.py missed a planted circle"
	status=1
fi
rm -rf "$plant"

[ $status = 0 ] && echo "lint: no findings"
exit $status
