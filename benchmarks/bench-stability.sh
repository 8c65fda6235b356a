#!/usr/bin/env bash
# make bench-stability: how far one headline ratio moves when nothing changed.
# The default workload (as make bench runs it) twice, interleaved: zcbench
# noise takes every run twice, A and B, in the same rounds, and each ratio is
# computed within A and within B (median of the per-repetition ratios); the
# spread is B/A - 1. The aim on a quiet machine: every ratio's 95% interval
# half-width under 3%, and the A/B spreads within it.
# ZC_STABILITY_BASELINE=1 measures the way it was done before rounds and
# paired ratios: two back-to-back `zcbench run` invocations, each ratio the
# ratio of the medians (works with any zcbench build: ZCBENCH=...).
# ZC_STABILITY_WORKLOAD, ZC_STABILITY_ARGS (default --counters=all, as make
# bench) and ZC_STABILITY_OUT (default: a temporary folder) change it.
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-stability
Z=${ZCBENCH:-bench/zcbench}
W=${ZC_STABILITY_WORKLOAD:-workloads/default.ini}
ARGS=${ZC_STABILITY_ARGS:---counters=all}
out=${ZC_STABILITY_OUT:-$(mktemp -d /tmp/zc-stability.XXXXXX)}
mkdir -p "$out" || exit 1
# |spread| of every ratio on stdin (one per line): the largest and the median.
summary() {
	awk '{ print ($1 < 0 ? -$1 : $1) }' | sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "no ratio with both sides: were all the samples disturbed (other work on the DUT core)? On a shared machine ZC_STABILITY_ARGS=\"--counters=all --foreign-max=100%\" keeps them"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "ratios: %d, |spread| median %.1f%%, largest %.1f%%\n", NR, m, v[NR] }'
}
if [ -n "${ZC_STABILITY_BASELINE:-}" ]; then
	for i in 1 2; do
		# shellcheck disable=SC2086
		"$Z" run "$W" $ARGS --out "$out/run$i" >"$out/run$i.txt" 2>&1 ||
			echo "run $i: exit $? (a run failed; its ratios are missing)"
	done
	a=$(ls "$out"/run1/*.json | head -n 1) b=$(ls "$out"/run2/*.json | head -n 1)
	[ -f "$a" ] && [ -f "$b" ] || { echo "no results files"; exit 1; }
	echo
	echo "Headline ratios, two back-to-back runs (ratio of the medians): the spread is second/first - 1"
	jq -r --slurpfile b <(bench_headline "$b") '.[] | . as $h |
		($b[0][] | select(.ratio == $h.ratio and .chunk == $h.chunk and
				  .pipe_size == $h.pipe_size) | .value) as $v |
		[$h.ratio, $h.value, $v, (if $h.value and $v then 100 * ($v / $h.value - 1) else null end)] |
		@tsv' <(bench_headline "$a") | awk -F'\t' '{ printf "  %-27s %8.3fx %8.3fx %+7.1f%%\n", $1, $2, $3, $4 }' |
		tee "$out/spreads.txt"
	line=$(awk '{ sub("%", "", $NF); print $NF }' "$out/spreads.txt" | summary)
	echo "$line"
	bench_verdict "two back-to-back runs, $line"
	exit 0
fi
# shellcheck disable=SC2086
"$Z" noise "$W" $ARGS --out "$out" --noise-out "$out/aa.noise" | tee "$out/noise.txt"
rc=${PIPESTATUS[0]}
[ -f "$out/aa.noise" ] || { echo "no noise file (exit $rc)"; exit 1; }
echo
line=$(jq -r '.ratios[] | .spread_pct // empty' "$out/aa.noise" | summary)
echo "$line"
hw=$(jq -r '[.ratios[] | (.a_half_width_pct, .b_half_width_pct) | numbers] |
	if length > 0 then "interval half-width: largest \(max * 10 | round / 10)% (target 3% on a quiet machine)"
	else "no interval (too few repetitions)" end' "$out/aa.noise")
echo "$hw"
echo "results: $out"
bench_verdict "A/A, $line; $hw"
exit "$rc"
