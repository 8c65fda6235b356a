#!/usr/bin/env bash
# The headline ratios of a results file with their spread: the median of the
# per-round paired ratios with its 95% bootstrap interval (zcbench's own
# headline), and the least and greatest per-round ratio (each round ran
# every contender once). Peers are marked [peer]. Under each ratio, each
# contender's system calls: all of them per MB moved and the payload bytes
# per data call (the calls that move bytes: splice, recvfrom, sendto...),
# medians over its samples, from the BPF counters (--counters=bpf; "no BPF
# counters" when the run had none), so a reader sees why two ratios differ.
# Usage: peers-ratios.sh FILE
set -u
f=$1
echo
echo "Ratios of Gbps per core (DUT busy time from /proc/stat, softirq included), $f"
# The headline rows zcbench computes (without the emulated after rows).
hl=$(mktemp)
trap 'rm -f "$hl"' EXIT
"${ZCBENCH:-bench/zcbench}" report --json "$f" |
	jq '[.files[0].headline[] | select(.side != "after, emulated")]' >"$hl" || exit 1
jq -r --slurpfile hl "$hl" '
	def r2: if . == null then "n/a" else (. * 100 | round / 100 | tostring) end;
	def r1: if . == null then "n/a" else (. * 10 | round / 10 | tostring) end;
	def pad($n): tostring | . + " " * ([$n - length, 0] | max);
	def sz: if . % 1048576 == 0 then "\(. / 1048576)M" else "\(. / 1024)k" end;
	def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	.runs as $runs |
	def run($name; $h): [$runs[] | select(.name == $name and (.key.chunk // $h.chunk) == $h.chunk and
		(.key.pipe_size == ($h.pipe_size // .key.pipe_size)))][0];
	def oks($run): [$run.samples[]? | select(.status == "ok" and (.disturbed | not))];
	def byround($run): [oks($run)[] | {key: (.round // .rep | tostring), value: .gbps_per_core}]
		| from_entries;
	# One contender: its syscalls per MB and payload bytes per data call.
	def calls($run): [oks($run)[] | .roles[$run.dut].counters.bpf | select(.syscalls != null)] as $b |
		if ($b | length) == 0 then "\($run.key[$run.dut]): no BPF counters"
		else ([$b[].syscalls_per_mb] | median) as $per_mb |
		     ([$b[] | [.syscalls[] | select(.bytes != null)] |
		       (map(.bytes) | add) / ([(map(.count) | add), 1] | max)] | median) as $bpc |
		     ([$b[] | .syscalls | to_entries[] | select(.value.bytes != null) | .key] | unique
		       | join("+")) as $which |
		     "\($run.key[$run.dut]): \($per_mb | r1) syscalls/MB, \(($bpc // 0) / 1024 | r1) KiB per data call (\($which))"
		end;
	"  \("ratio" | pad(44)) \("chunk" | pad(6)) \("pipe" | pad(5)) \("median [95% CI]" | pad(22)) \("per-round min-max" | pad(18)) n",
	($hl[0][] | . as $h | run($h.numerator; $h) as $num | run($h.denominator; $h) as $den |
	 byround($num) as $a | byround($den) as $b |
	 [$a | keys[] | select($b[.] != null and $b[.] > 0) | $a[.] / $b[.]] as $per |
	 "  \($h.ratio | pad(44)) \($h.chunk | sz | pad(6)) \(($h.pipe_size // 0) | sz | pad(5)) \((if $h.value == null then "n/a" else "\($h.value | r2)x" end + (if $h.lo then " [\($h.lo | r2)-\($h.hi | r2)]" else "" end)) | pad(22)) \((if ($per | length) > 0 then "\($per | min | r2)-\($per | max | r2)" else "n/a" end) | pad(18)) \($per | length)",
	 "      \(calls($num)); \(calls($den))")
' "$f"
