#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# clonetest.sh - fairdie across VM clones (make vmclone, and a step of
# make vmtest).
#
#   tools/vm/clonetest.sh --kernel BZIMAGE --module fairdie.ko [VM.SH OPTIONS]
#
# Boots the guest with QEMU's vmgenid device (tools/vm/vm.sh --clone 2),
# where tools/guest/vmclone opens /dev/fairdie once per source and
# extractor and reads rolls, so that every file and the hwrng pipeline hold
# buffered bits; then vm.sh stops the guest, saves it to a file and restores
# it twice, each time with a new VM generation ID. Each clone prints the
# next rolls of every file. Asserted here, on the host:
#   - vm_forks (/sys/class/misc/fairdie/vm_forks) rose in both clones;
#   - for every hardware source, the CRNG and /dev/hwrng, the two clones'
#     next rolls differ (32 d6 rolls agree by chance with probability
#     6^-32 < 2^-82);
#   - control: the simulated coin, a deterministic stream that no VM fork
#     reseeds, gives both clones the same rolls, and the comparison sees it;
#   - readers caught by the snapshot (tools/guest/vmclone.c): three readers
#     of wide dice asleep in their wells (starved by the fault build's
#     starve_pid knob), released in each clone by a signal, by a signal and
#     close(), by a signal and RESET: the first 64 bits of a fresh reader of
#     each well after each (fresh-*) differ; a d6 read a byte at a time
#     without pause at the snapshot (stream) differs; the rest of a text
#     line half read before the fork is only its newline (textline, 0a).
#     The control makes fresh-close, fresh-reset and textline fail (with
#     the flush off, close and RESET give the pre-fork bits back), each
#     checked on its own ($CAUGHT below); with the
#     flush off a signal gives nothing back, so fresh-sig may still differ:
#     it is there for the flush after a signal, which gave the pre-fork
#     bits back while fd_well_begin() restamped readers (issue 28).
#   - the rings of raw words fetched ahead on another CPU (driver/ahead.c):
#     the streaming reader takes from rings that held words at the
#     snapshot, so ahead_stale must rise in both clones (those words were
#     wiped, not used); with the flush off (the control) it does not.
# Then the same run once more with the flush switched off (the test build's
# debugfs knob vmfork_keep): the comparison must now find clones that repeat
# each other's rolls, which shows that the test catches a missing flush.
# Exit status 0 only if all of that holds.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
VM="$TOP/tools/vm/vm.sh"
KNOB=/sys/kernel/debug/fairdie/vmfork_keep
# Seconds the guest waits for vm_forks to change (guest time, which stands
# still while the guest is stopped).
WAIT=30
# What the run without the flush must catch one by one (fresh-sig, stream,
# the hwrng and Dijkstra's few buffered bits may differ without it).
CAUGHT="rdseed-vn rdseed-none rdseed-peres crng-vn fresh-close fresh-reset textline"

log=$(mktemp) || exit 125
trap 'rm -f "$log" "$log.keep" "$log.table"' EXIT

