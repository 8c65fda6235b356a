#!/usr/bin/env bash
# zcbench run watching its windows (bench/run/watch.h): live intervals that
# add up to the window's bytes within 1% (sink and DUT), the JSON event
# stream valid line by line (jq) and in order, the progress line on stderr
# when not on a terminal (--progress=always) and none with never, no
# intervals with --interval 0; and --profile: each sample's and each run's
# profile, made by run itself at the window edges, with the copy proxy's
# copy routine in its top entries and not the splice proxy's, files beside
# the results, and report's breakdown with what splice saves. The profile
# part skips (the rest runs) where CPU-wide sampling is not permitted.
. "$(dirname "$0")/../lib.sh"
. tests/profile_dut.sh
command -v jq >/dev/null || skip "jq missing"
prof_why=$(profile_possible) && profile=--profile || profile=

"$ZCBENCH" run workloads/default.ini --only proxy-copy --only proxy-splice --chunk 64k --repetitions 2 \
	--warmup 1 --duration 3 --interval 0.5 --out "$TMP/run" $profile --json-stream \
	--progress=always >"$TMP/stream" 2>"$TMP/err" &
ctl=$!
wait $ctl
rc=$?
res=$(result_in "$TMP/run")
[ -n "$res" ] || { tail -n 20 "$TMP/err"; fail "no results file (exit $rc)"; }
[ $rc -eq 0 ] || { tail -n 20 "$TMP/err"; fail "zcbench run exit $rc"; }

# --- the stream: every line one JSON object with an event, in order ---
n=0 bad_lines=0
while IFS= read -r line; do
	n=$((n + 1))
	jq -e 'type == "object" and (.event | type == "string")' <<<"$line" >/dev/null 2>&1 ||
		{ bad_lines=$((bad_lines + 1)); echo "    line $n: $line" | cut -c1-200; }
done <"$TMP/stream"
check "json-stream: $n lines, each a JSON object with an event" test "$n" -gt 4 -a "$bad_lines" -eq 0
jq -r .event "$TMP/stream" | uniq -c | sed 's/^/    /'
check "json-stream: start first, end last" \
	bash -c "[ \"\$(jq -r .event '$TMP/stream' | head -n1)\" = start ] && [ \"\$(jq -r .event '$TMP/stream' | tail -n1)\" = end ]"
check "json-stream: a sample event per sample (4), a run event per run (2)" \
	bash -c "[ \$(jq -r 'select(.event == \"sample\") | .run' '$TMP/stream' | wc -l) -eq 4 ] &&
		 [ \$(jq -r 'select(.event == \"run\") | .run' '$TMP/stream' | wc -l) -eq 2 ]"
check "json-stream: interval events with Gbit/s and the DUT's busy cores" \
	jqe -s '[.[] | select(.event == "interval")] | length >= 8 and all(.[]; .gbps > 0 and .dut_busy_cores > 0)' "$TMP/stream"
check "json-stream: an interval's Gbit/s per core is its DUT's bytes' Gbit/s over its busy cores" \
	jqe -s '[.[] | select(.event == "interval" and .gbps_per_core)] | length >= 8 and all(.[];
		((.gbps_per_core - .dut_bytes * 8 / .dur_s / 1e9 / .dut_busy_cores) | fabs) < 1e-6 * .gbps_per_core)' "$TMP/stream"
check "json-stream: end names the results file and exit 0" \
	jqe -s --arg f "$res" '.[-1] | .results == $f and .exit == 0 and .status == "complete"' "$TMP/stream"
check "json-stream: the tables went to stderr" grep -q '^results: ' "$TMP/err"
check "progress=always off a terminal: one line per sample on stderr" \
	bash -c "[ \$(grep -c '^\[round ' '$TMP/err') -ge 4 ]"

# --- intervals ---
check "every ok sample has intervals" \
	jqe '[.runs[].samples[] | select(.status == "ok")] | length == 4 and all(.[]; (.intervals | length) >= 5)' "$res"
jq -r '.runs[] | .name as $r | .samples[] | "    \($r) rep \(.rep): intervals sink \([.intervals[].sink_bytes] | add), window \(.roles.sink.window.bytes); dut \([.intervals[].dut_bytes] | add), window \(.roles[.roles | keys[] | select(. == "proxy")].window.bytes)"' "$res"
check "intervals add up to the sink's window bytes within 1%" \
	jqe '[.runs[].samples[] | select(.status == "ok") | (([.intervals[].sink_bytes] | add) - .roles.sink.window.bytes | fabs) / .roles.sink.window.bytes] | max < 0.01' "$res"
