#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_certify.sh FAIRDIE FAIRDIE_FAKE - 'fairdie certify' without the
# device: collect is replaced by certify_fake_collect.py (FAIRDIE_CERTIFY_COLLECT), which
# writes captures in collect's formats from a seeded generator, healthy or
# with a planted defect. Checks the folder, report.json against its schema,
# the manifest against sha256sum, that every planted defect (the coin at
# p = 0.51, modulo reduction, a stuck source) turns a line red, and that
# report.html renders in headless Chromium (a screenshot that is a PNG with
# more than one colour, and the page's text). With the test build's
# stand-in device (FAIRDIE_FAKE --device=fake:N), certify also runs the
# tool's own 'fairdie collect' for the final stage. Ends with "N passed, N
# failed".
set -u
bin=$1
fakebin=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
fake="python3 $here/certify_fake_collect.py"
. "$here/testlib.sh"
# run WANT_STATUS NAME DIR [ENV=V...] -- ARGS...: certify into $tmp/DIR
run() {
	want=$1
	name=$2
	dir=$tmp/$3
	shift 3
	envs=
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env FAIRDIE_CERTIFY_COLLECT="$fake" $envs nice -n 5 "$bin" certify \
		"$@" "$dir" </dev/null >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass
		return 0
	fi
	fail "$name: exit status $got, want $want: $(tail -n 3 "$tmp/out")"
	return 1
}
# py NAME SCRIPT ARGS...: a python3 check that exits 0 when it holds
py() {
	name=$1
	shift
	if python3 - "$@" >"$tmp/why" 2>&1; then
		pass
	else
		fail "$name: $(head -c 600 "$tmp/why")"
	fi
}

# --- a healthy run ---------------------------------------------------------
# 80000 outcomes a die: enough for every test of d2, d6 and d37 and for the
# decks; too little for dieharder (skipped, saying why). Seed 3 gives no red
# line.
name=certify_healthy_run
run 0 "$name" ok FAKE_COLLECT_SEED=3 -- --quick --count 80000
for f in raw.bin conditioned.bin final-d2.bin final-d6.bin final-d37.bin \
	final-d100.bin decks-52.bin raw.bin.json report.json report.html \
	ent-raw.txt rngtest-conditioned.txt; do
	if [ -s "$tmp/ok/$f" ]; then pass; else fail "$name: no $f"; fi
done
py certify_report_json_schema "$here/schema/certify.json" "$tmp/ok/report.json" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
doc = json.load(open(sys.argv[2]))
errors = sorted(cls(schema).iter_errors(doc), key=str)
for e in errors[:3]:
    print("%s at %s" % (e.message, list(e.absolute_path)))
sys.exit(1 if errors else 0)
EOF
py certify_healthy_lines "$tmp/ok/report.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
tests = doc["tests"]
names = {(t["test"], t["data"]) for t in tests}
want = [("chi-square of faces", "d%d" % k) for k in (2, 6, 37, 100)]
want += [("serial pairs", "d6"), ("runs (Wald-Wolfowitz)", "d6"),
         ("gap", "d37"), ("poker (hands of 5)", "d6"),
         ("coupon collector", "d6"), ("permutation (orders of 3)", "d6"),
         ("permutation (orders of 4)", "d37"),
         ("permutation (orders of 5)", "d100"),
         ("serial correlation (lag 1)", "d100"),
         ("spectral (DFT, SP 800-22 2.6)", "d2"),
         ("card at each position", "decks of 52"),
         ("ent chi-square of bytes", "raw"),
         ("rngtest FIPS 140-2 blocks", "conditioned"),
         ("uniformity of the p-values (KS)", "%d p-values" % sum(
             1 for t in tests if t["second_level"]))]
missing = [w for w in want if w not in names]
# The second level leaves out the lines that overlap another.
out = {(t["test"], t["data"]) for t in tests if not t["second_level"]}
for w in [("serial correlation (lag 1)", "d2"), ("serial pairs", "d6"),
          ("gap", "d37"), ("rngtest FIPS 140-2 blocks", "raw")]:
    if w not in out:
        missing.append(("out of the second level",) + w)
if ("chi-square of faces", "d6") in out or ("runs (Wald-Wolfowitz)", "d6") in out:
    missing.append("faces and runs belong to the second level")
skipped = [s for s in doc["skipped"] if s["test"] == "diehard_birthdays"]
if not skipped or "too little data" not in skipped[0]["reason"]:
    missing.append(("dieharder skipped for too little data", skipped))
bad = [t for t in tests if t["result"] != "pass"]
if missing or bad or doc["verdict"]["family"] != "pass":
    sys.exit("missing %s; failed %s; verdict %s" % (missing, bad[:2],
                                                    doc["verdict"]))
