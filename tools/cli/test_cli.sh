#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_cli.sh FAIRDIE FAIRDIE_FAKE - the fairdie command line, on the host.
#
# FAIRDIE is the tool as shipped; FAIRDIE_FAKE the same sources built with
# the stand-in device ("--device fake:SEED"), so that roll, shuffle, craps
# and roulette run without the module. Ends with "N passed, N failed".
set -u

bin=$1
fake=$2
man=$(dirname "$0")/fairdie.1
. "$(dirname "$0")/testlib.sh"

commands="roll shuffle sample craps roulette extract pick config stats bench collect
keygen seal reveal verify certify"

# --- help and usage -------------------------------------------------------
t 0 "--help" "$bin" --help && has "$tmp/out" "Usage: fairdie" "--help"
for c in $commands; do
	t 0 "$c --help" "$bin" "$c" --help &&
		has "$tmp/out" "Usage: fairdie $c" "$c --help"
	t 0 "help $c" "$bin" help "$c" &&
		has "$tmp/out" "Usage: fairdie $c" "help $c"
	has "$tmp/out" "--device=PATH" "$c --help lists the global options"
done
t 0 "--version" "$bin" --version && has "$tmp/out" "fairdie 1.0" "--version"
t 2 "no command" "$bin" && has "$tmp/err" "no command given" "no command"
t 2 "unknown command" "$bin" frobnicate &&
	has "$tmp/err" "fairdie: unknown command 'frobnicate'" "unknown command"
t 2 "unknown option" "$bin" roll --bogus 3d6 &&
	has "$tmp/err" "fairdie: roll: unrecognized option '--bogus' (try 'fairdie roll --help')" \
		"unknown option"
t 2 "missing value" "$bin" roll 3d6 -n &&
	has "$tmp/err" "option '-n' needs a value" "missing value"
t 2 "bad count" "$bin" roll -n x d6 &&
	has "$tmp/err" "invalid COUNT 'x'" "bad count"
t 2 "count with junk" "$bin" roll -n 12x d6 &&
	has "$tmp/err" "invalid COUNT '12x'" "count with junk"
t 2 "bad source" "$bin" --source=bogus roll &&
	has "$tmp/err" "invalid --source 'bogus'" "bad source"
t 2 "bad extractor" "$bin" roll --extractor=xor &&
	has "$tmp/err" "invalid --extractor 'xor'" "bad extractor"
t 2 "bad sides" "$bin" --sides=0 roll && has "$tmp/err" "invalid --sides" "bad sides"
t 2 "bad sim" "$bin" --sim=1:3/2 roll && has "$tmp/err" "invalid --sim" "bad sim"

# --- expressions are checked before the device is opened ------------------
t 2 "bad expression" "$bin" roll 4d6q &&
	has "$tmp/err" "fairdie: roll: bad expression '4d6q': unexpected 'q' at position 4" \
		"bad expression"
t 2 "too many dice" "$bin" roll 1000001d6 &&
	has "$tmp/err" "too many dice" "too many dice"
t 2 "explode forever" "$bin" roll d6x1 &&
	has "$tmp/err" "every face explodes" "explode forever"

# --- the real device, absent or wrong -------------------------------------
t 1 "missing device" "$bin" --device="$tmp/nodev" roll 3d6 &&
	same "$(cat "$tmp/err")" \
		"fairdie: $tmp/nodev: No such file or directory" \
		"missing device message: no modprobe hint for another path"
# The default path, when absent, names the module and the other sources.
if [ ! -e /dev/fairdie ]; then
	t 1 "no /dev/fairdie" env -u FAIRDIE_SOURCE "$bin" roll 3d6 &&
		grep -qE "sudo modprobe fairdie|install the fairdie-dkms package" \
			"$tmp/err" && pass ||
		fail "no /dev/fairdie: neither modprobe nor the package named"
	has "$tmp/err" "--source=getrandom, --random-source=FILE or --seed=N" \
		"no /dev/fairdie: the other sources"
fi
t 1 "/dev/urandom" "$bin" --device=/dev/urandom roll &&
	same "$(cat "$tmp/err")" \
		"fairdie: /dev/urandom: not a fairdie device (GET_INFO: Invalid argument)" \
		"--device=/dev/urandom"
: >"$tmp/file"
t 1 "not a device" "$bin" roll d6 --device="$tmp/file" &&
	has "$tmp/err" "not a fairdie device" "not a device"
t 1 "stats without device" "$bin" --device="$tmp/nodev" stats
t 1 "config without device" "$bin" --device="$tmp/nodev" config

# --- roll, on the stand-in device -----------------------------------------
f="--device=fake:1"
t 0 "3d6" "$fake" $f roll 3d6 -n 500 && range "$tmp/out" 3 18 500 "3d6"
if awk '{ s += $1 } END { exit !(s / NR > 10 && s / NR < 11) }' "$tmp/out"; then
	pass
else
	fail "3d6 mean outside 10..11"
fi
t 0 "d20+4" "$fake" roll d20+4 -n 200 $f && range "$tmp/out" 5 24 200 "d20+4"
t 0 "d%" "$fake" $f roll 'd%' -n 300 && range "$tmp/out" 1 100 300 "d%"
t 0 "2d10x" "$fake" $f roll 2d10x -n 300 &&
	range "$tmp/out" 2 100000 300 "2d10x"
t 0 "sides" "$fake" $f --sides=20 roll -n 100 && range "$tmp/out" 1 20 100 "--sides 20"
input '3d6\n# a comment\n\n2d8 # two d8\n'
t 0 "expressions from stdin" "$fake" $f roll &&
	awk 'NR == 1 && $1 >= 3 && $1 <= 18 { a = 1 }
	     NR == 2 && $1 >= 2 && $1 <= 16 { b = 1 }
	     END { exit !(a && b && NR == 2) }' "$tmp/out" && pass ||
	fail "printf '3d6\\n2d8' | roll: $(cat "$tmp/out")"
input ''
t 0 "joined arguments" "$fake" $f roll 2d6 + 3 -n 50 &&
	range "$tmp/out" 5 15 50 "2d6 + 3"
t 0 "subtraction" "$fake" $f roll 'd4-10' -n 50 &&
	range "$tmp/out" -9 -6 50 "d4-10"
t 0 "4d6k3 -v" "$fake" $f roll -v 4d6k3 -n 100
# "13<TAB>4d6k3[6 4 3 (1)]": the total is the sum of the kept dice.
if awk -F '\t' '{
		d = $2; sub(/^4d6k3\[/, "", d); sub(/\]$/, "", d)
		n = split(d, f, " "); s = 0; kept = 0; dropped = 0
		for (i = 1; i <= n; i++)
			if (f[i] ~ /^\(/) dropped++; else { s += f[i]; kept++ }
		if (s != $1 || kept != 3 || dropped != 1 || n != 4) bad = 1
	} END { exit bad || NR != 100 }' "$tmp/out"; then
	pass
else
	fail "4d6k3 -v: totals do not match the kept dice: $(head -n 3 "$tmp/out")"
fi

# The dice language, with --seed (no device).
s="--seed=7"
t 0 "several expressions" "$bin" $s roll 3d6 2d8 'd20 + 4' &&
	same "$(wc -l <"$tmp/out")" 3 "3d6 2d8 'd20 + 4': one line each"
t 0 "6x4d6k3" "$bin" $s roll 6x4d6k3 -n 5 &&
	awk 'NF != 6 { bad = 1 } { for (i = 1; i <= NF; i++)
		if ($i < 3 || $i > 18) bad = 1 } END { exit bad || NR != 5 }' \
		"$tmp/out" && pass || fail "6x4d6k3: $(head -n 2 "$tmp/out")"
t 0 "3d6*100" "$bin" $s roll '3d6*100' -n 50 &&
	awk '$1 % 100 || $1 < 300 || $1 > 1800 { bad = 1 } END { exit bad }' \
		"$tmp/out" && pass || fail "3d6*100: $(head -n 2 "$tmp/out")"
t 0 "floor(d20/2)" "$bin" $s roll 'floor(d20/2)' -n 200 &&
	range "$tmp/out" 0 10 200 "floor(d20/2)"
t 2 "d20/2 is refused" "$bin" $s roll d20/2 &&
	has "$tmp/err" "Roll20 keeps fractions (d20/2 can be 10.5)" "d20/2: the difference named"
t 0 "4d6dl1" "$bin" $s roll 4d6dl1 -n 100 && range "$tmp/out" 3 18 100 "4d6dl1"
t 0 "4d6dh1" "$bin" $s roll 4d6dh1 -n 100 && range "$tmp/out" 3 18 100 "4d6dh1"
t 0 "2d6!" "$bin" $s roll '2d6!' -n 100 && range "$tmp/out" 2 100000 100 "2d6!"
t 0 "d6r1" "$bin" $s roll 'd6r1' -n 300 && range "$tmp/out" 2 6 300 "d6r1"
t 0 "d6r<3" "$bin" $s roll 'd6r<3' -n 300 && range "$tmp/out" 3 6 300 "d6r<3"
t 0 "10d10>=8" "$bin" $s roll '10d10>=8' -n 300 && range "$tmp/out" 0 10 300 "10d10>=8"
t 0 "4dF" "$bin" $s roll 4dF -n 300 && range "$tmp/out" -4 4 300 "4dF"
t 0 "4dF -v" "$bin" $s roll -v 4dF && grep -qE '^-?[0-9]+	4dF\[[-+][01] [-+][01] [-+][01] [-+][01]\]$' \
	"$tmp/out" && pass || fail "4dF -v: $(cat "$tmp/out")"
