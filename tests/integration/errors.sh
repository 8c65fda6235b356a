#!/usr/bin/env bash
# Bad input exits 2 and names file:line:key; a sink expecting another
# pattern seed reports the offset of the mismatch and fails the run.
. "$(dirname "$0")/../lib.sh"
printf '[workload]\nduration = 1\n\n[run x]\nchunk = 64q\n' >"$TMP/bad.ini"
$ZCBENCH run "$TMP/bad.ini" --out "$TMP/o" 2>"$TMP/err"
rc=$?
check "bad value: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "bad value: names file:line and key" grep -q "$TMP/bad.ini:5: key 'chunk'" "$TMP/err"
printf '[run x]\nsauce = send\n' >"$TMP/bad2.ini"
$ZCBENCH run "$TMP/bad2.ini" --out "$TMP/o" 2>"$TMP/err"
rc=$?
check "unknown key: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "unknown key: exit 2, file:line" grep -q "bad2.ini:2: unknown key 'sauce'" "$TMP/err"
$ZCBENCH run "$TMP/missing.ini" 2>"$TMP/err"
rc=$?
check "missing file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "missing file: exit 2, names it" grep -q "missing.ini" "$TMP/err"
$ZCBENCH run workloads/smoke.ini --duraton=1 2>"$TMP/err"
rc=$?
check "unknown flag: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "unknown flag: exit 2" grep -q -- "--duraton" "$TMP/err"
$ZCBENCH run workloads/smoke.ini --chunk=big 2>"$TMP/err"
rc=$?
check "bad flag value: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "bad flag value: exit 2" grep -q -- "--chunk" "$TMP/err"
check "no results folder made on bad input" [ ! -e "$TMP/o" ]

$ZCBENCH run workloads/smoke.ini --only src-send --sink-seed=2 --out "$TMP/m" >"$TMP/out" 2>&1
rc=$?
f=$(result_in "$TMP/m")
check "mismatch: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "mismatch: run failed" [ "$(jq -r '.runs[0].status' "$f")" = failed ]
check "mismatch: reason names offset and mode" \
	jq -e '.runs[0].reason | test("payload mismatch at stream offset [0-9]+ \\(sink mode recv\\)")' "$f"
check "mismatch: offset recorded" jq -e '.runs[0].samples[0].roles.sink.mismatch_offset >= 0' "$f"
finish