check "intervals add up to the DUT's (proxy's) window bytes within 1%" \
	jqe '[.runs[].samples[] | select(.status == "ok") | (([.intervals[].dut_bytes] | add) - .roles.proxy.window.bytes | fabs) / .roles.proxy.window.bytes] | max < 0.01' "$res"
check "intervals span the window: durations add up to it within 5%" \
	jqe '[.runs[].samples[] | select(.status == "ok") | ([.intervals[].dur_s] | add) - 3 | fabs] | max < 0.15' "$res"
check "intervals: DUT busy cores between 0 and 1.1 (one CPU; 10 ms ticks)" \
	jqe '[.runs[].samples[].intervals[]? | .dut_busy_cores] | all(. >= 0 and . <= 1.1)' "$res"
check "no live counter file of this run left in /dev/shm" bash -c "! ls /dev/shm/zcbench-live-$ctl-* 2>/dev/null | grep -q ."
# A controller killed between making a file and mapping it: the next run removes it.
: >/dev/shm/zcbench-live-999999999-1

# --- --interval 0, --progress=never ---
"$ZCBENCH" run workloads/default.ini --only proxy-copy --chunk 64k --repetitions 1 --warmup 0.5 --duration 1 \
	--interval 0 --progress=never --out "$TMP/run0" >"$TMP/out0" 2>"$TMP/err0" || fail "run --interval 0"
check "a dead controller's live file removed by the next run" test ! -e /dev/shm/zcbench-live-999999999-1
check "--interval 0: no intervals" jqe '[.runs[].samples[] | has("intervals")] | any | not' "$(result_in "$TMP/run0")"
check "--progress=never: no progress line" bash -c "! grep -q '^\[round ' '$TMP/err0' '$TMP/out0'"

# --- the profile run made ---
if [ -z "$profile" ]; then
	echo "skip: profile part: $prof_why"
	finish
fi
dir=$(dirname "$res")
COPY_RE='^perf-profile\.self\.cycles-pp\.(_?copy_(to|from)_(iter|user)|copy_user|__copy_user|rep_movs|[_a-z]*memcpy|[_a-z]*memmove|copy_page|skb_copy|csum_partial_copy)'
check "every ok sample has its profile with the DUT's pid" \
	jqe '[.runs[].samples[] | select(.status == "ok")] | all(.[]; .profile.samples > 0 and (.profile.comm | test("^[0-9]+$")))' "$res"
check "each run's profile: merged repetitions, LKP names, buckets adding up to 100" \
	jqe '.runs | all(.[]; .profile.repetitions == 2 and .profile.comm == "dut" and
		(.profile.self | keys | all(startswith("perf-profile.self.cycles-pp."))) and
		(.profile.children | keys | all(startswith("perf-profile.children.cycles-pp."))) and
		(([.profile.buckets[]] | add) - 100 | fabs < 0.01))' "$res"
check "the event is said (cycles, or cpu-clock with why)" \
	jqe '.runs[0].profile | .event == "cycles" or (.event == "cpu-clock" and (.event_note | test("PMU|cycles")))' "$res"
for f in folded flamegraph; do
	check "run profile's $f beside the results file" \
		bash -c "for p in \$(jq -r '.runs[].profile.$f' '$res'); do [ -s '$dir/'\$p ] || exit 1; done"
done
check "raw data kept (perf.data with the perf backend)" \
	bash -c "jq -r '.runs[].samples[].profile | select(.backend == \"perf\") | .data' '$res' |
		 while read -r p; do [ -s '$dir/'\$p ] || exit 1; done"
jq -r '.runs[] | "    \(.name): \(.profile.samples) samples (\(.profile.backend), \(.profile.event)); kernel copy \(.profile.buckets.kernel_copy)%; top self: \(.profile.self | keys_unsorted[:3] | join(" "))"' "$res"
check "copy proxy: a copy routine in its top 5 by self share" \
	bash -c "jq -r '.runs[] | select(.name == \"proxy-copy\") | .profile.self | keys_unsorted[:5][]' '$res' | grep -Eq '$COPY_RE'"
check "splice proxy: no copy routine in its top 5 by self share" \
	bash -c "! jq -r '.runs[] | select(.name == \"proxy-splice\") | .profile.self | keys_unsorted[:5][]' '$res' | grep -Eq '$COPY_RE'"
"$ZCBENCH" report "$res" >"$TMP/report" 2>&1 || fail "report exit"
check "report: where the DUT core goes" grep -q 'Where the DUT core goes' "$TMP/report"
check "report: what splice saves or costs, by bucket" \
	grep -Eq 'splice/copy proxy 64k: splice (saves|costs) [0-9]+% of the core per byte over copy: .*kernel copy' "$TMP/report"
finish
