#!/usr/bin/env bash
# make bench-headcheck: what rr_check = exact costs against rr_check = http
# (workloads/headcheck.ini: the same run both ways, interleaved round by
# round in one invocation). The two runs share a key (rr_check is not in
# it): each goes into a file of its own, and compare pairs them by round,
# the change of transactions per core (and of the DUT's and client's
# figures) exact over http, with its 95% interval. The client's and the
# server's checks are in the source and the sink, not in the proxy (the
# DUT): tps per DUT core shows what they cost the run's pace, the source's
# CPU what they cost where they run. Extra zcbench run arguments in
# HEADCHECK_ARGS (e.g. --repetitions=40), the results folder in OUT
# (default results/).
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-headcheck
out=$(mktemp -d /tmp/zc-headcheck.XXXXXX)
bench_on_exit "rm -rf '$out'"
# shellcheck disable=SC2086
bench/zcbench run workloads/headcheck.ini --out "${OUT:-results}" ${HEADCHECK_ARGS:-} | tee "$out/run.txt"
f=$(sed -n 's/^results: //p' "$out/run.txt" | tail -n 1)
[ -s "$f" ] || { bench_verdict "no results file (the run failed; its output is above)"; exit 1; }
for side in exact http; do
	jq --arg n "rr-$side" '.runs |= map(select(.name == $n))' "$f" >"$out/$side.json"
done
echo
echo "exact over http (paired by round):"
COLUMNS=120 bench/zcbench compare --all --metrics tps_per_core,tps,dut_busy_cores \
	"$out/http.json" "$out/exact.json" | tee "$out/cmp.txt" | grep -E '^ +[0-9.]+ .*(tps|tps_per_core|dut_busy_cores)$|could see|within|changed|tell' | sed 's/^/  /'
# The source's own CPU per transaction: where the client's check runs.
src() { jq -r --arg n "rr-$1" '[.runs[] | select(.name == $n) | .samples[] | select(.status == "ok") |
	.roles.source.window as $w | ($w.busy_s // $w.cpu_s // null) as $b |
	if $b == null or .tps == null or .tps == 0 then empty else $b / $w.window_s / .tps * 1e6 end] |
	sort | if length == 0 then "-" else .[length / 2 | floor] * 100 | round / 100 | tostring end' "$f"; }
echo "  source CPU per transaction (median, us): exact $(src exact), http $(src http)"
line=$(grep -A1 'tps_per_core$' "$out/cmp.txt" | tail -n 1 | sed 's/^ *//')
bench_verdict "tps per DUT core, exact over http: ${line:-see the comparison above}; results: $f"
