#!/usr/bin/env bash
# Every mode on loopback for about a second: each run either moves verified
# bytes, or is marked unavailable with the reason (never a silent success).
. "$(dirname "$0")/../lib.sh"
$ZCBENCH run workloads/smoke.ini --out "$TMP" >"$TMP/out.txt" 2>&1
rc=$?
cat "$TMP/out.txt"
f=$(result_in "$TMP")
check "exit code 0 (got $rc)" [ "$rc" -eq 0 ]
check "results file written" [ -s "$f" ]
v=$(awk '/define ZC_SCHEMA_MAJOR/ { M = $3 } /define ZC_SCHEMA_MINOR/ { m = $3 } END { print M "." m }' bench/lib/zcbench.h)
check "schema and status" [ "$(jq -r '.schema + " " + .schema_version + " " + .status' "$f")" = "zcbench-results $v complete" ]
n=$(jq '.runs | length' "$f")
check "one entry per smoke run ($n)" [ "$n" -ge 9 ]
while IFS='|' read -r name status reason bytes verified; do
	case $status in
	unavailable)
		# Plain syscalls every kernel zcbench supports has: never excused.
		case $name in proxy-copy|proxy-splice|src-send|src-vmsplice|src-tee|src-sendfile|src-splice-file)
			bad "$name unavailable: $reason"; continue ;;
		esac
		check "$name unavailable says why" [ -n "$reason" ] ;;
	ok) check "$name moved bytes ($bytes)" [ "$bytes" -gt 0 ] ;;
	*) bad "$name: $status: $reason" ;;
	esac
done < <(jq -r '.runs[] | [.name, .status, (.reason // ""),
	(.samples[0].roles.sink.window.bytes // 0), .verified] | map(tostring) | join("|")' "$f")
check "recv sinks verify (every run with an ok sample)" [ "$(jq '[.runs[] | select(.key.sink == "recv" and .status == "ok") | .verified] | all' "$f")" = true ]
check "splice-null sink says it does not verify" \
	[ "$(jq '[.runs[] | select(.key.sink == "splice-null") | .verified] | any' "$f")" = false ]
check "metadata: kernel release" [ "$(jq -r .meta.kernel.release "$f")" = "$(uname -r)" ]
check "metadata: git sha, compiler, sysctls" \
	[ "$(jq '.meta.git.sha != null and .meta.compiler != null and (.meta.sysctls | length) > 5' "$f")" = true ]
check "placement recorded" [ "$(jq '[.runs[].placement.dut_alone] | length' "$f")" -eq "$n" ]
check "headline ratios from the file" [ "$(report_json "$f" | jq '.headline | length')" -ge 2 ]
check "table printed with headline" grep -q "splice/copy proxy" "$TMP/out.txt"
finish
