#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# certify.sh - 'fairdie certify' on the device, in the VM (make vmtest; the
# module is the fault-injection build, debugfs mounted by the VM's init):
#   1. a healthy quick run with --fault-demo: every file of the folder, the
#      family verdict passes (one retry: a healthy device fails it at most 1%
#      of the time), and the device fails closed under a stuck source
#   2. the planted defects, each must turn a line red: the simulated coin at
#      P(1) = 0.51 with no extractor (the d2's chi-square of faces), the
#      modulo_bias knob (the sampler reduces modulo without rejection), and
#      the stuck knob (every capture through the extractor fails with EIO)
# CERTIFY_COUNT (default 30000) is the --count of every run, small so that
# the whole script takes a few minutes under TCG; the quick subset proper is
# --count 1000000 (CERTIFY_COUNT=1000000 sh certify.sh, about 10 minutes).
# dieharder is not in the guest: its lines are listed as not run.
# Ends with "certify: N passed, N failed"; exit status 0 only if all passed.
set -u

count=${CERTIFY_COUNT:-30000}
knobs=/sys/kernel/debug/fairdie
passed=0
failed=0

ok() {
	passed=$((passed + 1))
	echo "ok - $*"
}

bad() {
	failed=$((failed + 1))
	echo "not ok - $*"
}

# The failed lines of a report.json, one "test | data" a line.
red_lines() {
	awk -F'"' '/"test":/ { t = $4 } /"data":/ { d = $4 }
		/"result": "fail"/ { print t " | " d }' "$1"
}

# certify NAME ARGS...: a quick run into /root/cert-NAME, its time shown
certify() {
	dir=/root/cert-$1
	shift
	rm -rf "$dir"
	start=$(date +%s)
	fairdie certify --quick --count "$count" "$@" "$dir" >"$dir.out" 2>"$dir.err"
	status=$?
	echo "# fairdie certify --quick --count $count $*: exit $status, $(($(date +%s) - start)) s"
	tail -n 1 "$dir.out"
	return $status
}

echo "# certify with --count $count (the quick subset proper: 1000000)"

# 1. Healthy, with the fault demonstration.
if ! certify ok --fault-demo --module /root/fairdie.ko; then
	grep -q '"family": "pass"' /root/cert-ok/report.json 2>/dev/null || {
		echo "# retry: the family verdict failed"
		certify ok --fault-demo --module /root/fairdie.ko
	}
fi
red_lines /root/cert-ok/report.json | sed 's/^/#   red: /'
for f in report.html report.json raw.bin raw.bin.json conditioned.bin \
	final-d2.bin final-d6.bin final-d37.bin final-d100.bin decks-52.bin \
	ent-raw.txt rngtest-conditioned.txt; do
	if [ -s "/root/cert-ok/$f" ]; then ok "healthy: $f"; else bad "healthy: no $f"; fi
done
grep -q '"family": "pass"' /root/cert-ok/report.json &&
	ok "healthy: family verdict pass" || bad "healthy: family verdict"
sum=$(sha256sum /root/fairdie.ko | cut -d' ' -f1)
grep -A3 '"what": "module"' /root/cert-ok/report.json | grep -q "\"sha256\": \"$sum\"" &&
	ok "healthy: the module's SHA-256 in the manifest" ||
	bad "healthy: the module's SHA-256 ($sum) not in the manifest"
for line in 'stuck source ends in EIO' 'no outcome after EIO' \
	'play resumes once the source is good'; do
	red_lines /root/cert-ok/report.json | grep -qF "$line" &&
		bad "fault demo: $line" || ok "fault demo: $line"
done
grep -q '"rolls_after_eio": 0' /root/cert-ok/report.json &&
	ok "fault demo: nothing after EIO recorded" ||
	bad "fault demo: rolls after EIO"

# 2. The planted defects.
certify coin --sim=1:51/100 --extractor=none
red_lines /root/cert-coin/report.json | sed 's/^/#   red: /'
red_lines /root/cert-coin/report.json | grep -q '^chi-square of faces | d2$' &&
	ok "coin at 0.51: d2 faces red" || bad "coin at 0.51: d2 faces not red"

if [ -w "$knobs/modulo_bias" ]; then
	echo 1 >"$knobs/modulo_bias"
	certify modulo
	echo 0 >"$knobs/modulo_bias"
	red_lines /root/cert-modulo/report.json | sed 's/^/#   red: /'
	red_lines /root/cert-modulo/report.json | grep -q 'chi-square of faces' &&
		ok "modulo_bias: faces red" || bad "modulo_bias: no face test red"
else
	bad "modulo_bias: no knob $knobs/modulo_bias"
fi

echo 1 >"$knobs/stuck"
certify stuck
echo 0 >"$knobs/stuck"
red_lines /root/cert-stuck/report.json | sed 's/^/#   red: /'
red_lines /root/cert-stuck/report.json | grep -q '^capture | final-d6$' &&
	ok "stuck: the capture fails" || bad "stuck: the capture did not fail"
grep -q 'Input/output error' /root/cert-stuck/report.json &&
	ok "stuck: EIO recorded" || bad "stuck: no EIO in the report"

echo "certify: $passed passed, $failed failed"
[ "$failed" = 0 ]
