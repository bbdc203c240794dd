#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# collect.sh [full] - fairdie collect on the real device, in the VM with the
# fault-injection build loaded (make vmtest; busybox sh and awk suffice):
#
#   raw          the simulated coin's words are the module's coin after its
#                start-up test (simwords); a hardware source's words; the
#                kernel CRNG refused
#   conditioned  the fair bits of a coin are the device's d256 bytes (fdread)
#                and pass ent
#   final        d6 bytes all below 6 and near 1/6 each; d1000 in 16 bits;
#                a loaded die 1,0,3; decks of 52 and 256 cards are
#                permutations
#   sp800-90b    raw.bin and restart.bin of the documented sizes, and the
#                manifest; "full" adds the default run (10^6 samples), timed
#   failures     a stuck source ends a capture with EIO and leaves no file, or
#                with --keep-partial the part before it and a sidecar that
#                says so; modulo_bias=1 skews the final d6
# Each sidecar is checked for its members and its file's SHA-256.
#
#   make vmrun VMFILES="tools/cli/testlib.sh tools/guest/collect.sh" \
#	CMD='sh /root/collect.sh'
#
# Ends with "N passed, N failed"; exit status 0 only if all passed.
set -u

fd=fairdie
. "$(dirname "$0")/testlib.sh"
knobs=/sys/kernel/debug/fairdie

# size FILE BYTES
size() {
	got=$(wc -c <"$1" 2>/dev/null)
	if [ "${got:-none}" = "$2" ]; then
		pass
	else
		fail "$(basename "$1"): ${got:-no file} bytes, want $2"
	fi
}

# sidecar FILE STAGE COUNT UNIT BITS SOURCE: FILE.json's members
sidecar() {
	j=$1.json
	has "$j" '"schema": "fairdie.collect/1"' "$2 schema"
	has "$j" "\"stage\": \"$2\"" "$2 stage"
	has "$j" "\"count\": $3," "$2 count"
	has "$j" "\"unit\": \"$4\"" "$2 unit"
	has "$j" "\"bits_per_value\": $5," "$2 bits"
	has "$j" "\"source\": \"$6\"" "$2 source"
	has "$j" '"complete": true' "$2 complete"
	has "$j" "\"module_version\": \"$(cat /sys/module/fairdie/version)\"" \
		"$2 module version"
	has "$j" "\"kernel\": \"$(uname -r)\"" "$2 kernel"
	for mem in start_time end_time before after stats sysfs source_bits \
		 health_failures extractor byte_order sha256; do
		has "$j" "\"$mem\": " "$2 member $mem"
	done
	has "$j" "\"sha256\": \"$(sha256sum "$1" | cut -d' ' -f1)\"" \
		"$2 sha256"
}

# bytes FILE WIDTH: the unsigned values of FILE, one a line
values() {
	od -An -v -tu"$2" "$1" | tr -s ' ' '\n' | grep -v '^$'
}

echo "# fairdie collect, kernel $(uname -r), source $(cat /sys/class/misc/fairdie/source)"

