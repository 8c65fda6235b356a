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
runs = {k: v for k, v in d.items() if not k.startswith("headline ")}
assert isinstance(d, dict) and len(runs) == 9, len(runs)
# The headline ratios: a benchmark each, the ratio's 95% interval as its bounds.
hl = [k for k in d if k.startswith("headline ")]
assert any(k.startswith("headline splice/copy proxy 64k/256k (proxy-splice / proxy-copy)")
           for k in hl), hl
for k in hl:
    assert "ratio" in d[k] and d[k]["n"]["value"] >= 1, k
for bench, measures in runs.items():
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
    if e["name"].startswith("headline "):
        assert e["unit"] == "ratio" and e["range"].startswith("95% ["), e
        continue
    assert e["name"].split()[-1] in ("gbps", "gbps_per_core"), e["name"]
assert any(e["name"].startswith("headline ") for e in d), "gab: no headline ratio"
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
	for f in results/fixtures/*.json; do
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
        # Every HELP names the unit of the value exported, first.
        assert line.split(None, 3)[3].startswith("Unit: "), line
        seen_help.add(line.split()[2]); continue
    if line.startswith("# TYPE "):
        name, kind = line.split()[2:4]; assert kind == "gauge"; seen_type.add(name); continue
    m = sample.match(line)
    assert m, line
    name = m.group(1)
    assert name in seen_help and name in seen_type, name
    # Base units: no Gbit/s, microseconds or per-MB names.
    assert not re.search(r'(gbps|_us_|_kb|_mb|_us|_frac)(_|$)', name), name
    labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2)))
    for l in ("kernel", "host", "vmsplice", "splice_needs_write"):
        assert l in labels, (l, line)
    assert labels["vmsplice"] in ("before", "after", "unknown"), labels["vmsplice"]
    if name == "zcbench_fingerprint_info":
        info.append(labels); assert float(m.group(3)) == 1; continue
    # Only the info metric carries the long fingerprint text.
    assert "fingerprint" not in labels, line
    if name.startswith("zcbench_headline_"):
        for l in ("ratio", "numerator", "denominator"):
            assert l in labels, (l, line)
        # A size neither side's mode passes on has no label (sendfile/send: no pipe).
        assert "chunk" in labels or "pipe_size" in labels, line
        assert "pipe_size" in labels or labels["ratio"] == "sendfile/send source", line
    elif name not in ("zcbench_results_timestamp_seconds",):
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

# Every series once (a name and its labels), in every fixture.
for f in results/fixtures/*.json; do
	"$ZCBENCH" export --format prometheus "$f" | grep -v '^#' | sed 's/ [^ ]*$//' | sort | uniq -d >"$TMP/dup"
	[ -s "$TMP/dup" ] && { head -3 "$TMP/dup"; fail "prometheus: duplicate series in $f"; }
done
ok "prometheus: no duplicate series"

# Issue 32: every figure in a base unit its name says. bench.json has
# connections' figures: the fastest connection in bytes per second (it was
# Gbit/s under a bytes name), service demand in seconds per byte.
python3 - "$TMP/mb.prom" "$MB" <<'PY' || fail "prometheus base units (bench.json)"
import json, re, statistics, sys
d = json.load(open(sys.argv[2]))
text = open(sys.argv[1]).read()
def gauge(name, run, chunk):
    m = re.search(r'^%s\{run="%s",[^}]*chunk="%d"[^}]*\} (\S+)$' % (name, run, chunk), text, re.M)
    assert m, (name, run, chunk)
    return float(m.group(1))
def med(run, key):
    return statistics.median(s[key] for s in run["samples"] if s["status"] == "ok" and key in s)
for r in d["runs"]:
    n, c = r["name"], r["key"]["chunk"]
    if any("conn_gbps_max" in s for s in r["samples"]):
        got = gauge("zcbench_conn_max_bytes_per_second", n, c)
        assert abs(got - med(r, "conn_gbps_max") * 1e9 / 8) < 1e-6 * got, (n, got)
    got = gauge("zcbench_service_demand_seconds_per_byte", n, c)
    assert abs(got - med(r, "service_demand_us_per_kb") * 1e-6 / 1024) < 1e-6 * got, (n, got)
names = {l.split("{")[0] for l in text.splitlines() if not l.startswith("#")}
assert not [n for n in names if "gbps" in n or "_us_per_kb" in n], names
help_sd = re.search(r'^# HELP zcbench_service_demand_seconds_per_byte (.*)$', text, re.M).group(1)
assert help_sd.startswith("Unit: seconds"), help_sd
PY
ok "prometheus: connections in bytes per second, service demand in seconds per byte"

# The headline ratios (issue 32): report's value, its 95% interval, n and
# answer in every format. splice/copy at 64k/1M in bench.json was taken in
# rounds: the geometric mean of the three per-round ratios.
"$ZCBENCH" export --format csv --what headlines "$MB" >"$TMP/hl.csv" || fail "csv --what headlines"
python3 - "$TMP/hl.csv" "$TMP/mb.prom" "$MB" <<'PY' || fail "headline ratios in csv and prometheus"
import csv, json, math, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
text = open(sys.argv[2]).read()
d = json.load(open(sys.argv[3]))
def run(name, chunk):
    return [r for r in d["runs"] if r["name"] == name and r["key"]["chunk"] == chunk][0]
def by_rep(r):
    return {s["rep"]: s["gbps_per_core"] for s in r["samples"] if s["status"] == "ok"}
num, den = by_rep(run("proxy-splice", 65536)), by_rep(run("proxy-copy", 65536))
def geomean_ratio(num, den):
    return math.exp(sum(math.log(num[k] / den[k]) for k in num) / len(num))
want = geomean_ratio(num, den)
row = [r for r in rows if r["ratio"] == "splice/copy proxy" and r["sizes"] == "same" and
       r["chunk"] == "65536"][0]
assert abs(float(row["value"]) - want) < 1e-6 * want, (row["value"], want)
assert row["method"] == "paired" and row["n"] == "3", row
assert float(row["lo"]) <= float(row["value"]) <= float(row["hi"]), row
assert row["answer"] in ("changed", "unchanged", "cant_tell"), row["answer"]
assert row["numerator_busy_frac"] and row["denominator_busy_frac"], row
for c in ("date", "kernel", "host", "fingerprint", "threshold_pct", "verified"):
    assert row[c] != "", c
# Each side at its best size (the best median Gbit/s per core), report's
# first line: splice at 64k, copy at 1M, the rounds paired across sizes.
best = [r for r in rows if r["ratio"] == "splice/copy proxy" and r["sizes"] == "best"]
assert len(best) == 1 and rows.index(best[0]) == 0, best
med = lambda r: sorted(by_rep(r).values())[1]
# Every proxy splice run is a size of the numerator (a 64k pipe too): 3 of them.
bn = max((r for r in d["runs"] if r["key"]["proxy"] == "splice"), key=med)
bd = max((r for r in d["runs"] if r["key"]["proxy"] == "copy"), key=med)
# Each side's sizes as its mode passes them on: splice the pipe, copy the chunk.
assert (best[0]["chunk"], best[0]["pipe_size"], best[0]["denominator_chunk"],
        best[0]["denominator_pipe_size"]) == ("", str(bn["key"]["pipe_size"]),
                                              str(bd["key"]["chunk"]), ""), best
want = geomean_ratio(by_rep(bn), by_rep(bd))
assert abs(float(best[0]["value"]) - want) < 1e-6 * want, (best[0]["value"], want)
assert best[0]["numerator_sizes"] == "3" and best[0]["denominator_sizes"] == "2", best
lab = r'ratio="splice/copy proxy",sizes="same",numerator="proxy-splice",denominator="proxy-copy",chunk="65536"'
for bound, key in (("estimate", "value"), ("lower", "lo"), ("upper", "hi")):
    m = re.search(r'^zcbench_headline_ratio\{%s,[^}]*bound="%s"\} (\S+)$' % (lab, bound), text, re.M)
    assert m and abs(float(m.group(1)) - float(row[key])) < 1e-9 * float(row[key]), (bound, m)
assert re.search(r'^zcbench_headline_repetitions\{%s,[^}]*\} 3$' % lab, text, re.M)
assert re.search(r'^zcbench_headline_answer_info\{%s,[^}]*answer="%s"\} 1$' % (lab, row["answer"]), text, re.M)
for side in ("numerator", "denominator"):
    m = re.search(r'^zcbench_headline_dut_busy_ratio\{%s,[^}]*side="%s"\} (\S+)$' % (lab, side), text, re.M)
    assert m and abs(float(m.group(1)) - float(row[side + "_busy_frac"])) < 1e-9, side
PY
ok "headline ratios: csv and prometheus carry report's value, interval, n, answer, busy"
"$ZCBENCH" export --format prometheus --what runs "$MB" | grep -q '^zcbench_headline_' &&
	fail "--what runs: headline gauges"
# Every ratio report prints, the emulated after-modes' too, is exported
# (emulated.json: six measured, six emulated), with report's side words.
E=results/fixtures/emulated.json
"$ZCBENCH" report --json "$E" | jq -c '[.files[0].headline[] | select(.value != null) | [.numerator, .denominator, .side]] | sort' >"$TMP/r.rows"
"$ZCBENCH" export --format csv --what headlines "$E" | python3 -c '
import csv, json, sys
print(json.dumps(sorted([r["numerator"], r["denominator"], r["side"]] for r in csv.DictReader(sys.stdin)
                        if r["sizes"] == "same" and r["value"] != ""), separators=(",", ":")))' >"$TMP/e.rows"
check "csv: the ratios report prints, after-modes too ($(jq length "$TMP/e.rows") of $(jq length "$TMP/r.rows"))" \
	cmp -s "$TMP/r.rows" "$TMP/e.rows"
check "csv: six of them emulated after-modes" [ "$(jq '[.[] | select(.[2] == "after, emulated")] | length' "$TMP/e.rows")" -eq 6 ]
check "prometheus: the emulated ones labelled" \
	[ "$("$ZCBENCH" export --format prometheus --what headlines "$E" | grep -c '^zcbench_headline_ratio{.*emulated="true".*bound="estimate"')" -eq 6 ]
"$ZCBENCH" export --format prometheus --what headlines "$MB" >"$TMP/hl.prom"
grep -q '^zcbench_payload_' "$TMP/hl.prom" && fail "--what headlines: run gauges"
grep -q '^zcbench_headline_ratio{' "$TMP/hl.prom" || fail "--what headlines: no headline gauge"
"$ZCBENCH" export --format bmf --what headlines "$MB" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d and all(k.startswith("headline ") for k in d), list(d)' || fail "bmf --what headlines"
"$ZCBENCH" export --format csv --what everything "$MB" >/dev/null 2>"$TMP/what.err"
check "--what everything: exit 2" [ $? -eq 2 ]
check "--what everything: says the choices" grep -q "all, runs, headlines\|all|runs|headlines" "$TMP/what.err"
echo "export: ok"
finish