# Reproducible: the same seed gives the same rolls, another seed others.
"$bin" --seed=42 roll 10x3d6 >"$tmp/a" 2>&1
"$bin" --seed=42 roll 10x3d6 >"$tmp/b" 2>&1
"$bin" --seed=43 roll 10x3d6 >"$tmp/c" 2>&1
same "$(cat "$tmp/a")" "$(cat "$tmp/b")" "--seed reproduces"
cmp -s "$tmp/a" "$tmp/c" && fail "--seed=42 and 43 gave the same rolls" || pass
# --sides near 2^64 without an expression: one die, no parse error.
t 0 "huge --sides" "$bin" $s --sides=18446744073709551615 roll -n 3 &&
	same "$(grep -cE '^[0-9]+$' "$tmp/out")" 3 "huge --sides: 3 rolls"
# --stats: histogram beside the exact distribution, and the p-value.
t 0 "--stats" "$bin" $s roll --stats -n 20000 3d6 &&
	has "$tmp/out" "      10" "--stats lists the totals"
has "$tmp/out" "0.125000" "--stats: P(3d6 = 10) = 27/216 exactly"
has "$tmp/out" "with 15 degrees of freedom: p = " "--stats: chi-square p-value"
t 0 "--stats 4d6k3" "$bin" $s roll --stats -n 1000 4d6k3 &&
	has "$tmp/out" "0.016204" "--stats: P(4d6k3 = 18) = 21/1296"
t 0 "--stats exploding" "$bin" $s roll --stats 2d6x &&
	has "$tmp/out" "exact to " "--stats 2d6x: the depth and the rest"
# A fair stream gives p-values that are not tiny; a loaded one would.
"$bin" --seed=3 roll --stats -n 50000 2d6 4dF '10d10>=8' 4d6k3 'd6r1' >"$tmp/out" 2>&1
awk '/p = / { split($0, a, "p = "); if (a[2] < 0.0001) bad = 1; n++ }
	END { exit bad || n != 5 }' "$tmp/out" && pass ||
	fail "--stats p-values: $(grep 'p = ' "$tmp/out")"
# --json
t 0 "roll --json" "$bin" $s roll --json 3d6 2x2d4 &&
	grep -qE '^\{"schema": "fairdie.roll/1", "rolls": \[\{"expr": "3d6", "repeat": 1, "totals": \[[0-9]+\], "dice": \[\]\}, \{"expr": "2x2d4", "repeat": 2, "totals": \[[0-9]+, [0-9]+\], "dice": \[\]\}\], "stats": \[\]\}$' \
		"$tmp/out" && pass || fail "roll --json: $(cat "$tmp/out")"
t 0 "roll --stats --json" "$bin" $s roll --stats --json -n 100 d4 &&
	grep -qE '^\{"schema": "fairdie.roll/1", "rolls": \[\], "stats": \[\{"expr": "d4", "rolls": 100, "depth": 1, "histogram": \[\{"total": 1, "count": [0-9]+, "probability": 0.25, "exact": "1/4"\}, .*"p_value": [0-9.]+\}\]\}$' \
		"$tmp/out" && pass || fail "roll --stats --json: $(cat "$tmp/out")"
t 2 "bad second expression" "$bin" $s roll 3d6 4d6q &&
	same "$(cat "$tmp/out")" "" "nothing rolled before a bad expression"

# Roll20's meanings (issue 22): never a silent other answer.
t 0 "3d6!>4 is a total" "$bin" $s roll -n 300 '3d6!>4' &&
	range "$tmp/out" 3 1000000 300 "3d6!>4 explodes on 4 or more"
t 0 "3d6!>4 -v" "$bin" --seed=2 roll -v -n 50 '3d6!>4' &&
	awk -F '\t' '{ d = $2; sub(/^3d6!>4\[/, "", d); sub(/\]$/, "", d)
		n = split(d, f, " "); s = 0; x = 0
		for (i = 1; i <= n; i++) { s += f[i]; x += f[i] >= 4 }
		if (s != $1 || n != 3 + x) bad = 1 } END { exit bad }' "$tmp/out" &&
	pass || fail "3d6!>4 -v: one new die per face of 4 or more: $(head -n 3 "$tmp/out")"
t 0 "3d6>3 inclusive" "$bin" --seed=3 roll -v -n 100 '3d6>3' &&
	awk -F '\t' '{ d = $2; sub(/^3d6>3\[/, "", d); sub(/\]$/, "", d)
		n = split(d, f, " "); c = 0
		for (i = 1; i <= n; i++) c += f[i] >= 3
		if (c != $1) bad = 1 } END { exit bad }' "$tmp/out" &&
	pass || fail "3d6>3 counts faces of 3 or more: $(head -n 3 "$tmp/out")"
t 0 "4d6r<2 rerolls 1 and 2" "$bin" $s roll -n 300 '4d6r<2' &&
	range "$tmp/out" 12 24 300 "4d6r<2"
for x in '2*1d6' '(1d4+1)*3' '{4d6,3d8}k1' '3d6!!' '3d6!p' 'floor(7/2)' \
	'1d20[fire]' '0d6' '4d6ra1' '4d6mi2' '10d10>=8f1' '13 % 2' \
	'{5d6!!}>8' '4d6dh1' 'ceil(2d6/3) + round(d20/4) - abs(d4-d6)'; do
	t 0 "roll '$x'" "$bin" $s roll "$x" && range "$tmp/out" -20 100000 1 "$x"
done
"$bin" $s roll '13 % 2' 'floor(7/2)' 0d6 >"$tmp/out" 2>&1
same "$(tr '\n' ' ' <"$tmp/out")" "1 3 0 " "13 % 2, floor(7/2), 0d6"
t 2 "4d6!k3 refused" "$bin" $s roll '4d6!k3' &&
	has "$tmp/err" "Roll20 ranks each new face as a die" "4d6!k3: the difference named"
t 2 "ra with > refused" "$bin" $s roll '4d6ra>5' &&
	has "$tmp/err" "avrae reads '>' and '<' strictly, Roll20 inclusively" "ra>5"
# A quoted argument is one expression; '' is an error.
t 2 "'3 d6' is one expression" "$bin" $s roll '3 d6' &&
	has "$tmp/err" "bad expression '3 d6': a blank at position 2 splits the dice: write 3d6" "'3 d6'"
same "$(cat "$tmp/out")" "" "'3 d6' rolls nothing"
t 2 "roll ''" "$bin" $s roll '' && has "$tmp/err" "empty expression" "roll ''"
t 0 "'2d6 + 3' joined" "$bin" $s roll 2d6 + 3 '13 %' 2 -n 2 &&
	same "$(tr '\n' ' ' <"$tmp/out" | wc -w)" 4 "2d6 + 3 and '13 %' 2: two expressions"
# stdin: CR, LF and CRLF end lines; NUL and invalid UTF-8 are errors naming
# the line; echoed input is escaped.
input '3d6\r2d6\r1d4\r'
t 0 "CR lines" "$bin" $s roll && same "$(wc -l <"$tmp/out")" 3 "3d6 CR 2d6 CR 1d4 CR: three totals"
input '3d6\r\n2d6\r\n\r1d4\n'
t 0 "CRLF lines" "$bin" $s roll && same "$(wc -l <"$tmp/out")" 3 "CRLF and a line starting with CR"
input '3d6\n2d\0006\n'
t 2 "a NUL" "$bin" $s roll && has "$tmp/err" "roll: standard input: line 2: a NUL byte" "NUL named by line"
input '3d6\n\377\376\n'
t 2 "invalid UTF-8" "$bin" $s roll && has "$tmp/err" "roll: standard input: line 2: invalid UTF-8" "UTF-8 named by line"
input '1d6\n\033[31mfoo\n'
t 2 "an escape sequence" "$bin" $s roll &&
	has "$tmp/err" "roll: line 2: bad expression '\\x1b[31mfoo'" "escaped echo"
if grep -q "$(printf '\033')" "$tmp/err"; then fail "raw escape echoed"; else pass; fi
input ''
# --stats: sizes checked first, only possible totals, explosions covered.
t 1 "--stats 1000000d6 refused at once" timeout 10 "$bin" $s roll --stats 1000000d6 &&
	has "$tmp/err" "too large to compute" "1000000d6"
t 0 "--stats 3d6*100" "$bin" $s roll --stats -n 1000 '3d6*100' &&
	same "$(grep -cE '^ +[0-9]+00 ' "$tmp/out")" 16 "3d6*100 lists its 16 totals"
t 0 "--stats 1000d6" "$bin" $s roll --stats 1000d6 &&
	has "$tmp/out" "1000d6: 10000 rolls" "--stats rolls 10000 times unless -n says"
has "$tmp/out" "degrees of freedom: p = " "1000d6: a chi-square test"
t 0 "--stats -n 1" "$bin" $s roll --stats -n 1 1000d6 &&
	has "$tmp/out" "too few rolls for a chi-square test" "1000d6 -n 1: no test of 0 degrees"
t 0 "--stats 10d6!" "$bin" $s roll --stats -n 2000 '10d6!' &&
	has "$tmp/out" "exact to " "10d6!: depth and rest"
# Products, quotients, kept successes and kept items: computed, with only
# the possible totals (1d6*1d6 has 18), the distributions checked in
# test_dice; what is too large is refused by name, at once.
t 0 "--stats 1d6*1d6" "$bin" $s roll --stats -n 1000 '1d6*1d6' &&
	same "$(grep -cE '^ +[0-9]+ +[0-9]+ +0\.[0-9]+ +0\.[0-9]+' "$tmp/out")" 18 \
		"1d6*1d6 lists its 18 totals"
for x in 'floor(1d20/1d4)' '4d6kh3>4' '{1d6,1d8,1d10}kh2' '{3d6,2d8,1d20}dl1'; do
	t 0 "--stats $x" "$bin" $s roll --stats -n 1000 "$x" &&
		has "$tmp/out" "degrees of freedom: p = " "--stats $x"
