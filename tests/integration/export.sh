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
# promtool (Debian's prometheus package) parses and lints it: names, HELP,
# TYPE, base units ("_us_per_kb" or "_per_mb" would fail its unit lint).
if command -v promtool >/dev/null; then
	for f in "$B" results/fixtures/profile.json; do
		"$ZCBENCH" export --format prometheus "$f" >"$TMP/p.prom" || fail "prom exit ($f)"
		promtool check metrics <"$TMP/p.prom" >"$TMP/promtool.log" 2>&1 ||
			{ cat "$TMP/promtool.log"; fail "promtool check metrics: $f"; }
	done
	ok "promtool check metrics"
else
	echo "promtool missing (Debian's prometheus package): the parser below only"
fi
# The same checks as an exposition parser, and what promtool cannot know:
# base units against the results file, short fingerprint labels, the long
# text only in the info metric.
python3 - "$TMP/prom/zcbench.prom" "$B" <<'PY' || fail "prometheus shape"
import json, re, statistics, sys
seen_help, seen_type, samples, info = set(), set(), 0, []
sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\} (\S+)$')
d = json.load(open(sys.argv[2]))
bps = {}
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("# HELP "):
        seen_help.add(line.split()[2]); continue
    if line.startswith("# TYPE "):
        name, kind = line.split()[2:4]; assert kind == "gauge"; seen_type.add(name); continue
    m = sample.match(line)
    assert m, line
    name = m.group(1)
    assert name in seen_help and name in seen_type, name
    # Base units: no Gbit/s, microseconds or per-MB names.
    assert not re.search(r'(gbps|_us_|_kb|_mb)(_|$)', name), name
    labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2)))
    for l in ("kernel", "host", "vmsplice", "splice_needs_write"):
        assert l in labels, (l, line)
    assert labels["vmsplice"] in ("before", "after", "unknown"), labels["vmsplice"]
    if name == "zcbench_fingerprint_info":
        info.append(labels); assert float(m.group(3)) == 1; continue
    # Only the info metric carries the long fingerprint text.
    assert "fingerprint" not in labels, line
    if name not in ("zcbench_results_timestamp_seconds",):
        for l in ("mode", "chunk", "run"):
            assert l in labels, (l, line)
    if name == "zcbench_payload_bytes_per_second_per_core":
        bps[(labels["run"], labels["chunk"])] = float(m.group(3))
    float(m.group(3)); samples += 1
assert len(info) == 1 and info[0]["fingerprint"], info
assert samples >= 9 * 6, samples
# Bytes per second per core = the median Gbit/s per core * 1e9 / 8.
for r in d["runs"]:
    v = [s["gbps_per_core"] for s in r["samples"] if s["status"] == "ok"]
    got = bps[(r["name"], str(r["key"]["chunk"]))]
    assert abs(got - statistics.median(v) * 1e9 / 8) < 1e-6 * got, (r["name"], got)
PY

# The profile fixture: csv and bmf carry the buckets, which add up to 100%.
P=results/fixtures/profile.json
"$ZCBENCH" export --format csv "$P" >"$TMP/p.csv" || fail "csv exit (profile)"
"$ZCBENCH" export --format bmf "$P" >"$TMP/p.bmf" || fail "bmf exit (profile)"
python3 - "$TMP/p.csv" "$TMP/p.bmf" "$P" <<'PY' || fail "profile buckets in csv/bmf"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bmf = json.load(open(sys.argv[2]))
d = json.load(open(sys.argv[3]))
cols = [c for c in rows[0] if c.startswith("profile_") and c.endswith("_pct")]
assert len(cols) == 9, cols
for row in rows:
    assert abs(sum(float(row[c]) for c in cols) - 100) < 0.01, row["run"]
copy = [r for r in rows if r["run"] == "proxy-copy" and r["chunk"] == "65536"][0]
run = [r for r in d["runs"] if r["name"] == "proxy-copy" and r["key"]["chunk"] == 65536][0]
assert abs(float(copy["profile_kernel_copy_pct"]) - run["profile"]["buckets"]["kernel_copy"]) < 1e-3
for key, m in bmf.items():
    if "profile_kernel_copy_pct" in m:
        assert m["profile_kernel_copy_pct"]["lower_value"] <= m["profile_kernel_copy_pct"]["value"]
assert sum("profile_kernel_copy_pct" in m for m in bmf.values()) == len(d["runs"])
PY
# Without a profile there are no bucket columns.
"$ZCBENCH" export --format csv "$B" | head -n1 | grep -q profile_ && fail "bucket columns without a profile"
"$ZCBENCH" export --format yaml "$B" >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown format: want 2"
echo '[' >"$TMP/bad.json"
"$ZCBENCH" export --format csv "$TMP/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
# A DUT that waited for its peers is marked (issue 29 item 4): make bench's
# file has proxies busy under 0.9 of a core.
MB=results/fixtures/bench.json
"$ZCBENCH" export --format csv "$MB" >"$TMP/mb.csv" || fail "csv of bench.json"
head -n1 "$TMP/mb.csv" | grep -q ',saturated,options$' || fail "csv: no saturated, options columns last"
grep -q ',false,$' "$TMP/mb.csv" || fail "csv: no unsaturated sample marked"
"$ZCBENCH" export --format prometheus "$MB" >"$TMP/mb.prom" || fail "prometheus of bench.json"
grep -Eq '^zcbench_dut_saturated\{run="proxy-splice",.*chunk="65536".*\} 0$' "$TMP/mb.prom" ||
	fail "prometheus: proxy-splice not marked unsaturated"
echo "export: ok"
