#!/usr/bin/env bash
# zcbench export: each format checked against its shape on a stored fixture.
. "$(dirname "$0")/../lib.sh"
B=results/fixtures/base.json
command -v python3 >/dev/null || skip "python3 missing (make deps)"

# csv: a header, then one row per sample (9 runs x 3 repetitions).
"$ZCBENCH" export --format csv "$B" >"$TMP/x.csv" || fail "csv exit"
python3 - "$TMP/x.csv" "$B" <<'PY' || fail "csv shape"
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
"$ZCBENCH" export --format bmf "$B" >"$TMP/x.bmf" || fail "bmf exit"
python3 - "$TMP/x.bmf" <<'PY' || fail "bmf shape"
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
"$ZCBENCH" export --format gab "$B" >"$TMP/x.gab" || fail "gab exit"
python3 - "$TMP/x.gab" <<'PY' || fail "gab shape"
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
mkdir "$TMP/prom"
"$ZCBENCH" export --format prometheus --out "$TMP/prom/zcbench.prom" "$B" || fail "prom exit"
[ "$(ls -A "$TMP/prom")" = zcbench.prom ] || fail "temp file left behind: $(ls -A "$TMP/prom")"
[ "$(tail -c1 "$TMP/prom/zcbench.prom" | od -An -c | tr -d ' ')" = '\n' ] || fail "no trailing newline"
python3 - "$TMP/prom/zcbench.prom" <<'PY' || fail "prometheus shape"
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
"$ZCBENCH" export --format yaml "$B" >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown format: want 2"
echo '[' >"$TMP/bad.json"
"$ZCBENCH" export --format csv "$TMP/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
echo "export: ok"
