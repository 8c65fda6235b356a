#!/usr/bin/env bash
# make bench-precision: the default workload's headline pairs taking turns in
# ABBA slices of one window (workloads/precision.ini, issue 22), and each
# slice ratio's half-width against the target (PRECISION_TARGET, percent,
# default 3). Extra arguments go to zcbench run (e.g. --repetitions=5).
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-precision
target=${PRECISION_TARGET:-3}
out=$(mktemp -d /tmp/zc-precision.XXXXXX)
bench_on_exit "rm -rf '$out'"
t0=$(date +%s)
bench/zcbench run workloads/precision.ini --out "${OUT:-results}" "$@" | tee "$out/run.txt"
took=$(($(date +%s) - t0))
f=$(sed -n 's/^results: //p' "$out/run.txt" | tail -n 1)
[ -s "$f" ] || { bench_verdict "no results file (the run failed; its output is above)"; exit 1; }
echo
echo "half-width of each slice ratio against the $target% target (the run took $took s):"
bench/zcbench report --json "$f" | jq '.files[0].headline_slices // []' >"$out/slices.json"
jq -r --argjson t "$target" '.[] |
	"  \(.run) \(.b)/\(.a) chunk \(.chunk / 1024)k: " +
	(if .ratio == null then "no ratio (\(.why))"
	 elif .half_width_pct == null then "\(.ratio * 1000 | round / 1000), no interval (\(.why))"
	 else "\(.ratio * 1000 | round / 1000) +-\(.half_width_pct * 10 | round / 10)% " +
	      (if .half_width_pct <= $t then "within" else "OVER" end) end)' "$out/slices.json"
bench_verdict "$(jq -r --argjson t "$target" --arg took "$took" '. as $all | [.[] | select(.half_width_pct != null)] as $r |
	($r | map(select(.half_width_pct <= $t)) | length) as $ok |
	($r | max_by(.half_width_pct)) as $w |
	"\($ok) of \($all | length) slice ratios within +-\($t)% in \($took) s" +
	(if $w then " (widest +-\($w.half_width_pct * 10 | round / 10)%: \($w.run) \($w.b)/\($w.a) at \($w.chunk / 1024)k)" else "" end)' "$out/slices.json"); results: $f"
