#!/usr/bin/env bash
# make bench-netns: workloads/netns.ini on loopback, then across network
# namespaces (veth), then both headline sets side by side. Extra arguments
# go to both runs (e.g. --repetitions=1 --duration=1).
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
. benchmarks/bench-hosts.sh
bench_header bench-netns
bench_hosts bench-netns workloads/netns.ini "$@"
[ ${#files[@]} -eq 2 ] || {
	echo "no netns run: nothing to set side by side"
	bench_verdict "loopback only (no netns run: not root); results: ${files[*]}"
	exit 0
}
echo
echo "Headline side by side: Gbps per core of the device under test, median"
jq -rn --slurpfile a <(bench_headline "${files[0]}") --slurpfile b <(bench_headline "${files[1]}") '
	def fmt: if . == null then "n/a" else (. * 100 | round / 100 | tostring) end;
	def pad($n): tostring | . + " " * ([$n - length, 0] | max);
	def cell: if . == null or .value == null then "n/a" else "\(.value | fmt)x (\(.numerator_gbps_per_core | fmt) vs \(.denominator_gbps_per_core | fmt))" end;
	def pick($h; $r; $c): [$h[] | select(.ratio == $r and .chunk == $c)][0];
	($a[0]) as $la | ($b[0]) as $lb |
	"  \("ratio" | pad(27)) \("chunk" | pad(6)) \("loopback" | pad(26)) veth (netns)",
	($la + $lb | map({ratio, chunk}) | reduce .[] as $k ([]; if index([$k]) then . else . + [$k] end) | .[] as $k |
	 "  \($k.ratio | pad(27)) \(($k.chunk / 1024 | tostring) + "k" | pad(6)) \(pick($la; $k.ratio; $k.chunk) | cell | pad(26)) \(pick($lb; $k.ratio; $k.chunk) | cell)")'
echo
echo "results: ${files[0]} ${files[1]}"
bench_verdict "$(jq -rn --slurpfile a <(bench_headline "${files[0]}") --slurpfile b <(bench_headline "${files[1]}") '
	[$a[0][], $b[0][]] | map(.value | numbers) | length |
	"\(.) headline ratios with a figure, loopback and veth side by side above"')"
