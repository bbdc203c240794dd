#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_formats.sh FAIRDIE FAIRDIE_FAKE - what the tool reads and prints:
# Roll20's dice notation and its limits, the JSON of every command against
# its schema (schema/COMMAND.json, checked with python3-jsonschema), and the
# man page (groff, mandoc, and its examples against the tool's output).
# Each test is named after the finding of issue 31 it guards. Ends with
# "N passed, N failed".
set -u
bin=$1
fake=$2
here=$(dirname "$0")
man=$(cd "$here" && pwd)/fairdie.1
. "$(dirname "$0")/testlib.sh"

# --- Roll20's meaning or a refusal ----------------------------------------
# {4d6+3d8}k4 keeps the highest four of the seven dice (it summed all
# seven): with -v, the dice shown kept add up to the total, four of them,
# none dropped above a kept one.
name=roll20_one_roll_group_keeps_its_dice
t 0 "$name" "$bin" --seed=2 roll -n 300 -v '{4d6+3d8}k4' &&
	sed 's/^[0-9]*\t{4d6\[\([^]]*\)\] + 3d8\[\([^]]*\)\]}k4$/\1 \2 = &/' "$tmp/out" |
	awk '{
		total = $0; sub(/\t.*/, "", total); sub(/.*= /, "", total)
		k = 0; sum = 0; lo = 99; hi = 0
		for (i = 1; i <= 7; i++) {
			if ($i ~ /^\(/) { v = substr($i, 2) + 0; if (v > hi) hi = v }
			else { v = $i + 0; k++; sum += v; if (v < lo) lo = v }
		}
		if (k != 4 || sum != total + 0 || hi > lo) { print "bad: " $0; bad = 1 }
	} END { exit bad || NR != 300 }' >"$tmp/err" && pass ||
	fail "$name: $(head -n 3 "$tmp/err")"
name=roll20_one_roll_group_keeps_the_highest_die
t 0 "$name" "$bin" --seed=3 roll -n 2000 '{4d6+3d8}kh1' &&
	same "$(sort -n "$tmp/out" | tail -n 1)" 8 \
		"$name: the highest total is 8 (it went up to 13)"
name=roll20_one_roll_group_counts_each_die
t 0 "$name" "$bin" --seed=4 roll -n 2000 '{3d20+5}>21' &&
	same "$(sort -n "$tmp/out" | sed -n '1p;$p' | tr '\n' ' ')" "0 3 " \
		"$name: 0 to 3 d20s of 16 or more (it counted the one total)"
name=roll20_one_roll_group_other_operators_refused
t 2 "$name" "$bin" --seed=1 roll '{2d6*2}k1' &&
	has "$tmp/err" "a group of one roll keeps, drops or counts its dice one by one" "$name"
name=keep_more_than_the_dice_refused
t 2 "$name" "$bin" --seed=1 roll 3d6k4 &&
	has "$tmp/err" "roll: bad expression '3d6k4': cannot keep 4 of 3 dice" "$name"
t 2 "$name" "$bin" --seed=1 roll '{4d6+3d8}dl8' &&
	has "$tmp/err" "cannot drop 8 of 7 dice" "$name"
# --stats computes the new meaning exactly: the highest two of 2d6 and a
# d8 make 14 at most, and 2 only with three 1s.
name=stats_of_a_one_roll_group
t 0 "$name" "$bin" --seed=1 roll --stats --json -n 100 '{2d6+1d8}k2' &&
	has "$tmp/out" '"total": 2, "count": ' "$name" &&
	has "$tmp/out" '"exact": "1/288"}' "$name" &&
	has "$tmp/out" '{"total": 14, "count": ' "$name"
name=sides_and_numbers_up_to_2_64_minus_1
t 0 "$name" "$bin" --seed=1 roll d9223372036854775807 9223372036854775807 \
	d18446744073709551615 '18446744073709551615 - 1d6' &&
	awk 'NR == 2 && $0 != "9223372036854775807" { bad = 1 }
		!/^[0-9]+$/ || length($0) > 20 { bad = 1 }
		END { exit bad || NR != 4 }' "$tmp/out" && pass ||
	fail "$name: $(cat "$tmp/out")"
t 0 "$name" "$bin" --seed=1 roll -n 100000 d6148914691236517206 &&
	awk '!/^[1-9][0-9]*$/ || length($0) > 19 ||
		(length($0) == 19 && $0 > "6148914691236517206") { bad = 1 }
		END { exit bad || NR != 100000 }' "$tmp/out" && pass ||
	fail "$name: d6148914691236517206: $(head -n 3 "$tmp/out")"
