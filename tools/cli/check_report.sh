#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check_report.sh REPORT.HTML SHOT.PNG [TEXT...] - a report of 'fairdie
# certify' in a real browser: Debian's headless Chromium renders the page
# to SHOT.PNG (1200 pixels wide; checked to be a PNG of that width that is
# not blank) and reads its DOM, which must hold the summary table, the
# family verdict, the section on how the device fails closed, the manifest,
# an SVG picture and each TEXT. Used by test_certify.sh (reports made on
# the host) and by 'make vmcertify' (a report made in the VM). Prints a
# line per check, "ok - ..." or "not ok - ..."; exit status 0 only if all
# hold.
set -u
html=$1
shot=$2
shift 2
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() {
	echo "ok - $*"
}
bad() {
	echo "not ok - $*"
	status=1
}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	bad "chromium is missing (Debian: chromium; make deps)"
	exit 1
fi
case $html in
/*) url=file://$html ;;
*) url=file://$(pwd)/$html ;;
esac
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars \
--no-first-run --disable-dev-shm-usage --user-data-dir=$tmp/chrome"
rm -f "$shot"
# shellcheck disable=SC2086
timeout 120 "$chrome" $flags --window-size=1200,1600 --screenshot="$shot" \
	"$url" >/dev/null 2>"$tmp/err"
if python3 - "$shot" >"$tmp/why" 2>&1 <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
# Different bytes in the pixels: not a blank page (filter bytes aside).
stride = len(raw) // h
colours = {raw[r * stride + 1:(r + 1) * stride] for r in range(0, h, 37)}
if w != 1200 or len(colours) < 10 or len(set(raw[1:stride * 200])) < 4:
    sys.exit("blank or wrong size: %dx%d, %d distinct rows" % (w, h, len(colours)))
print("%dx%d, %d distinct rows" % (w, h, len(colours)))
EOF
then
	ok "screenshot $shot: $(cat "$tmp/why")"
else
	bad "screenshot $shot: $(head -c 300 "$tmp/why") $(tail -n 3 "$tmp/err")"
fi
# shellcheck disable=SC2086
timeout 120 "$chrome" $flags --dump-dom "$url" >"$tmp/dom" 2>"$tmp/err"
for want in 'id="summary"' 'family verdict: ' 'How the device fails closed' \
	'Manifest (SHA-256)' '<svg' "$@"; do
	if grep -qF -- "$want" "$tmp/dom"; then
		ok "the page Chromium read holds '$want'"
	else
		bad "'$want' not in the page Chromium read"
	fi
done
exit $status
