#!/usr/bin/env bash
# Verdicts with three answers on synthetic files made from a real `make bench`
# file (results/fixtures/bench.json: workloads/default.ini, 3 interleaved
# repetitions), as issue 29 item 7 asks:
#  - a copy from "another invocation" with one run's Gbit/s per core halved:
#    the gate catches it (exit 1) and names the run and its ratio over send, from
#    one invocation a side held to the stated spread between invocations;
#  - every run's Gbit/s per core times 0.99: never a regression, never exit 1,
#    no run called slower;
#  - the file against itself: never exit 1;
#  - the gate's exit codes: 3 for can't tell, 0 with --pass-cant-tell.
. "$(dirname "$0")/../lib.sh"
# Lines whole, as on a wide terminal: width.sh measures the fitted text.
export COLUMNS=200
command -v python3 >/dev/null || skip "python3 missing (make deps)"
B=results/fixtures/bench.json

python3 - "$B" "$TMP" <<'PY' || fail "cannot make the synthetic files"
import copy, json, sys
base = json.load(open(sys.argv[1]))
out = sys.argv[2]
def variant(path, fn, invocation="another-invocation"):
    d = copy.deepcopy(base)
    d["invocation"] = invocation
    for r in d["runs"]:
        for s in r["samples"]:
            fn(r, s)
    json.dump(d, open(path, "w"))
def halve(r, s):
    if r["name"] == "src-sendfile":
        for k in ("gbps", "gbps_per_core"):
            if isinstance(s.get(k), (int, float)):
                s[k] /= 2
def wobble(r, s):
    if isinstance(s.get("gbps_per_core"), (int, float)):
        s["gbps_per_core"] *= 0.99
variant(out + "/half.json", halve)
variant(out + "/wobble.json", wobble)
# The same halving in one invocation (paired by rounds).
variant(out + "/half-same.json", halve, base.get("invocation"))
PY

G="--fail-on-regression 5"
# -50% on one run at n=3, from another invocation: caught, exit 1, named.
"$ZCBENCH" compare "$B" "$TMP/half.json" $G >"$TMP/half.out" 2>"$TMP/half.err"
rc=$?
check "-50% on src-sendfile: exit 1 (got $rc)" [ $rc -eq 1 ]
check "-50%: REGRESSION names src-sendfile on stderr" grep -q 'REGRESSION .*sendfile.*gbps_per_core -50.0%' "$TMP/half.err"
check "-50%: the gate's line for it says REGRESSION" \
	grep -Eq '^  REGRESSION src-sendfile@[^:]*\.gbps_per_core: changed -50\.0% \[' "$TMP/half.out"
# The run and its ratio over send (halved with it); nothing else.
check "-50%: two regressions counted, the run and its ratio" grep -q '^regression gate 5%: 2 regressions,' "$TMP/half.out"
check "-50%: the ratio sendfile/send is the other" grep -Eq '^  REGRESSION sendfile/send source@[^:]*\.ratio: changed -50\.0% \[' "$TMP/half.out"
check "-50%: no other run called a regression" [ "$(grep -c '^  REGRESSION' "$TMP/half.out")" -eq 2 ]
check "-50%: one invocation a side, no profile: says the spread is the stated default" \
	grep -q 'held to a stated spread between invocations of 12%' "$TMP/half.out"
# Only Gbit/s per core is gated by default: one line per run.
runs=$(jq '.runs | length' "$B")
check "gated by default: Gbit/s per core of each of the $runs runs" \
	[ "$(sed -n '/^Gate: /,$p' "$TMP/half.out" | grep -c '\.gbps_per_core: ')" -eq "$runs" ]
# The same drop within one invocation: paired by rounds, still caught.
"$ZCBENCH" compare "$B" "$TMP/half-same.json" $G >"$TMP/hs.out" 2>&1
rc=$?
check "-50% paired by rounds: exit 1 (got $rc)" [ $rc -eq 1 ]
check "-50% paired: the interval says paired" grep -Eq '^  REGRESSION src-sendfile@.*\.gbps_per_core: changed -50\.0%' "$TMP/hs.out"
"$ZCBENCH" compare --json "$B" "$TMP/half-same.json" $G >"$TMP/hs.json" 2>/dev/null
check "-50% paired: in JSON too" jq -e '[.figures[] | select(.regression and .kind == "metric")] | length == 1 and
	(.[0] | .interval.paired and .run == "src-sendfile@64k/1M" and .change == -50)' "$TMP/hs.json"