name=totals_leaving_64_bits_refused_up_front
t 2 "$name" "$bin" --seed=1 roll 2d18446744073709551615 &&
	has "$tmp/err" "a value could leave 64 bits, beyond 2^64-1" "$name"
t 2 "$name" "$bin" --seed=1 roll 18446744073709551616 &&
	has "$tmp/err" "number too large at position 1 (at most 2^64-1)" "$name"
t 1 "$name" "$bin" --seed=1 roll --stats d18446744073709551615 &&
	has "$tmp/err" "stay within +-2^62" "$name: --stats"
# One die kept of a one-roll group never leaves 64 bits, though the roll's
# sum could: {1d18446744073709551615+1d6}k1 was refused for that sum. The
# sum itself and two dice kept still are, with the message they always had.
name=one_kept_die_within_64_bits
for e in '{1d18446744073709551615+1d6}k1' '{2d18446744073709551615}k1' \
	'{{2d18446744073709551615}k1, 3}k1'; do
	t 0 "$name" "$bin" --seed=1 roll -n 1000 "$e" &&
		awk '!/^[0-9]+$/ || length($0) > 20 || length($0) < 8 ||
			(length($0) == 20 && $0 > "18446744073709551615") { bad = 1 }
			END { exit bad || NR != 1000 }' "$tmp/out" && pass ||
		fail "$name: $e: $(head -n 3 "$tmp/out")"
done
t 0 "$name" "$bin" --seed=1 roll -n 1000 '{1d18446744073709551615+1d6}>7' &&
	same "$(sort -u "$tmp/out" | tr '\n' ' ')" "1 " "$name: >7 counts the big die"
for e in '{1d18446744073709551615+1d6}k2' '{1d18446744073709551615+1d6}' \
	'{1d18446744073709551615+1d6,5}k1'; do
	t 2 "$name" "$bin" --seed=1 roll "$e" &&
		has "$tmp/err" "a value could leave 64 bits, beyond 2^64-1 (near position 27)" "$name: $e"
done

# --- one versioned JSON schema a command -----------------------------------
if ! python3 -c 'import jsonschema' 2>/dev/null; then
	: >"$tmp/err"
	fail "python3-jsonschema is missing: cannot check the JSON schemas"
fi
# valid NAME COMMAND: $tmp/out is one JSON document of schema/COMMAND.json
valid() {
	if python3 - "$here/schema/$2.json" "$tmp/out" >"$tmp/why" 2>&1 <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
text = open(sys.argv[2]).read()
if text.count("\n") != 1 or not text.endswith("}\n"):
    sys.exit("not one line of JSON: %r" % text[:200])
doc = json.loads(text)
errors = sorted(cls(schema).iter_errors(doc), key=str)
for e in errors[:3]:
    print("%s at %s" % (e.message, list(e.absolute_path)))
sys.exit(1 if errors else 0)
EOF
	then
		pass
	else
		fail "$1: not a $2 document: $(head -c 300 "$tmp/why"): $(head -c 300 "$tmp/out")"
	fi
}
# json CMD ARGS...: run fairdie ARGS (status 0 or 1), validate against CMD
json() {
	c=$1
	shift
	"$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	valid "json_schema_of_$c: $*" "$c"
	has "$tmp/out" "{\"schema\": \"fairdie.$c/1\", " "json_schema_member_first: $c"
}
printf '3 gold coin\n1 dragon egg\n' >"$tmp/loot"
printf 'a\nb\nc\n' >"$tmp/lines"
s=--seed=1
json roll "$bin" $s roll --json 3d6 2x2d4 '{4d6+3d8}k4'
json roll "$bin" $s roll --json -v 3d6 '4d6k3!' '{4d6+3d8}k4' '{3d20+5}>21' 1d6x
json roll "$bin" $s roll --json --stats -n 100 3d6 '2d6!' '{2d6+1d8}k2'
json roll "$bin" $s roll --json --weights=1,2,0,3 -n 5
json roll "$bin" $s roll --json --weights=1,2,0,3 --stats -n 100
json roll "$bin" $s --sides=18446744073709551615 roll --json -n 2
json roll "$bin" $s roll --json 3d6k4
json roll "$fake" --device=fake:1 roll --json -v 4d6k3
# A source that runs out midway: still one document of the schema.
head -c 8 /dev/zero >"$tmp/rs8"
json roll "$bin" --random-source="$tmp/rs8" roll --json -v -n 100 3d6
json roll "$bin" --random-source="$tmp/rs8" roll --json --stats -n 100 3d6
json shuffle "$bin" --random-source="$tmp/rs8" shuffle --json --stats 100
json shuffle "$bin" $s shuffle --json 5
json shuffle "$bin" $s shuffle --json --stats --count 2 -n 2 5
json shuffle "$bin" $s shuffle --json --stats "$tmp/lines"
json shuffle "$bin" $s shuffle --json -r -n 3 -e x y
json shuffle "$fake" --device=fake:1 shuffle --json --stats 4
json sample "$bin" $s sample --json 3 1000000000
# collect's sidecars, captured by the stand-in device.
for a in "--sides=6" "--sides=1000" "--shuffle=52" "--weights=1,2,3"; do
	case $a in --sides=*) g=$a; a= ;; *) g= ;; esac
	# shellcheck disable=SC2086
	"$fake" --device=fake:1 $g collect --stage final -n 100 $a \
		-o "$tmp/cap.bin" </dev/null >"$tmp/out" 2>"$tmp/err"
	cp "$tmp/cap.bin.json" "$tmp/out" 2>/dev/null
	valid "json_schema_of_collect: final $g$a" collect
	has "$tmp/out" '{"schema": "fairdie.collect/1", ' \
		"json_schema_member_first: collect"