done
t 0 "--stats 4d6xkh3>5" "$bin" $s roll --stats -n 1000 '4d6xkh3>5' &&
	has "$tmp/out" "exact to " "4d6xkh3>5: depth and rest"
t 1 "--stats 1000d6*1000d6 refused at once" timeout 10 "$bin" $s roll --stats '1000d6*1000d6' &&
	has "$tmp/err" "too many pairs" "1000d6*1000d6"
# One explosion limit: 500000d2x never fails.
for seed in 1 2 3 4 5 6; do
	t 0 "500000d2x, seed $seed" "$bin" --seed=$seed roll 500000d2x
done

# --- shuffle --------------------------------------------------------------
t 0 "shuffle 100" "$fake" $f shuffle 100 &&
	same "$(sort -n "$tmp/out" | tr '\n' ' ')" "$(seq 1 100 | tr '\n' ' ')" \
		"shuffle 100 is a permutation"
if [ "$(cat "$tmp/out" | tr '\n' ' ')" != "$(seq 1 100 | tr '\n' ' ')" ]; then
	pass
else
	fail "shuffle 100 left everything in place"
fi
t 0 "shuffle 0" "$fake" $f shuffle 0 && same "$(cat "$tmp/out")" "" "shuffle 0"
input 'one\ntwo words\n\nthree\nlast, no newline'
t 0 "shuffle -" "$fake" $f shuffle - &&
	same "$(sort "$tmp/out" | tr '\n' '|')" "|last, no newline|one|three|two words|" \
		"shuffle - keeps the lines"
t 0 "shuffle, no operand: standard input" "$fake" $f shuffle &&
	same "$(sort "$tmp/out" | tr '\n' '|')" "|last, no newline|one|three|two words|" \
		"shuffle without an operand reads standard input"
rm -f "$tmp/in"
t 1 "shuffle abc: a missing file" "$fake" $f shuffle abc &&
	has "$tmp/err" "fairdie: shuffle: abc: No such file or directory" "shuffle abc"
t 2 "shuffle two operands" "$fake" $f shuffle a b &&
	has "$tmp/err" "fairdie: shuffle: extra operand 'b'" "shuffle a b"
# --count: one permutation per line; the state carries over between them.
t 0 "shuffle --count" "$fake" $f shuffle --count 500 4
if awk '{ if (NF != 4) bad = 1; delete seen
		for (i = 1; i <= NF; i++) if ($i !~ /^[1-4]$/ || seen[$i]++) bad = 1
		c[$0]++ }
	END { for (p in c) n++; exit bad || NR != 500 || n != 24 }' "$tmp/out"; then
	pass
else
	fail "shuffle --count 500 4: not 500 lines of permutations of 1..4, all 24 seen"
fi
t 2 "shuffle --count with -" "$fake" $f shuffle --count 2 - &&
	has "$tmp/err" "shuffle: --count works with numbers (N or -i LO-HI), not with lines or -e" \
		"shuffle --count with -"
t 2 "shuffle --count 0" "$fake" $f shuffle --count 0 5 &&
	has "$tmp/err" "invalid TIMES '0'" "shuffle --count 0"
t 2 "shuffle --count -r" "$bin" --seed=1 shuffle --count 2 -r -n 3 5 &&
	has "$tmp/err" "--count and --repeat exclude each other" "shuffle --count -r"
# -n K: a partial shuffle, K distinct items; every ordered pair of 1..4.
t 0 "shuffle -n" "$bin" --seed=5 shuffle -n 2 --count 2000 4 &&
	awk 'NF != 2 || $1 == $2 || $1 < 1 || $1 > 4 || $2 < 1 || $2 > 4 { bad = 1 }
		{ c[$0]++ } END { for (p in c) n++; exit bad || n != 12 }' "$tmp/out" &&
	pass || fail "shuffle -n 2 --count 2000 4: $(head -n 3 "$tmp/out")"
input 'a\nb\nc\nd\n'
t 0 "shuffle -n -" "$bin" --seed=5 shuffle -n 3 - &&
	same "$(sort -u "$tmp/out" | wc -l)" 3 "shuffle -n 3 -: three distinct lines"
t 0 "shuffle --json -" "$bin" --seed=5 shuffle --json - &&
	grep -qE '^\{"schema": "fairdie.shuffle/1", "lines": \["[a-d]", "[a-d]", "[a-d]", "[a-d]"\], "permutations": \[\], "stats": null\}$' "$tmp/out" &&
	pass || fail "shuffle --json -: $(cat "$tmp/out")"
rm -f "$tmp/in"
t 2 "shuffle --sides" "$bin" --seed=5 --sides=6 shuffle 5 &&
	has "$tmp/err" "--sides does not apply" "shuffle --sides"
# Every order of 1..4 about equally often, with -i, from one run.
t 0 "shuffle -i --count" "$bin" --seed=8 shuffle -i 7-10 --count 24000 &&
	awk '{ c[$0]++ } END { for (p in c) { n++; x += (c[p] - 1000) ^ 2 / 1000 }
		exit n != 24 || x > 70 }' "$tmp/out" && pass ||
	fail "shuffle -i 7-10 --count 24000: orders not uniform"
# A huge range, sparsely: -n K of 2^64 - 1 numbers.
t 0 "shuffle -n of a huge range" "$bin" --seed=1 shuffle -n 5 -i 1-18446744073709551615 &&
	same "$(sort -u "$tmp/out" | grep -cE '^[0-9]+$')" 5 "5 distinct of 1..2^64-1"
# -r: draws with repetition, as many as -n says; a fair d6 from shuf's form.
t 0 "shuffle -r -i 1-6" "$bin" --seed=4 shuffle -r -i 1-6 -n 60000 &&
	awk '$1 < 1 || $1 > 6 { bad = 1 } { c[$1]++ }
		END { for (i = 1; i <= 6; i++) x += (c[i] - 10000) ^ 2 / 10000
		      exit bad || NR != 60000 || x > 35.9 }' "$tmp/out" && pass ||
	fail "shuffle -r -i 1-6 -n 60000: not a fair d6"
# -r without -n runs until the output is closed.
"$bin" --seed=4 shuffle -r -e x y 2>"$tmp/err" | head -n 1000 >"$tmp/out"
same "$(sort -u "$tmp/out" | tr '\n' ' ')" "x y " "shuffle -r without -n, cut by head"
t 2 "shuffle --json -r without -n" "$bin" --seed=4 shuffle --json -r -e x y &&
	has "$tmp/err" "--json with --repeat needs --head-count" "--json -r without -n"

# The fair bits a shuffle takes, from a source of bits (--stats, stderr):
# the sampler takes in log2(52!) = 225.58 plus the state it keeps (up to
# 64 bits), and uses log2(52!): taken less what the state holds at the end.
# The figures must agree with each other: the bits read are the bytes read
# times 8 (once printed as "7 rolls of 2^32 sides" for 238 bits).
t 0 "shuffle --stats" "$bin" --seed=52 shuffle --stats 52 &&
	same "$(wc -l <"$tmp/out")" 52 "shuffle --stats keeps stdout"
has "$tmp/err" "log2(N!):         225.58 bits per permutation" "shuffle --stats log2(52!)"
has "$tmp/err" "permutations:     1 (52 items each)" "shuffle --stats permutations"
if awk -F ': *' '$1 == "fair bits used" { u = $2 + 0 }
		$1 == "fair bits taken" { k = $2 + 0; split($2, h, "[(]"); held = h[2] + 0 }
		$1 == "fair bits read" { r = $2 + 0; split($2, a, "[(]"); b = a[2] + 0 }
		END { d = k - held - u; if (d < 0) d = -d
		      exit !(u >= 225.58 && u < 226.58 && k <= 225.58 + 64 &&
			     d < 0.02 && r >= k && r == 8 * b) }' "$tmp/err"; then
	pass
else
	fail "shuffle --stats 52: used not log2(52!), taken above +64, or read not 8 x bytes: $(cat "$tmp/err")"
fi
# 1000 items from a file: no more than log2(1000!) + 64 = 8593.4 bits taken.
head -c 4096 /dev/urandom >"$tmp/bits"
t 0 "shuffle --stats 1000 from a file" "$bin" --random-source="$tmp/bits" shuffle --stats 1000 &&
	awk -F ': *' '$1 == "fair bits used" { u = $2 + 0 }
		$1 == "fair bits taken" { k = $2 + 0 }
		END { exit !(u >= 8529.39 && u < 8530.4 && k <= 8593.4) }' "$tmp/err" &&
	pass || fail "shuffle --stats 1000: $(cat "$tmp/err")"
# Shuffle after shuffle, the state carries over: about log2(52!) each.
t 0 "shuffle --stats --count" "$bin" --seed=52 shuffle --stats --count 1000 52 &&
	awk -F '[(]' '/^fair bits used/ { exit !($2 + 0 < 225.7) }' "$tmp/err" &&
	pass || fail "1000 shuffles of 52 cost more than 225.7 bits each: $(cat "$tmp/err")"

