#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_verify.sh - build.sh --verify accepts a configuration that has every
# line of the fragment and rejects one that lost a symbol, that has one
# set which the fragment unsets, or that has another value.  Host only.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
frag=$here/debug.config
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# A configuration holding exactly the fragment's lines, among others.
{ echo 'CONFIG_OTHER=y'; grep -E '^(CONFIG_|# CONFIG_)' "$frag"; } >"$tmp/good"

check() {
	# check NAME WANT(0|1) SED-EXPRESSION
	sed "$3" "$tmp/good" >"$tmp/$1"
	if "$here/build.sh" --verify "$tmp/$1" 2>"$tmp/$1.err"; then got=0; else got=1; fi
	if [ "$got" = "$2" ]; then
		echo "ok - verify: $1"
	else
		echo "not ok - verify: $1 (status $got, want $2)"
		cat "$tmp/$1.err"
		fail=1
	fi
}

check complete 0 ''
check kasan-dropped 1 '/^CONFIG_KASAN=y$/d'
check kasan-unset 1 's/^CONFIG_KASAN=y$/# CONFIG_KASAN is not set/'
check slob-set 1 's/^# CONFIG_SLOB is not set$/CONFIG_SLOB=y/'
check slob-absent 0 '/^# CONFIG_SLOB is not set$/d'
check other-value 1 's/^CONFIG_NR_CPUS=.*/CONFIG_NR_CPUS=64/'
exit $fail
