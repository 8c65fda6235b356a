#!/usr/bin/env bash
# The headline ratios of a results file with their spread: the median of the
# per-round paired ratios with its 95% bootstrap interval (zcbench's own
# headline), and the least and greatest per-round ratio (each round ran
# every contender once). Peers are marked [peer]. Usage: peers-ratios.sh FILE
set -u
f=$1
echo
echo "Ratios of Gbps per core (DUT busy time from /proc/stat, softirq included), $f"
jq -r '
	def r2: if . == null then "n/a" else (. * 100 | round / 100 | tostring) end;
	def pad($n): tostring | . + " " * ([$n - length, 0] | max);
	.runs as $runs |
	def run($name; $chunk): [$runs[] | select(.name == $name and .key.chunk == $chunk)][0];
	def byround($run): [$run.samples[]? | select(.status == "ok" and (.disturbed | not))
		| {key: (.round // .rep | tostring), value: .gbps_per_core}] | from_entries;
	"  \("ratio" | pad(44)) \("chunk" | pad(6)) \("median [95% CI]" | pad(22)) \("per-round min-max" | pad(18)) n",
	(.headline[] | . as $h |
	 byround(run($h.numerator; $h.chunk)) as $a | byround(run($h.denominator; $h.chunk)) as $b |
	 [$a | keys[] | select($b[.] != null and $b[.] > 0) | $a[.] / $b[.]] as $per |
	 "  \($h.ratio | pad(44)) \((if $h.chunk % 1048576 == 0 then "\($h.chunk / 1048576)M" else "\($h.chunk / 1024)k" end) | pad(6)) \(("\($h.value | r2)x" + (if $h.lo then " [\($h.lo | r2)-\($h.hi | r2)]" else "" end)) | pad(22)) \((if ($per | length) > 0 then "\($per | min | r2)-\($per | max | r2)" else "n/a" end) | pad(18)) \($per | length)")
' "$f"
