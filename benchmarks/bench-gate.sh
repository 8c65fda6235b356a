#!/usr/bin/env bash
# make bench-gate: the regression gate judged by what it says it can see.
# The device under test is the bare proxy (benchmarks/bare_proxy.c, --exec-proxy),
# plain or with a calibrated handicap: ZC_HANDICAP_PCT=P makes it spend P% of
# its own CPU time on extra work per byte (benchmarks/handicap.h), a regression of
# about P% in Gbit/s per core of known cause and size.
#  1. A profile: ZC_GATE_PROFILE_K (4) invocations of the plain proxy, each a
#     `zcbench run` of its own, in one folder: how far two invocations of
#     one build come apart (compare --profile measures it from them).
#  2. K rounds, each with one A/A pair (plain against plain) and one pair per
#     handicap (plain against handicapped; which goes first alternates from
#     round to round, and the pairs' order within a round rotates). Every pair
#     is two `zcbench run` invocations, judged the way a nightly job would:
#     `zcbench compare BASE.json NEW.json --metrics gbps_per_core
#     --fail-on-regression T` and its exit code (1 regression, 3 can't tell,
#     0 within T), once with the profile of step 1 (--profile: each file one
#     invocation, held to the spread between invocations it measured) and
#     once without (held to the stated default spread, 12%). T is half the handicap (a gate meant to catch P% flags more than
#     P/2%), and the A/A pairs are judged at each handicap's T.
#  3. Per handicap: caught (exit 1), can't tell (exit 3), missed (exit 0: a
#     P% drop called within P/2%, a wrong answer) of K; the A/A pairs' false
#     alarms (exit 1) of K; the smallest drop the gate said it could see
#     (median over the pairs of "could see -X%"); the measured slow-down
#     (median of the pairs' ratios of medians, benchmarks/median_ci.awk's interval)
#     and the share of the proxy's CPU the handicap took. The gate is right
#     when it catches every handicap at least as large as what it said it
#     could see, misses none, and raises no false alarm. The last line is the
#     first handicap's, judged with the profile.
# Environment (defaults): ZC_GATE_K (6), ZC_GATE_HANDICAPS ("5 10 20 40": the
# first is the headline), ZC_GATE_ARGS (run's flags, "--repetitions=5
# --warmup=0.3 --duration=1 --foreign-max=100%": every sample kept on a
# shared machine), ZC_GATE_PCT (one fixed threshold for every handicap
# instead of half of each), ZC_GATE_FLOOR (profile or default: which judging
# the last line counts), ZC_GATE_PROFILE_K, ZC_GATE_MODE (copy or splice),
# ZC_GATE_METRICS, ZC_GATE_OUT.
# About 100 s a round on 2 cores with the defaults: 6 rounds within 12 min.
set -u
cd "$(dirname "$0")/.." || exit 1
. benchmarks/bench_lib.sh
bench_header bench-gate
Z=${ZCBENCH:-bench/zcbench}
BARE=${ZC_GATE_PROXY:-build/bare_proxy}
K=${ZC_GATE_K:-6}
read -r -a LEVELS <<<"${ZC_GATE_HANDICAPS:-5 10 20 40}"
ARGS=${ZC_GATE_ARGS:---repetitions=5 --warmup=0.3 --duration=1 --foreign-max=100%}
METRICS=${ZC_GATE_METRICS:-gbps_per_core}
FIXED=${ZC_GATE_PCT:-}
FLOOR=${ZC_GATE_FLOOR:-profile}
PK=${ZC_GATE_PROFILE_K:-4}
MODE=${ZC_GATE_MODE:-copy}
out=${ZC_GATE_OUT:-$(mktemp -d /tmp/zc-gate.XXXXXX)}
mkdir -p "$out" || exit 1
[ -x "$BARE" ] || { echo "bench-gate: $BARE missing (make build/bare_proxy)"; exit 1; }
case $FLOOR in profile | default) ;; *) echo "bench-gate: ZC_GATE_FLOOR is profile or default"; exit 1 ;; esac
cat >"$out/w.ini" <<INI
[workload]
chunk = 64k
pipe_size = 1M

[run bare-$MODE]
topology = proxy
proxy = $MODE
INI
thr() { if [ -n "$FIXED" ]; then echo "$FIXED"; else awk -v p="$1" 'BEGIN { print p / 2 }'; fi; }
echo "gate: $K rounds of an A/A pair and a pair per handicap (${LEVELS[*]}%), bare $MODE proxy, $ARGS"
for p in "${LEVELS[@]}"; do
	echo "  handicap $p%: threshold $(thr "$p")%"