# -1% on every run: never a regression, never "slower", never exit 1.
"$ZCBENCH" compare "$B" "$TMP/wobble.json" $G >"$TMP/wob.out" 2>"$TMP/wob.err"
rc=$?
check "-1% everywhere: not exit 1 (got $rc)" [ $rc -ne 1 ]
check "-1% everywhere: exit 3 or 0 (got $rc)" bash -c "[ $rc -eq 3 ] || [ $rc -eq 0 ]"
check "-1% everywhere: no REGRESSION" bash -c "! grep -q REGRESSION '$TMP/wob.out' '$TMP/wob.err'"
check "-1% everywhere: 0 regressions" grep -q '^regression gate 5%: 0 regressions,' "$TMP/wob.out"
# Can't tell says how small a change it could have seen.
if [ $rc -eq 3 ]; then
	check "can't tell: says what it could see" grep -q "can't tell at +-5%: .*could see -[0-9]*%" "$TMP/wob.out"
	check "can't tell: (exit 3) on the summary" grep -q "CAN'T TELL (exit 3)$" "$TMP/wob.out"
	"$ZCBENCH" compare "$B" "$TMP/wobble.json" $G --pass-cant-tell >/dev/null 2>&1
	rc=$?
	check "--pass-cant-tell: exit 0 (got $rc)" [ $rc -eq 0 ]
fi

# The file against itself: never exit 1.
"$ZCBENCH" compare "$B" "$B" $G >"$TMP/self.out" 2>&1
rc=$?
check "a file against itself: not exit 1 (got $rc)" [ $rc -ne 1 ]
check "a file against itself: no REGRESSION" bash -c "! grep -q REGRESSION '$TMP/self.out'"
# Without a gate: the words, no gate, exit 0.
"$ZCBENCH" compare "$B" "$TMP/half.json" >"$TMP/nogate.out" 2>&1
rc=$?
check "no gate: exit 0 (got $rc)" [ $rc -eq 0 ]
check "no gate: the change's answer and interval under its row" \
	grep -Eq '^ {18}changed -50\.0% \[[-+0-9.]+%, [-+0-9.]+%\], could see .*, unpaired' "$TMP/nogate.out"
# --gate names what is gated; a metric that is not one is refused.
"$ZCBENCH" compare "$B" "$TMP/half.json" $G --gate gbps >"$TMP/gbps.out" 2>&1
check "--gate gbps: src-sendfile's gbps halved is caught" grep -q '^  REGRESSION src-sendfile@.*\.gbps: changed' "$TMP/gbps.out"
"$ZCBENCH" compare "$B" "$TMP/half.json" $G --gate nosuch >"$TMP/bad.out" 2>&1
rc=$?
check "--gate nosuch: exit 2 (got $rc)" [ $rc -eq 2 ]
check "--gate nosuch: names the metric" grep -q "unknown metric 'nosuch'" "$TMP/bad.out"

# The headline ratios are gated too (issue 29 item 2): splice's Gbit/s per
# core at 64k/1M halved halves splice/copy there, a regression of the ratio.
jq '.invocation = "another" | .runs[] |= (if .name == "proxy-splice" and .key.chunk == 65536
	then .samples[] |= (.gbps_per_core /= 2) else . end)' "$B" >"$TMP/splice-half.json"
"$ZCBENCH" compare "$B" "$TMP/splice-half.json" $G >"$TMP/sh.out" 2>&1
rc=$?
check "splice halved: exit 1 (got $rc)" [ $rc -eq 1 ]
check "splice halved: the ratio's row in the table" \
	grep -Eq '^  splice/copy proxy@64k/1M +[0-9.]+x -> +[0-9.]+x  changed -50\.0% \[' "$TMP/sh.out"
check "splice halved: the ratio's gate line says REGRESSION" \
	grep -q '^  REGRESSION splice/copy proxy@64k/1M\.ratio: changed -50\.0%' "$TMP/sh.out"
check "the other ratios are gated too (one line each)" \
	[ "$(sed -n '/^Gate: /,$p' "$TMP/sh.out" | grep -c '\.ratio: ')" -eq "$(jq '.headline | length' "$B")" ]
"$ZCBENCH" compare "$B" "$TMP/splice-half.json" $G --gate gbps_per_core >"$TMP/sh2.out" 2>&1
check "--gate gbps_per_core: no ratio gated" bash -c "! sed -n '/^Gate: /,\$p' '$TMP/sh2.out' | grep -q '\.ratio: '"
"$ZCBENCH" compare "$B" "$TMP/splice-half.json" $G --gate headline >"$TMP/sh3.out" 2>&1
check "--gate headline: only the ratios" bash -c "! sed -n '/^Gate: /,\$p' '$TMP/sh3.out' | grep -q '\.gbps_per_core: ' &&
	sed -n '/^Gate: /,\$p' '$TMP/sh3.out' | grep -q '\.ratio: '"