# --- shuffle and sample beside GNU shuf -----------------------------------
# The same options, the same input: both succeed or both fail, and what
# comes out has the same shape (the same items, the same count, the same
# delimiters). Messages compare after each program's prefix; shuf exits 1
# on a usage error, where fairdie exits 2 (its rule for every command).
if command -v shuf >/dev/null; then
	printf 'alpha\nbeta\n\ngamma delta\nbeta\n' >"$tmp/words"
	printf 'a\0b c\0\nd\0' >"$tmp/zero"
	# like_shuf DESC MODE ARGS...: MODE perm (same sorted output),
	# subset (fairdie's lines are among shuf's input, as many as shuf's)
	like_shuf() {
		desc=$1
		mode=$2
		shift 2
		LC_ALL=C shuf "$@" <"$tmp/words" >"$tmp/s.out" 2>"$tmp/s.err"
		s_rc=$?
		"$bin" --seed=3 shuffle "$@" <"$tmp/words" >"$tmp/f.out" 2>"$tmp/err"
		f_rc=$?
		if [ $s_rc -ne 0 ] || [ $f_rc -ne 0 ]; then
			fail "shuf $*: shuf exit $s_rc, fairdie exit $f_rc"
			return
		fi
		case $mode in
		perm)
			tr '\0' '\n' <"$tmp/s.out" | sort | od -c >"$tmp/s.sorted"
			tr '\0' '\n' <"$tmp/f.out" | sort | od -c >"$tmp/f.sorted"
			cmp -s "$tmp/s.sorted" "$tmp/f.sorted" && pass ||
				fail "$desc: shuf and fairdie output different items"
			;;
		count)
			same "$(wc -l <"$tmp/f.out")" "$(wc -l <"$tmp/s.out")" \
				"$desc: as many lines as shuf"
			;;
		esac
	}
	like_shuf "lines of stdin" perm
	like_shuf "FILE operand" perm "$tmp/words"
	like_shuf "FILE '-'" perm -
	like_shuf "-n 2 of a file" count -n 2 "$tmp/words"
	like_shuf "-n 9 of 5 lines" perm -n 9 "$tmp/words"
	like_shuf "-n 0" perm -n 0 "$tmp/words"
	like_shuf "the smaller of two -n" count -n 1 -n 3 "$tmp/words"
	like_shuf "-e" perm -e one two 'three four' ''
	like_shuf "-e with -n" count -e -n 2 one two three
	like_shuf "-i" perm -i 5-14
	like_shuf "-i LO-HI, one number" perm -i 7-7
	like_shuf "-i empty range" perm -i 1-0
	like_shuf "-i -n" count -i 1-1000 -n 5
	like_shuf "-r -n" count -r -n 7 -e x y z
	like_shuf "-r -i -n" count -r -i 1-6 -n 20
	like_shuf "-z" perm -z "$tmp/zero"
	like_shuf "-z -e" perm -z -e a b c
	like_shuf "-r -n 0 without items" perm -r -n 0 -i 1-0
	# -o FILE, written after the input is read: it may be the input.
	cp "$tmp/words" "$tmp/inplace"
	t 0 "shuffle -o the input" "$bin" --seed=3 shuffle -o "$tmp/inplace" "$tmp/inplace" &&
		same "$(sort "$tmp/inplace" | tr '\n' '|')" "$(sort "$tmp/words" | tr '\n' '|')" \
			"shuffle -o FILE FILE shuffles the file in place"
	same "$(cat "$tmp/out")" "" "shuffle -o: nothing on stdout"
	# --random-source=- : the bits from standard input.
	head -c 64 /dev/urandom >"$tmp/bits"
	"$bin" --random-source=- shuffle -i 1-10 <"$tmp/bits" >"$tmp/out" 2>"$tmp/err"
	same "$?:$(sort -n "$tmp/out" | tr '\n' ' ')" "0:$(seq 1 10 | tr '\n' ' ')" \
		"--random-source=- shuffle -i 1-10"
	"$bin" --random-source=- shuffle <"$tmp/words" >"$tmp/out" 2>"$tmp/err"
	same "$?" 2 "--random-source=- with lines on stdin"
	has "$tmp/err" "standard input cannot hold both the lines and the random bits" \
		"--random-source=- with lines on stdin: message"
	# The same error cases, the same messages.
	like_shuf_err() {
		want=$1
		shift
		LC_ALL=C shuf "$@" <"$tmp/words" >/dev/null 2>"$tmp/s.err"
		s_rc=$?
		"$bin" --seed=3 shuffle "$@" <"$tmp/words" >/dev/null 2>"$tmp/err"
		f_rc=$?
		s_msg=$(head -n 1 "$tmp/s.err" | sed 's/^shuf: //')
		f_msg=$(sed 's/^fairdie: shuffle: //' "$tmp/err")
		same "$s_rc:$f_rc:$f_msg" "1:$want:$s_msg" "shuf $*: status and message"
	}
	like_shuf_err 2 -i 5-3
	like_shuf_err 2 -i 1-x
	like_shuf_err 2 -i x-3
	like_shuf_err 2 -i 5
	like_shuf_err 2 -i 3-1-2
	like_shuf_err 2 -i 1-99999999999999999999999
	like_shuf_err 2 -i 0-18446744073709551615
	like_shuf_err 2 -i 1-3 -e a
	like_shuf_err 2 -i 1-3 -i 1-4
	like_shuf_err 2 -n x -e a
	like_shuf_err 2 -o "$tmp/o1" -o "$tmp/o2" -e a
	like_shuf_err 2 a b
	like_shuf_err 2 -i 1-3 extra
	like_shuf_err 1 "$tmp/none"
	like_shuf_err 1 -r -i 1-0
	like_shuf_err 1 -o "$tmp/no/such/dir" -e a
	# sample takes the same options, with -n K its size.
	t 0 "sample -n -e" "$bin" --seed=2 sample -n 2 -e a b c &&
		awk '!/^[abc]$/ { bad = 1 } { c[$0]++ } END { for (k in c) n++
			exit bad || NR != 2 || n != 2 }' "$tmp/out" && pass ||
		fail "sample -n 2 -e a b c: $(cat "$tmp/out")"
	t 0 "sample -n FILE" "$bin" --seed=2 sample -n 3 "$tmp/words" &&
		same "$(wc -l <"$tmp/out")" 3 "sample -n 3 FILE"
	t 0 "sample -n -i -z" "$bin" --seed=2 sample -n 4 -i 10-20 -z &&
		same "$(tr '\0' '\n' <"$tmp/out" | awk '$1 >= 10 && $1 <= 20' | sort -u | wc -l)" 4 \
			"sample -n 4 -i 10-20 -z: four distinct, NUL-terminated"
	t 2 "sample -e without -n" "$bin" --seed=2 sample -e a b &&
		has "$tmp/err" "sample: -e and -i need -n K" "sample -e without -n"
else
	: >"$tmp/err"
	fail "shuf is missing (Debian package coreutils): cannot compare"
fi

# --- games, config, stats and bench without the device ----------------------
t 0 "craps --seed" "$bin" --seed=1 craps -n 2000 && has "$tmp/out" "games: 2000" "craps --seed"
t 0 "craps --json" "$bin" --seed=1 craps -n 100 --json &&
	grep -qE '^\{"schema": "fairdie.craps/1", "games": 100, "wins": [0-9]+, "throws": [0-9]+, "draws": [0-9]+, "fair_bits": [0-9]+, "bits_per_draw": [0-9.]+, "win_fraction": [0-9.]+, "exact": "244/495", ' \
		"$tmp/out" && pass || fail "craps --json: $(cat "$tmp/out")"
# A throw is its total drawn whole: at most 3.28 fair bits (entropy 3.2744;
# two d6 take 5.17), totals made ahead and not thrown included.
t 0 "craps: fair bits a throw" "$bin" --seed=7 craps -n 100000 --json &&
	sed 's/.*"throws": \([0-9]*\), "draws": \([0-9]*\), "fair_bits": \([0-9]*\),.*/\1 \2 \3/' "$tmp/out" |
	awk '{ b = $3 / $2; print "  craps: " $1 " throws, " b " fair bits each"
		exit !($1 > 300000 && $2 >= $1 && b <= 3.28 && b > 3.26) }' &&
	pass || fail "craps: fair bits a throw: $(cat "$tmp/out")"
# Progress goes to a terminal only: not into a file.
t 0 "craps, long" "$bin" --seed=1 craps -n 300000 &&
	same "$(cat "$tmp/err")" "" "no progress line when stderr is a file"
t 2 "craps --sides" "$bin" --seed=1 --sides=8 craps &&
	has "$tmp/err" "craps: --sides does not apply" "craps --sides"
t 0 "roulette --source=getrandom" "$bin" --source=getrandom roulette -n 50 &&
	same "$(grep -cE '^([0-9]|[12][0-9]|3[0-6]) (red|black|green)$' "$tmp/out")" 50 \
		"roulette --source=getrandom"
t 0 "roulette --json" "$bin" --seed=1 roulette -n 2 --json &&
	grep -qE '^\{"schema": "fairdie.roulette/1", "spins": \[\{"pocket": [0-9]+, "colour": "[a-z]+"\}, \{"pocket": [0-9]+, "colour": "[a-z]+"\}\]\}$' \
		"$tmp/out" && pass || fail "roulette --json: $(cat "$tmp/out")"
t 2 "roulette --sides" "$bin" --seed=1 --sides=38 roulette &&
	has "$tmp/err" "roulette: --sides does not apply" "roulette --sides"
t 0 "config --seed" "$bin" --seed=9 config &&
	has "$tmp/out" "splitmix64 seeded with 9 (reproducible, not for security)" "config --seed"
t 0 "config --json" "$bin" --random-source=/dev/zero config --json &&
	same "$(cat "$tmp/out")" '{"schema": "fairdie.config/1", "bits_from": "file", "description": "file /dev/zero", "device": null, "userspace_sources": ["getrandom", "file", "seed"], "abi_version": null, "sources": null, "extractors": null, "source": null, "extractor": null, "sides": null, "format": null, "sim": null}' "config --json"
t 0 "stats --random-source" "$bin" --random-source=/dev/urandom --sides=100 stats -n 5000 &&
	has "$tmp/out" "rolls:            5000 d100" "stats --random-source"
t 0 "stats --json" "$bin" --seed=1 stats --json -n 100 &&
	grep -qE '^\{"schema": "fairdie.stats/1", "bits_from": "seed", "description": "splitmix64 seeded with 1 .*", "sides": 6, "rolls": 100, "fair_bits": [0-9]+, "fair_bits_held": [0-9.]+, "fair_bits_read": [0-9]+, "fair_bits_per_roll": [0-9.]+, "source": null, .*"health_failures": null\}$' \
		"$tmp/out" && pass || fail "stats --json: $(cat "$tmp/out")"