# --- raw: the simulated coin, word for word, after its start-up test
for coin in 12345:1/2 7:3/10; do
	seed=${coin%%:*}
	num=${coin#*:}
	num=${num%/*}
	den=${coin#*/}
	t 0 "raw sim $coin" $fd --sim="$coin" collect --stage raw -n 5000 \
		-o "$tmp/raw.bin" || continue
	size "$tmp/raw.bin" 40000
	simwords "$seed" "$num" "$den" 16 5000 >"$tmp/want.bin"
	if cmp -s "$tmp/raw.bin" "$tmp/want.bin"; then
		pass
	else
		fail "raw sim $coin: not the coin's words 16.. ($(cmp "$tmp/raw.bin" "$tmp/want.bin" 2>&1))"
	fi
	sidecar "$tmp/raw.bin" raw 5000 word 64 sim
	has "$tmp/raw.bin.json" "\"seed\": $seed," "raw sim seed"
done

# --- raw: each hardware source; the kernel CRNG has no raw words
for src in rdseed rdrand; do
	grep -qw "$src" /sys/class/misc/fairdie/available_sources || continue
	t 0 "raw $src" $fd --source=$src collect --stage raw -n 20000 \
		-o "$tmp/hw.bin" || continue
	size "$tmp/hw.bin" 160000
	sidecar "$tmp/hw.bin" raw 20000 word 64 $src
	# 20000 distinct words: a stuck or repeating source would not be.
	n=$(od -An -v -tx8 "$tmp/hw.bin" | tr -s ' ' '\n' | grep -v '^$' |
	    sort -u | wc -l)
	if [ "$n" = 20000 ]; then pass; else fail "raw $src: $n distinct words"; fi
done
t 1 "raw crng refused" $fd --source=crng collect --stage raw -n 10 \
	-o "$tmp/crng.bin" && has "$tmp/err" "no raw words" "raw crng message"
[ -e "$tmp/crng.bin" ] && fail "raw crng left a file"

# --- conditioned: the device's d256 bytes, fair bits in order
t 0 "conditioned sim vn" $fd --sim=0:1/2 --extractor=vn collect \
	--stage conditioned -n 300000 -o "$tmp/cond.bin" &&
	size "$tmp/cond.bin" 300000 &&
	sidecar "$tmp/cond.bin" conditioned 300000 byte 8 sim
fdread 256 vn sim 300000 >"$tmp/d256.bin"
if cmp -s "$tmp/cond.bin" "$tmp/d256.bin"; then
	pass
else
	fail "conditioned: not the device's d256 bytes"
fi
t 0 "conditioned default" $fd collect --stage conditioned -n 1000000 \
	-o "$tmp/cond.bin" && size "$tmp/cond.bin" 1000000 &&
	if command -v ent >/dev/null; then
		ent -t "$tmp/cond.bin" | awk -F, 'NR == 2 {
			printf "conditioned: entropy %s chi-square %s\n", $3, $4
			ok = $3 > 7.999 && $4 > 108 && $4 < 402 }
			END { exit !ok }' && pass || fail "conditioned: ent"
	else
		echo "conditioned: no ent here, not checked"
	fi

# --- final: a d6, a d1000, decks
t 0 "final d6" $fd collect --stage final -n 600000 -o "$tmp/d6.bin" &&
	size "$tmp/d6.bin" 600000 &&
	sidecar "$tmp/d6.bin" final 600000 roll 8 \
		"$(cat /sys/class/misc/fairdie/source)" &&
	has "$tmp/d6.bin.json" '"sides": 6,' "final d6 sides"
values "$tmp/d6.bin" 1 | awk '
	{ c[$1]++; if ($1 > 5) bad++ }
	END {
		printf "final d6: %d %d %d %d %d %d, %d out of range\n",
		       c[0], c[1], c[2], c[3], c[4], c[5], bad
		for (f = 0; f < 6; f++)
			if (c[f] < 98500 || c[f] > 101500)
				exit 1
		exit bad > 0
	}' && pass || fail "final d6: faces out of range or far from 1/6"
t 0 "final d1000" $fd --sides=1000 collect --stage final -n 50000 \
	-o "$tmp/d1000.bin" && size "$tmp/d1000.bin" 100000 &&
	has "$tmp/d1000.bin.json" '"unit_bytes": 2,' "final d1000 width"
values "$tmp/d1000.bin" 2 | awk '$1 > 999 { exit 1 }' && pass ||
	fail "final d1000: a value above 999"
# A loaded die through SET_WEIGHTS: a face of weight 0 never comes.
t 0 "final weights" $fd collect --stage final --weights 1,0,3 -n 40000 \
	-o "$tmp/w.bin" && size "$tmp/w.bin" 40000 &&
	has "$tmp/w.bin.json" '"weights": [1, 0, 3]' "final weights sidecar"
values "$tmp/w.bin" 1 | awk '{ n[$1]++ } END {
	printf "final weights 1,0,3: %d %d %d\n", n[0], n[1], n[2]
	exit n[1] || n[0] < 9400 || n[0] > 10600 || n[0] + n[2] != 40000 }' &&
	pass || fail "final weights: faces not drawn 1:0:3"