done

# 1. The profile: invocations of the plain proxy, each a process of its own.
mkdir -p "$out/profile"
for i in $(seq "$PK"); do
	# shellcheck disable=SC2086
	env -u ZC_HANDICAP_PCT "$Z" run "$out/w.ini" $ARGS --exec-proxy "$BARE" --out "$out/profile" \
		>"$out/profile-$i.txt" 2>&1 || echo "profile invocation $i: exit $? (see $out/profile-$i.txt)"
done
echo
echo "Profile: $(find "$out/profile" -name '*.json' | wc -l) invocations of the plain proxy, Gbps per core (median of each):"
for f in "$out"/profile/*.json; do
	jq -r '[.runs[0].samples[] | select(.status == "ok") | .gbps_per_core // empty] | sort | "  \(if length == 0 then "-" else .[length / 2 | floor] * 100 | round / 100 end) over \(length) samples"' "$f"
done

# One invocation: tag, handicap percent (0: plain). Its results file on stdout.
run_one() {
	# shellcheck disable=SC2086
	ZC_HANDICAP_PCT=$2 "$Z" run "$out/w.ini" $ARGS --exec-proxy "$BARE" --out "$out/$1" \
		>"$out/$1.txt" 2>&1
	find "$out/$1" -name '*.json' 2>/dev/null | head -n 1
}
# The gate's answer on base, new at threshold T, judged profile|default,
# from its exit code: "regression" (1), "cant_tell" (3), "pass" (0), or
# "unjudged (exit N)" (no ok sample, a broken file).
verdict() {
	local tag=$1 base=$2 new=$3 t=$4 how=$5 rc prof=()
	[ "$how" = profile ] && prof=(--profile "$out/profile")
	COLUMNS=400 "$Z" compare "$base" "$new" --metrics "$METRICS" --fail-on-regression "$t" "${prof[@]}" \
		>"$out/$tag.txt" 2>"$out/$tag.err"
	rc=$?
	case $rc in
	1) grep -q '^  REGRESSION ' "$out/$tag.txt" && echo regression || echo "unjudged (exit 1)" ;;
	3) echo cant_tell ;;
	0) echo pass ;;
	*) echo "unjudged (exit $rc)" ;;
	esac
}
# The gate's line for the gated metric: its answer and interval, and the
# smallest drop it said it could see (a number, "-" when it did not say).
row() { sed -n '/^Gate: /,$p' "$out/$1.txt" | grep -m1 "\.${METRICS%%,*}: "; }
said() { row "$1" | sed 's/^[^:]*: //; s/, could see.*//'; }
could_see() { row "$1" | sed -n 's/.*could see -\([0-9.]*\)%.*/\1/p'; }
# Median Gbps per core of a results file's ok samples; the handicap's share
# of the proxy's CPU (its report), median over the samples.
gpc() { jq '[.runs[0].samples[] | select(.status == "ok") | .gbps_per_core // empty] | sort | if length == 0 then "nan" else (if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end) end' "$1"; }
took() { jq -r '[.runs[0].samples[].roles.proxy.handicap.cpu_fraction // empty] | sort | if length == 0 then "-" else .[length / 2 | floor] * 1000 | round / 10 | tostring end' "$1"; }

