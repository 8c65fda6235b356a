#!/usr/bin/env bash
# make bench-rr: request/response over object sizes (workloads/rr.ini, issue
# 23): zcbench's copy and splice proxies and HAProxy's, keep-alive and churn,
# tps per core and p50/p99/p99.9 in the run table; then, from the headline,
# each program's splice/copy ratio of transactions per core by object size
# and its crossover: the smallest object size from which splice wins per
# core at every larger size measured ("clear" when the 95% interval is above
# 1 there too). The same lines are the rr_crossover picture on the dashboard
# (zcbench plot). Extra arguments go to zcbench run (e.g. --repetitions=1);
# the results folder is OUT (default results/).
set -u
cd "$(dirname "$0")/.."
. tests/bench_lib.sh
bench_header bench-rr
out=$(mktemp -d /tmp/zc-rr.XXXXXX)
bench_on_exit "rm -rf '$out'"
bench/zcbench run workloads/rr.ini --out "${OUT:-results}" "$@" | tee "$out/run.txt"
f=$(sed -n 's/^results: //p' "$out/run.txt" | tail -n 1)
[ -s "$f" ] || { bench_verdict "no results file (the run failed; its output is above)"; exit 1; }
bench/zcbench plot "$f" >"$out/plot.txt" 2>&1 ||
	{ echo "zcbench plot failed (the crossover picture is missing):"; cat "$out/plot.txt"; }

# jq: lines, one per pair of runs ([{pair, size, value, lo, hi}] by size);
# cross, the crossover of one line: the smallest size from which every ratio
# is above 1 (and, for "clear", every interval's low end too).
defs='def lines: [.headline[] | select(.rr != null and (.rr | test("object=[0-9]+"))) |
		{pair: "\(.numerator)/\(.denominator)", value, lo, hi,
		 size: (.rr | capture("object=(?<s>[0-9]+)").s | tonumber)}] |
		group_by(.pair) | map(sort_by(.size));
	def kb: if . >= 1048576 then "\(. / 1048576)M" elif . >= 1024 then "\(. / 1024)k" else "\(.)" end;
	def r2: . * 100 | round / 100;
	def from(f): map(f) as $b | [range(0; $b | length) | select($b[.:] | all)] | first;
	def cross: . as $l | ($l | from(.value > 1)) as $a | ($l | from(.lo != null and .lo > 1)) as $c |
		if $a == null then "splice never wins per core (up to \($l[-1].size | kb))"
		else "splice wins per core from \($l[$a].size | kb)" +
			(if $c == null then " (no interval clear of 1)"
			 else ", clear of 1 from \($l[$c].size | kb)" end) end;'
echo
echo "splice/copy, transactions per core, by object size (95% interval):"
jq -r "$defs"' lines | .[] | "  \(.[0].pair):\n    " +
	([.[] | "\(.size | kb) \(.value | r2)" +
	  (if .lo == null then "" else " [\(.lo | r2)-\(.hi | r2)]" end)] | join(", ")) +
	"\n    -> " + cross' "$f"
verdict=$(jq -r "$defs"' lines | map("\(.[0].pair): " + cross) | join("; ")' "$f")
bench_verdict "${verdict:-no splice/copy pair in the headline (see the run table)}; results: $f"
