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
. benchmarks/bench_lib.sh
bench_header bench-rr
out=$(mktemp -d /tmp/zc-rr.XXXXXX)
bench_on_exit "rm -rf '$out'"
bench/zcbench run workloads/rr.ini --out "${OUT:-results}" "$@" | tee "$out/run.txt"
f=$(sed -n 's/^results: //p' "$out/run.txt" | tail -n 1)
[ -s "$f" ] || { bench_verdict "no results file (the run failed; its output is above)"; exit 1; }
bench/zcbench plot "$f" >"$out/plot.txt" 2>&1 ||
	{ echo "zcbench plot failed (the crossover picture is missing):"; cat "$out/plot.txt"; }

bench_headline "$f" >"$out/headline.json"
# jq: lines, one per splice-or-sendfile over copy pair of runs (zcbench's,
# HAProxy's, nginx's; not zcbench against HAProxy) as [{pair, size, value,
# lo, hi}] by size; cross, the crossover of one line: the smallest size from
# which every ratio is above 1, and from which every interval's low end is.
defs='def zc: split(" ")[0] | split("/") | (.[0] | test("splice|sendfile")) and (.[1] | test("copy"));
	def lines: [$hl[0][] | select(.rr != null and (.rr | test("object=[0-9]+")) and (.ratio | zc)) |
		{pair: "\(.numerator)/\(.denominator)", value, lo, hi, name: (.numerator | sub("^rr-"; "")),
		 size: (.rr | capture("object=(?<s>[0-9]+)").s | tonumber)}] |
		group_by(.pair) | map(sort_by(.size));
	def kb: if . >= 1048576 then "\(. / 1048576)M" elif . >= 1024 then "\(. / 1024)k" else "\(.)" end;
	def r2: . * 100 | round / 100;
	def from(f): map(f) as $b | [range(0; $b | length) | select($b[.:] | all)] | first;
	def at(i): if i == null then "never" else .[i].size | kb end;
	def cross: [at(from(.value > 1)), at(from(.lo != null and .lo > 1))];
	def us: if . == null then "-" else . | round | tostring end;'

# Transactions per core and latency, a row per run and object size: the
# latency percentiles of every sample'"'"'s histogram merged (latency_merged).
echo
echo "transactions/s per DUT core (median of repetitions) and latency (all samples merged):"
jq -r --slurpfile hl "$out/headline.json" "$defs"' ["run", "object", "tps/core", "p50us", "p99us", "p99.9us", "DUTcores", "status"],
	(.runs[] | select(.key.traffic == "rr") | [.name, (.key.object_size | kb),
	 (.summary.tps_per_core.median // null | us), (.latency_merged.p50_us | us),
	 (.latency_merged.p99_us | us), (.latency_merged.p999_us | us),
	 (.summary.dut_busy_cores.median // null | if . == null then "-" else . * 100 | round / 100 | tostring end),
	 .status]) | @tsv' "$f" | column -t -s $'\t' -R 2,3,4,5,6,7 | sed 's/^/  /'

echo
echo "splice (sendfile) over copy, transactions per core, by object size (95% interval);"
echo "-> the smallest size from which splice wins at every larger size, and from which its interval is clear of 1:"
jq -r --slurpfile hl "$out/headline.json" "$defs"' lines | .[] | "  \(.[0].pair):\n    " +
	([.[] | "\(.size | kb) \(.value | r2)" +
	  (if .lo == null then "" else " [\(.lo | r2)-\(.hi | r2)]" end)] | join(", ")) +
	"\n    -> wins from \(cross[0]), clear of 1 from \(cross[1])"' "$f"
verdict=$(jq -r --slurpfile hl "$out/headline.json" "$defs"' lines | map("\(.[0].name) \(cross | join("/"))") | join(", ")' "$f")
bench_verdict "${verdict:+splice wins per core from (wins/clear of 1): }${verdict:-no splice/copy pair in the headline (see the run table)}; results: $f"
