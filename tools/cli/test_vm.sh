#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_vm.sh [FAIRDIE] - the fairdie tool against the real /dev/fairdie, in
# the VM with the module loaded (busybox sh and awk are enough):
#
#   make vmrun VMFILES=tools/cli/test_vm.sh CMD='sh /root/test_vm.sh'
#
# Ends with "N passed, N failed"; exit status 0 only if all passed.
set -u

fd=${1:-fairdie}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() {
	passed=$((passed + 1))
}

fail() {
	failed=$((failed + 1))
	echo "FAIL: $*"
	sed 's/^/  stderr: /' "$tmp/err" | head -n 5
}

# t WANT_STATUS DESCRIPTION CMD...
t() {
	want=$1
	desc=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass
		return 0
	fi
	fail "$desc: exit status $got, want $want"
	return 1
}

has() {
	if grep -qF -- "$2" "$1"; then
		pass
	else
		fail "$3: '$2' not in: $(head -c 300 "$1")"
	fi
}

# range FILE LO HI COUNT DESCRIPTION
range() {
	if awk -v lo="$2" -v hi="$3" -v n="$4" '
		!/^-?[0-9]+$/ || $1 + 0 < lo + 0 || $1 + 0 > hi + 0 { bad = 1 }
		END { exit bad || NR != n }' "$1"; then
		pass
	else
		fail "$5: not $4 integers in $2..$3: $(head -c 200 "$1")"
	fi
}

# chi2 FILE SIDES LIMIT DESCRIPTION: faces 1..SIDES look uniform
chi2() {
	if awk -v k="$2" -v lim="$3" '{ c[$1]++ } END {
		for (i = 1; i <= k; i++) { e = NR / k; x += (c[i] - e) * (c[i] - e) / e }
		printf "  %s: chi-square %.2f over %d rolls\n", "'"$4"'", x, NR
		exit x > lim }' "$1"; then
		pass
	else
		fail "$4: chi-square above $3"
	fi
}

t 0 "config" "$fd" config && has "$tmp/out" "abi version:      1" "config"
cat "$tmp/out"
sources=$(awk '$1 == "sources:" { $1 = ""; print }' "$tmp/out")

t 0 "roll 3d6" "$fd" roll 3d6 -n 300 && range "$tmp/out" 3 18 300 "3d6"
t 0 "roll d6 x 60000" "$fd" roll d6 -n 60000 &&
	chi2 "$tmp/out" 6 30 "d6 (5 dof, limit 30)"
t 0 "roll d%" "$fd" roll 'd%' -n 20000 &&
	chi2 "$tmp/out" 100 170 "d100 (99 dof, limit 170)"
t 0 "roll 4d6k3 -v" "$fd" roll -v 4d6k3 -n 5 && has "$tmp/out" "4d6k3[" "4d6k3 -v"
t 0 "roll 2d10x+d4-1" "$fd" roll 2d10x+d4-1 -n 100 &&
	range "$tmp/out" 2 100000 100 "2d10x+d4-1"
t 0 "d1" "$fd" roll d1 -n 10 && range "$tmp/out" 1 1 10 "d1"
t 0 "2-byte rolls" "$fd" roll d65536 -n 100 && range "$tmp/out" 1 65536 100 "d65536"
t 0 "4-byte rolls" "$fd" roll d65537 -n 100 && range "$tmp/out" 1 65537 100 "d65537"
t 0 "8-byte rolls" "$fd" roll d9223372036854775807 -n 10 &&
	range "$tmp/out" 1 9223372036854775807 10 "d(2^63-1)"
t 0 "--sides" "$fd" --sides=20 roll -n 100 && range "$tmp/out" 1 20 100 "--sides=20"

for ext in vn peres dijkstra none; do
	t 0 "extractor $ext" "$fd" --extractor=$ext roll 2d6+d10 -n 200 &&
		range "$tmp/out" 3 22 200 "extractor $ext"
done
t 1 "dijkstra d67" "$fd" --extractor=dijkstra roll d67 &&
	has "$tmp/err" "cannot roll a d67 with the dijkstra extractor" "dijkstra d67"
for src in rdseed rdrand crng; do
	case " $sources " in
	*" $src "*)
		t 0 "source $src" "$fd" --source=$src roll d6 -n 100 &&
			range "$tmp/out" 1 6 100 "source $src" ;;
	*)
		t 1 "source $src absent" "$fd" --source=$src roll d6 &&
			has "$tmp/err" "source '$src' is not available on this machine" \
				"source $src absent" ;;
	esac
done

# The simulated coin: a seed reproduces its rolls, p = 0 fails its health
# tests and ends in EIO.
t 0 "sim a" "$fd" --sim=42:1/3 --extractor=peres roll 3d6 -n 50 &&
	cp "$tmp/out" "$tmp/sim_a"
t 0 "sim b" "$fd" --sim=42:1/3 --extractor=peres roll 3d6 -n 50 &&
	if cmp -s "$tmp/out" "$tmp/sim_a"; then pass; else fail "sim seed 42 not reproduced"; fi
t 0 "sim c" "$fd" --sim=43:1/3 --extractor=peres roll 3d6 -n 50 &&
	if cmp -s "$tmp/out" "$tmp/sim_a"; then fail "sim seeds 42, 43 alike"; else pass; fi
t 1 "stuck coin" "$fd" --sim=1:0/1 roll d6 &&
	has "$tmp/err" "Input/output error" "stuck coin ends in EIO"

t 0 "shuffle 200" "$fd" shuffle 200 &&
	if [ "$(sort -n "$tmp/out" | tr '\n' ' ')" = "$(seq 1 200 | tr '\n' ' ')" ]; then
		pass
	else
		fail "shuffle 200 is not a permutation"
	fi
printf 'a\nb\nc d\n' | "$fd" shuffle - >"$tmp/out" 2>"$tmp/err" &&
	[ "$(sort "$tmp/out" | tr '\n' '|')" = "a|b|c d|" ] && pass ||
	fail "shuffle -"
t 0 "craps" "$fd" craps -n 20000 && has "$tmp/out" "244/495" "craps"
if awk -F ': ' '$1 == "win fraction" { exit !($2 > 0.475 && $2 < 0.511) }' "$tmp/out"; then
	pass
else
	fail "craps win fraction: $(cat "$tmp/out")"
fi
t 0 "roulette" "$fd" roulette -n 100
if awk '{ c = $1 == 0 ? "green" : $2; if (NF != 2 || $1 !~ /^[0-9]+$/ ||
		$1 > 36 || (c != "red" && c != "black" && c != "green")) bad = 1 }
		END { exit bad || NR != 100 }' "$tmp/out"; then
	pass
else
	fail "roulette: $(head -n 3 "$tmp/out")"
fi

t 0 "stats" "$fd" stats -n 1000 && has "$tmp/out" "outputs:          1000" "stats"
t 0 "stats fresh" "$fd" stats -n 0 && has "$tmp/out" "outputs:          0" "stats -n 0"
t 0 "bench" "$fd" --sides=256 --extractor=none --source=crng bench -t 1 &&
	has "$tmp/out" "rolls per second" "bench"
cat "$tmp/out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
