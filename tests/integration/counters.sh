#!/usr/bin/env bash
# Counters (issue 4): the BPF accounting tells a zero-copy proxy from a copy
# proxy. splice: splice calls, no recv/send of payload, ~0 bytes copied;
# copy: recv/send, copied bytes within 5% of the payload each way; an
# emulated patched vmsplice (writev into the pipe) copies, vmsplice does not.
. "$(dirname "$0")/../lib.sh"

# A bad value is a usage error naming the key. (Leak checks off here: zc_cmd_run's
# early error returns leak the argv array, which is not what this test is about.)
ASAN_OPTIONS=detect_leaks=0 "$ZCBENCH" run workloads/smoke.ini --only proxy-copy --counters=bogus --out "$TMP" 2>"$TMP/err" >/dev/null
rc=$?
[ "$rc" -eq 2 ] && grep -q "counters" "$TMP/err" || fail "--counters=bogus: exit $rc: $(cat "$TMP/err")"

cat >"$TMP/w.ini" <<'INI'
[workload]
name = counters-test
warmup = 0.2
duration = 0.5
tail = 0.2
repetitions = 1
chunk = 64k
pipe_size = 256k
timeout = 10
[run proxy-copy]
proxy = copy
[run proxy-splice]
proxy = splice
[run src-vmsplice]
topology = direct
source = vmsplice
[run src-vmsplice-as-writev]
topology = direct
source = vmsplice-as-writev
INI
"$ZCBENCH" run "$TMP/w.ini" --counters=all --foreign-max=100% --wide --out "$TMP" >"$TMP/table" 2>&1 ||
	{ cat "$TMP/table"; fail "run failed"; }