# Compare the clones of the vm.sh output $1. Prints a table; its status is
# 0 when every clone saw the fork and no two clones repeat a hardware roll,
# 1 otherwise; the sim control must agree either way (status 2 if not).
compare() {
	awk '
	/^@@vm clone / { c = $3; clones[c] = 1; next }
	c && /^vm_forks / { old[c] = $2; new[c] = $3; next }
	c && /^@@notasleep / { asleep[$2] = 1; next }
	c && /^after / { v[c, $2] = $3; names[$2] = 1; next }
	c && /^aheadstale / { as0[c] = $2; as1[c] = $3; next }
	END {
		bad = 0; ctl = 0
		if (!(1 in clones) || !(2 in clones)) {
			print "clonetest: fewer than two clones reported"
			exit 1
		}
		for (n in asleep) {
			print "clonetest: blocked reader " n " finished before the snapshot: not tested"
			bad = 1
		}
		for (i = 1; i <= 2; i++) {
			rose = (i in new) && new[i] + 0 > old[i] + 0
			printf "clone %d: vm_forks %s -> %s (%s)\n", i, old[i],
			       new[i], rose ? "rose" : "DID NOT RISE"
			if (!rose)
				bad = 1
		}
		# The rings of words fetched ahead: pre-fork words wiped unused.
		for (i = 1; i <= 2; i++) {
			ring = (i in as0) && as0[i] + 0 >= 0 && \
			       as1[i] + 0 > as0[i] + 0
			printf "clone %d: ahead_stale %s -> %s (%s)\n", i,
			       as0[i], as1[i], ring ? \
			       "pre-fork words of the rings wiped" : \
			       "NO PRE-FORK WORD OF THE RINGS WIPED"
			if (!ring)
				bad = 1
		}
		if (!("rdseed-vn" in names) && !("rdrand-vn" in names)) {
			print "clonetest: no hardware source was read"
			bad = 1
		}
		for (n in names) {
			if (!((1, n) in v) || !((2, n) in v)) {
				line = "missing in a clone"
				bad = 1
			} else if (n == "textline") {
				# The rest of a line begun before the fork: only
				# its newline may come after it.
				line = v[1, n] == "0a" && v[2, n] == "0a" ? \
				       "only the newline" : \
				       "REST OF A PRE-FORK LINE: " v[1, n] " / " v[2, n]
				if (line != "only the newline")
					bad = 1
			} else if (n ~ /^sim/) {
				line = v[1, n] == v[2, n] ? "same" : "DIFFER"
				line = line " (control: a deterministic coin)"
				if (v[1, n] != v[2, n])
					ctl = 1
			} else if (v[1, n] == v[2, n]) {
				line = "SAME: the clones repeat each other"
				bad = 1
			} else {
				line = "differ"
			}
			printf("  %-16s %s\n", n, line) | "sort"
		}
		close("sort")
		exit ctl ? 2 : bad
	}' "$1"
}

echo "# --- clone test: the guest saved, restored twice with new VM generation IDs"
"$VM" --mem 512M --timeout 180 "$@" --clone 2 -- "vmclone $WAIT" | tee "$log"
vmrc=${PIPESTATUS[0]}
compare "$log"
rc=$?
if [ "$vmrc" != 0 ] || [ "$rc" != 0 ]; then
	echo "not ok - clone test (vm.sh status $vmrc, comparison status $rc)"
	exit 1
fi
echo "ok - clones deliver different rolls after a VM fork"

echo "# --- the same with the flush switched off ($KNOB = 1): must be caught"
"$VM" --mem 512M --timeout 180 "$@" --clone 2 -- \
	"[ -e $KNOB ] || { echo '# no $KNOB'; exit 77; }; echo 1 >$KNOB && vmclone $WAIT" |
	tee "$log.keep"
vmrc=${PIPESTATUS[0]}
if [ "$vmrc" = 77 ] || grep -q "^# no $KNOB" "$log.keep"; then
	echo "ok - # SKIP the module has no $KNOB (not a FAIRDIE_FAULT=1 build)"
	exit 0
fi
compare "$log.keep" >"$log.table"
rc=$?
cat "$log.table"
if [ "$vmrc" != 0 ] || [ "$rc" != 1 ]; then
	echo "not ok - without the flush the comparison did not fail (vm.sh status $vmrc, comparison status $rc)"
	exit 1
fi
# Each file that keeps bits across a read, and each reader caught by the
# snapshot whose bits the flush throws away, must be caught on its own:
# a scenario that passes without the flush would test nothing.
missed=
for n in $CAUGHT; do
	grep -Eq "^  $n +(SAME|REST OF A PRE-FORK LINE)" "$log.table" ||
		missed="$missed $n"
done
# Without the flush the rings' pre-fork words are handed out, not wiped.
grep -q "NO PRE-FORK WORD OF THE RINGS WIPED" "$log.table" ||
	missed="$missed ahead_stale"
if [ -n "$missed" ]; then
	echo "not ok - without the flush these still differ, so they test nothing:$missed"
	exit 1
fi
echo "ok - without the flush the clones repeat each other's rolls, and the comparison fails as it must"