# Ten rolls of a d6 use 10 log2(6) = 25.85 bits: the rest of the 63 the
# sampler took stays in its state for later rolls (once 6.3 bits per roll).
t 0 "stats -n 10" "$bin" --seed=1 stats -n 10 &&
	awk -F ': *' '$1 == "fair bits used" { u = $2 + 0 }
		$1 == "fair bits taken" { k = $2 + 0 }
		$1 == "fair bits per roll" { p = $2 + 0 }
		END { exit !(u > 25.84 && u < 25.86 && k <= 25.85 + 64 &&
			     p > 2.584 && p < 2.586) }' "$tmp/out" &&
	pass || fail "stats -n 10: $(cat "$tmp/out")"
t 0 "bench --seed" "$bin" --seed=1 bench -t 1 --json &&
	has "$tmp/out" '"rolls_per_s": ' "bench --seed --json"
has "$("$bin" config --help >"$tmp/h"; echo "$tmp/h")" "--json" "config --help lists its options"
# Every command with every source: each runs and exits 0.
for src in --seed=5 --source=getrandom --random-source=/dev/urandom; do
	for cmd in "roll 3d6" "shuffle 10" "sample 3 10" "craps -n 10" \
		   "roulette -n 3" "config" "stats -n 10" "bench -t 1"; do
		# shellcheck disable=SC2086
		t 0 "$src $cmd" "$bin" "$src" $cmd
	done
done
t 2 "two sources" "$bin" --seed=1 --source=getrandom roll &&
	has "$tmp/err" "--seed and --source=getrandom exclude each other" "two sources"
t 2 "--seed with --extractor" "$bin" --seed=1 --extractor=vn roll 3d6 &&
	has "$tmp/err" "do not apply" "--seed with --extractor"
t 2 "bad --seed" "$bin" --seed=x roll && has "$tmp/err" "invalid --seed 'x'" "bad --seed"
t 1 "missing --random-source" "$bin" --random-source="$tmp/none" roll 3d6 &&
	has "$tmp/err" "$tmp/none: No such file or directory" "missing --random-source"
# A pipe works, and running out names the bits read.
printf '\377' | "$bin" --random-source=/dev/stdin roll d256 d256 >"$tmp/out" 2>"$tmp/err"
same "$?:$(cat "$tmp/out")" "1:256" "a pipe of 8 bits: one d256, then an error"
has "$tmp/err" "the random source ran out after 8 bits" "running out names the bits read"
printf '\001' | "$bin" --random-source=- shuffle -r -n 8 -e 0 1 >"$tmp/out" 2>"$tmp/err"
same "$?:$(tr -d '\n' <"$tmp/out")" "0:10000000" "--random-source=-: the bits of a byte, lowest first"

# --- FAIRDIE_SOURCE, and config for a newcomer without the module ---------
FAIRDIE_SOURCE=getrandom "$bin" roll 3d6 >"$tmp/out" 2>"$tmp/err"
same "$?:$(grep -cE '^[0-9]+$' "$tmp/out")" "0:1" "FAIRDIE_SOURCE=getrandom: the default source"
FAIRDIE_SOURCE=getrandom "$bin" config >"$tmp/out" 2>"$tmp/err"
has "$tmp/out" "getrandom(2) (FAIRDIE_SOURCE)" "config names FAIRDIE_SOURCE"
FAIRDIE_SOURCE=getrandom "$bin" --seed=3 shuffle 5 >"$tmp/out" 2>"$tmp/err"
same "$?:$(sort -n "$tmp/out" | tr -d '\n')" "0:12345" "an option beats FAIRDIE_SOURCE"
FAIRDIE_SOURCE=getrandom "$bin" --device="$tmp/nodev" roll 3d6 >"$tmp/out" 2>"$tmp/err"
same "$?" 1 "--device beats FAIRDIE_SOURCE=getrandom"
FAIRDIE_SOURCE=device "$bin" --device="$tmp/nodev" roll 3d6 >"$tmp/out" 2>"$tmp/err"
same "$?" 1 "FAIRDIE_SOURCE=device"
FAIRDIE_SOURCE=bogus "$bin" roll 3d6 >"$tmp/out" 2>"$tmp/err"
same "$?" 2 "FAIRDIE_SOURCE=bogus: a usage error"
has "$tmp/err" "invalid FAIRDIE_SOURCE 'bogus': expected device or getrandom" "FAIRDIE_SOURCE=bogus"
t 1 "config without the device" env -u FAIRDIE_SOURCE "$bin" --device="$tmp/nodev" config &&
	has "$tmp/out" "device:           missing: $tmp/nodev: No such file or directory" \
		"config: what is missing"
has "$tmp/out" "--source=getrandom" "config without the device: getrandom"
has "$tmp/out" "--random-source=FILE" "config without the device: a file"
has "$tmp/out" "--seed=N" "config without the device: a seed"
has "$tmp/out" "FAIRDIE_SOURCE=getrandom" "config without the device: FAIRDIE_SOURCE"
t 1 "config --json without the device" env -u FAIRDIE_SOURCE "$bin" --device="$tmp/nodev" config --json &&
	grep -qE '^\{"schema": "fairdie.config/1", "bits_from": "device", "device": ".*", "userspace_sources": \["getrandom", "file", "seed"\], "description": null, .*"sim": null, "error": ".*No such file or directory"\}$' \
		"$tmp/out" && pass || fail "config --json without the device: $(cat "$tmp/out")"

# --- sample ---------------------------------------------------------------
t 0 "sample 6 49" "$bin" --seed=1 sample 6 49 &&
	same "$(sort -un "$tmp/out" | awk '$1 >= 1 && $1 <= 49' | wc -l)" 6 \
		"sample 6 49: six distinct values of 1..49"
# Every ordered pair of 1..3 from sample 2 3, in about equal numbers.
t 0 "sample 2 3" "$bin" --seed=2 sample --count 6000 2 3 &&
	awk '{ c[$0]++ } END { for (p in c) { n++; if (c[p] < 850 || c[p] > 1150) bad = 1 }
		exit bad || n != 6 }' "$tmp/out" && pass ||
	fail "sample 2 3: $(sort "$tmp/out" | uniq -c | tr '\n' ' ')"
# The cost: log2(49*48*47*46*45*44) = 33.23 bits per sample, amortized.
t 0 "sample --stats" "$bin" --seed=3 sample --stats --count 2000 6 49 &&
	has "$tmp/err" "log2(N!/(N-K)!):  33.23 bits per sample" "sample --stats log2"
awk -F '[(]' '/fair bits used/ { exit !($2 + 0 < 33.3) }' "$tmp/err" && pass ||
	fail "sample 6 49 costs more than 33.3 bits: $(cat "$tmp/err")"
# From a file: its bits as the sampler takes them, the state topped up to
# 63 bits first: a single sample of 6 from 49 takes at most 128 bits.
head -c 16 /dev/zero >"$tmp/zero16"
t 0 "sample from 128 bits" "$bin" --random-source="$tmp/zero16" sample 6 49
head -c 3 /dev/zero >"$tmp/zero3"
t 1 "sample out of bits" "$bin" --random-source="$tmp/zero3" sample 6 49 &&
	has "$tmp/err" "the random source ran out after 24 bits" "sample out of bits"
t 0 "sample 3 2^64-1" "$bin" --seed=1 sample 3 18446744073709551615 &&
	same "$(sort -u "$tmp/out" | wc -l)" 3 "sample 3 2^64-1"
t 0 "sample 0 5" "$bin" --seed=1 sample 0 5 && same "$(cat "$tmp/out")" "" "sample 0 5"
t 2 "sample 6 5" "$bin" --seed=1 sample 6 5 && has "$tmp/err" "invalid K '6'" "sample 6 5"
t 0 "sample --json" "$bin" --seed=1 sample --json --count 2 2 9 &&
	grep -qE '^\{"schema": "fairdie.sample/1", "samples": \[\[[1-9], [1-9]\], \[[1-9], [1-9]\]\], "lines": \[\], "stats": null\}$' "$tmp/out" &&
	pass || fail "sample --json: $(cat "$tmp/out")"

# --- craps and roulette ---------------------------------------------------
t 0 "craps" "$fake" $f craps -n 5000 &&
	has "$tmp/out" "exact: 0.492929 (244/495)" "craps exact value"
if awk -F ': ' '$1 == "win fraction" { ok = $2 > 0.45 && $2 < 0.54 }
		$1 == "games" { games = $2 } END { exit !(ok && games == 5000) }' \
		"$tmp/out"; then
	pass
else
	fail "craps win fraction: $(cat "$tmp/out")"
fi
t 0 "craps -v" "$fake" $f craps -v -n 3 &&
	same "$(head -n 3 "$tmp/out" | grep -cE '^(([2-9]|1[0-2]) )+(win|lose)$')" 3 \
		"craps -v shows each game's totals"
t 0 "roulette" "$fake" $f roulette -n 300
if awk 'BEGIN { split("1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36", r, " ")
		for (i in r) red[r[i]] = 1 }
	{ want = $1 == 0 ? "green" : ($1 in red) ? "red" : "black"
	  if (NF != 2 || $1 < 0 || $1 > 36 || $2 != want) bad = 1 }
	END { exit bad || NR != 300 }' "$tmp/out"; then
	pass
else
	fail "roulette pockets and colours: $(head -n 3 "$tmp/out")"
fi

