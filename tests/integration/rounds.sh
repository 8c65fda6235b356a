#!/usr/bin/env bash
# Repetitions in rounds, on short real runs: interleaved takes repetition 1
# of every run, then repetition 2 ..., as documented, and each sample
# records its place and start; balanced (the default) turns each round's
# order round (a Williams square: copy, splice, then splice, copy);
# sequential and random (seeded) too; repetitions = auto looks after 3, 5
# ... rounds and records each look and question;
# the headline ratio is paired with an interval. tune = on against a fake
# sysfs tree: applied, then restored by the next run after the controller is
# SIGKILLed. zcbench noise writes a noise file that compare takes.
. "$(dirname "$0")/../lib.sh"
W=$TMP/w.ini
cat >"$W" <<'INI'
[workload]
name = rounds
warmup = 0.1
duration = 0.3
tail = 0.1
repetitions = 3
chunk = 64k
pipe_size = 256k
timeout = 10
; order and pairing, not disturbance (disturbed.sh): keep every sample
foreign_max = 100%
[run proxy-copy]
topology = proxy
proxy = copy
[run proxy-splice]
topology = proxy
proxy = splice
INI
# Names in the order the samples began.
jqe() { jq -e "$@" >/dev/null; }
taken() { jq -r '[.runs[] | .name as $n | .samples[] | {n: $n, s: .slot, r: .rep}] | sort_by(.s) |
	map("\(.n)/\(.r)") | join(" ")' "$1"; }

"$ZCBENCH" run "$W" --out "$TMP/i" --order=interleaved >"$TMP/i.out" 2>&1 ||
	fail "interleaved run: $(tail -3 "$TMP/i.out")"
f=$(result_in "$TMP/i")
check "interleaved: rep 1 of every run, then rep 2, ..." [ "$(taken "$f")" = \
	"proxy-copy/0 proxy-splice/0 proxy-copy/1 proxy-splice/1 proxy-copy/2 proxy-splice/2" ]
check "start times follow the order" jqe '[.runs[].samples[]] | sort_by(.slot) | map(.start_s) |
	. == sort and .[0] == 0' "$f"
check "started_at recorded" jqe '[.runs[].samples[].started_at | test("^20..-..-..T..:..:..\\.[0-9]{3}Z$")] | all' "$f"
check "order in the results" jqe '.schedule.order == "interleaved" and .schedule.rounds == 3' "$f"
check "headline paired with its interval" jqe '.headline[0] | .method == "paired" and .n == 3 and
	.lo <= .value and .value <= .hi' <(report_json "$f")
check "table prints the interval and its half-width" grep -Eq "splice/copy proxy .* [0-9.]+x \[[0-9.]+-[0-9.]+\] +\+-[0-9.]+% (paired )?n=3, (above 1.05|below 0.95|within 0.95-1.05|can't tell)" "$TMP/i.out"
check "table prints the disturbed count" grep -q '^disturbed samples left out: 0 ' "$TMP/i.out"

"$ZCBENCH" run "$W" --out "$TMP/b" >"$TMP/b.out" 2>&1 || fail "balanced run: $(tail -3 "$TMP/b.out")"
f=$(result_in "$TMP/b")
check "balanced (the default): each round's order turned" [ "$(taken "$f")" = \
	"proxy-copy/0 proxy-splice/0 proxy-splice/1 proxy-copy/1 proxy-copy/2 proxy-splice/2" ]
check "balanced: still paired by round" jqe '.schedule.order == "balanced" and
	.headline[0].method == "paired"' <(jq -s '.[0] * .[1]' "$f" <(report_json "$f"))

COLUMNS=1000 "$ZCBENCH" run "$W" --out "$TMP/a" --repetitions=auto --max-repetitions=5 >"$TMP/a.out" 2>&1 ||
	fail "auto run: $(tail -3 "$TMP/a.out")"
f=$(result_in "$TMP/a")
check "auto: looks at 3 and 5 rounds at most, each at its level" jqe '.schedule.looks |
	length >= 1 and length <= 2 and .[0].rounds == 3 and (.[0].level > 0.95 and .[0].level < 1)' "$f"
check "auto: the question recorded where it stopped" jqe '.schedule.questions[0] |
	.question == "splice/copy proxy" and (.answer | IN("changed", "unchanged", "cant_tell"))' "$f"
check "auto: both runs read at the level their question stopped at" jqe '[.runs[].level] |
	.[0] == .[1] and .[0] > 0.95' "$f"
check "auto: the table says decided or not, after how many rounds" \
	grep -Eq "^until decided at \+-5% .*: (decided|stopped undecided) after [35] rounds" "$TMP/a.out"

"$ZCBENCH" run "$W" --out "$TMP/s" --order=sequential >"$TMP/s.out" 2>&1 || fail "sequential run"
f=$(result_in "$TMP/s")
check "sequential: every rep of a run, then the next" [ "$(taken "$f")" = \
	"proxy-copy/0 proxy-copy/1 proxy-copy/2 proxy-splice/0 proxy-splice/1 proxy-splice/2" ]
check "sequential: ratio of the medians" jqe '.headline[0].method == "unpaired"' <(report_json "$f")

"$ZCBENCH" run "$W" --out "$TMP/r" --order=random --order-seed=5 >"$TMP/r.out" 2>&1 || fail "random run"
f=$(result_in "$TMP/r")
check "random: each round holds both runs" jqe '[.runs[].samples[]] | sort_by(.slot) |
	[range(0; 3) as $k | .[2 * $k: 2 * $k + 2] | map(.rep) | unique == [$k]] | all' "$f"
check "random: seed recorded" jqe '.schedule.order == "random" and .schedule.order_seed == 5' "$f"

# tune = on with a fake sysfs: the DUT's CPU gets performance, and C6 goes.
S=$TMP/sys/sys/devices/system/cpu
for c in $(seq 0 $(($(nproc) - 1))); do
	mkdir -p "$S/cpu$c/cpufreq" "$S/cpu$c/cpuidle/state0" "$S/cpu$c/cpuidle/state1" "$S/cpu$c/cpuidle/state2"
	echo powersave >"$S/cpu$c/cpufreq/scaling_governor"
	echo "performance powersave" >"$S/cpu$c/cpufreq/scaling_available_governors"
	for k in 0 1 2; do echo 0 >"$S/cpu$c/cpuidle/state$k/disable"; done
	echo POLL >"$S/cpu$c/cpuidle/state0/name"; echo C1 >"$S/cpu$c/cpuidle/state1/name"
	echo C6 >"$S/cpu$c/cpuidle/state2/name"
done
export ZC_SYSFS_ROOT=$TMP/sys ZC_STATE_DIR=$TMP/state
"$ZCBENCH" run "$W" --out "$TMP/t" --tune=on --repetitions=40 >"$TMP/t.out" 2>&1 &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
for _ in $(seq 1 200); do
	f=$(result_in "$TMP/t")
	[ -n "$f" ] && jq -e '[.runs[].samples[]] | length >= 1' "$f" >/dev/null 2>&1 && break
	sleep 0.1
done
cpu=$(jq -r '.runs[0].placement.proxy.cpu' "$f")
check "tune: the DUT's CPU $cpu in performance" [ "$(cat "$S/cpu$cpu/cpufreq/scaling_governor")" = performance ]
check "tune: C6 disabled, C1 kept" [ "$(cat "$S/cpu$cpu/cpuidle/state2/disable")$(cat "$S/cpu$cpu/cpuidle/state1/disable")" = 10 ]
check "tune: recorded" jqe '.machine_state.tune.requested == "on" and .machine_state.tune.applied' "$f"
kill -9 $pid
wait $pid 2>/dev/null
check "killed controller left it tuned" [ "$(cat "$S/cpu$cpu/cpufreq/scaling_governor")" = performance ]
"$ZCBENCH" run "$W" --out "$TMP/t2" --repetitions=1 >"$TMP/t2.out" 2>&1 || fail "run after the kill"
check "the next run restores (and says so)" grep -q 'tune: restored 2 value(s) left by a dead zcbench' "$TMP/t2.out"
check "governor back" [ "$(cat "$S/cpu$cpu/cpufreq/scaling_governor")" = powersave ]
check "C6 back" [ "$(cat "$S/cpu$cpu/cpuidle/state2/disable")" = 0 ]
check "no state left" [ -z "$(ls -A "$TMP/state" 2>/dev/null)" ]
unset ZC_SYSFS_ROOT ZC_STATE_DIR

# zcbench noise: A and B of every run, interleaved; a noise file compare takes.
"$ZCBENCH" noise "$W" --out "$TMP/n" >"$TMP/n.out" 2>&1 || fail "noise: $(tail -3 "$TMP/n.out")"
f=$(result_in "$TMP/n")
nf=${f%.json}.noise
# Balanced (the default): round 0 is row 0 of a Williams square of 4.
check "noise: A and B of each run in each round, balanced" [ "$(taken "$f" | cut -d' ' -f1-4)" = \
	"proxy-copy:a/0 proxy-copy:b/0 proxy-splice:b/0 proxy-splice:a/0" ]
check "noise file written" jqe '.schema == "zcbench-noise" and (.runs | length) == 2 and
	(.runs[0].metrics.gbps_per_core.floor_pct >= 0)' "$nf"
check "noise: the A/B spread of the ratio" jqe '.ratios[0].ratio == "splice/copy proxy" and
	(.ratios[0].spread_pct | type) == "number"' "$nf"
check "noise prints floors and spreads" grep -q '^Headline ratios, A against B' "$TMP/n.out"
# compare reads the A/A file and answers (what it answers on a live run is
# not asserted: a live interval can miss by chance).
COLUMNS=200 "$ZCBENCH" compare "$f" --fail-on-regression 5 >"$TMP/c.out" 2>&1
rc=$?
check "compare takes the A/A file (exit $rc: 0, 1 or 3)" bash -c "[ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 3 ]"
check "compare: the A and B of one invocation are paired by rounds" grep -q ', paired' "$TMP/c.out"
check "compare: the gate answers" grep -Eq '^regression gate 5%: [0-9]+ regressions?, ' "$TMP/c.out"
"$ZCBENCH" noise "$W" --order=sequential --out "$TMP/n2" >/dev/null 2>"$TMP/n2.err"
check "noise refuses sequential (exit $?)" [ $? -eq 2 ]
finish
