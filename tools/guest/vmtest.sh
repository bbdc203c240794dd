#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (make vmtest), the module loaded with hwrng=rdrand:
#   1. every kselftest program (selftests/fairdie_*_test), and each one
#      built for 32 bits (fairdie_*_test_32), through compat_ioctl
#   2. the fairdie tool against the real device (tools/cli/test_vm.sh)
#   3. entropy feeding: /dev/hwrng through the hwrng core, rngtest
#   4. statistical batteries over /dev/fairdie: rngtest, ent
#   5. load: several processes and threads for 30 s; hostile input
#   6. module lifetime: rmmod refused while open; invalid parameters refused
# Every step prints its figures; the last line is "N passed, N failed" and
# the exit status is 0 only if all passed.
set -u

passed=0
failed=0

step() {
	name=$1
	shift
	echo "# --- $name"
	if "$@"; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name"
	fi
}

# rngtest over 300 blocks of 20000 bits: a good source fails a FIPS 140-2
# test in about 0.08% of blocks, so more than 3 failures (p < 1e-4) fails.
fips() {
	out=$(rngtest -c 300 2>&1)
	echo "$out" | grep -E 'successes|failures:|input channel speed'
	bad=$(echo "$out" | sed -n 's/.*FIPS 140-2 failures: \([0-9]*\).*/\1/p')
	[ -n "$bad" ] && [ "$bad" -le 3 ]
}

hwrng_feed() {
	avail=$(cat /sys/class/misc/hw_random/rng_available)
	echo "rng_available: $avail"
	echo "$avail" | grep -qw fairdie || return 1
	echo fairdie >/sys/class/misc/hw_random/rng_current || return 1
	echo "rng_current: $(cat /sys/class/misc/hw_random/rng_current)"
	echo "fairdie hwrng: $(cat /sys/class/misc/fairdie/hwrng)"
	[ "$(cat /sys/class/misc/fairdie/hwrng)" = "rdrand ok" ] || return 1
	fips </dev/hwrng
}

fairdie_fips() {
	fdread 256 vn rdrand 800000 | fips
}

# ent over 1 MB of d256 rolls: entropy above 7.999 bits per byte, the
# chi-square of the 256 byte values (255 degrees of freedom) within
# 255 +- 6.5 sigma, the mean within 127.5 +- 0.5.
fairdie_ent() {
	fdread 256 "$1" "$2" 1000000 >/tmp/ent.bin || return 1
	ent /tmp/ent.bin | sed -n '1p;3p;7p'
	ent -t /tmp/ent.bin | awk -F, 'NR == 2 {
		printf "entropy %s chi-square %s mean %s\n", $3, $4, $5
		exit !($3 > 7.999 && $4 > 108 && $4 < 402 &&
		       $5 > 127 && $5 < 128)
	}'
}

lifetime() {
	exec 3</dev/fairdie
	if rmmod fairdie 2>/dev/null; then
		echo "rmmod succeeded with /dev/fairdie open"
		return 1
	fi
	exec 3<&-
	# The hwrng is unregistered cleanly while /dev/hwrng is being read.
	dd if=/dev/hwrng of=/dev/null bs=4096 count=100000 2>/tmp/dd.err &
	ddpid=$!
	sleep 1
	rmmod fairdie || return 1
	wait $ddpid
	echo "rmmod refused while open, done after close, and while /dev/hwrng was read ($(tail -n 1 /tmp/dd.err))"
	grep -qw fairdie /sys/class/misc/hw_random/rng_available && return 1
	for p in sides=0 extractor=bogus source=sim source=bogus \
		 "extractor=dijkstra sides=67" hwrng=rdseed hwrng=bogus \
		 hwrng_quality=2000 hwrng_quality=0; do
		# shellcheck disable=SC2086
		if insmod /root/fairdie.ko $p 2>/dev/null; then
			echo "insmod accepted $p"
			rmmod fairdie
			return 1
		fi
		echo "insmod $p refused: $(dmesg | grep fairdie: | tail -n 1)"
	done
	insmod /root/fairdie.ko sides=20 extractor=peres source=crng || return 1
	[ "$(cat /sys/module/fairdie/parameters/sides)" = 20 ] || return 1
	rmmod fairdie
}

echo "# kernel $(uname -r), default source $(cat /sys/class/misc/fairdie/source)"
for t in /usr/bin/fairdie_*_test; do
	step "${t##*/}" "$t"
	step "${t##*/}_32" "${t}_32"
done
step tool sh /root/test_vm.sh
step hwrng-rngtest hwrng_feed
step fairdie-rngtest fairdie_fips
step fairdie-ent-vn-rdrand fairdie_ent vn rdrand
step fairdie-ent-peres-sim fairdie_ent peres sim
step fairdie-ent-none-crng fairdie_ent none crng
step stress stress 30 2 4
step fuzz fuzz 200000 1
step lifetime lifetime
echo "vmtest: $passed passed, $failed failed"
[ "$failed" = 0 ]
