#!/usr/bin/env bash
# zcbench trend on synthetic series (tests/trend_series.py, fixed seeds, from
# the make bench fixture): a step is found at its night with what changed
# that night, the gate's exit codes (1 regression in the newest nights, 0
# none, 3 can't tell), and every bad series handled and said.
. "$(dirname "$0")/../lib.sh"
# Lines whole, as on a wide terminal: width.sh measures the fitted text.
export COLUMNS=200
command -v python3 >/dev/null || skip "python3 missing (make deps)"
B=results/fixtures/bench.json
gen() { mkdir -p "$1" && python3 tests/trend_series.py "$B" "$@" || fail "trend_series.py $*"; }
SPLICE='proxy:splice@64k/1M on vm  gbps_per_core'

# A 30% drop of the splice runs from night 11 of 20 (noise 3%), the night the
# kernel's fingerprint says vmsplice became a copy.
gen "$TMP/step" 20 0.03 11 -0.30
"$ZCBENCH" trend "$TMP/step" >"$TMP/step.txt" 2>&1
rc=$?
check "a step: exit 0 without a gate (got $rc)" [ "$rc" -eq 0 ]
grep -A8 -F "$SPLICE" "$TMP/step.txt" | sed "/^$/q" >"$TMP/splice.txt"
check "the step is found at night 11, changed" grep -q 'step at night 11, 2026-01-11.*: changed -2[0-9]' \
	"$TMP/splice.txt"
check "what changed that night: kernel and fingerprint" \
	grep -q 'that night: kernel 6.18.44-fc-v1300 -> 6.20.0-patched; fingerprint vmsplice=zero-copy -> vmsplice=copy' \
	"$TMP/splice.txt"
check "the splice/copy ratio steps too" grep -A1 -q 'splice/copy proxy proxy:splice@64k/1M on vm  ratio' "$TMP/step.txt"
check "a series without a step says none was found" \
	grep -A1 -F 'send@64k/1M on vm  gbps_per_core' "$TMP/step.txt" | grep -q 'no step found'
check "every series says the smallest step it could show" \
	[ "$(grep -c 'smallest step this series could show' "$TMP/step.txt")" -eq "$(grep -c '  [0-9]* nights$' "$TMP/step.txt")" ]
"$ZCBENCH" trend --json "$TMP/step" >"$TMP/step.json"
check "--json: schema zcbench-trend 1.1 (results/README.md)" jq -e '.schema == "zcbench-trend" and .schema_version == "1.1"' "$TMP/step.json"
check "--json: the step's night, size and answer" jq -e '
	[.series[] | select(.key == "proxy:splice@64k/1M on vm" and .metric == "gbps_per_core")
	 | .change_points[] | select(.night == 10 and .answer == "changed" and .step_pct < -20
	   and (.what_changed | test("vmsplice=copy")))] | length == 1' "$TMP/step.json" >/dev/null