# A run is its whole key (issue 29 items 5, 7): proxy-splice (pipe 1M) and
# proxy-splice-pipe64k differ in the pipe alone and stay apart everywhere.
check "compare: the two splice runs are two gate lines" \
	bash -c "grep -q ' proxy-splice@64k/1M\.gbps_per_core: ' '$TMP/half.out' &&
		 grep -q ' proxy-splice-pipe64k@64k/64k\.gbps_per_core: ' '$TMP/half.out'"
"$ZCBENCH" report --mail "$TMP/half.json" "$B" >"$TMP/mail" 2>&1
check "mail: splice before/after at 64k/1M and at 64k/64k, two rows" \
	bash -c "grep -Eq '^  splice +splice +64k/1M ' '$TMP/mail' && grep -Eq '^  splice +splice +64k/64k ' '$TMP/mail'"
if command -v gnuplot >/dev/null; then
	# A night later: one date is no history (plot draws none, issue 32).
	jq '.meta.date = "2026-12-07T03:00:00Z"' "$TMP/half.json" >"$TMP/half-later.json"
	"$ZCBENCH" plot --out "$TMP/pl" "$B" "$TMP/half-later.json" >/dev/null 2>&1
	check "history: a series per pipe size" \
		bash -c "grep -q '^# proxy:splice@64k/1M/' '$TMP/pl/history.csv' &&
			 grep -q '^# proxy:splice@64k/64k/' '$TMP/pl/history.csv'"
	check "core picture: a label per pipe size" \
		bash -c "grep -q '\"proxy:splice@64k/1M\"' '$TMP/pl/core.csv' &&
			 grep -q '\"proxy:splice@64k/64k\"' '$TMP/pl/core.csv'"
fi
# Runs that differ by a mode option alone: two keys, two series, two rows.
jq '.runs += [.runs[] | select(.name == "proxy-splice" and .key.chunk == 65536) |
	.name = "proxy-splice-cap" | .options.mode_opts = "splice_chunk_cap=1"]' "$B" >"$TMP/opts.json"
"$ZCBENCH" compare "$TMP/opts.json" "$TMP/opts.json" --fail-on-regression 5 >"$TMP/opts.out" 2>&1
check "compare: a run with mode_opts is its own key" \
	grep -q ' proxy-splice-cap@64k/1M,opts=splice_chunk_cap=1\.gbps_per_core: ' "$TMP/opts.out"
"$ZCBENCH" export --format csv "$TMP/opts.json" >"$TMP/opts.csv"
check "csv: its options column" grep -q '^[^,]*,.*,proxy-splice-cap,.*,opts=splice_chunk_cap=1$' "$TMP/opts.csv"
"$ZCBENCH" export --format prometheus "$TMP/opts.json" >"$TMP/opts.prom"
check "prometheus: its options label" grep -q 'run="proxy-splice-cap",.*options="opts=splice_chunk_cap=1"' "$TMP/opts.prom"
"$ZCBENCH" size --target 10G "$B" >"$TMP/size" 2>&1
check "size: a row per pipe size" \
	bash -c "grep -q 'proxy splice, 1 conn, 64k/1M' '$TMP/size' && grep -q 'proxy splice, 1 conn, 64k/64k' '$TMP/size'"
# before-after --json (results/README.md): every row the text prints, each
# answer the text's, and the estimate the mean of the logs recomputed here
# from the samples of emulated.json.
E=results/fixtures/emulated.json
"$ZCBENCH" before-after --json "$E" >"$TMP/ba.json" || fail "before-after --json exited $?"
"$ZCBENCH" before-after "$E" >"$TMP/ba.txt"
check "before-after --json: schema and a row per text block" \
	[ "$(jq -r '.schema + " " + (.rows | length | tostring)' "$TMP/ba.json")" = \
	  "zcbench-before-after $(grep -c '^  before ' "$TMP/ba.txt")" ]
check "before-after --json: the answers the text gives, in order" \
	[ "$(jq -r '.rows[].answer | sub("cant_tell"; "can'"'"'t tell")' "$TMP/ba.json" | paste -sd,)" = \
	  "$(grep -oE "^  (changed|unchanged|can't tell)" "$TMP/ba.txt" | sed 's/^  //' | paste -sd,)" ]
check "before-after --json: each estimate the mean of the logs of the samples" python3 - "$E" "$TMP/ba.json" <<'PY'
import json, math, sys
runs = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
def logs(name):
    return [math.log(s["gbps_per_core"]) for s in runs[name]["samples"]
            if s["status"] == "ok" and not s.get("disturbed") and s.get("gbps_per_core")]
rows = json.load(open(sys.argv[2]))["rows"]
assert rows, "no rows"
for r in rows:
    b, a = logs(r["before_run"]), logs(r["after_run"])
    want = 100 * math.expm1(sum(a) / len(a) - sum(b) / len(b))
    assert abs(want - r["estimate_pct"]) < 1e-6, (r["before_run"], want, r["estimate_pct"])
PY
finish
