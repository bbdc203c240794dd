#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (make vmtest), the module loaded with hwrng=rdseed on a
# CPU with RDSEED and RDRAND (QEMU 10, -cpu max):
#   1. every kselftest program (selftests/fairdie_*_test), and its twin
#      built for 32 bits (fairdie_*_test_32, through compat_ioctl) where
#      selftests/Makefile builds one, but not on the debug kernel
#   2. the fairdie tool against the real device (tools/cli/test_vm.sh), and
#      its captures for a test lab (tools/guest/collect.sh)
#   3. entropy feeding: /dev/hwrng through the hwrng core, rngtest, fed by
#      RDSEED, then by RDRAND; RDRAND's credit capped at 2 bits per 1024;
#      credited as hwrng_quality says while random.c trusts the CPU (and
#      not registered at all in the second run, where it does not)
#   4. statistical batteries over /dev/fairdie: rngtest, ent
#   5. load: several processes and threads for 30 s; hostile input
#   6. module lifetime: rmmod refused while open; invalid parameters refused;
#      user_rate caps the bits a user's readers receive
#   7. fairdie certify: a quick run with the fault demonstration, and the
#      planted defects each turning a line red (tools/guest/certify.sh)
# "vmtest.sh no-rdseed" is make vmtest's second run, on a CPU without RDSEED
# and with a CRNG not initialised yet (see below).  Every step prints its figures; the last line is
# "N passed, N failed" and the exit status is 0 only if all passed.
set -u

passed=0
failed=0

step() {
	name=$1
	shift
	echo "# --- $name"
	step_t0=$(cut -d' ' -f1 /proc/uptime)
	if "$@"; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name"
	fi
	echo "# $name: $(awk -v t0="$step_t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s"
}

# rngtest over 300 blocks of 20000 bits: a good source fails a FIPS 140-2
# test in about 0.08% of blocks, so more than 3 failures (p < 1e-4) fails.
fips() {
	out=$(rngtest -c 300 2>&1)
	echo "$out" | grep -E 'successes|failures:|input channel speed'
	bad=$(echo "$out" | sed -n 's/.*FIPS 140-2 failures: \([0-9]*\).*/\1/p')
	[ -n "$bad" ] && [ "$bad" -le 3 ]
}

# The default source: AUTO resolves to RDSEED when the CPU has it.
auto_rdseed() {
	grep -qw rdseed /proc/cpuinfo || return 1
	echo "source: $(cat /sys/class/misc/fairdie/source)"
	[ "$(cat /sys/class/misc/fairdie/source)" = rdseed ]
}

# /dev/hwrng fed by fairdie from source $1 (the module loaded with hwrng=$1).
hwrng_feed() {
	if [ "$1" != "$(cut -d' ' -f1 /sys/class/misc/fairdie/hwrng)" ]; then
		rmmod fairdie && insmod /root/fairdie.ko hwrng="$1" || return 1
	fi
	avail=$(cat /sys/class/misc/hw_random/rng_available)
	echo "rng_available: $avail"
	echo "$avail" | grep -qw fairdie || return 1
	echo fairdie >/sys/class/misc/hw_random/rng_current || return 1
	echo "rng_current: $(cat /sys/class/misc/hw_random/rng_current)"
	echo "fairdie hwrng: $(cat /sys/class/misc/fairdie/hwrng)"
	[ "$(cat /sys/class/misc/hw_random/rng_current)" = fairdie ] || return 1
	[ "$(cat /sys/class/misc/fairdie/hwrng)" = "$1 ok" ] || return 1
	fips </dev/hwrng
}