done
json sample "$bin" $s sample --json --stats -n 2 "$tmp/lines"
json pick "$bin" $s pick --json -n 3 "$tmp/loot"
json craps "$bin" $s craps --json -n 100
json craps "$fake" --device=fake:1 craps --json -n 10
json roulette "$bin" $s roulette --json -n 3
echo '1 2 3 4 5 6 6 5 4 3 2 1 1 3 5' >"$tmp/rolls"
json extract sh -c "'$bin' extract --json --faces 6 --method compare2 <'$tmp/rolls'"
json extract sh -c "'$bin' extract --json --faces 6 --method tree --sides 6 <'$tmp/rolls'"
json extract sh -c "echo 1 2 x | '$bin' extract --json --faces 6 --method tree"
json config "$bin" --random-source=/dev/zero config --json
json config env -u FAIRDIE_SOURCE "$bin" --device="$tmp/nodev" config --json
json stats "$bin" $s stats --json -n 100
json stats "$fake" --device=fake:1 stats --json -n 100
json bench "$bin" $s bench --json -t 1
json certify env FAIRDIE_CERTIFY_COLLECT="python3 $here/certify_fake_collect.py" \
	"$bin" certify --json --quick --count 10000 "$tmp/certify"
json certify "$bin" certify --json
name=json_accepted_before_the_command
t 0 "$name" "$bin" --json $s roll 3d6 && valid "$name" roll
t 0 "$name" "$bin" $s --json shuffle 3 && valid "$name" shuffle
# "probability" to 17 significant digits, never %.10f (0.0 for a possible
# total, 0.0000005954 for one of 3d20+1d6's).
name=json_probability_17_digits
t 0 "$name" "$bin" $s roll --json --stats -n 10 d3 &&
	has "$tmp/out" '"probability": 0.33333333333333331, "exact": "1/3"' "$name"
t 0 "$name" "$bin" $s roll --json --stats -n 10 '6d20' &&
	has "$tmp/out" '"total": 6, "count": 0, "probability": 1.5624999999999999e-08, "exact": "1/64000000"' "$name"
# --weights and expressions alike: "total" and "exact" a fraction string.
name=json_weights_as_expressions
t 0 "$name" "$bin" $s roll --json --weights=1,2 --stats -n 30 &&
	has "$tmp/out" '{"total": 2, "count": ' "$name" &&
	has "$tmp/out" '"probability": 0.66666666666666663, "exact": "2/3"}' "$name"
# The text table of --weights --stats heads its column "total", as an
# expression's table and its own JSON do (it said "face").
name=weights_stats_text_like_expressions
t 0 "$name" "$bin" $s roll --stats -n 30 d2 &&
	expr_head=$(sed -n 2p "$tmp/out") &&
	t 0 "$name" "$bin" $s roll --weights=1,2 --stats -n 30 &&
	same "$(head -n 1 "$tmp/out")" "$expr_head" "$name"
# shuffle --stats --json: the counts in the document, nothing on stderr.
name=shuffle_stats_inside_json
t 0 "$name" "$bin" $s shuffle --stats --json 3 &&
	has "$tmp/out" '"stats": {"items": 3, "runs": 1, "each": 3, "repeat": false, ' "$name" &&
	same "$(cat "$tmp/err")" "" "$name: nothing on standard error"
# Every road a roll takes closes its object alike (one helper writes it):
# a plain die, an expression, -v, --sides and --weights each give "expr",
# "repeat", "totals" and "dice", in that order, "dice" empty without -v.
name=json_roll_object_every_road
for a in "d6 -n 3:0" "2d6 -n 3:0" "-v 2d6 -n 3:3" "--sides=10 -n 3:0" \
	"--weights=1,2,3 -n 3:0"; do
	# shellcheck disable=SC2086
	t 0 "$name: $a" "$bin" $s roll --json ${a%:*} &&
		same "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["rolls"]
