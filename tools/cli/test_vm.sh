#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_vm.sh [FAIRDIE] - the fairdie tool against the real /dev/fairdie, in
# the VM with the module loaded (busybox sh and awk are enough):
#
#   make vmrun VMFILES="tools/cli/testlib.sh tools/cli/test_vm.sh" \
#	CMD='sh /root/test_vm.sh'
#
# Ends with "N passed, N failed"; exit status 0 only if all passed.
set -u

fd=${1:-fairdie}
. "$(dirname "$0")/testlib.sh"

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
has "$tmp/out" "fair bits from:   the device /dev/fairdie" "config: the device"
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
t 0 "8-byte rolls" "$fd" roll d4611686018427387903 -n 10 &&
	range "$tmp/out" 1 4611686018427387903 10 "d(2^62-1)"
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

# All 120 orders of 5 items equally often: 24000 shuffles from one open
# file (the uniform state carries over), chi-square with 119 degrees of
# freedom against its 1e-6 quantile, 207.2.
t 0 "shuffle --count 24000 5" "$fd" shuffle --count 24000 5 &&
if awk '{
		for (i = 1; i <= 5; i++) m[i] = 0
		for (i = 1; i <= NF; i++) m[$i]++
		for (i = 1; i <= 5; i++) if (m[i] != 1) bad = 1
		if (NF != 5) bad = 1
		c[$0]++
	} END {
		e = NR / 120
		for (p in c) { k++; x += (c[p] - e) * (c[p] - e) / e }
		x += (120 - k) * e
		printf "  shuffle 5 x %d: %d orders seen, chi-square %.1f (119 dof, limit 207.2)\n", NR, k, x
		exit bad || NR != 24000 || k != 120 || x > 207.2 }' "$tmp/out"; then
	pass
else
	fail "shuffle --count 24000 5: not 120 equally likely orders"
fi

# A 52-card shuffle on the device: the sides of each draw set with
# SET_SIDES, which keeps the kernel sampler's state, so the sampler takes
# about log2(52!) = 225.6 fair bits, plus the state it fills at the start
# (up to 64 bits): "fair bits used" is its sampler_bits. Above 300 only
# after a rare rejection: 2 of 3 runs must stay under.
: >"$tmp/st"
for i in 1 2 3; do
	"$fd" --extractor=none --source=crng shuffle --stats 52 >"$tmp/out" \
		2>>"$tmp/st" && [ "$(wc -l <"$tmp/out")" -eq 52 ] && pass ||
		fail "shuffle --stats 52"
done
if awk -F ': *' '$1 == "sampler_bits" { n++; b = $2 + 0; if (b < 300) ok++; s = s " " b }
		$1 == "source_bits" { r = r " " ($2 + 0) }
		END { printf "  shuffle 52: sampler bits%s; source bits%s (log2(52!) = 225.58)\n", s, r
		      exit n != 3 || ok < 2 }' "$tmp/st"; then
	pass
else
	fail "52-card shuffle: 300 sampler bits or more: $(cat "$tmp/st")"
fi

# 100000 items: quick, and within 0.1% of log2(100000!) = 1516704 bits.
up() { cut -d ' ' -f 1 /proc/uptime; }
t0=$(up)
t 0 "shuffle 100000" "$fd" --extractor=none --source=crng shuffle --stats 100000
t1=$(up)
cp "$tmp/err" "$tmp/st"
if [ "$(sort -n "$tmp/out" | uniq | wc -l)" -eq 100000 ] &&
	[ "$(sort -n "$tmp/out" | sed -n '1p;$p' | tr '\n' ' ')" = "1 100000 " ]; then
	pass
else
	fail "shuffle 100000 is not a permutation"
fi
if awk -F ': *' -v t0="$t0" -v t1="$t1" '$1 == "sampler_bits" { b = $2 + 0 }
		END { printf "  shuffle 100000: %.2f s, %d sampler bits, %.5f per log2(N!) bit\n", t1 - t0, b, b / 1516704.17
		      exit !(b > 1516704 && b < 1516704 * 1.001 && t1 - t0 < 30) }' "$tmp/st"; then
	pass
else
	fail "shuffle 100000: too many bits or too slow: $(cat "$tmp/st")"
fi

# shuf's interface on the device: -i, -e, -r, -z, -o, a FILE, -n.
t 0 "shuffle -i" "$fd" shuffle -i 11-30 &&
	[ "$(sort -n "$tmp/out" | tr '\n' ' ')" = "$(seq 11 30 | tr '\n' ' ')" ] &&
	pass || fail "shuffle -i 11-30: $(tr '\n' ' ' <"$tmp/out")"