# --- JSON stays valid when a run fails ------------------------------------
# Each output parses as one JSON object; a failure adds an "error" member
# (the message of the failure) and keeps what came before it.
if command -v python3 >/dev/null; then
	# json_ok DESC WANT_STATUS WANT_ERROR CMD...: the status, valid JSON,
	# an "error" member exactly when WANT_ERROR is 1
	json_ok() {
		desc=$1
		want=$2
		want_err=$3
		shift 3
		t "$want" "$desc" "$@" || return
		if python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
sys.exit(0 if isinstance(o, dict) and ("error" in o) == (sys.argv[2] == "1") else 3)' \
			"$tmp/out" "$want_err" 2>>"$tmp/err"; then
			pass
		else
			fail "$desc: not one valid JSON object with error=$want_err: $(head -c 300 "$tmp/out")"
		fi
	}
	head -c 4 /dev/zero >"$tmp/zero4"
	json_ok "shuffle --json" 0 0 "$bin" --seed=1 shuffle --json -i 1-5 --count 3
	json_ok "shuffle --json, bits run out midway" 1 1 \
		"$bin" --random-source="$tmp/zero4" shuffle --json --count 40 52
	has "$tmp/out" "\"error\": \"$tmp/zero4: the random source ran out after 32 bits" \
		"shuffle --json: the error member"
	json_ok "sample --json, bits run out" 1 1 "$bin" --random-source="$tmp/zero4" sample --json 6 49
	json_ok "sample --json, a usage error" 2 1 "$bin" --seed=1 sample --json 9 5
	json_ok "shuffle --json, an unknown option" 2 1 "$bin" --seed=1 shuffle --bogus --json 5
	json_ok "roll --json" 0 0 "$bin" --seed=1 roll --json -v 3d6 4x2d6 '{4d6,3d8}k1'
	grep -qE '"dice": \[\[\{"dice": "3d6", "faces": \[[1-6], [1-6], [1-6]\], "kept": \[true, true, true\], "die": \[0, 1, 2\]\}\]\]' \
		"$tmp/out" && pass || fail "roll --json -v: the dice as objects: $(head -c 300 "$tmp/out")"
	json_ok "roll --json, bits run out midway" 1 1 \
		"$bin" --random-source="$tmp/zero4" roll --json -n 100 d6
	has "$tmp/out" '"totals": [' "roll --json keeps the totals before the error"
	json_ok "roll --json, a bad expression" 2 1 "$bin" --seed=1 roll --json 3d6 '3 d6'
	json_ok "roll --stats --json" 0 0 "$bin" --seed=1 roll --stats --json -n 100 '2d6!' '4d6k3'
	json_ok "roll --stats --json, too large" 1 1 "$bin" --seed=1 roll --stats --json 1000000d6
	json_ok "craps --json without the device" 1 1 env -u FAIRDIE_SOURCE "$bin" --device="$tmp/nodev" craps --json
	json_ok "roulette --json, bits run out" 1 1 "$bin" --random-source="$tmp/zero4" roulette --json -n 100
	json_ok "stats --json, bits run out" 1 1 "$bin" --random-source="$tmp/zero4" stats --json
	json_ok "bench --json without the device" 1 1 env -u FAIRDIE_SOURCE "$bin" --device="$tmp/nodev" bench --json
	printf '1 2 2 1\n1 2 x\n' >"$tmp/in"
	json_ok "extract --json, bad input midway" 1 1 "$bin" extract --faces 6 --method compare2 --json
	has "$tmp/out" '"bits": "101"' "extract --json keeps the bits before the error"
	printf 'a\nb\n\377\n' >"$tmp/in"
	json_ok "shuffle --json, a line not UTF-8" 1 1 "$bin" --seed=1 shuffle --json
	has "$tmp/err" "shuffle: standard input: line 3: invalid UTF-8" "shuffle --json names the line"
	printf 'nul\0inside\ntab\there\n' >"$tmp/in"
	json_ok "shuffle --json, NUL and tab" 0 0 "$bin" --seed=1 shuffle --json
	has "$tmp/out" '"nul\u0000inside"' "shuffle --json escapes NUL"
	rm -f "$tmp/in"
else
	: >"$tmp/err"
	fail "python3 is missing: cannot check the JSON"
fi

# --- extract (no device) --------------------------------------------------
input '1 2\n2 1\n3 3\n'
t 0 "compare2 bits" "$bin" extract --faces 3 --method compare2 --bits &&
	same "$(cat "$tmp/out")" "10" "compare2 bits"
t 0 "compare2 d2" "$bin" extract -k 3 -m compare2 --sides 2 &&
	same "$(cat "$tmp/out" | tr '\n' ' ')" "2 1 " "compare2 as a d2"
input '1 2 2 1 1 3'
t 0 "parity" "$bin" extract --faces=6 --method=parity &&
	same "$(cat "$tmp/out")" "10" "parity"
input '1 2 3\n3 2 1\n4 4 4\n'
t 0 "rank3" "$bin" extract --faces 6 --method rank3 --sides 6 &&
	same "$(cat "$tmp/out" | tr '\n' ' ')" "1 6 " "rank3 orders"
input '1 1 2  2 1 1  1 2 1  2 2 2'
t 0 "dijkstra" "$bin" extract --faces 2 --method dijkstra --prime 3 --sides 3 &&
	same "$(cat "$tmp/out" | tr '\n' ' ')" "1 3 2 " "dijkstra rotations"
seq 1 600 | awk '{ print ($1 * 7) % 6 + 1 }' >"$tmp/in"
t 0 "none direct" "$bin" extract --faces 6 --method none --sides 6 &&
	same "$(cat "$tmp/out")" "$(cat "$tmp/in")" "none d6 -> d6 passes rolls on"
awk 'BEGIN { srand(5); for (i = 0; i < 2570; i++) print int(rand() * 6) + 1 }' >"$tmp/in"
t 0 "none d100" "$bin" extract --faces 6 --method none --sides 100 -v
n=$(wc -l <"$tmp/out")
if [ "$n" -ge 980 ] && [ "$n" -le 1000 ]; then
	pass
else
	fail "none: 2570 d6 rolls gave $n d100 rolls, want about 1000"
fi
range "$tmp/out" 1 100 "$n" "none d100 range"
has "$tmp/err" "2570 rolls in" "extract -v summary"
t 0 "rank3x" "$bin" extract --faces 6 --method rank3x
if [ -s "$tmp/out" ] && ! grep -qvE '^[01]{1,64}$' "$tmp/out"; then
	pass
else
	fail "rank3x bits: $(head -c 200 "$tmp/out")"
fi
awk 'BEGIN { for (i = 0; i < 512; i++) print 1 }' >"$tmp/in"
t 0 "hash" "$bin" extract --faces 6 --method hash --min-entropy 1 &&
	same "$(head -n 1 "$tmp/out")" \
		"1110010110100000000010101010100110011001000110101100100010100101" \
		"hash: SHA-256 of 2048 zero bytes, first 64 bits"
same "$(tr -d '\n' <"$tmp/out" | wc -c)" 256 "hash: 256 bits per block"

input '1 2\n7\n'
t 1 "face out of range" "$bin" extract --faces 6 --method compare2 &&
	has "$tmp/err" "fairdie: extract: line 2: '7' is not a face of the die (expected 1 to 6)" \
		"face out of range"
input '1\n\n  x\n'
t 1 "not a number" "$bin" extract --faces 6 --method compare2 &&
	has "$tmp/err" "line 3: 'x' is not a number" "not a number"
rm -f "$tmp/in"
t 2 "extract without faces" "$bin" extract --method none
t 2 "extract bad method" "$bin" extract --faces 6 --method xor &&
	has "$tmp/err" "invalid --method 'xor'" "extract bad method"
t 2 "sides and bits" "$bin" extract --faces 6 --method none --sides 3 --bits
t 2 "hash needs min-entropy" "$bin" extract --faces 6 --method hash &&
	has "$tmp/err" "needs --min-entropy" "hash needs min-entropy"
t 2 "min-entropy too high" "$bin" extract --faces 6 --method hash -H 2.7 &&
	has "$tmp/err" "more than a 6-faced die can hold" "min-entropy too high"
t 2 "prime 4" "$bin" extract --faces 6 --method dijkstra --prime 4
t 2 "prime for compare2" "$bin" extract --faces 6 --method compare2 --prime 3
t 2 "one face" "$bin" extract --faces 1 --method none
# tree: a d6 weighted 1,1,2,2,1,1 (H = 2.5 bits), 6400 rolls made here
# from a fixed LCG; at least 2.1 fair bits per roll must come out.
awk 'BEGIN { x = 12345; for (i = 0; i < 6400; i++) {
	x = (x * 1103515245 + 12345) % 2147483648; r = int(x / 65536) % 8;
	printf "%d%s", (r < 1 ? 1 : r < 2 ? 2 : r < 4 ? 3 : r < 6 ? 4 : r < 7 ? 5 : 6),
		(i % 32 == 31 ? "\n" : " ") } }' >"$tmp/in"
t 0 "tree" "$bin" extract --faces 6 --method tree -v &&
	awk '{ n += length($0) } END { exit !(n >= 2.1 * 6400) }' "$tmp/out" ||
	fail "tree on the loaded d6: $(tr -d '\n' <"$tmp/out" | wc -c) bits from 6400 rolls"
has "$tmp/err" "6400 rolls in, 0 left over" "tree -v"
t 0 "tree --block" "$bin" extract --faces 6 --method tree --block 8 --sides 6 &&
	range "$tmp/out" 1 6 "$(wc -l <"$tmp/out")" "tree --block 8 --sides 6"
t 2 "--block for compare2" "$bin" extract --faces 6 --method compare2 --block 8 &&
	has "$tmp/err" "--block is for --method=tree only" "--block for compare2"
t 2 "--block 65" "$bin" extract --faces 6 --method tree --block 65
# --count stops after K outputs; --json wraps them.
t 0 "--count" "$bin" extract --faces 6 --method tree --sides 100 --count 7 &&
	range "$tmp/out" 1 100 7 "--count 7"
