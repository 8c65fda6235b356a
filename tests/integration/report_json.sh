#!/usr/bin/env bash
# report --json (issue 32): the headline ratios with their intervals, n and
# answers, each run's figures and the fingerprint, and they agree with the
# text report, on every fixture; a short real run records the load average
# before and after and the steal time (results 1.9), and report prints them.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 missing (make deps)"
F=results/fixtures

for fx in bench rr emulated profile scale; do
	"$ZCBENCH" report --json $F/$fx.json >"$TMP/$fx.json" 2>"$TMP/$fx.err"
	check "$fx: --json exits 0 and is JSON" jqe '.schema == "zcbench-report" and (.files | length) == 1' "$TMP/$fx.json"
	COLUMNS=1000 "$ZCBENCH" report $F/$fx.json >"$TMP/$fx.txt" 2>&1
	# Every row of the JSON is a row of the text: size, value, interval,
	# answer, Gbps per core (3 figures), n; and no text row is missing from it.
	check "$fx: each size's ratios agree with the text" python3 - "$TMP/$fx.json" "$TMP/$fx.txt" <<'PY'
import json, re, sys, math
m = json.load(open(sys.argv[1]))["files"][0]
text = open(sys.argv[2]).read().splitlines()
def size(v):
    if v is None:    # a size neither side's mode passes on
        return "-"
    for u, s in ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "k")):
        if v >= u and v % u == 0:
            return "%d%s" % (v // u, s)
    return str(v)
def sig(v):
    d = 2 - int(math.floor(math.log10(abs(v)))) if v else 0
    return "%.*f" % (max(d, 0), v)
rows = [l for l in text if re.match(r"^    \S+/\S+ +(\d+\.\d\dx|n/a) ", l)]
assert len(rows) == len(m["headline"]), (len(rows), len(m["headline"]))
for h in m["headline"]:
    want = "%s/%s" % (size(h["chunk"]), size(h["pipe_size"]))
    if h["value"] is None:
        pat = r"^    %s +n/a " % re.escape(want)
    else:
        ci = "[%.2f-%.2f]" % (h["lo"], h["hi"]) if h["lo"] is not None else "no interval"
        pat = r"^    %s +%.2fx +%s +%s +%s / %s +\d" % (re.escape(want), h["value"], re.escape(ci),
              re.escape(h["answer_words"]), sig(h["numerator_gbps_per_core"]),
              sig(h["denominator_gbps_per_core"]))
    assert any(re.match(pat, l) for l in rows), (pat, h)
    assert h["answer"] in ("changed", "unchanged", "cant_tell"), h["answer"]
    assert h["side"] in ("this kernel", "before, measured", "after, measured", "after, emulated")
for b in m["headline_best"]:
    if b["value"] is None:
        continue
    ci = "[%.2f-%.2f]" % (b["lo"], b["hi"]) if b["lo"] is not None else "no interval"
    line = "%.2fx %s %s; %s vs %s Gbps/core" % (b["value"], ci, b["answer_words"], sig(b["numerator_gbps_per_core"]), sig(b["denominator_gbps_per_core"]))
    assert any(l.strip().startswith(line) for l in text), line
PY
	check "$fx: a row per run with its status and figures" \
		jqe --slurpfile r $F/$fx.json '.files[0].runs | length == ($r[0].runs | length) and all(.[]; .status != "" and has("gbps_per_core"))' "$TMP/$fx.json"
done
check "bench: the fingerprint's id is the text's" \
	grep -qF "kernel fingerprint: $(jq -r '.files[0].fingerprint.id' "$TMP/bench.json")" "$TMP/bench.txt"
check "bench: an after-mode without a run is named" \
	jqe '.files[0].missing_after | any(.ratio == "splice/copy proxy" and .after_modes == ["splice-as-copy"])' "$TMP/bench.json"
check "bench: splice/copy 64k is changed, above 1.05" \
	jqe '.files[0].headline | any(.ratio == "splice/copy proxy" and .chunk == 65536 and .answer == "changed" and .answer_words == "above 1.05" and .lo > 1.05)' "$TMP/bench.json"
check "scale: a pair without samples has a null value and can't tell" \
	jqe '.files[0].headline | all(.value == null and .answer == "cant_tell")' "$TMP/scale.json"
check "a file before 1.9: load and steal null, the text says so" \
	jqe '.files[0].load_avg == null and .files[0].steal_frac == null' "$TMP/bench.json"
check "a file before 1.9: the text says not recorded" grep -q "load average and steal: not recorded" "$TMP/bench.txt"
# Two files: one object each; an unreadable one exits 2 with the others kept.
"$ZCBENCH" report --json $F/bench.json $F/rr.json >"$TMP/two" 2>&1
check "two files: two objects" jqe '.files | length == 2' "$TMP/two"
echo '{' >"$TMP/bad.json"
"$ZCBENCH" report --json $F/bench.json "$TMP/bad.json" >"$TMP/one" 2>"$TMP/one.err"
rc=$?
check "an unreadable file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "an unreadable file: named on stderr" grep -q "bad.json" "$TMP/one.err"
check "an unreadable file: the readable one still in the JSON" jqe '.files | length == 1' "$TMP/one"
"$ZCBENCH" report --json --mail $F/bench.json >/dev/null 2>&1
rc=$?
check "--json with --mail: exit 2 (got $rc)" [ "$rc" -eq 2 ]

# A short real run: load before and after, steal over the run, sane values.
$ZCBENCH run workloads/smoke.ini --only src-send --duration 0.5 --warmup 0.1 --repetitions 1 \
	--out "$TMP/live" >"$TMP/live.txt" 2>&1 || fail "the short run (exit $?): $(tail -3 "$TMP/live.txt")"
f=$(result_in "$TMP/live")
check "live: load_avg before and after, three numbers >= 0" \
	jqe '.meta.load_avg | [.before, .after] | all(length == 3 and all(.[]; type == "number" and . >= 0))' "$f"
check "live: steal frac in [0, 1], steal_s <= cpu_s, cpu_s > 0" \
	jqe '.meta.steal | .frac >= 0 and .frac <= 1 and .steal_s >= 0 and .steal_s <= .cpu_s and .cpu_s > 0' "$f"
COLUMNS=1000 "$ZCBENCH" report "$f" >"$TMP/live.report" 2>&1
check "live: report prints load before and after and steal" \
	grep -Eq '^  load average \(1, 5, 15 min\): [0-9.]+ [0-9.]+ [0-9.]+ before, [0-9.]+ [0-9.]+ [0-9.]+ after, steal [0-9.]+% of CPU time$' "$TMP/live.report"
"$ZCBENCH" report --mail "$f" >"$TMP/live.mail" 2>&1
check "live: the mail quotes the load" grep -Eq '^load: +load average \(1, 5, 15 min\): [0-9.]+ ' "$TMP/live.mail"
"$ZCBENCH" report --json "$f" >"$TMP/live.rj"
jq '.meta.load_avg = "high"' "$f" >"$TMP/badload.json"
"$ZCBENCH" report "$TMP/badload.json" >/dev/null 2>"$TMP/badload.err"
rc=$?
check "a load_avg of the wrong type: exit 2 naming the key (got $rc)" \
	bash -c "[ $rc -eq 2 ] && grep -q 'meta.load_avg: a string' '$TMP/badload.err'"
check "live: report --json carries them" \
	jqe --slurpfile r "$f" '.files[0].load_avg == $r[0].meta.load_avg and .files[0].steal_frac == $r[0].meta.steal.frac' "$TMP/live.rj"
finish
