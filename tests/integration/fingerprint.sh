#!/usr/bin/env bash
# The fingerprint is in every results file written by the smoke workload,
# emulated runs are labelled, and before-after / pipebench produce the table.
. "$(dirname "$0")/../lib.sh"

"$ZCBENCH" run workloads/smoke.ini --out "$TMP" --only src-vmsplice --only src-vmsplice-as-writev \
	--warmup 0.1 --duration 0.3 --tail 0.1 >"$TMP/run.txt" 2>&1 || { rc=$?; cat "$TMP/run.txt"; fail "smoke run exited $rc"; }
f=$(ls "$TMP"/*.json | head -1)
jq -e '.fingerprint | type == "object" and (.probes.vmsplice_to_pipe.verdict | length > 0)
       and (.verdicts | length > 3) and (.label | length > 0) and .emulated == false' "$f" >/dev/null ||
	fail "results file has no fingerprint: $(jq -c .fingerprint "$f" | head -c 300)"
jq -e '.runs[] | select(.name == "src-vmsplice-as-writev") | .emulated == true' "$f" >/dev/null ||
	fail "vmsplice-as-writev run not labelled emulated"
jq -e '.runs[] | select(.name == "src-vmsplice") | .emulated == false' "$f" >/dev/null ||
	fail "vmsplice run labelled emulated"
grep -q '^kernel fingerprint: vmsplice=' "$TMP/run.txt" || fail "run summary lacks the fingerprint line"

"$ZCBENCH" pipebench --pattern vm-splice,vm-splice-as-writev --chunk 64k --duration 0.1 \
	--repetitions 1 --out "$TMP/pb" >"$TMP/pb.txt" 2>&1 || { rc=$?; cat "$TMP/pb.txt"; fail "pipebench exited $rc"; }
p=$(ls "$TMP"/pb/*.json | head -1)
jq -e '.schema == "zcbench-pipebench" and (.runs | length == 2) and
       ([.runs[] | .summary.calls_per_s.median > 0] | all) and (.fingerprint | type == "object")' "$p" >/dev/null ||
	fail "pipebench results incomplete"
"$ZCBENCH" before-after "$f" "$p" >"$TMP/ba.txt" || fail "before-after exited $?"
grep -Eq '^vmsplice user buf .*, chunk 64k, after emulated: [-+][0-9.]+%' "$TMP/ba.txt" &&
	grep -A2 '^vmsplice user buf' "$TMP/ba.txt" | grep -Eq '^  after +vmsplice-as-writev +[0-9.]+ Gbps/core' ||
	{ cat "$TMP/ba.txt"; fail "before-after lacks the vmsplice row"; }
grep -Eq '^vm-splice +64k .*[-+][0-9.]+%' "$TMP/ba.txt" || { cat "$TMP/ba.txt"; fail "before-after lacks the vm-splice row"; }
# The number beside an answer is that answer's estimate (the geometric
# means' change), the medians' beside it where they differ.
COLUMNS=300 "$ZCBENCH" before-after results/fixtures/emulated.json >"$TMP/be.txt" 2>&1
h=$(sed -n 's/^vmsplice user buf .*after emulated: \([-+][0-9.]*%\).*/\1/p' "$TMP/be.txt" | head -n1)
v=$(grep -A3 '^vmsplice user buf' "$TMP/be.txt" | tail -n1 | grep -Eo '(: |changed )[-+][0-9.]+%' | head -n1 | grep -Eo '[-+][0-9.]+%')
[ -n "$h" ] && [ "$h" = "$v" ] || { cat "$TMP/be.txt"; fail "before-after: the header's change ($h) is not its answer's estimate ($v)"; }
grep -q '^vmsplice user buf .*(geometric means; the medians below -35.0%)' "$TMP/be.txt" ||
	{ cat "$TMP/be.txt"; fail "before-after: the medians' change not beside the estimate"; }
"$ZCBENCH" before-after /dev/null >/dev/null 2>&1; [ $? = 2 ] || fail "before-after on a non-JSON file should exit 2"
"$ZCBENCH" pipebench --chunk 3k >/dev/null 2>&1; [ $? = 2 ] || fail "pipebench --chunk 3k should exit 2"
echo "pass: fingerprint in results, emulated labelled, before-after table"