for t in tests:
    if t["p_value"] is not None and not 0 <= t["p_value"] <= 1:
        sys.exit("p-value out of range: %s" % t)
if len(doc["captures"]) != 7 or len(doc["histograms"]) != 4:
    sys.exit("captures or histograms missing")
if any(sum(h["counts"]) != h["outcomes"] for h in doc["histograms"]):
    sys.exit("a histogram does not add up")
EOF
# The manifest names every capture and its sidecar, with the sum that
# sha256sum gives; the commands of collect are recorded.
name=certify_manifest_sha256
(cd "$tmp/ok" && sha256sum ./*.bin ./*.bin.json) | sed 's| \./| |' >"$tmp/sums"
py "$name" "$tmp/ok/report.json" "$tmp/sums" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
sums = dict(reversed(l.split()) for l in open(sys.argv[2]))
man = {m["file"]: m["sha256"] for m in doc["manifest"]
       if m["what"] in ("capture", "sidecar")}
if man != sums:
    sys.exit("manifest %s != sha256sum %s" % (man, sums))
tool = [m for m in doc["manifest"] if m["what"] == "tool"]
if not tool or not tool[0]["sha256"]:
    sys.exit("no tool in the manifest")
if not all("--stage" in c["command"] and " -o " in c["command"]
           for c in doc["captures"]):
    sys.exit("a capture's command is not recorded")
if not any(c.startswith("ent -t ") for c in doc["commands"]):
    sys.exit("ent's command is not recorded")
EOF
# Self-contained: no script, nothing fetched.
name=certify_html_self_contained
if grep -qiE '<script|src=|href="?https?:|@import|url\(' "$tmp/ok/report.html"; then
	fail "$name: the page refers to something outside itself"
else
	pass
fi
if grep -q '<svg' "$tmp/ok/report.html" && grep -q '<style>' "$tmp/ok/report.html"; then
	pass
else
	fail "$name: no inline SVG or CSS"
fi

# --- the planted defects ---------------------------------------------------
# red NAME DIR TEST DATA: the line TEST on DATA failed, and the family too
red() {
	py "$1" "$tmp/$2/report.json" "$3" "$4" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [t for t in doc["tests"]
        if t["test"] == sys.argv[2] and t["data"] == sys.argv[3]]
if not rows or rows[0]["result"] != "fail":
    sys.exit("line %s on %s: %s" % (sys.argv[2], sys.argv[3], rows))
if doc["verdict"]["family"] != "fail":
    sys.exit("family verdict %s" % doc["verdict"])
EOF
}
name=certify_catches_coin_051
run 1 "$name" coin FAKE_COLLECT_DEFECT=coin51 -- --quick --count 30000 &&
	red "$name" coin "chi-square of faces" d2
grep -q "^FAIL  final      chi-square of faces" "$tmp/out" && pass ||
	fail "$name: the red line is not printed"
name=certify_catches_modulo_bias
run 1 "$name" modulo FAKE_COLLECT_DEFECT=modulo -- --quick --count 30000 &&
	red "$name" modulo "chi-square of faces" d100
name=certify_catches_stuck_source
run 1 "$name" stuck FAKE_COLLECT_DEFECT=stuck -- --quick --count 30000 &&
	red "$name" stuck "capture" final-d6 &&
	red "$name" stuck "rngtest FIPS 140-2 blocks" raw &&
	red "$name" stuck "ent chi-square of bytes" raw
py "$name: the error is recorded" "$tmp/stuck/report.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
cap = [c for c in doc["captures"] if c["name"] == "final-d6"][0]
if cap["status"] != 1 or "Input/output error" not in (cap["error"] or ""):
    sys.exit(cap)
EOF

# Without root the raw stage is refused: not a red line, a test not run.
name=certify_raw_needs_root_not_red
run 0 "$name" noroot FAKE_COLLECT_SEED=3 FAKE_COLLECT_DEFECT=noroot -- \
	--quick --count 80000 &&
	py "$name" "$tmp/noroot/report.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
skip = [s for s in doc["skipped"] if s["test"] == "capture raw"]
if not skip or "not permitted" not in skip[0]["reason"]:
    sys.exit(doc["skipped"])
if any(t["stage"] == "raw" for t in doc["tests"]):
    sys.exit("raw lines without a raw capture")
EOF

# --- the fault demonstration without a device: a red line that says why ---
name=certify_fault_demo_needs_the_device
run 1 "$name" fault FAKE_COLLECT_SEED=3 -- --quick --count 30000 \
	--fault-demo --device="$tmp/nodev" &&
	py "$name" "$tmp/fault/report.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [t for t in doc["tests"] if t["stage"] == "fault"]
if not rows or rows[0]["result"] != "fail" or "cannot open" not in rows[0]["method"]:
    sys.exit(rows)
if "EIO" not in doc["fails_closed"]:
    sys.exit(doc["fails_closed"])
EOF

# The options that configure the device reach collect, before or after the
# command, and the report's command line names them.
name=certify_passes_device_options_to_collect
FAIRDIE_CERTIFY_COLLECT="$fake" "$bin" --sim=1:51/100 certify --quick \
	--count 10000 --extractor=none "$tmp/opts" >/dev/null 2>"$tmp/err"
if grep -qF -- '--stage final --sides 6 --count 10000 --extractor=none --sim=1:51/100 -o ' \
	"$tmp/opts/report.json" &&
	grep -qF -- '"command": "fairdie --sim=1:51/100 certify --quick' "$tmp/opts/report.json"; then
	pass
else
	fail "$name: $(grep -m 3 '"command"' "$tmp/opts/report.json")"
fi

# The real collect, run by certify as this very program (/proc/self/exe),
# on the test build's stand-in device: the final stage and its sidecars.
name=certify_runs_its_own_collect
if [ -n "$fakebin" ] && "$fakebin" collect --help >/dev/null 2>&1; then
	"$fakebin" --device=fake:1 certify --quick --count 30000 "$tmp/own" \
		>/dev/null 2>"$tmp/err"
	py "$name" "$tmp/own/report.json" "$fakebin" <<'EOF'
import json, os, sys
doc = json.load(open(sys.argv[1]))
exe = os.path.realpath(sys.argv[2])
final = [c for c in doc["captures"] if c["stage"] == "final"]
if len(final) != 5:
    sys.exit("final captures: %s" % final)
for c in final:
    if (c["status"] != 0 or not c["command"].startswith(exe + " collect --stage final")
            or "--device=fake:1" not in c["command"]
            or (c["sidecar"] or {}).get("schema") != "fairdie.collect/1"):
        sys.exit("capture %s" % c)
if not [t for t in doc["tests"] if t["test"] == "card at each position"]:
    sys.exit("no deck test on collect's decks")
EOF
else
	echo "# $name: no 'fairdie collect' in this build: not run"
fi

# --- usage -----------------------------------------------------------------
name=certify_usage
"$bin" certify >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && pass || fail "$name: no folder"
"$bin" certify --count 5 "$tmp/u" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "invalid count" "$tmp/err" && pass || fail "$name: --count 5"
"$bin" --seed=1 certify "$tmp/u" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "come from the device" "$tmp/err" && pass ||
	fail "$name: --seed"
"$bin" certify --help >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q -- "--fault-demo" "$tmp/out" && pass || fail "$name: --help"

# --- dieharder --------------------------------------------------------------
# 875000 outcomes a die: raw and conditioned captures of 7,000,000 bytes, one
# p-sample of each of dieharder's quick tests without a rewind (its p-value
# is the test's own). Seed 3 gives no red line.
name=certify_dieharder
if command -v dieharder >/dev/null; then
	run 0 "$name" dh FAKE_COLLECT_SEED=3 -- --quick --count 875000
	[ -s "$tmp/dh/dieharder-raw-0.txt" ] && pass || fail "$name: no dieharder-raw-0.txt"
	py "$name: lines" "$tmp/dh/report.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
dh = [t for t in doc["tests"] if t["tool"] == "dieharder"]
if len(dh) != 6 or any("one p-sample" not in t["method"] or t["second_level"]
                       for t in dh):
    sys.exit("want 6 lines of one p-sample each, out of the second level: %s" % dh)
if any(s["test"] == "dieharder" for s in doc["skipped"]):
    sys.exit("skipped: %s" % doc["skipped"])
EOF
else
	: >"$tmp/err"
	fail "$name: dieharder is missing (Debian: dieharder; make deps)"
fi

# --- the page in a real browser --------------------------------------------
name=certify_report_renders_in_chromium
if sh "$here/check_report.sh" "$tmp/coin/report.html" "$tmp/shot.png" \
	'<tr class="fail"><td>chi-square of faces</td><td>d2</td>' \
	'family verdict: fail' >"$tmp/why" 2>&1; then
	pass
else
	: >"$tmp/err"
	fail "$name: $(grep 'not ok' "$tmp/why" | head -n 3)"
fi
# ... and the check can fail: a text the page does not hold.
if sh "$here/check_report.sh" "$tmp/ok/report.html" "$tmp/shot2.png" \
	'no such line in any report' >"$tmp/why" 2>&1; then
	: >"$tmp/err"
	fail "$name: check_report.sh passed a page without the text asked for"
else
	pass
fi

test_done