t 0 "--json rolls" "$bin" extract --faces 6 --method tree --sides 6 --count 3 --json &&
	grep -qE '^\{"schema": "fairdie.extract/1", "method": "tree", "rolls": \[[1-6], [1-6], [1-6]\], "bits": "", "rolls_in": 64, "fair_bits": [0-9.]+, "outputs": 3\}$' "$tmp/out" &&
	pass || fail "--json rolls: $(cat "$tmp/out")"
t 0 "--json bits" "$bin" extract --faces 6 --method tree --count 10 --json &&
	grep -qE '^\{"schema": "fairdie.extract/1", "method": "tree", "bits": "[01]{10}", "rolls": \[\], ' "$tmp/out" &&
	pass || fail "--json bits: $(cat "$tmp/out")"
# Streaming: the output of the first pair comes out while the input is
# still open (the writer waits for it, at most 10 s, before closing).
mkfifo "$tmp/fifo"
(
	printf '1 2\n'
	i=0
	while [ ! -s "$tmp/stream" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$tmp/stream" ] && echo ok >"$tmp/streamed"
) >"$tmp/fifo" &
"$bin" extract --faces 6 --method compare2 --sides 2 <"$tmp/fifo" >"$tmp/stream"
wait
same "$(cat "$tmp/streamed" 2>/dev/null):$(cat "$tmp/stream")" "ok:2" \
	"extract prints each output before the input ends"
# Input forms: digit strings, comments, 0-based faces.
input '# a comment line\n123 456 # and one after rolls\n'
t 0 "digit strings" "$bin" extract --faces 6 --method none --sides 6 &&
	same "$(tr '\n' ' ' <"$tmp/out")" "1 2 3 4 5 6 " "digit strings and comments"
input '0 9 0123\n'
t 0 "--zero" "$bin" extract --faces 10 --zero --method none --sides 10 &&
	same "$(tr '\n' ' ' <"$tmp/out")" "1 10 1 2 3 4 " "--zero"
input '10 12\n'
t 0 "two-digit faces" "$bin" extract --faces 12 --method none --sides 12 &&
	same "$(tr '\n' ' ' <"$tmp/out")" "10 12 " "two-digit faces are numbers"
input '0\n'
t 1 "0 without --zero" "$bin" extract --faces 6 --method none &&
	has "$tmp/err" "'0' is not a face of the die (expected 1 to 6)" "0 without --zero"
# Text input: CRLF lines read as LF lines; a NUL byte or invalid UTF-8,
# anywhere (a comment too), is an error naming the line; the text echoed
# in a message is escaped, never raw (no terminal escape gets through).
input '1 2\r\n2 1\r\n3 3\r\n'
t 0 "extract, CRLF lines" "$bin" extract --faces 3 --method compare2 --bits &&
	same "$(cat "$tmp/out")" "10" "extract reads CRLF lines"
{ printf '1 2\n2 '; printf '\000'; printf '1\n'; } >"$tmp/in"
t 1 "extract, a NUL byte" "$bin" extract --faces 3 --method compare2 &&
	has "$tmp/err" "extract: line 2: a NUL byte (the input must be text)" "extract NUL"
input '1 2\n# caf\351\n2 1\n'
t 1 "extract, invalid UTF-8" "$bin" extract --faces 3 --method compare2 &&
	has "$tmp/err" "extract: line 2: invalid UTF-8 (the input must be text)" "extract invalid UTF-8"
input '1 2\n\033[31mred\n'
t 1 "extract, an escape sequence" "$bin" extract --faces 3 --method compare2 &&
	has "$tmp/err" "line 2: '\\x1b[31mred' is not a number" "extract escapes what it echoes"
esc=$(printf '\033')
if grep -q "$esc" "$tmp/err"; then
	fail "extract echoed a raw escape character"
else
	pass
fi
input 'caf\303\251 1\n'
t 1 "extract, UTF-8 echoed as it is" "$bin" extract --faces 3 --method compare2 &&
	has "$tmp/err" "line 1: 'caf$(printf '\303\251')' is not a number" \
		"extract echoes valid UTF-8"
rm -f "$tmp/in"
t 2 "shuffle -i, an escape sequence" "$bin" --seed=1 shuffle -i "$(printf '\033[2J')" &&
	has "$tmp/err" "invalid input range: '\\x1b[2J'" "an argument is escaped"
t 1 "--device, an escape sequence" "$bin" --device="$tmp/$(printf '\033')x" roll 3d6 &&
	has "$tmp/err" "$tmp/\\x1bx: No such file or directory" "a path is escaped"
t 2 "unknown command, escaped" "$bin" "$(printf 'x\033')" &&
	has "$tmp/err" "unknown command 'x\\x1b'" "a command name is escaped"

# Nothing out: the reason on stderr.
input ''
t 0 "empty input" "$bin" extract --faces 6 --method tree &&
	has "$tmp/err" "no output: the input holds no rolls" "empty input"
input '1 1 2 2 3 3\n'
t 0 "no usable pair" "$bin" extract --faces 6 --method compare2 &&
	has "$tmp/err" "none of the 3 blocks of compare2 was usable (each pair had equal rolls)" \
		"no usable pair"
input '1 2 3\n'
t 0 "short hash" "$bin" extract --faces 6 --method hash -H 2.5 &&
	has "$tmp/err" "a hash block takes 205 rolls at this --min-entropy, the input has 3" \
		"short hash"
t 0 "short tree" "$bin" extract --faces 6 --method tree &&
	has "$tmp/err" "tree takes blocks of 64 rolls, the input has 3" "short tree"
# Options of the device do not apply to extract.
for o in --extractor=vn --source=crng --sim=1:1/2 --seed=1 --source=getrandom; do
	t 2 "extract $o" "$bin" "$o" extract --faces 6 --method none &&
		has "$tmp/err" "do not apply" "extract $o"
done

# --- man page -------------------------------------------------------------
if ! command -v groff >/dev/null; then
	: >"$tmp/err"
	fail "groff is missing (Debian package groff-base): cannot check $man"
elif [ -z "$(groff -man -Tutf8 -ww -z "$man" 2>&1)" ]; then
	pass
else
	fail "groff warns about $man: $(groff -man -Tutf8 -ww -z "$man" 2>&1 | head -n 3)"
fi
# The JSON examples are checked against the tool in test_formats.sh.
groff -man -Tutf8 -ww "$man" 2>/dev/null | col -b >"$tmp/man.txt"
# The exit status of a usage error differs from shuf's, and says so.
tr -s ' \t\n' '   ' <"$tmp/man.txt" >"$tmp/man.flat"
has "$tmp/man.flat" "exit with status 2, as every fairdie command does, where shuf exits with 1" \
	"EXIT STATUS names the difference from shuf"
# Every long option of every --help is in the man page, and back.
: >"$tmp/helpopts"
"$bin" --help >>"$tmp/helpopts"
for c in $commands; do
	"$bin" "$c" --help >>"$tmp/helpopts"
done
grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/helpopts" | sort -u >"$tmp/h"
sed 's/\\-/-/g' "$man" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/m"
same "$(comm -3 "$tmp/h" "$tmp/m" | tr -d '\t' | tr '\n' ' ')" "" \
	"options in --help but not in fairdie.1, or back"
for c in $commands; do
	has "$man" ".SS \"fairdie $c" "man page section for $c"
done

# --- weighted draws: roll --weights and pick --------------------------------
t 0 "roll --weights" "$bin" --seed=3 roll --weights 1,0,2,0 -n 2000 &&
	range "$tmp/out" 1 3 2000 "roll --weights: faces 1..3" &&
	same "$(grep -cvE '^(1|3)$' "$tmp/out")" 0 \
		"roll --weights: faces of weight 0 never come"
# Face 1 of (1, 0, 2) in 2000 draws: 2000/3 expected, sd 21.
n1=$(grep -c '^1$' "$tmp/out")
if [ "$n1" -gt 560 ] && [ "$n1" -lt 775 ]; then pass; else
	fail "roll --weights: face 1 came $n1 times of 2000 (667 expected)"; fi
cp "$tmp/out" "$tmp/first"
t 0 "roll --weights reproducible" "$bin" --seed=3 roll --weights 1,0,2,0 -n 2000 &&
	same "$(cmp "$tmp/out" "$tmp/first" && echo same)" same \
		"roll --weights: the same seed, the same faces"
t 0 "roll --weights --stats" "$bin" --seed=9 roll --weights 1,2,3,4,5,6,5,4,3,2,1 \
	-n 50000 --stats && has "$tmp/out" " 0.166667" "--stats: the exact 6/36"
p=$(sed -n 's/.*: p = \([0-9.]*\)$/\1/p' "$tmp/out")
if awk -v p="$p" 'BEGIN { exit !(p > 1e-6) }'; then pass; else
	fail "roll --weights --stats: p = $p"; fi
t 0 "roll --weights --json" "$bin" --seed=1 roll --weights 0,5 -n 3 --json &&
	same "$(cat "$tmp/out")" '{"schema": "fairdie.roll/1", "rolls": [{"expr": "--weights=0,5", "repeat": 1, "totals": [2, 2, 2], "dice": []}], "stats": []}' "roll --weights --json"
t 0 "roll --weights fake device" "$fake" --device=fake:5 roll --weights 0,1,0,3 -n 500 &&
	same "$(grep -cvE '^(2|4)$' "$tmp/out")" 0 "the device's weighted draws"
t 2 "roll --weights all zero" "$bin" --seed=1 roll --weights 0,0 &&
	has "$tmp/err" "must add up to at least 1" "all zero"
t 2 "roll --weights overflow" "$bin" --seed=1 roll --weights 18446744073709551615,1 &&
	has "$tmp/err" "at most 2^64-1" "a sum above 2^64-1"
t 2 "roll --weights junk" "$bin" --seed=1 roll --weights 1,x &&
	has "$tmp/err" "weight 2 'x' is not an integer" "a weight that is no number"
t 2 "roll --weights with EXPR" "$bin" --seed=1 roll --weights 1,1 3d6
printf '3 gold coin\n# a comment\n\n1 magic sword\n0 nothing at all\n6 rusty nail\n' \
	>"$tmp/loot"
t 0 "pick" "$bin" --seed=4 pick -n 3000 "$tmp/loot" &&
	same "$(sort -u "$tmp/out" | tr '\n' ,)" "gold coin,magic sword,rusty nail," \
		"pick: the items, never one of weight 0"
n1=$(grep -c '^magic sword$' "$tmp/out")
if [ "$n1" -gt 230 ] && [ "$n1" -lt 450 ]; then pass; else
	fail "pick: the sword came $n1 times of 3000 (300 expected)"; fi
input '2 a\n1 b\n'
t 0 "pick stdin" "$bin" --seed=4 pick -n 50 - &&
	same "$(sort -u "$tmp/out" | tr '\n' ,)" "a,b," "pick from standard input"
rm -f "$tmp/in"
t 0 "pick --json" "$bin" --seed=4 pick --json -n 2 "$tmp/loot" &&
	has "$tmp/out" '{"schema": "fairdie.pick/1", "picks": ["' "pick --json"
printf '1 a\nx b\n' >"$tmp/bad"
t 1 "pick bad line" "$bin" --seed=4 pick "$tmp/bad" &&
	has "$tmp/err" "pick: $tmp/bad:2: expected 'WEIGHT ITEM'" "pick: the bad line"
: >"$tmp/empty"
t 1 "pick no items" "$bin" --seed=4 pick "$tmp/empty" &&
	has "$tmp/err" "no items" "pick: an empty file"
t 2 "pick no file" "$bin" --seed=4 pick
t 1 "pick missing file" "$bin" --seed=4 pick "$tmp/none" &&
	has "$tmp/err" "No such file or directory" "pick: a missing file"

# --- collect: options and refusals (no device), the stand-in's captures ---
c="$tmp/cap.bin"
t 0 "collect --help" "$bin" collect --help &&
	has "$tmp/out" "--sp800-90b=DIR" "collect --help"
t 2 "collect alone" "$bin" collect &&
	has "$tmp/err" "give --stage STAGE -o FILE, or --sp800-90b DIR" "collect alone"
t 2 "collect both forms" "$bin" collect --stage raw -o "$c" --sp800-90b "$tmp/sp" &&
	has "$tmp/err" "give --stage STAGE -o FILE, or --sp800-90b DIR" "collect both"
t 2 "collect bad stage" "$bin" collect --stage cooked -o "$c" &&
	has "$tmp/err" "invalid --stage 'cooked': expected raw, conditioned or final" \
		"collect bad stage"
t 2 "collect without -o" "$bin" collect --stage final &&
	has "$tmp/err" "--stage final needs -o FILE" "collect without -o"
t 2 "collect count 0" "$bin" collect --stage final -n 0 -o "$c" &&
	has "$tmp/err" "invalid COUNT '0'" "collect count 0"
t 2 "collect deck 257" "$bin" collect --stage final --shuffle 257 -o "$c" &&
	has "$tmp/err" "invalid --shuffle '257': expected an integer from 1 to 256" \
		"collect deck 257"
t 2 "collect sides on raw" "$bin" --sides=6 collect --stage raw -o "$c" &&
	has "$tmp/err" "--sides, --weights and --shuffle are for --stage final" \
		"collect sides raw"
t 2 "collect deck on conditioned" "$bin" collect --stage conditioned \
	--shuffle 52 -o "$c" &&
	has "$tmp/err" "--sides, --weights and --shuffle are for --stage final" \
		"collect deck cond"
t 2 "collect sides and deck" "$bin" collect --stage final --sides 6 \
	--shuffle 52 -o "$c" &&
	has "$tmp/err" "--sides, --weights and --shuffle exclude each other" \
		"collect sides deck"
t 2 "collect --seed" "$bin" --seed=1 collect --stage final -o "$c" &&
	has "$tmp/err" "captures the device" "collect --seed"
t 2 "collect getrandom" "$bin" collect --source=getrandom --stage final -o "$c" &&
	has "$tmp/err" "captures the device" "collect getrandom"
t 2 "collect dijkstra bits" "$bin" collect --stage conditioned \
	--extractor=dijkstra -o "$c" &&
	has "$tmp/err" "the dijkstra extractor has no fair-bit stage" "collect dijkstra"
t 2 "collect sp800-90b -o" "$bin" collect --sp800-90b "$tmp/sp" -o "$c" &&
	has "$tmp/err" "--sp800-90b takes none of" "collect sp800-90b -o"
t 2 "collect argument" "$bin" collect --stage final -o "$c" extra &&
	has "$tmp/err" "unexpected argument 'extra'" "collect argument"
t 1 "collect missing device" "$bin" --device="$tmp/nodev" collect \
	--stage final -o "$c" && has "$tmp/err" "No such file or directory" \
		"collect missing device"
t 1 "collect sp800-90b missing device" "$bin" --device="$tmp/nodev" collect \
	--sp800-90b "$tmp/sp"
[ -e "$c" ] || [ -e "$c.json" ] || [ -e "$tmp/sp" ] &&
	fail "collect: a file or folder left without a device"
t 1 "collect not a device" "$bin" --device=/dev/urandom collect --stage final \
	-o "$c" && has "$tmp/err" "not a fairdie device" "collect /dev/urandom"
# The stand-in device rolls its dice through the final stage.
t 0 "collect d6" "$fake" --device=fake:1 collect --stage final -n 30000 -o "$c" &&
	same "$(wc -c <"$c")" 30000 "collect d6 size" &&
	same "$(od -An -v -tu1 "$c" | tr -s ' ' '\n' | grep -c '^[0-5]$')" 30000 \
		"collect d6 faces" &&
	has "$c.json" "\"sha256\": \"$(sha256sum "$c" | cut -d' ' -f1)\"" \
		"collect d6 sha256" &&
	has "$c.json" '{"schema": "fairdie.collect/1", "stage": "final", ' \
		"collect d6 sidecar"
t 0 "collect d1000" "$fake" --device=fake:2 --sides=1000 collect \
	--stage final -n 5000 -o "$c" &&
	same "$(wc -c <"$c")" 10000 "collect d1000 size" &&
	same "$(od -An -v -tu2 "$c" | tr -s ' ' '\n' | grep -v '^$' |
		awk '$1 > 999' | wc -l)" 0 "collect d1000 faces"
