#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vmcertify.sh OUTDIR COUNT VM.SH-COMMAND... - 'make vmcertify': a
# 'fairdie certify --quick --count COUNT --fault-demo' on the device in the
# VM (VM.SH-COMMAND is tools/vm/vm.sh with its options, which must copy the
# tool, ent, rngtest and the module's file to the guest; this script adds
# the guest's command). The guest prints report.html and report.json in
# base64 on its output port; they are decoded into OUTDIR, with the run's
# output in OUTDIR/output, and the page is rendered and checked in headless
# Chromium on the host (check_report.sh, screenshot OUTDIR/report.png).
# Then 'fairdie collect --sp800-90b' runs in the guest and its files come
# out into OUTDIR/sp800-90b/, for NIST's ea_non_iid and ea_restart
# (Documentation/admin-guide/certification.rst).
# Exit status 0 when the VM run, the report's checks and the family verdict
# all pass.
set -u
out=$1
count=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/sp800-90b"
rm -f "$out/report.html" "$out/report.json" "$out/report.png" "$out"/sp800-90b/*
guest="start=\$(date +%s); fairdie certify --quick --count $count --fault-demo \
--module /root/fairdie.ko /root/cert >/root/cert.out 2>/root/cert.err; \
status=\$?; echo \"@@certify status \$status, \$((\$(date +%s) - start)) s\"; \
cat /root/cert.out; for f in report.html report.json; do \
echo \"@@file \$f\"; base64 /root/cert/\$f; done; \
start=\$(date +%s); fairdie collect --sp800-90b /root/sp >/dev/null 2>/root/sp.err; \
echo \"@@collect --sp800-90b status \$?, \$((\$(date +%s) - start)) s\"; \
tail -n 2 /root/sp.err; for f in raw.bin restart.bin sp800-90b.json; do \
echo \"@@file sp800-90b/\$f\"; base64 /root/sp/\$f; done; echo @@end"
"$@" -- "$guest" >"$out/output" 2>&1
vm=$?
python3 - "$out" <<'EOF'
import base64, sys
out = sys.argv[1]
name, chunks = None, []
for line in open(out + "/output", errors="replace"):
    line = line.rstrip("\r\n")
    if line.startswith("@@file ") or line == "@@end":
        if name:
            open(out + "/" + name, "wb").write(base64.b64decode("".join(chunks)))
        name, chunks = (line[7:], []) if line != "@@end" else (None, [])
    elif name:
        chunks.append(line.strip())
EOF
grep -E '^@@certify|^@@collect|^certify:|^FAIL' "$out/output"
status=0
[ "$vm" -eq 0 ] || { echo "not ok - the VM run ended with $vm (see $out/output)"; status=1; }
if [ ! -s "$out/report.html" ]; then
	echo "not ok - no report.html came out of the VM"
	exit 1
fi
sh "$here/check_report.sh" "$out/report.html" "$out/report.png" \
	'ent chi-square of bytes' 'stuck source ends in EIO' \
	'uniformity of the p-values (KS)' || status=1
if grep -q '"family": "pass"' "$out/report.json"; then
	echo "ok - family verdict pass"
else
	echo "not ok - family verdict (a healthy device fails it 1% of the time)"
	status=1
fi
exit $status
