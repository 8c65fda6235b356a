#!/usr/bin/env bash
# make bench-gate: does the regression gate flap? Two A/A measurements of the
# default workload (zcbench noise: every run twice, A and B, the same build,
# interleaved). The first gives the noise floors; the second is judged with
# them (compare --noise, --fail-on-regression 5, Holm). Every REGRESSION is
# a false one: the aim is none. The same pair judged with the within-file
# floor instead is counted too.
# Enough repetitions that the gate could fire at all: Wilcoxon on n pairs
# cannot go below 2^(1-n), and Holm divides alpha by the tests. Defaults:
# --repetitions=10 (p down to 0.002), shorter windows, gbps_per_core gated
# (7 tests: p < 0.007 needed). ZC_GATE_ARGS, ZC_GATE_METRICS, ZC_GATE_PCT,
# ZC_GATE_WORKLOAD, ZC_GATE_OUT change them.
set -u
cd "$(dirname "$0")/.."
Z=${ZCBENCH:-bench/zcbench}
W=${ZC_GATE_WORKLOAD:-workloads/default.ini}
ARGS=${ZC_GATE_ARGS:---repetitions=10 --warmup=0.5 --duration=2}
METRICS=${ZC_GATE_METRICS:-gbps_per_core}
PCT=${ZC_GATE_PCT:-5}
out=${ZC_GATE_OUT:-$(mktemp -d /tmp/zc-gate.XXXXXX)}
mkdir -p "$out" || exit 1
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
for i in 1 2; do
	# shellcheck disable=SC2086
	"$Z" noise "$W" $ARGS --out "$out/aa$i" --noise-out "$out/aa$i.noise" >"$out/aa$i.txt" 2>&1 ||
		echo "A/A $i: exit $? (see $out/aa$i.txt)"
	[ -f "$out/aa$i.noise" ] || { echo "A/A $i: no noise file"; tail -5 "$out/aa$i.txt"; exit 1; }
done
f2=$(ls "$out"/aa2/*.json | head -n 1)
echo
echo "Noise floors from A/A 1 (Gbps per core):"
jq -r '.runs[] | "  \(.name): \(.metrics.gbps_per_core.floor_pct // "-" | if type == "number" then (. * 10 | round / 10 | tostring) + "%" else . end) over \(.pairs) pairs"' "$out/aa1.noise"
gate() { # tag, label, extra compare flags...
	local tag=$1 label=$2 rc n
	shift 2
	"$Z" compare "$f2" --metrics "$METRICS" --fail-on-regression "$PCT" "$@" >"$out/$tag.txt" 2>"$out/$tag.err"
	rc=$?
	n=$(grep -c 'REGRESSION' "$out/$tag.err")
	echo
	echo "A/A 2 judged with $label: $n false regression(s) (exit $rc)"
	grep -E '^regression gate|^note: holm' "$out/$tag.txt" | sed 's/^/  /'
	grep 'REGRESSION' "$out/$tag.err" | sed 's/^zcbench: error: compare: /  /'
}
# A run with every sample disturbed has no floor and nothing to judge: say so.
nd=$(jq '[.runs[] | select((.disturbed_left_out // 0) > 0 and ([.samples[] | select(.status == "ok" and (.disturbed | not))] | length) == 0)] | length' "$f2")
[ "$nd" -gt 0 ] && echo "note: $nd run(s) of A/A 2 had every sample disturbed (other work on the DUT core) and cannot be judged; on a shared machine ZC_GATE_ARGS=\"... --foreign-max=100%\" keeps them"
gate gate-aa "the noise floors of A/A 1" --noise "$out/aa1.noise"
gate gate-within "the within-file floor"
echo
echo "results: $out"
