#!/usr/bin/env bash
# Disturbed samples (issue 14, item 3): a busy loop this test starts, pinned
# to the DUT's CPU, takes part of the DUT's core in every window. Each sample
# records the foreign busy time (the DUT cores' /proc/stat busy time less the
# DUT's own threads and the irq/softirq there), is marked disturbed above
# foreign_max (2% by default) with the loop among the tasks seen on that
# core, and the summary, the headline and the table leave it out and count it.
# With foreign_max = 100% the same samples stay in.
. "$(dirname "$0")/../lib.sh"
cpu=$(($(nproc) - 1))
[ "$cpu" -ge 1 ] || skip "one CPU: the loop would share it with every role"
H=$TMP/host.ini
cat >"$H" <<INI
[host]
name = pinned
transport = local
address = 127.0.0.1
[proxy]
cpu = $cpu
INI
W=$TMP/w.ini
cat >"$W" <<'INI'
[workload]
name = disturbed
warmup = 0.2
duration = 1
tail = 0.1
repetitions = 2
chunk = 64k
pipe_size = 256k
timeout = 10
[run proxy-copy]
topology = proxy
proxy = copy
[run proxy-splice]
topology = proxy
proxy = splice
INI
jqe() { jq -e "$@" >/dev/null; }

# The load: a shell loop pinned to the DUT's CPU, at the roles' priority.
taskset -c "$cpu" bash -c 'exec -a zc-busy-loop bash -c "while :; do :; done"' &
loop=$!
on_exit "kill $loop 2>/dev/null"
sleep 0.3
kill -0 "$loop" 2>/dev/null || fail "the busy loop did not start"

"$ZCBENCH" run "$W" --host "$H" --out "$TMP/d" >"$TMP/d.out" 2>&1 || fail "run: $(tail -3 "$TMP/d.out")"
f=$(result_in "$TMP/d")
check "the DUT is on the loop's CPU" jqe --argjson c "$cpu" '[.runs[].placement.proxy.cpus == [$c]] | all' "$f"
check "every sample records foreign_busy" jqe '[.runs[].samples[] | .foreign_busy |
	(.busy_s | type == "number") and .threshold_share == 0.02 and .cpus != null] | all' "$f"
# Half the core under CFS on a quiet machine, far above 2%; a tenth still on a loaded one.
check "the loop's time is foreign" jqe '[.runs[].samples[].foreign_busy.share > 0.1] | all' "$f"
check "every sample is marked disturbed" jqe '[.runs[].samples[].disturbed] | all' "$f"
check "the loop is among the tasks seen on the DUT's core" jqe --argjson p "$loop" \
	'[.runs[].samples[] | [.foreign_busy.others[] | select(.pid == $p and .busy_s > 0)] | length == 1] | all' "$f"
check "the DUT's own threads are not foreign" jqe '[.runs[].samples[] | .foreign_busy.dut_threads_s > 0 and
	([.foreign_busy.others[] | select(.role == "proxy")] | length == 0)] | all' "$f"
check "the run counts what it left out" jqe '[.runs[].disturbed_left_out == 2] | all' "$f"
check "the summary leaves them out" jqe '[.runs[].summary.gbps_per_core == null] | all' "$f"
check "the headline leaves them out and counts them" jqe '.headline[0] | .value == null and .disturbed_left_out == 4' "$f"
check "the table shows the count per run" grep -q 'proxy-copy .*(2 disturbed left out)' "$TMP/d.out"
check "the headline says why it has no figure" grep -q 'splice/copy proxy .*n/a .*disturbed' "$TMP/d.out"

# foreign_max = 100%: the figure is still recorded, the samples stay in.
"$ZCBENCH" run "$W" --host "$H" --out "$TMP/k" --foreign-max=100% >"$TMP/k.out" 2>&1 ||
	fail "run with foreign_max = 100%: $(tail -3 "$TMP/k.out")"
f=$(result_in "$TMP/k")
check "foreign_max = 100%: recorded, not disturbed" jqe '[.runs[].samples[] | .disturbed == false and
	.foreign_busy.share > 0.1 and .foreign_busy.threshold_share == 1] | all' "$f"
check "foreign_max = 100%: summarised" jqe '[.runs[] | .disturbed_left_out == 0 and .summary.gbps_per_core.n == 2] | all' "$f"
finish