t 0 "sample -n -e" "$fd" sample -n 2 -e ann bob cy dee &&
	[ "$(sort -u "$tmp/out" | grep -cE '^(ann|bob|cy|dee)$')" -eq 2 ] && pass ||
	fail "sample -n 2 -e: $(cat "$tmp/out")"
printf 'x\ny\nz\n' >"$tmp/lines"
t 0 "shuffle FILE -o" "$fd" shuffle -o "$tmp/shuffled" "$tmp/lines" &&
	[ "$(sort "$tmp/shuffled" | tr '\n' ' ')" = "x y z " ] && pass ||
	fail "shuffle -o FILE FILE"
t 0 "shuffle -z -n" "$fd" shuffle -z -n 3 -i 1-9 &&
	[ "$(tr '\0' '\n' <"$tmp/out" | sort -u | grep -c '^[1-9]$')" -eq 3 ] && pass ||
	fail "shuffle -z -n 3 -i 1-9"
# shuf's way to roll dice, on the device: a fair d6.
t 0 "shuffle -r -i 1-6" "$fd" shuffle -r -i 1-6 -n 60000 &&
	chi2 "$tmp/out" 6 30 "shuffle -r -i 1-6 (5 dof, limit 30)"
t 0 "--json on the device" "$fd" shuffle --json -i 1-3 &&
	grep -qE '^\{"schema": "fairdie.shuffle/1", "permutations": \[\[[1-3], [1-3], [1-3]\]\], "lines": \[\], "stats": null\}$' "$tmp/out" &&
	pass || fail "shuffle --json on the device: $(cat "$tmp/out")"

# Mixed dice on the device: SET_SIDES and SET_WEIGHTS keep the sampler's
# state, so a 3d6+1d4 (3d6's total drawn whole, then a d4) costs about
# its 5.6 bits (9.75 die by die), where a fresh state per die would cost
# 63 bits a die. The device's pool is refilled 2048 bits at a time, rolls
# are read ahead per size, and the well of RDSEED may hold enough bits
# given back by the readers before for one roll (0 new raw bits): bounds
# that allow for all three. sysfs counts the hardware sources' bits only:
# RDSEED, and no hwrng reading.
sys=/sys/class/misc/fairdie
case " $sources " in
*" rdseed "*) hw=rdseed ;;
*) hw= ;;
esac
if [ -n "$hw" ] && [ "$(cat $sys/hwrng 2>/dev/null)" = off ]; then
	b0=$(cat $sys/source_bits)
	t 0 "roll 3d6+1d4" "$fd" --extractor=none --source=$hw roll 3d6+1d4 &&
		range "$tmp/out" 4 22 1 "3d6+1d4"
	b1=$(cat $sys/source_bits)
	t 0 "roll 3d6+1d4 x 1000" "$fd" --extractor=none --source=$hw roll 3d6+1d4 -n 1000 &&
		range "$tmp/out" 4 22 1000 "3d6+1d4 x 1000"
	b2=$(cat $sys/source_bits)
	echo "  3d6+1d4: $((b1 - b0)) source bits once, $((b2 - b1)) for 1000 (entropy 5.60 each, 9.75 die by die)"
	if [ $((b1 - b0)) -ge 0 ] && [ $((b1 - b0)) -le 3200 ] &&
		[ $((b2 - b1)) -gt 0 ] && [ $((b2 - b1)) -le 20000 ]; then
		pass
	else
		fail "3d6+1d4 cost $((b1 - b0)) and $((b2 - b1)) source bits"
	fi
fi

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

# The dice language on the device: several lines, NxEXPR, stdin.
t 0 "roll several" "$fd" roll 3d6 6x4d6k3 '10d10>=8f1' 4dF 'floor(d20/2)' \
	'3d6!>4' '{4d6,3d8}k1' '4d6r<2' &&
	awk 'NR == 2 && NF == 6 { ok = 1 } END { exit !ok || NR != 8 }' "$tmp/out" &&
	pass || fail "roll several: $(cat "$tmp/out")"
printf '3d6\n2d8\n' | "$fd" roll >"$tmp/out" 2>"$tmp/err" && range "$tmp/out" 2 18 2 "roll from stdin"
# --stats against the exact distributions: p-values not tiny.
t 0 "roll --stats" "$fd" roll --stats -n 30000 3d6 4d6k3 '10d10>=8' 4dF 'd6r1' \
	'2d6!' '4d6ro<2' &&
	awk '/p = / { split($0, a, "p = "); print "  " $0; if (a[2] < 0.0001) bad = 1; n++ }
		END { exit bad || n != 7 }' "$tmp/out" && pass ||
	fail "roll --stats on the device: $(grep 'p = ' "$tmp/out")"