# hwrng=rdrand is credited at most 2 bits per 1024 (a DRBG's output),
# whatever hwrng_quality asks for: the hwrng core's rng_quality says so.
hwrng_rdrand_credit() {
	rmmod fairdie &&
		insmod /root/fairdie.ko hwrng=rdrand hwrng_quality=1000 || return 1
	echo fairdie >/sys/class/misc/hw_random/rng_current || return 1
	q=$(cat /sys/class/misc/hw_random/rng_quality)
	p=$(cat /sys/module/fairdie/parameters/hwrng_quality)
	echo "hwrng=rdrand hwrng_quality=1000: rng_quality $q, parameter $p"
	dmesg | grep 'fairdie: hwrng' | tail -n 2
	[ "$q" -le 2 ] && [ "$p" -le 2 ]
}

# random.c's trust in the CPU's generator bounds what fairdie credits. This
# run boots with "random.trust_cpu=0 random.trust-cpu=on" (the last one
# wins, '-' is '_'): trusted, so hwrng=rdseed is credited what
# hwrng_quality says, as the hwrng core's rng_quality shows.
hwrng_trusted() {
	grep -q 'random.trust_cpu=0 random.trust-cpu=on' /proc/cmdline || return 1
	rmmod fairdie &&
		insmod /root/fairdie.ko hwrng=rdseed hwrng_quality=700 || return 1
	echo fairdie >/sys/class/misc/hw_random/rng_current || return 1
	q=$(cat /sys/class/misc/hw_random/rng_quality)
	echo "cmdline: $(cat /proc/cmdline)"
	echo "hwrng=rdseed hwrng_quality=700: rng_quality $q, fairdie hwrng $(cat /sys/class/misc/fairdie/hwrng)"
	[ "$q" = 700 ] && [ "$(cat /sys/class/misc/fairdie/hwrng)" = "rdseed ok" ]
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
		 "extractor=dijkstra sides=67" hwrng=bogus \
		 hwrng_quality=2000 hwrng_quality=0 user_rate=10000001; do
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
	# Crediting entropy is opt-in: no hwrng without hwrng=.
	[ "$(cat /sys/class/misc/fairdie/hwrng)" = off ] || return 1
	grep -qw fairdie /sys/class/misc/hw_random/rng_available && return 1
	rmmod fairdie
}

# user_rate caps the fair bits one user's readers receive: 16 KiB of bytes
# (131072 bits, with NONE) at 64 kbit/s take about two seconds (less a
# burst of 50 ms); uncapped they take milliseconds.
user_rate() {
	insmod /root/fairdie.ko extractor=none sides=256 user_rate=64 || return 1
	t0=$(cut -d' ' -f1 /proc/uptime)
	dd if=/dev/fairdie of=/dev/null bs=4096 count=4 2>/dev/null || return 1
	t1=$(cut -d' ' -f1 /proc/uptime)
	bits=$(cat /sys/class/misc/fairdie/source_bits)
	rmmod fairdie
	ms=$(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 1000 }')
	echo "16 KiB at user_rate=64: $ms ms, $bits raw bits"
	[ "$ms" -ge 700 ] && [ "$ms" -lt 10000 ]
}

# "vmtest.sh no-rdseed": make vmtest's second run, on a CPU without RDSEED
# (QEMU -cpu max,-rdseed).  AUTO falls back to RDRAND, hwrng=auto means off,
# source=rdseed and hwrng=rdseed are refused, and the tool says RDSEED is
# not available (tools/cli/test_vm.sh).
no_rdseed() {
	sys=/sys/class/misc/fairdie
	echo "source $(cat $sys/source); available: $(cat $sys/available_sources)"
	! grep -qw rdseed /proc/cpuinfo && grep -qw rdrand /proc/cpuinfo &&
		[ "$(cat $sys/source)" = rdrand ] || return 1
	case " $(cat $sys/available_sources) " in *" rdseed "*) return 1 ;; esac
	rmmod fairdie && insmod /root/fairdie.ko hwrng=auto || return 1
	echo "hwrng=auto: $(cat $sys/hwrng)"
	[ "$(cat $sys/hwrng)" = off ] && rmmod fairdie || return 1
	for p in source=rdseed hwrng=rdseed; do
		if insmod /root/fairdie.ko $p 2>/dev/null; then
			echo "insmod accepted $p"
			return 1
		fi
		echo "insmod $p refused: $(dmesg | grep fairdie: | tail -n 1)"
	done
	insmod /root/fairdie.ko
}

