#!/usr/bin/env bash
# make bench-interval: what the live intervals (--interval 1) cost the device
# under test, against none (--interval 0), side by side. Each pair runs the
# same run both ways back to back, the order alternating from pair to pair
# (so a drift of the machine does not favour one side); the figure is the
# median of the pairs' ratios of Gbit/s per core (on / off) with a 95%
# percentile-bootstrap interval. An interval that holds 1.0 shows no cost.
# PAIRS (default 10), RUNS (default: src-send proxy-splice, from
# workloads/default.ini), extra `zcbench run` flags in $ZC_INTERVAL_ARGS.
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-interval
Z=${ZCBENCH:-bench/zcbench}
PAIRS=${PAIRS:-10}
RUNS=${RUNS:-src-send proxy-splice}
out=${ZC_INTERVAL_OUT:-$(mktemp -d /tmp/zc-interval.XXXXXX)}
mkdir -p "$out" || exit 1
one() { # pair, side (on|off), run name
	local iv=0
	[ "$2" = on ] && iv=1
	# every sample kept: a disturbed one hits both sides alike in a pair
	# shellcheck disable=SC2086
	"$Z" run workloads/default.ini --only "$3" --repetitions 1 --foreign_max 100% \
		--interval "$iv" --out "$out/$3-$2-$1" ${ZC_INTERVAL_ARGS:-} >"$out/$3-$2-$1.log" 2>&1 ||
		{ echo "$3 pair $1 --interval $iv failed:"; tail -n 3 "$out/$3-$2-$1.log"; return 1; }
}
fail=0
for i in $(seq "$PAIRS"); do
	for r in $RUNS; do
		if [ $((i % 2)) -eq 1 ]; then one "$i" off "$r" && one "$i" on "$r" || fail=1
		else one "$i" on "$r" && one "$i" off "$r" || fail=1; fi
	done
done
echo "results in $out"
echo
printf '%-14s %6s %10s %10s %9s %-17s %-15s %s\n' run pairs "off Gb/c" "on Gb/c" "on/off" "95% interval" "pairs min..max" verdict
verdicts=()
for r in $RUNS; do
	# one line per pair with both sides: off on (Gbit/s per core)
	pairs=$(for i in $(seq "$PAIRS"); do
		a=$(jq -r '.runs[0].samples[0].gbps_per_core // empty' "$out/$r-off-$i"/*.json 2>/dev/null)
		b=$(jq -r '.runs[0].samples[0].gbps_per_core // empty' "$out/$r-on-$i"/*.json 2>/dev/null)
		[ -n "$a" ] && [ -n "$b" ] && echo "$a $b"
	done)
	read -r n mq lo hi mn mx < <(awk '$1 > 0 { print $2 / $1 }' <<<"$pairs" | awk -f benchmarks/median_ci.awk)
	off=$(awk '{ print $1 }' <<<"$pairs" | awk -f benchmarks/median_ci.awk | cut -d' ' -f2)
	on=$(awk '{ print $2 }' <<<"$pairs" | awk -f benchmarks/median_ci.awk | cut -d' ' -f2)
	line=$(awk -v run="$r" -v n="$n" -v off="$off" -v on="$on" -v mq="$mq" -v lo="$lo" -v hi="$hi" -v mn="$mn" -v mx="$mx" 'BEGIN {
		if (mq == "nan") { printf "%-14s %6d  too few pairs with both sides\n", run, n; exit 1 }
		v = lo <= 1 && hi >= 1 ? "no cost shown (interval holds 1.0)" : \
		    hi < 1 ? sprintf("costs %.1f%% [%.1f%%, %.1f%%]", (1 - mq) * 100, (1 - hi) * 100, (1 - lo) * 100) : "faster with intervals (noise)"
		printf "%-14s %6d %10.2f %10.2f %8.3fx [%.3f, %.3f]   %.3f..%.3f    %s\n", run, n, off, on, mq, lo, hi, mn, mx, v
	}') || fail=1
	echo "$line"
	if [[ $line == *"too few pairs"* ]]; then verdicts+=("$r: too few pairs")
	else verdicts+=("$r: ${line##*    }"); fi
done
echo "(median of paired ratios, --interval 1 over --interval 0, Gbit/s per busy DUT core; $(nproc) CPUs, loopback)"
verdict=$(printf '%s; ' "${verdicts[@]}")
bench_verdict "${verdict%; }"
exit "$fail"
