#!/usr/bin/env bash
# make bench-position: does the place a sample has in its round move it?
# workloads/position.ini (four runs, eight balanced rounds: each run at each
# place twice), then the position effect zcbench fits (results/position.c):
# each place's effect on Gbit/s per core after the run's and the round's,
# with its standard error. Under interleaved rounds that effect went wholly
# to the run that always took that place. ZC_POSITION_ARGS (extra run
# flags, e.g. --repetitions=16), ZC_POSITION_OUT (default: a temporary
# folder).
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-position
Z=${ZCBENCH:-bench/zcbench}
out=${ZC_POSITION_OUT:-$(mktemp -d /tmp/zc-position.XXXXXX)}
mkdir -p "$out" || exit 1
# shellcheck disable=SC2086
COLUMNS=200 "$Z" run workloads/position.ini ${ZC_POSITION_ARGS:-} --out "$out" >"$out/run.txt" 2>&1 ||
	echo "run: exit $? (a sample failed; the fit uses the ok ones)"
f=$(ls "$out"/*.json 2>/dev/null | head -n 1)
[ -f "$f" ] || { echo "no results file"; exit 1; }
line=$(COLUMNS=200 "$Z" report "$f" | grep -A1 '^position effect' | tr -s ' \n' ' ')
echo "$line"
[ -n "$line" ] || { echo "no position effect (too few ok samples?)"; exit 1; }
bench_verdict "$(sed 's/^position effect //' <<<"$line")"
