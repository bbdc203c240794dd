# SPDX-License-Identifier: GPL-2.0
#
# testlib.sh - the checks the tool's test scripts share. A script sources
# it (". DIR/testlib.sh") on the host or in the VM (busybox sh and awk are
# enough); it gets a directory of its own in $tmp, removed at exit, and
# ends with test_done, which prints "N passed, N failed" and returns 0 only
# if nothing failed.

passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() {
	passed=$((passed + 1))
}

# fail WHY: count a failure, say why and show the last command's stderr
fail() {
	failed=$((failed + 1))
	echo "FAIL: $*"
	if [ -f "$tmp/err" ]; then
		sed 's/^/  stderr: /' "$tmp/err" | head -n 5
	fi
}

# t WANT_STATUS DESCRIPTION CMD...: run CMD with its input from $tmp/in
# (empty until input() writes it), its output in $tmp/out and $tmp/err;
# check its exit status
t() {
	want=$1
	desc=$2
	shift 2
	[ -f "$tmp/in" ] || : >"$tmp/in"
	"$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass
		return 0
	fi
	fail "$desc: exit status $got, want $want"
	return 1
}

# input FORMAT [ARG...]: what the next commands run by t read
input() {
	# shellcheck disable=SC2059
	printf "$@" >"$tmp/in"
}

# has FILE TEXT DESCRIPTION: FILE contains the fixed string TEXT
has() {
	if grep -qF -- "$2" "$1"; then
		pass
	else
		fail "$3: '$2' not in $(basename "$1"): $(head -c 300 "$1")"
	fi
}

# same GOT WANT DESCRIPTION
same() {
	if [ "$1" = "$2" ]; then
		pass
	else
		fail "$3: got '$1', want '$2'"
	fi
}

# one_line DESCRIPTION: the last command's error is one line
one_line() {
	if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		pass
	else
		fail "$1: the error is not one line"
	fi
}

# range FILE LO HI COUNT DESCRIPTION: COUNT lines, each an integer in LO..HI
range() {
	if awk -v lo="$2" -v hi="$3" -v n="$4" '
		!/^-?[0-9]+$/ || $1 + 0 < lo + 0 || $1 + 0 > hi + 0 { bad = 1 }
		END { exit bad || NR != n }' "$1"; then
		pass
	else
		fail "$5: lines not $4 integers in $2..$3: $(head -c 200 "$1")"
	fi
}

# test_done [NAME]: the closing line; true only if nothing failed
test_done() {
	echo "${1:+$1: }$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
