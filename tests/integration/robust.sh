#!/usr/bin/env bash
# A role killed mid-run fails its sample, not the file; Ctrl-C keeps what was
# measured and marks the file interrupted; two invocations side by side do
# not collide; no role process is left behind.
. "$(dirname "$0")/../lib.sh"
printf '[workload]\norder = sequential\nwarmup = 0.2\nduration = 2\ntail = 0.2\ntimeout = 5\nchunk = 64k\n\n[run p]\ntopology = proxy\nproxy = splice\nrepetitions = 2\n\n[run q]\ntopology = direct\nrepetitions = 1\nduration = 0.5\n' >"$TMP/w.ini"

$ZCBENCH run "$TMP/w.ini" --out "$TMP/k" >"$TMP/kout" 2>&1 &
ctl=$!
# Wait for the first proxy role, then kill it mid-window.
for _ in $(seq 100); do
	p=$(pgrep -P "$ctl" -f 'zcbench proxy' | head -n1)
	[ -n "$p" ] && break
	sleep 0.05
done
sleep 0.8
[ -n "$p" ] && kill -9 "$p"
wait "$ctl"
rc=$?
f=$(result_in "$TMP/k")
check "kill: found and killed the proxy (pid ${p:-none})" [ -n "$p" ]
check "kill: controller exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "kill: results file is valid and complete" [ "$(jq -r .status "$f")" = complete ]
check "kill: first sample failed, blaming the proxy's death" \
	jq -e '.runs[0].samples[0].status == "failed" and (.runs[0].samples[0].reason | test("proxy: killed by signal 9"))' "$f"
check "kill: second sample still measured" jq -e '.runs[0].samples[1].status == "ok" and .runs[0].samples[1].gbps > 0' "$f"
check "kill: run marked partial" [ "$(jq -r '.runs[0].status' "$f")" = partial ]
check "kill: later run still ran" [ "$(jq -r '.runs[1].status' "$f")" = ok ]

# Sequential order, so p's two repetitions come one after the other.
$ZCBENCH run "$TMP/w.ini" --order sequential --out "$TMP/i" >"$TMP/iout" 2>&1 &
ctl=$!
# Interrupt during run p's second repetition: its first sample is kept. The
# file is rewritten after every sample, so wait for the first one in it
# rather than for a time that a loaded machine stretches (whatever it says:
# a busy machine can fail or disturb it, and it is kept all the same).
wait_sample "$TMP/i" '.runs[0].samples[0].status != null'
first=$(jq -r '.runs[0].samples[0].status' "$(result_in "$TMP/i")")
sleep 0.5
kill -INT "$ctl"
wait "$ctl"
rc=$?
f=$(result_in "$TMP/i")
check "ctrl-c: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "ctrl-c: file marked interrupted" [ "$(jq -r .status "$f")" = interrupted ]
check "ctrl-c: finished sample kept, as it was ($first)" jq -e --arg s "$first" '.runs[0].samples[0].status == $s' "$f"
# Whichever run's sample it is (the order may put q's between p's two).
check "ctrl-c: interrupted sample marked" \
	jq -e '[.runs[].samples[] | select(.status == "interrupted")] | length == 1' "$f"
sleep 0.2
# Only this script's roles: other tests and checkouts may be running their own.
check "no role left running" [ -z "$(ours_pids "^$(readlink -f "$ZCBENCH") (source|proxy|sink) ")" ]

$ZCBENCH run "$TMP/w.ini" --only q --out "$TMP/a" >"$TMP/aout" 2>&1 &
a=$!
$ZCBENCH run "$TMP/w.ini" --only q --out "$TMP/b" >"$TMP/bout" 2>&1
rb=$?
wait "$a"
ra=$?
check "side by side: both succeed ($ra, $rb)" [ "$ra$rb" = 00 ] || cat "$TMP/aout" "$TMP/bout"
finish