# The history picture: one line per key across both kernels, the night the
# kernel and its fingerprint changed marked with the steps found there.
if command -v gnuplot >/dev/null; then
	"$ZCBENCH" plot --out "$TMP/plot" "$TMP"/step/*.json >"$TMP/plot.txt" 2>&1
	check "plot of the series: exit 0" [ $? -eq 0 ]
	check "history: one line per key across kernels (10, and the header line)" \
		[ "$(grep -c '^# ' "$TMP/plot/history.csv")" -eq 11 ]
	check "history_marks.csv: the night of the kernel, its fingerprint and the steps" \
		grep -q '^[0-9]*,2026-01-11T03:00:00Z,"kernel,fingerprint,[0-9]*_steps"$' "$TMP/plot/history_marks.csv"
	check "history.svg: the mark drawn with its label" grep -q 'kernel,fingerprint,' "$TMP/plot/history.svg"
else
	echo "# gnuplot missing: the history picture is not checked"
fi

# Events for dashboards: a CSV row per change point, Prometheus gauges.
"$ZCBENCH" trend --format csv --out "$TMP/events.csv" "$TMP/step"
check "--format csv --out: exit 0" [ $? -eq 0 ]
check "csv: the step's row with what changed" python3 - "$TMP/events.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cp = [r for r in rows if r["event"] == "change_point" and r["night"] == "11"
      and r["key"] == "proxy:splice@64k/1M on vm" and r["metric"] == "gbps_per_core"]
assert len(cp) == 1 and cp[0]["answer"] == "changed", cp
assert float(cp[0]["lo_pct"]) <= float(cp[0]["step_pct"]) <= float(cp[0]["hi_pct"]) < -20, cp
assert "vmsplice=zero-copy -> vmsplice=copy" in cp[0]["what_changed"], cp
assert len([r for r in rows if r["event"] == "newest"]) == 16, len(rows)
PY
"$ZCBENCH" trend --format prometheus "$TMP/step" >"$TMP/trend.prom"
check "prometheus: a step gauge at night 11" \
	grep -q '^zcbench_trend_step_ratio{key="proxy:splice@64k/1M on vm",metric="gbps_per_core",date="2026-01-11T03:00:00Z".*bound="estimate"' "$TMP/trend.prom"
if command -v promtool >/dev/null; then
	check "prometheus: promtool check metrics passes" bash -c "promtool check metrics <'$TMP/trend.prom'"
fi

# The gate: the drop in the newest 3 nights (night 18 of 20) is a regression.
gen "$TMP/late" 20 0.03 18 -0.30
"$ZCBENCH" trend --fail-on-regression 5 "$TMP/late" >"$TMP/late.txt" 2>&1
rc=$?
check "gate, a drop in the newest nights: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "gate: the regression named" grep -A8 -F "$SPLICE" "$TMP/late.txt" | grep -q 'REGRESSION'
# A step older than the newest nights (night 11 of 20) was the gate's when
# it was new: now the newest nights are judged against the nights since it.
"$ZCBENCH" trend --fail-on-regression 10 "$TMP/step" >"$TMP/old.txt" 2>&1
rc=$?
check "gate, an older step: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "gate, an older step: the newest nights against the nights since it" \
	grep -A8 -F "$SPLICE" "$TMP/old.txt" | grep -q 'gate, the newest 3 nights (18-20) against 11-17: unchanged'
check "gate, a recent step: judged as the step" \
	grep -A8 -F "$SPLICE" "$TMP/late.txt" | grep -q 'gate, the step at night 18 is recent.*nights 18-20 against 1-17: changed'
# No step at low noise: every series within +-5%. (At 2% from night to
# night, 3 nights against 17 at a family of 16's level are +-4.3% wide, and
# some series can't tell: the pooled spread says so where Welch's, on the 3
# newest nights alone, took tight ones at their word.)
gen "$TMP/flat" 20 0.01 99 0
"$ZCBENCH" trend --fail-on-regression 5 "$TMP/flat" >"$TMP/flat.txt" 2>&1
rc=$?
check "gate, no step: exit 0 (got $rc)" [ "$rc" -eq 0 ]
# High noise: the newest nights cannot be told apart from +-5%.
gen "$TMP/noisy" 12 0.25 99 0
"$ZCBENCH" trend --fail-on-regression 5 "$TMP/noisy" >"$TMP/noisy.txt" 2>&1
rc=$?
check "gate, noise 25%: exit 3, can't tell (got $rc)" [ "$rc" -eq 3 ]
"$ZCBENCH" trend --fail-on-regression 5 --pass-cant-tell "$TMP/noisy" >/dev/null 2>&1
rc=$?
check "gate, --pass-cant-tell: exit 0 (got $rc)" [ "$rc" -eq 0 ]

# Bad series, each handled and said.
gen "$TMP/bad" 8 0.03 99 0
cp "$TMP/bad/night-003.json" "$TMP/bad/copy-of-3.json"
echo '{"schema": "zcbench-noise"}' >"$TMP/bad/noise.json"
python3 - "$TMP/bad" <<'PY'
import json, sys
d = sys.argv[1]
# A night whose splice run failed.
j = json.load(open(d + "/night-005.json"))
for r in j["runs"]:
    if r["key"].get("proxy") == "splice":
        r["status"] = "error"
json.dump(j, open(d + "/night-005.json", "w"))
# A second file of night 6, later that day; a night weeks after the others.
j = json.load(open(d + "/night-006.json"))
j["meta"]["date"] = "2026-01-06T15:00:00Z"; j["invocation"] = "second-of-6"
json.dump(j, open(d + "/night-006b.json", "w"))
j["meta"]["date"] = "2026-03-01T03:00:00Z"; j["invocation"] = "late"
json.dump(j, open(d + "/night-late.json", "w"))
PY
"$ZCBENCH" trend "$TMP/bad" >"$TMP/bad.txt" 2>&1
rc=$?
check "bad series: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "a file of another schema: left out, said" grep -q 'left out .*noise.json' "$TMP/bad.txt"
check "a copy of a night: left out, said" grep -q 'left out .*: the same invocation as' "$TMP/bad.txt"
check "two files of one night: both kept, said" grep -q 'two files of 2026-01-06: .*each kept as a night' "$TMP/bad.txt"
check "a gap of weeks: said" grep -q 'a gap of [0-9]* days: 2026-01-08 to 2026-03-01' "$TMP/bad.txt"
check "a failed run: its night left out of its series, said" \
	grep -A1 -F "$SPLICE" "$TMP/bad.txt" | grep -q '2026-01-05 left out (error)'
check "10 nights kept (11 files less the copy)" \
	grep -q '^trend: 10 nights' "$TMP/bad.txt"
"$ZCBENCH" trend "$TMP/none" >/dev/null 2>"$TMP/e"
rc=$?
check "a missing path: exit 2 (got $rc)" [ "$rc" -eq 2 ]
mkdir -p "$TMP/empty"
"$ZCBENCH" trend "$TMP/empty" >/dev/null 2>"$TMP/e"
rc=$?
check "a folder without results: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "a folder without results: said" grep -q 'no results file' "$TMP/e"
"$ZCBENCH" trend --newest 2 "$TMP/step" >/dev/null 2>"$TMP/e"
rc=$?
check "--newest 2: exit 2, an interval needs 3 (got $rc)" [ "$rc" -eq 2 ]
finish