# sample: distinct values; about log2(49!/43!) = 33.23 fair bits each.
t 0 "sample 6 49" "$fd" sample 6 49 &&
	[ "$(sort -un "$tmp/out" | awk '$1 >= 1 && $1 <= 49' | wc -l)" -eq 6 ] &&
	pass || fail "sample 6 49: $(cat "$tmp/out")"
t 0 "sample --stats" "$fd" sample --stats --count 1000 6 49 &&
	awk -F '[(]' '/fair bits used/ { print "  sample 6 49:" $0; exit !($2 + 0 < 33.3) }' \
		"$tmp/err" && pass || fail "sample 6 49 cost: $(cat "$tmp/err")"
t 0 "shuffle -n 3 10" "$fd" shuffle -n 3 10 &&
	[ "$(sort -un "$tmp/out" | wc -l)" -eq 3 ] && pass || fail "shuffle -n 3 10"
# The same commands on the other sources, in the VM too.
t 0 "getrandom" "$fd" --source=getrandom roll 3d6 -n 10 && range "$tmp/out" 3 18 10 "getrandom"
t 0 "seed" "$fd" --seed=1 sample 3 10 && [ "$(wc -l <"$tmp/out")" -eq 3 ] && pass ||
	fail "--seed sample"
t 1 "--device=/nonexistent" "$fd" --device=/nonexistent roll &&
	has "$tmp/err" "fairdie: /nonexistent: No such file or directory" "--device=/nonexistent"
t 1 "--device=/dev/urandom" "$fd" --device=/dev/urandom roll 3d6 &&
	has "$tmp/err" "not a fairdie device" "--device=/dev/urandom"
t 0 "config --json" "$fd" config --json &&
	has "$tmp/out" '"bits_from": "device", "device": "/dev/fairdie", "abi_version": 1' "config --json"
t 0 "stats --json" "$fd" stats --json -n 100 &&
	has "$tmp/out" '"outputs": 100' "stats --json"
t 0 "craps --json" "$fd" craps --json -n 100 && has "$tmp/out" '"games": 100' "craps --json"

t 0 "stats" "$fd" stats -n 1000 && has "$tmp/out" "outputs:          1000" "stats"
t 0 "stats fresh" "$fd" stats -n 0 && has "$tmp/out" "outputs:          0" "stats -n 0"
t 0 "bench" "$fd" --sides=256 --extractor=none --source=crng bench -t 1 &&
	has "$tmp/out" "rolls per second" "bench"
cat "$tmp/out"

# Weighted draws by the device (FAIRDIE_IOC_SET_WEIGHTS), then a fair die
# again in the same run: faces of weight 0 never come.
t 0 "roll --weights" "$fd" roll --weights 0,1,0,3 -n 2000 &&
	if grep -qvE '^(2|4)$' "$tmp/out"; then
		fail "roll --weights: a face other than 2 and 4"
	else
		pass
	fi
n2=$(grep -c '^2$' "$tmp/out")
if [ "$n2" -gt 400 ] && [ "$n2" -lt 600 ]; then pass; else
	fail "roll --weights: face 2 came $n2 times of 2000 (500 expected)"; fi
# A throw of craps and a total of 3d6 are drawn whole (SET_WEIGHTS, the
# weights the ways the dice make each total): the fair bits a draw took,
# from GET_STATS (at most 3.28 a throw, entropy 3.2744; over 100000 games
# the spread of the totals drawn moves it by 0.0015), and 3d6's law.
t 0 "craps: fair bits a throw" "$fd" craps --json -n 100000 &&
	sed 's/.*"throws": \([0-9]*\), "draws": \([0-9]*\), "fair_bits": \([0-9]*\),.*/\1 \2 \3/' "$tmp/out" |
	awk '{ b = $3 / $2; print "  craps: " $1 " throws, " b " fair bits a draw"
		exit !($1 > 300000 && $2 >= $1 && b <= 3.28 && b > 3.25) }' &&
	pass || fail "craps: fair bits a throw: $(cat "$tmp/out")"
t 0 "3d6 drawn whole" "$fd" roll --stats -n 20000 3d6 &&
	if awk '/^chi-square/ { p = $NF } END { exit !(p > 0.0001) }' "$tmp/out"; then
		pass
	else
		fail "3d6 drawn whole: $(tail -n 1 "$tmp/out")"
	fi
# Dijkstra's roulette draws no weighted dice: the totals come die by die.
t 0 "craps with dijkstra" "$fd" --extractor=dijkstra craps -n 300 &&
	has "$tmp/out" "games: 300" "craps with dijkstra"
printf '5 common\n1 rare\n0 never\n' >"$tmp/items"
t 0 "pick" "$fd" pick -n 600 "$tmp/items" &&
	if grep -q '^never$' "$tmp/out"; then
		fail "pick: an item of weight 0 drawn"
	else
		pass
	fi

test_done