# 2. The rounds. Verdicts go to $out/verdicts: kind level round how verdict.
: >"$out/verdicts"
: >"$out/ratios"
echo
for k in $(seq "$K"); do
	pairs=(aa "${LEVELS[@]}")
	# Rotate the pairs' order from round to round.
	r=$(((k - 1) % ${#pairs[@]}))
	pairs=("${pairs[@]:r}" "${pairs[@]:0:r}")
	for j in "${pairs[@]}"; do
		if [ "$j" = aa ]; then
			b=$(run_one "r$k-aa-a" 0)
			n=$(run_one "r$k-aa-b" 0)
		elif [ $((k % 2)) -eq 1 ]; then
			b=$(run_one "r$k-h$j-a" 0)
			n=$(run_one "r$k-h$j-b" "$j")
		else
			n=$(run_one "r$k-h$j-b" "$j")
			b=$(run_one "r$k-h$j-a" 0)
		fi
		if [ -z "$b" ] || [ -z "$n" ]; then
			echo "round $k, $j: a run left no results file (see $out/r$k-*.txt)"
			continue
		fi
		if [ "$j" = aa ]; then line="round $k A vs A    "; else line=$(printf 'round %s A vs A+%-4s' "$k" "$j%"); fi
		ratio=$(awk -v a="$(gpc "$b")" -v b="$(gpc "$n")" 'BEGIN { num = "^[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$"; if (a ~ num && b ~ num && a > 0) printf "%.4f", b / a; else print "nan" }')
		line+=" new/base $ratio"
		if [ "$j" != aa ]; then
			echo "$j $ratio" >>"$out/ratios"
			line+=", handicap took $(took "$n")% of its CPU"
		fi
		judged=
		for p in "${LEVELS[@]}"; do
			[ "$j" != aa ] && [ "$j" != "$p" ] && continue
			judged+="; at $(thr "$p")%:"
			for how in profile default; do
				tag="r$k-$j-t$p-$how"
				v=$(verdict "$tag" "$b" "$n" "$(thr "$p")" "$how")
				cs=$(could_see "$tag")
				echo "$j $p $k $how ${v// /_} ${cs:--}" >>"$out/verdicts"
				judged+=" $how $v${cs:+ (could see -$cs%)}"
				[ "$how" = profile ] && judged+=","
			done
		done
		line+="; gate: $(said "$tag")$judged"
		echo "$line"
	done
done

# 3. The counts. verdicts: kind level round how verdict could-see.
count() { # kind level how verdict-prefix
	awk -v j="$1" -v p="$2" -v h="$3" -v v="$4" '$1 == j && $2 == p && $4 == h && index($5, v) == 1' "$out/verdicts" | wc -l
}
# The median of what the gate said it could see at a level's threshold, over
# the A/A pairs and that level's handicapped pairs.
seen() { # level how
	awk -v p="$1" -v h="$2" '($1 == "aa" || $1 == p) && $2 == p && $4 == h && $6 != "-" { print $6 }' "$out/verdicts" |
		sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2] "%"; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 "%" }'
}
echo
printf '%-9s %-8s %5s %7s %10s %7s %9s %12s %16s\n' handicap judged T caught "can't tell" missed "A/A false" "A/A can't" "could see (med)"
for p in "${LEVELS[@]}"; do
	for how in profile default; do
		printf '%-9s %-8s %5s %4s/%-2s %7s/%-2s %4s/%-2s %6s/%-2s %9s/%-2s %16s\n' "$p%" \
			"$how" "$(thr "$p")%" \
			"$(count "$p" "$p" "$how" regression)" "$K" "$(count "$p" "$p" "$how" cant_tell)" "$K" \
			"$(count "$p" "$p" "$how" pass)" "$K" "$(count aa "$p" "$how" regression)" "$K" \
			"$(count aa "$p" "$how" cant_tell)" "$K" "$(seen "$p" "$how")"
	done
done
echo "  judged profile: compare --profile (each file one invocation, held to the spread"
echo "  between the invocations of step 1); default: without it (held to the stated 12%). caught = exit 1,"
echo "  can't tell = exit 3, missed = exit 0 (a wrong answer), unjudged pairs are in none."
echo
for p in "${LEVELS[@]}"; do
	read -r n med lo hi _ <<<"$(awk -v p="$p" '$1 == p && $2 != "nan" { print $2 }' "$out/ratios" | awk -f benchmarks/median_ci.awk)"
	[ "$med" = nan ] && med="(fewer than 3 pairs: $(awk -v p="$p" '$1 == p { printf "%s ", $2 }' "$out/ratios"))" lo=- hi=-
	echo "handicap $p%: handicapped/plain Gbps per core $med [$lo-$hi] over $n pairs (expected $(awk -v p="$p" 'BEGIN { print 1 - p / 100 }'))"
done
echo
echo "results: $out"
p=${LEVELS[0]}
bench_verdict "at a $p% handicap, T $(thr "$p")%, judged with $([ "$FLOOR" = profile ] && echo "the profile" || echo "the stated default"): caught $(count "$p" "$p" "$FLOOR" regression) of $K, can't tell $(count "$p" "$p" "$FLOOR" cant_tell), missed $(count "$p" "$p" "$FLOOR" pass); A/A false alarms $(count aa "$p" "$FLOOR" regression) of $K; it said it could see drops of $(seen "$p" "$FLOOR") or more"