t 0 "collect decks" "$fake" --device=fake:3 collect --stage final \
	--shuffle 52 -n 300 -o "$c" &&
	same "$(wc -c <"$c")" 15600 "collect decks size" &&
	od -An -v -tu1 -w52 "$c" | awk '{ delete s; for (i = 1; i <= NF; i++) {
		if ($i > 51 || ($i in s)) bad++; s[$i] = 1 } }
		END { exit bad || NR != 300 }' && pass ||
	fail "collect decks: a deck that is not a permutation of 0..51"
t 2 "collect weights and deck" "$bin" collect --stage final --weights 1,2 \
	--shuffle 52 -o "$c" &&
	has "$tmp/err" "--sides, --weights and --shuffle exclude each other" \
		"collect weights deck"
t 2 "collect bad weights" "$bin" collect --stage final --weights 1,x -o "$c" &&
	has "$tmp/err" "collect: --weights: weight 2 'x' is not an integer" \
		"collect bad weights"
t 2 "collect zero weights" "$bin" collect --stage final --weights 0,0 -o "$c" &&
	has "$tmp/err" "must add up to at least 1" "collect zero weights"
# Faces of weight 0 never come; face 1 of (1, 0, 3) a quarter of the time.
t 0 "collect weights" "$fake" --device=fake:4 collect --stage final \
	--weights 1,0,3 -n 40000 -o "$c" &&
	same "$(wc -c <"$c")" 40000 "collect weights size" &&
	od -An -v -tu1 "$c" | tr -s ' ' '\n' | grep -v '^$' | awk '
		{ n[$1]++ } END { exit n[1] || n[0] < 9400 || n[0] > 10600 ||
				  n[0] + n[2] != 40000 }' && pass ||
	fail "collect weights: faces not drawn 1:0:3" &&
	has "$c.json" '"weights": [1, 0, 3]' "collect weights sidecar"
# -o all or nothing: a folder that does not exist.
t 1 "collect unwritable" "$fake" --device=fake:1 collect --stage final \
	-o "$tmp/none/cap.bin" && has "$tmp/err" "No such file or directory" \
		"collect unwritable"
# The meter, on a terminal. It waits half a second before it shows, so a
# run that ends sooner shows none: the run grows until it lasts long enough
# (the stand-in draws a loaded die of 4096 faces by a linear search, about
# 2 s of work for 200000 draws on a busy machine, less on an idle one).
if command -v script >/dev/null 2>&1; then
	w=$(awk 'BEGIN { for (i = 0; i < 4096; i++) printf "%s1", i ? "," : "" }')
	for n in 200000 1000000 5000000; do
		script -qec "$fake --device=fake:1 collect --stage final --weights $w -n $n -o $c" \
			"$tmp/log" >/dev/null 2>&1 </dev/null
		grep -aqE "collect: [0-9]+% \\([0-9]+ of $n\\)" "$tmp/log" && break
	done
	grep -aqE "collect: [0-9]+% \\([0-9]+ of $n\\)" "$tmp/log" && pass ||
		fail "collect: no meter on the terminal"
	rm -f "$c" "$c.json"
fi

# --- the shipped binary is static (no program interpreter) ---------------
: >"$tmp/err"
if readelf -l "$bin" >"$tmp/elf" 2>&1 && ! grep -q INTERP "$tmp/elf"; then
	pass
else
	fail "$bin is not statically linked: $(grep -A1 INTERP "$tmp/elf")"
fi

test_done
