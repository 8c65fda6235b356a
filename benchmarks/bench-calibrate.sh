#!/usr/bin/env bash
# make bench-calibrate: how far whole invocations of one build move on this
# machine, measured rather than simulated, and what the gate makes of it.
#  1. ZC_CAL_N (8) invocations of a short workload (workloads/calibrate.ini:
#     the copy and the splice proxy, their rounds interleaved), each a
#     `zcbench run` process of its own with its own warm-up, one after
#     another.
#  2. Per run: the spread within an invocation (sd of the samples' logs,
#     pooled over the invocations) and between invocations (sd of the
#     invocations' means, less what the spread within explains), in percent.
#  3. Every A/A pair of invocations gated as a nightly job would,
#     `zcbench compare A B --fail-on-regression T`, once with a profile of
#     the other N - 2 invocations (--profile: the pair left out of it) and
#     once without (the stated default): exit 1 is a false alarm, 3 can't
#     tell, 0 within.
#  4. `zcbench trend` over the N invocations as nights,
#     --fail-on-regression T: exit 1 is a false alarm.
# Environment (defaults): ZC_CAL_N (8), ZC_CAL_ARGS (run's flags,
# "--repetitions=5 --warmup=0.3 --duration=1 --foreign-max=100%": every
# sample kept on a shared machine), ZC_CAL_PCT (T, 5), ZC_CAL_WORKLOAD,
# ZC_CAL_OUT.
# About 25 s an invocation here with the defaults.
set -u
cd "$(dirname "$0")/.." || exit 1
. benchmarks/bench_lib.sh
bench_header bench-calibrate
Z=${ZCBENCH:-bench/zcbench}
N=${ZC_CAL_N:-8}
ARGS=${ZC_CAL_ARGS:---repetitions=5 --warmup=0.3 --duration=1 --foreign-max=100%}
T=${ZC_CAL_PCT:-5}
out=${ZC_CAL_OUT:-$(mktemp -d /tmp/zc-calibrate.XXXXXX)}
[[ $N =~ ^[0-9]+$ ]] && [ "$N" -ge 4 ] || { echo "bench-calibrate: ZC_CAL_N must be 4 or more, not '$N'"; exit 1; }
mkdir -p "$out/inv" || exit 1
W=${ZC_CAL_WORKLOAD:-workloads/calibrate.ini}
echo "calibrate: $N invocations of $W ($ARGS), each a process of its own; T = $T%"

# 1. The invocations.
for i in $(seq "$N"); do
	# shellcheck disable=SC2086
	"$Z" run "$W" $ARGS --out "$out/inv" >"$out/run-$i.txt" 2>&1 ||
		echo "invocation $i: exit $? (see $out/run-$i.txt)"
done
mapfile -t files < <(find "$out/inv" -name '*.json' | sort)
echo "invocations with a results file: ${#files[@]} of $N"
[ "${#files[@]}" -ge 4 ] || { echo "bench-calibrate: fewer than 4 results files"; exit 1; }

# 2. Spread within and between, per run: "name n log1 log2 ..." per file.
for f in "${files[@]}"; do
	jq -r '.runs[] | [.name, (.samples | map(select(.status == "ok") | .gbps_per_core // empty | log))] |
		"\(.[0]) \(.[1] | length) \(.[1] | map(tostring) | join(" "))"' "$f"
done >"$out/logs"
echo
printf '%-14s %12s %10s %16s %12s\n' run invocations samples "within sd" "between sd"
awk '{
	name = $1; n = $2; if (n < 2) next
	m = 0; for (i = 3; i < 3 + n; i++) m += $i; m /= n
	ss = 0; for (i = 3; i < 3 + n; i++) ss += ($i - m) ^ 2
	k[name]++; sum[name] += m; sq[name] += m * m; wss[name] += ss; wdf[name] += n - 1; ns[name] += n
} END {
	for (name in k) {
		if (k[name] < 2) continue
		within = wss[name] / wdf[name]
		mean = sum[name] / k[name]
		vm = (sq[name] - k[name] * mean * mean) / (k[name] - 1)
		nbar = ns[name] / k[name]
		between = vm - within / nbar
		printf "%-14s %12d %10.1f %15.1f%% %11.1f%%\n", name, k[name], nbar, 100 * sqrt(within),
			100 * sqrt(between > 0 ? between : 0)
	}
}' "$out/logs" | sort

# 3. Every A/A pair, with a profile of the others and without.
fa_p=0 ct_p=0 ok_p=0 fa_d=0 ct_d=0 ok_d=0 pairs=0 other=0
for ((a = 0; a < ${#files[@]}; a++)); do
	for ((b = a + 1; b < ${#files[@]}; b++)); do
		prof=$out/prof-$a-$b
		mkdir -p "$prof"
		for ((c = 0; c < ${#files[@]}; c++)); do
			[ "$c" -eq "$a" ] || [ "$c" -eq "$b" ] || ln -sf "${files[c]}" "$prof/"
		done
		COLUMNS=400 "$Z" compare "${files[a]}" "${files[b]}" --fail-on-regression "$T" --profile "$prof" \
			>"$out/pair-$a-$b-profile.txt" 2>&1
		case $? in 1) fa_p=$((fa_p + 1)) ;; 3) ct_p=$((ct_p + 1)) ;; 0) ok_p=$((ok_p + 1)) ;; *) other=$((other + 1)) ;; esac
		COLUMNS=400 "$Z" compare "${files[a]}" "${files[b]}" --fail-on-regression "$T" \
			>"$out/pair-$a-$b-default.txt" 2>&1
		case $? in 1) fa_d=$((fa_d + 1)) ;; 3) ct_d=$((ct_d + 1)) ;; 0) ok_d=$((ok_d + 1)) ;; *) other=$((other + 1)) ;; esac
		pairs=$((pairs + 1))
	done
done
echo
echo "A/A pairs gated at $T% (exit 1 = a false alarm):"
printf '  %-34s %12s %11s %8s\n' "judged" "false alarm" "can't tell" within
printf '  %-34s %9s/%-2s %8s/%-2s %5s/%-2s\n' "profile of the other $((${#files[@]} - 2))" "$fa_p" "$pairs" "$ct_p" "$pairs" "$ok_p" "$pairs"
printf '  %-34s %9s/%-2s %8s/%-2s %5s/%-2s\n' "stated default (no profile)" "$fa_d" "$pairs" "$ct_d" "$pairs" "$ok_d" "$pairs"
[ "$other" -eq 0 ] || echo "  $other comparisons ended otherwise (exit 2: see $out/pair-*.txt)"
# What the profile said it could see, the median over the pairs.
could=$(grep -ho 'the best of the can.t-tell figures could see a change of [0-9.]*%' "$out"/pair-*-profile.txt |
	sed 's/.* of //; s/%//' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] "%"; else print "-" }')
echo "  with the profile, the best can't-tell figure could see (median over the pairs): $could"

# 4. The invocations as nights.
COLUMNS=400 "$Z" trend "$out/inv" --fail-on-regression "$T" >"$out/trend.txt" 2>&1
trc=$?
echo
echo "trend over the $((${#files[@]})) invocations as nights, --fail-on-regression $T: exit $trc ($(tail -n 1 "$out/trend.txt"))"
echo
echo "results: $out"
bench_verdict "$N invocations; A/A pairs at $T%: $fa_p false alarms of $pairs with a profile, $fa_d without; trend exit $trc"