# The no-rdseed run boots with random.trust_cpu=off: random.c does not
# credit the CPU's generator, so fairdie does not either. hwrng=rdrand
# loads, but registers no hwrng (none in rng_available) and says why.
hwrng_untrusted() {
	sys=/sys/class/misc/fairdie
	rmmod fairdie && insmod /root/fairdie.ko hwrng=rdrand || return 1
	echo "hwrng=rdrand under random.trust_cpu=off: hwrng $(cat $sys/hwrng), rng_available '$(cat /sys/class/misc/hw_random/rng_available)'"
	dmesg | grep 'fairdie:.*trust' | tail -n 2
	[ "$(cat $sys/hwrng)" = off ] || return 1
	grep -qw fairdie /sys/class/misc/hw_random/rng_available && return 1
	dmesg | grep -q 'fairdie: hwrng=rdrand: not registered' || return 1
	rmmod fairdie && insmod /root/fairdie.ko
}

# The no-rdseed run boots with random.trust_cpu=off random.trust_bootloader=off,
# so the CRNG is not initialised yet when this runs first: the CRNG source
# must fail non-blocking reads with EAGAIN, poll() must not say readable,
# and a blocking read must wait (fairdie_stream_test's first case).
crng_not_ready() {
	out=$(fairdie_stream_test 2>&1)
	rc=$?
	echo "$out"
	if ! echo "$out" | grep -q 'CRNG not ready'; then
		echo "the CRNG was ready already: the wait was not tested"
		return 1
	fi
	return $rc
}

if [ "${1:-}" = no-rdseed ]; then
	step crng-not-ready crng_not_ready
	step no-rdseed no_rdseed
	step hwrng-untrusted hwrng_untrusted
	step fairdie_source_test-no-rdseed fairdie_source_test
	step tool-no-rdseed sh /root/test_vm.sh
	echo "vmtest: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi

echo "# kernel $(uname -r), default source $(cat /sys/class/misc/fairdie/source)"
# The 32-bit twins test the ABI as a 32-bit process sees it; the module
# runs the same code for them (compat_ptr_ioctl), so the debug kernel
# (tools/debugk/guest.sh in /root), whose checkers watch that code, runs
# only the 64-bit programs.
for t in /usr/bin/fairdie_*_test; do
	step "${t##*/}" "$t"
	[ ! -e "${t}_32" ] || [ -f /root/guest.sh ] ||
		step "${t##*/}_32" "${t}_32"
done
step tool sh /root/test_vm.sh
step collect sh /root/collect.sh full
step auto-rdseed auto_rdseed
step hwrng-rngtest-rdseed hwrng_feed rdseed
step hwrng-rngtest-rdrand hwrng_feed rdrand
step hwrng-rdrand-credit hwrng_rdrand_credit
step hwrng-trusted hwrng_trusted
step fairdie-rngtest fairdie_fips
step fairdie-ent-vn-rdrand fairdie_ent vn rdrand
step fairdie-ent-peres-sim fairdie_ent peres sim
step fairdie-ent-none-crng fairdie_ent none crng
step stress stress 30 2 4
step fuzz fuzz 200000 1
step lifetime lifetime
step user-rate user_rate
# Last, since its stuck source latches the wells; then fairdie is unloaded
# again. Not on the debug kernel (tools/debugk/guest.sh in /root): too slow
# under KASAN, and its steps are about the module, not the report.
certify() {
	insmod /root/fairdie.ko || return 1
	sh /root/certify.sh
	status=$?
	rmmod fairdie || return 1
	return $status
}
[ -f /root/guest.sh ] || step certify certify
echo "vmtest: $passed passed, $failed failed"
[ "$failed" = 0 ]
