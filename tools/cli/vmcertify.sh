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
# Exit status 0 when the VM run, the report's checks and the family verdict
# all pass.
set -u
out=$1
count=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
rm -f "$out/report.html" "$out/report.json" "$out/report.png"
guest="start=\$(date +%s); fairdie certify --quick --count $count --fault-demo \
--module /root/fairdie.ko /root/cert >/root/cert.out 2>/root/cert.err; \
status=\$?; echo \"@@certify status \$status, \$((\$(date +%s) - start)) s\"; \
cat /root/cert.out; for f in report.html report.json; do \
echo \"@@file \$f\"; base64 /root/cert/\$f; done; echo @@end"
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
grep -E '^@@certify|^certify:|^FAIL' "$out/output"
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