for m in 52 256; do
	t 0 "final decks of $m" $fd collect --stage final --shuffle $m -n 500 \
		-o "$tmp/deck.bin" || continue
	size "$tmp/deck.bin" $((500 * m))
	sidecar "$tmp/deck.bin" final 500 deck 8 \
		"$(cat /sys/class/misc/fairdie/source)"
	has "$tmp/deck.bin.json" "\"shuffle\": $m," "decks of $m"
	values "$tmp/deck.bin" 1 | awk -v m=$m '
		{ i = (NR - 1) % m; if (i == 0) delete seen
		  if ($1 >= m || ($1 in seen)) bad++; seen[$1] = 1 }
		END { exit bad > 0 || NR != 500 * m }' && pass ||
		fail "decks of $m: a row that is not a permutation"
done

# --- SP 800-90B
t 0 "sp800-90b short" $fd collect --sp800-90b "$tmp/sp" -n 100000 &&
	size "$tmp/sp/raw.bin" 100000 && size "$tmp/sp/restart.bin" 1000000 &&
	has "$tmp/sp/sp800-90b.json" '"stage": "sp800-90b"' "sp800-90b stage" &&
	has "$tmp/sp/sp800-90b.json" '"samples": 100000,' "sp800-90b samples" &&
	has "$tmp/sp/sp800-90b.json" '"restarts": 1000,' "sp800-90b restarts" &&
	has "$tmp/sp/sp800-90b.json" 'ea_restart -n -v restart.bin 8 H_I' \
		"sp800-90b commands" &&
	has "$tmp/sp/sp800-90b.json" \
		"\"sha256\": \"$(sha256sum "$tmp/sp/restart.bin" | cut -d' ' -f1)\"" \
		"sp800-90b restart sha256"
# Restarts of the simulated coin start it over: every row is the same.
t 0 "sp800-90b sim" $fd --sim=3:1/2 collect --sp800-90b "$tmp/sps" -n 1000 &&
	n=$(od -An -v -tx1 -w1000 "$tmp/sps/restart.bin" | sort -u | wc -l) &&
	if [ "$n" = 1 ]; then pass; else fail "sim restarts: $n rows"; fi
if [ "${1:-}" = full ]; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	t 0 "sp800-90b default" $fd collect --sp800-90b "$tmp/spf" &&
		size "$tmp/spf/raw.bin" 1000000 &&
		size "$tmp/spf/restart.bin" 1000000
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "sp800-90b default run: $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
	rm -rf "$tmp/spf"
fi

# --- failures, on the fault build
if [ -d $knobs ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null &&
	[ -d $knobs ]; then
	hw=rdrand
	grep -qw rdrand /sys/class/misc/fairdie/available_sources || hw=rdseed
	[ $hw = rdrand ] && mask=0x4 || mask=0x2
	echo $mask >$knobs/sources
	echo 1 >$knobs/stuck
	t 1 "stuck final" $fd --source=$hw collect --stage final -n 100000 \
		-o "$tmp/stuck.bin" &&
		has "$tmp/err" "health tests" "stuck message"
	[ -e "$tmp/stuck.bin" ] && fail "stuck: a file without --keep-partial"
	t 1 "stuck raw" $fd --source=$hw collect --stage raw -n 100 \
		-o "$tmp/stuck.bin" &&
		has "$tmp/err" "GET_RAW: Input/output error" "stuck raw message"
	t 1 "stuck kept" $fd --source=$hw collect --stage final -n 100000 \
		--keep-partial -o "$tmp/stuck.bin" &&
		has "$tmp/stuck.bin.json" '"complete": false' "stuck sidecar" &&
		has "$tmp/stuck.bin.json" 'Input/output error' "stuck failure"
	echo 0 >$knobs/stuck
	echo 0x6 >$knobs/sources
	echo 1 >$knobs/modulo_bias
	t 0 "modulo_bias d6" $fd --source=sim collect --stage final -n 60000 \
		-o "$tmp/mod.bin"
	echo 0 >$knobs/modulo_bias
	values "$tmp/mod.bin" 1 | awk '{ c[$1]++ } END {
		printf "modulo_bias=1: %d %d %d %d %d %d\n",
		       c[0], c[1], c[2], c[3], c[4], c[5]
		exit !(c[0] > 1.5 * c[2] && c[1] > 1.5 * c[5]) }' && pass ||
		fail "modulo_bias: the d6 is not skewed"
fi

test_done collect