f=$(ls "$TMP"/*.json | head -n1)
why=$(jq -r '[.runs[].samples[].roles.proxy.counters.bpf_reason | select(. != null)] | first // empty' "$f")
if [ -n "$why" ]; then
	skip "BPF accounting could not load: $why"
fi
jcheck() { # description, jq expression that must be true
	if [ "$(jq -r "$2" "$f")" = true ]; then
		ok "$1"
	else
		bad "$1 (${2%] |*}] = $(jq -c "${2%] |*}]" "$f"))"
	fi
}
P='.runs[] | select(.key.proxy == "MODE") | .samples[0].roles.proxy.counters'
S=${P/MODE/splice}
C=${P/MODE/copy}
# The perf side: software counters work everywhere; hardware ones are counted or say why.
jcheck "perf task_clock counted" "[$C.perf.events.task_clock_ns] | .[0] > 0"
jcheck "perf hardware counters: value or reason" \
	"[$C.perf | (.events.cycles != null) or (.reasons.cycles | type == \"string\")] | .[0]"
# Each splice moves a pipeful (256k) at most, and each pipeful takes two (in, out).
jcheck "splice proxy makes splice calls, enough for its payload" \
	"[$S | .payload_bytes as \$p | .bpf.syscalls.splice.count | . > 0 and (. + 4) * 262144 >= 2 * \$p] | .[0]"
jcheck "splice proxy: no recv/send syscalls" \
	"[$S.bpf.syscalls | (.recvfrom.count // 0) + (.sendto.count // 0) + (.recvmsg.count // 0) + (.sendmsg.count // 0)] | .[0] == 0"
jcheck "splice proxy: no read/write either (edge reads stay outside the window)" \
	"[$S.bpf.syscalls | (.read.count // 0) + (.write.count // 0)] | .[0] == 0"
jcheck "splice proxy: rx copied ~0" "[$S.bpf.rx_copied_per_payload_byte] | .[0] < 0.01"
jcheck "splice proxy: tx copied ~0" "[$S.bpf.tx_copied_per_payload_byte] | .[0] < 0.01"
jcheck "splice proxy: sends attach pipe pages" "[$S.bpf.tcp_sendmsg_locked.splice_pages] | .[0] > 0"
# Each call moves a 64k chunk at most: as many calls as the window's payload
# needs (one chunk of slack at each edge), however few a starved core made.
jcheck "copy proxy makes recv and send calls, enough for its payload" \
	"[$C | .payload_bytes as \$p | .bpf.syscalls | .recvfrom.count > 0 and .sendto.count > 0 and
	  (.recvfrom.count + 2) * 65536 >= \$p and (.sendto.count + 2) * 65536 >= \$p] | .[0]"
jcheck "copy proxy makes no splice calls" "[$C.bpf.syscalls.splice.count // 0] | .[0] == 0"
jcheck "copy proxy: rx copied within 5% of payload" \
	"[$C.bpf.rx_copied_per_payload_byte - 1 | fabs] | .[0] < 0.05"
jcheck "copy proxy: tx copied within 5% of payload" \
	"[$C.bpf.tx_copied_per_payload_byte - 1 | fabs] | .[0] < 0.05"
jcheck "softirq share on the DUT CPU in [0, 1]" \
	"[$C.bpf.softirq.share_of_core] | .[0] >= 0 and .[0] <= 1"
jcheck "copy_iter: counted or says why" \
	"[$C.bpf | (.copy_iter != null) or (.copy_iter_reason | type == \"string\")] | .[0]"
V='(.runs[] | select(.key.source == "MODE" and .key.topology == "direct") | .samples[0].roles.source.counters | .bpf + {payload_bytes_in_window: .payload_bytes})'
jcheck "vmsplice source: nothing copied (unpatched kernel)" "[${V/MODE/vmsplice}.tx_copied_per_payload_byte] | .[0] < 0.01"
# The pipe sits between the copy and the send: allow its 256k on top of 5%.
jcheck "emulated patched vmsplice (writev into the pipe): payload copied once" \
	"[${V/MODE/vmsplice-as-writev} | (.tx_copied_bytes - .payload_bytes_in_window | fabs) < 0.05 * .payload_bytes_in_window + 262144] | .[0]"
# A DUT that a loaded machine left no time in its window moved nothing there,
# and has no per-byte figure (said, not failed); every other has them.
jq -r '.runs[] | select(.samples[0].roles[.dut].counters.payload_bytes == 0) |
	"# \(.name): the DUT moved nothing in its window (a starved core): no per-byte figures"' "$f"
jcheck "sample metrics for the DUT (each that moved bytes in its window)" \
	'[.runs[] | select(.samples[0].roles[.dut].counters.payload_bytes > 0) |
	  .summary.dut_syscalls_per_mb.median > 0 and .summary.dut_rx_copied_per_byte.n == 1] | length > 0 and all'
jcheck "only the DUT loads BPF by default (counters_roles = dut)" \
	'[.runs[] | .dut as $d | .samples[0].roles | .sink.counters.requested == "perf" and .[$d].counters.requested == "all"] | all'
check "the --wide table has counters columns" grep -q "sys/MB" "$TMP/table"

# make bench-overhead's sliced way (ZC_BPF_TOGGLE_MS): slices on and off in
# the ABBA order, each with CPU time and bytes, the programs counting in the
# "on" ones only (a splice proxy's splice calls go on being seen).
mkdir -p "$TMP/sliced"
ZC_BPF_TOGGLE_MS=50 "$ZCBENCH" run "$TMP/w.ini" --only proxy-splice --counters=all --duration=1 \
	--foreign-max=100% --out "$TMP/sliced" >"$TMP/sliced.txt" 2>&1 || { cat "$TMP/sliced.txt"; fail "sliced run failed"; }
f=$(ls "$TMP"/sliced/*.json | head -n1)
T='.runs[0].samples[0].roles.proxy'
if [ "$(nproc)" -lt 2 ]; then
	jcheck "sliced: one CPU, so the role says why it could not" "[$T.counters_toggle_error | type == \"string\"] | .[0]"
else
	jcheck "sliced: no error" "[$T | .counters_toggle_error == null and .counters.toggle.error == null] | .[0]"
	# 50 ms slices of a 1 s window; a loaded machine stretches the attach and
	# detach between them, so fewer: the first ABBA turn at least.
	jcheck "sliced: 4 or more slices, in the order on, off, off, on, on, ..." \
		"[$T.counters.toggle.slices | length >= 4 and
		  ([.[][0]] == [range(length) | [true, false, false, true][. % 4]])] | .[0]"
	# Each slice's own share may be nothing on a busy core (another task had it
	# for the slice); together they moved bytes and took CPU time.
	jcheck "sliced: every slice has its length, CPU time and bytes; together some" \
		"[$T.counters.toggle.slices | all(.[1] > 0 and .[2] >= 0 and .[3] >= 0) and
		 (map(.[2]) | add) > 0 and (map(.[3]) | add) > 0] | .[0]"
	jcheck "sliced: the programs attached again between slices (splice calls counted)" \
		"[$T.counters.bpf.syscalls.splice.count] | .[0] > 0"
	jcheck "sliced: no per-MB figure from part of the window, and why" \
		"[$T.counters.bpf | .syscalls_per_mb == null and .tx_copied_per_payload_byte == null and (.partial | test(\"on. slices\"))] | .[0]"
	jcheck "sliced: the run's summary has no syscalls per MB" \
		"[.runs[0].summary.dut_syscalls_per_mb.median == null] | .[0]"
fi
ZC_BPF_TOGGLE_MS=5 "$ZCBENCH" run "$TMP/w.ini" --only proxy-splice --counters=all \
	--foreign-max=100% --out "$TMP/sliced-bad" >/dev/null 2>&1
check "sliced: a bad ZC_BPF_TOGGLE_MS is named in the results" \
	jq -e '.runs[0].samples[0].roles.proxy.counters_toggle_error | test("ZC_BPF_TOGGLE_MS")' "$TMP"/sliced-bad/*.json
finish
