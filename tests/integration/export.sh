#!/usr/bin/env bash
# zcbench export: each format checked against its shape on a stored fixture.
set -u
cd "$(dirname "$0")/../.."
Z=${ZCBENCH:-bench/zcbench}
B=results/fixtures/base.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "skip: python3 missing (make deps)"; exit 77; }

# csv: a header, then one row per sample (9 runs x 3 repetitions).
"$Z" export --format csv "$B" >"$tmp/x.csv" || fail "csv exit"
python3 - "$tmp/x.csv" "$B" <<'PY' || fail "csv shape"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
want = sum(len(r["samples"]) for r in d["runs"])
assert len(rows) == want, (len(rows), want)
for col in ("run", "rep", "status", "chunk", "kernel", "gbps_per_core"):
    assert col in rows[0], col
first = d["runs"][0]["samples"][0]
assert abs(float(rows[0]["gbps_per_core"]) - first["gbps_per_core"]) < 1e-6
PY

# bmf: {bench: {measure: {value, lower_value, upper_value}}}, lower <= value <= upper.
"$Z" export --format bmf "$B" >"$tmp/x.bmf" || fail "bmf exit"
python3 - "$tmp/x.bmf" <<'PY' || fail "bmf shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and len(d) == 9, len(d)
for bench, measures in d.items():
    assert "gbps_per_core" in measures, bench
    for m, v in measures.items():
        assert set(v) == {"value", "lower_value", "upper_value"}, v
        assert v["lower_value"] <= v["value"] <= v["upper_value"], (bench, m, v)
PY

# gab: customBiggerIsBetter array: name, unit, value; bigger-is-better metrics only.
"$Z" export --format gab "$B" >"$tmp/x.gab" || fail "gab exit"
python3 - "$tmp/x.gab" <<'PY' || fail "gab shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and d
for e in d:
    assert isinstance(e["name"], str) and isinstance(e["unit"], str)
    assert isinstance(e["value"], (int, float))
    assert e["name"].split()[-1] in ("gbps", "gbps_per_core"), e["name"]
PY

# prometheus: written atomically to --out, HELP/TYPE before samples, the
# labels dashboards group by, valid names, a trailing newline.
mkdir "$tmp/prom"
"$Z" export --format prometheus --out "$tmp/prom/zcbench.prom" "$B" || fail "prom exit"
[ "$(ls -A "$tmp/prom")" = zcbench.prom ] || fail "temp file left behind: $(ls -A "$tmp/prom")"
[ "$(tail -c1 "$tmp/prom/zcbench.prom" | od -An -c | tr -d ' ')" = '\n' ] || fail "no trailing newline"
python3 - "$tmp/prom/zcbench.prom" <<'PY' || fail "prometheus shape"
import re, sys
seen_help, seen_type, samples = set(), set(), 0
sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\} (\S+)$')
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("# HELP "):
        seen_help.add(line.split()[2]); continue
    if line.startswith("# TYPE "):
        name, kind = line.split()[2:4]; assert kind == "gauge"; seen_type.add(name); continue
    m = sample.match(line)
    assert m, line
    assert m.group(1) in seen_help and m.group(1) in seen_type, m.group(1)
    labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2)))
    per_run = m.group(1) != "zcbench_results_timestamp_seconds"
    for l in ("mode", "chunk", "kernel", "fingerprint") if per_run else ("kernel", "fingerprint"):
        assert l in labels, (l, line)
    float(m.group(3)); samples += 1
assert "zcbench_gbps_per_core" in seen_type and samples >= 9 * 6, samples
PY
"$Z" export --format yaml "$B" >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown format: want 2"
echo '[' >"$tmp/bad.json"
"$Z" export --format csv "$tmp/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
echo "export: ok"
