#!/usr/bin/env bash
# MSG_ZEROCOPY and io_uring modes: each moves verified bytes to the sink;
# msg-zerocopy and uring-send-zc report how much the kernel copied (all of it
# on loopback); with io_uring_setup denied (seccomp) the modes say why in
# `zcbench list` and the run is marked unavailable, not failed.
. "$(dirname "$0")/../lib.sh"

list=$($ZCBENCH list) || { bad "zcbench list"; finish; }
for m in msg-zerocopy uring-send uring-send-zc uring-vmsplice uring-copy uring-splice; do
	check "zcbench list shows $m" grep -q "^  $m " <<<"$list"
done
why=$(grep -A1 '^  uring-send ' <<<"$list" | sed -n 's/.*unavailable: //p')
[ -z "$why" ] || skip "io_uring unavailable here: $why"

cat >"$TMP/w.ini" <<'INI'
[workload]
name = uring-test
warmup = 0.1
duration = 0.4
tail = 0.1
repetitions = 1
chunk = 64k
pipe_size = 256k
timeout = 10
[run msg-zerocopy]
topology = direct
source = msg-zerocopy
[run uring-send]
topology = direct
source = uring-send
[run uring-send-zc]
topology = direct
source = uring-send-zc
[run uring-vmsplice]
topology = direct
source = uring-vmsplice
[run uring-copy]
topology = proxy
proxy = uring-copy
[run uring-splice]
topology = proxy
proxy = uring-splice
; chunk larger than the pipe: every linked splice-in is capped at the pipe
[run uring-splice-big]
topology = proxy
proxy = uring-splice
chunk = 1M
pipe_size = 64k
INI
$ZCBENCH run "$TMP/w.ini" --out "$TMP/out" >"$TMP/log" 2>&1
rc=$?
check "run exits 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/log"
f=$(result_in "$TMP/out")
check "7 runs in the results" [ "$(jq '.runs | length' "$f")" -eq 7 ]
while IFS='|' read -r name status reason bytes verified; do
	check "$name: ok, sink verified $bytes bytes ($status $reason)" \
		[ "$status" = ok -a "$verified" = true -a "$bytes" -gt 0 ]
done < <(jq -r '.runs[] | [.name, .status, (.reason // ""),
	(.samples[0].roles.sink.window.bytes // 0),
	(.verified and .samples[0].roles.sink.verified)] | map(tostring) | join("|")' "$f")

# Loopback delivers to a local socket, which always copies: the modes must say so.
mzc=$(jq -c '.runs[] | select(.name == "msg-zerocopy") | .samples[0].roles.source.mode_report' "$f")
check "msg-zerocopy reports its copied fraction on loopback: $mzc" jqe '.notified_sends > 0
	and (.copied_fraction | type) == "number" and .copied_fraction > 0
	and .copied_fraction <= 1 and .copied_sends <= .notified_sends' <<<"$mzc"
check "msg-zerocopy warns that the kernel copied" grep -q "msg-zerocopy: the kernel copied" "$TMP/log"
szc=$(jq -c '.runs[] | select(.name == "uring-send-zc") | .samples[0].roles.source.mode_report' "$f")
check "uring-send-zc reports notifications and what was copied: $szc" jqe '.notifications > 0
	and ((.usage_reported | not) or (.copied_fraction > 0 and .copied_fraction <= 1))' <<<"$szc"
# io-wq splice work must run on the core being measured.
check "io-wq workers pinned to the role's CPU" jqe '[.runs[] | select(.name | startswith("uring"))
	| .samples[0].roles | (.source.mode_report // .proxy.mode_report).iowq_pinned] | all' "$f"

# io_uring_setup denied: listed as unavailable with the reason, run marked unavailable.
if cc -o "$TMP/deny_uring" tests/integration/deny_uring.c 2>"$TMP/cc.log"; then
	"$TMP/deny_uring" $ZCBENCH list >"$TMP/list" 2>&1
	[ $? -eq 77 ] && skip "no seccomp here"
	check "seccomp: uring-splice listed unavailable, reason names io_uring_setup" \
		[ "$(grep -A1 '^  uring-splice ' "$TMP/list" | grep -c 'unavailable: io_uring_setup: ')" -eq 1 ]
	check "seccomp: msg-zerocopy (no io_uring) still available" \
		[ "$(grep -A1 '^  msg-zerocopy ' "$TMP/list" | grep -c unavailable)" -eq 0 ]
	"$TMP/deny_uring" $ZCBENCH run "$TMP/w.ini" --only uring-send --out "$TMP/deny" >"$TMP/dlog" 2>&1
	rc=$?
	check "seccomp: an unavailable mode does not fail the run (exit $rc)" [ "$rc" -eq 0 ]
	check "seccomp: run marked unavailable, reason names io_uring_setup" \
		jqe '.runs[0] | .status == "unavailable" and (.reason | test("io_uring_setup"))' \
		"$(result_in "$TMP/deny")"
else
	echo "note: no C compiler, seccomp check left out: $(head -1 "$TMP/cc.log")"
fi
finish