print(len(r), list(r[0]), len(r[0]["totals"]), len(r[0]["dice"]))' "$tmp/out")" \
			"1 ['expr', 'repeat', 'totals', 'dice'] 3 ${a#*:}" "$name: $a"
done

# --- the man page -----------------------------------------------------------
name=man_page_groff_clean
: >"$tmp/err"
if command -v groff >/dev/null; then
	same "$(groff -man -Tutf8 -ww -z "$man" 2>&1)" "" "$name"
else
	fail "$name: groff is missing (Debian package groff-base)"
fi
name=man_page_mandoc_lint_clean
if command -v mandoc >/dev/null; then
	same "$(mandoc -T lint "$man" 2>&1)" "" "$name"
else
	fail "$name: mandoc is missing (Debian package mandoc)"
fi
groff -man -Tutf8 "$man" 2>/dev/null | col -bx >"$tmp/man.txt"
name=man_page_80_columns
same "$(python3 -c '
import sys
for n, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    if len(l.rstrip("\n")) > 80:
        print(n, l.strip()[:60])' "$tmp/man.txt" | head -n 3)" "" "$name"
# log2(\fIn\fR) was shown with its font escapes.
name=man_page_no_raw_font_escapes
same "$(grep -c '\\f[IRBP]' "$tmp/man.txt")" 0 "$name"
# A user's page: usage first, the theory in Documentation/.
name=man_page_usage_first
same "$(grep -E '^[A-Z][A-Z ]+$' "$tmp/man.txt" | tr '\n' ',')" \
	"NAME,SYNOPSIS,DESCRIPTION,COMMANDS,OPTIONS,EXAMPLES,JSON OUTPUT,EXIT STATUS,ENVIRONMENT,FILES,SEE ALSO," \
	"$name: the sections in order"
sed -n '/^DESCRIPTION$/,/^COMMANDS$/p' "$tmp/man.txt" | tr -s ' ' >"$tmp/desc"
has "$tmp/desc" "fairdie rolls dice, shuffles, draws samples" "$name: what it does, first"
has "$tmp/desc" '$ fairdie roll 3d6' "$name: how to use it"
has "$tmp/desc" "Documentation/design/fairdie.rst" "$name: the theory linked"
if grep -qE 'uniform on \[0, ?M\)|Z mod n' "$tmp/desc"; then
	fail "$name: DESCRIPTION still explains the sampler's state"
else
	pass
fi
has "$here/../../Documentation/design/fairdie.rst" "The tool's draws" \
	"$name: the theory moved into Documentation/"
# Every JSON example is the tool's output: each "$ COMMAND" line of an
# example in JSON OUTPUT is run (fairdie being this tool) and its output
# compared with the lines that follow, joined.
name=man_page_json_examples_are_real_output
mkdir -p "$tmp/path"
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$tmp/path/fairdie"
cat >"$tmp/examples.py" <<'EOF'
import re, subprocess, sys
text = open(sys.argv[1]).read()
sec = text[text.index('.SH JSON OUTPUT\n'):text.index('.SH EXIT STATUS\n')]
def unroff(s):
    s = s.replace('\\-', '-').replace('\\(aq', "'").replace('\\(dq', '"')
    return s.replace('\\e', '\\')
bad = n = 0
for block in re.findall(r'^\.EX\n(.*?)^\.EE', sec, flags=re.M | re.S):
    lines = [unroff(l) for l in block.split('\n') if l]
    if not lines[0].startswith('$ '):
        continue
    cmd = lines.pop(0)[2:]
    while cmd.endswith('\\'):
        cmd = cmd[:-1] + lines.pop(0).strip()
    want = ''.join(lines)
    got = subprocess.run(['sh', '-c', cmd], capture_output=True,
                         text=True).stdout.rstrip('\n')
    n += 1
    if got != want:
        bad += 1
        print('%s\n  man:  %s\n  tool: %s' % (cmd, want, got))
print('%d examples' % n)
sys.exit(1 if bad or n < 14 else 0)
EOF
if (cd "$tmp" && PATH="$tmp/path:$PATH" python3 "$tmp/examples.py" "$man" \
	>"$tmp/why" 2>&1); then
	pass
else
	fail "$name: $(head -c 600 "$tmp/why")"
fi
# The error example matches the real message.
name=man_page_json_error_example_real
tr -s ' \n' '  ' <"$tmp/man.txt" >"$tmp/man.flat"
has "$tmp/man.flat" '"error": "roll: bad expression '"'3d6k4'"': cannot keep 4 of 3 dice"}' "$name"

test_done
