#!/usr/bin/env bash
# make bench-trend: does zcbench trend find, in a short series of real runs,
# the run where a regression was switched on?
# The device under test is the bare proxy (benchmarks/bare_proxy.c, --exec-proxy).
# N "nights" are N `zcbench run` invocations of one small workload, one after
# the other; from night SWITCH on the proxy runs with a handicap of P% of its
# CPU (benchmarks/handicap.h), a drop of about P% in Gbit/s per core of known
# cause and night. Then `zcbench trend` over the N files: the step must be
# found at night SWITCH (or next to it), with its size, and the gate on the
# newest nights must call it (exit 1) when it is among them.
# Environment (defaults): ZC_TREND_N (10), ZC_TREND_SWITCH (6), ZC_TREND_PCT
# (40: at this VM's night-to-night noise of about 6-8% a series of 5 and 5
# shows about 20%), ZC_TREND_ARGS (run's flags), ZC_TREND_OUT.
# About 20 s a night on 2 cores with the defaults.
set -u
cd "$(dirname "$0")/.." || exit 1
. benchmarks/bench_lib.sh
bench_header bench-trend
Z=${ZCBENCH:-bench/zcbench}
BARE=${ZC_TREND_PROXY:-build/bare_proxy}
N=${ZC_TREND_N:-10}
SWITCH=${ZC_TREND_SWITCH:-6}
PCT=${ZC_TREND_PCT:-40}
ARGS=${ZC_TREND_ARGS:---repetitions=3 --warmup=0.3 --duration=1 --foreign-max=100%}
out=${ZC_TREND_OUT:-$(mktemp -d /tmp/zc-trend.XXXXXX)}
mkdir -p "$out/nights" || exit 1
[ -x "$BARE" ] || { echo "bench-trend: $BARE missing (make build/bare_proxy)"; exit 1; }
cat >"$out/w.ini" <<INI
[workload]
chunk = 64k
pipe_size = 1M

[run bare-copy]
topology = proxy
proxy = copy
INI
echo "trend: $N runs of the bare copy proxy, a handicap of $PCT% from run $SWITCH on, $ARGS"
for i in $(seq 1 "$N"); do
	h=0
	[ "$i" -ge "$SWITCH" ] && h=$PCT
	# shellcheck disable=SC2086
	ZC_HANDICAP_PCT=$h "$Z" run "$out/w.ini" $ARGS --exec-proxy "$BARE" --out "$out/n$i" \
		>"$out/n$i.txt" 2>&1
	rc=$?
	f=$(find "$out/n$i" -name '*.json' 2>/dev/null | head -n 1)
	if [ -z "$f" ]; then
		echo "  run $i: no results file (exit $rc, $out/n$i.txt)"
		continue
	fi
	cp "$f" "$out/nights/$(printf 'night-%02d' "$i").json"
	printf '  run %2d: handicap %2d%%, exit %d, Gbit/s per core %s\n' "$i" "$h" "$rc" \
		"$(jq -r '[.runs[0].samples[] | select(.status == "ok") | .gbps_per_core] | map(. * 100 | round / 100) | join(" ")' "$f")"
done
echo
"$Z" trend --fail-on-regression 10 --newest 3 "$out/nights" >"$out/trend.txt" 2>&1
rc=$?
cat "$out/trend.txt"
at=$(sed -n '/gbps_per_core/,/^$/p' "$out/trend.txt" | sed -n 's/^  step at night \([0-9]*\),.*/\1/p' | head -n 1)
echo
if [ -z "$at" ]; then
	bench_verdict "no step found in $N runs (handicap $PCT% from run $SWITCH; trend exit $rc)"
elif [ "$at" -ge $((SWITCH - 1)) ] && [ "$at" -le $((SWITCH + 1)) ]; then
	bench_verdict "the step found at run $at, switched on at run $SWITCH (trend exit $rc)"
else
	bench_verdict "a step found at run $at, but switched on at run $SWITCH (trend exit $rc)"
fi
