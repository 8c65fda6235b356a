#!/usr/bin/env bash
# make bench-netns: workloads/netns.ini on loopback, then across network
# namespaces (veth), then both headline sets side by side. Extra arguments
# go to both runs (e.g. --repetitions=1 --duration=1).
set -u
cd "$(dirname "$0")/.."
ZCBENCH=${ZCBENCH:-bench/zcbench}
OUT=${OUT:-results}
files=()
for host in loopback netns; do
	echo "== $host (hosts/$host.ini)"
	log=$(mktemp)
	"$ZCBENCH" run workloads/netns.ini --host "hosts/$host.ini" --out "$OUT" "$@" | tee "$log"
	rc=${PIPESTATUS[0]}
	f=$(sed -n 's/^results: \([^ ]*\).*/\1/p' "$log")
	rm -f "$log"
	[ -n "$f" ] || { echo "bench-netns: the $host run wrote no results (exit $rc)" >&2; exit 1; }
	[ "$rc" -eq 130 ] && exit 130
	files+=("$f")
done
echo
echo "Headline side by side: Gbps per core of the device under test, median"
jq -rn --slurpfile a "${files[0]}" --slurpfile b "${files[1]}" '
	def fmt: if . == null then "n/a" else (. * 100 | round / 100 | tostring) end;
	def pad($n): tostring | . + " " * ([$n - length, 0] | max);
	def cell: if . == null then "n/a" else "\(.value | fmt)x (\(.numerator_gbps_per_core | fmt) vs \(.denominator_gbps_per_core | fmt))" end;
	def pick($h; $r; $c): [$h[] | select(.ratio == $r and .chunk == $c)][0];
	($a[0].headline) as $la | ($b[0].headline) as $lb |
	"  \("ratio" | pad(27)) \("chunk" | pad(6)) \("loopback" | pad(26)) veth (netns)",
	($la + $lb | map({ratio, chunk}) | reduce .[] as $k ([]; if index([$k]) then . else . + [$k] end) | .[] as $k |
	 "  \($k.ratio | pad(27)) \(($k.chunk / 1024 | tostring) + "k" | pad(6)) \(pick($la; $k.ratio; $k.chunk) | cell | pad(26)) \(pick($lb; $k.ratio; $k.chunk) | cell)")'
echo
echo "results: ${files[0]} ${files[1]}"
