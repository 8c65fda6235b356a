#!/usr/bin/env bash
# MSG_ZEROCOPY and io_uring modes: each moves verified bytes to the sink;
# msg-zerocopy and uring-send-zc report how much the kernel copied (all of it
# on loopback); with io_uring_setup denied (seccomp) the modes say why in
# `zcbench list` and the run is marked unavailable, not failed.
set -u
ZCBENCH=${ZCBENCH:-bench/zcbench}
command -v jq >/dev/null || { echo "skip: jq not installed (make deps)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

list=$("$ZCBENCH" list) || fail "zcbench list"
for m in msg-zerocopy uring-send uring-send-zc uring-vmsplice uring-copy uring-splice; do
	grep -q "^  $m " <<<"$list" || fail "zcbench list does not show $m"
done
why=$(grep -A1 '^  uring-send ' <<<"$list" | sed -n 's/.*unavailable: //p')
[ -z "$why" ] || { echo "skip: io_uring unavailable here: $why"; exit 77; }

cat >"$tmp/w.ini" <<'INI'
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
"$ZCBENCH" run "$tmp/w.ini" --out "$tmp/out" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "zcbench run"; }
res=$(ls "$tmp"/out/*.json)

# Every run ok, and the sink verified bytes in its window.
bad=$(jq -r '.runs[] | select(.status != "ok" or .verified != true
	or ([.samples[] | select(.roles.sink.status == "ok" and .roles.sink.verified == true
	     and .roles.sink.window.bytes > 0)] | length) != (.samples | length))
	| "\(.name): \(.status) \(.reason // "")"' "$res")
[ -z "$bad" ] || fail "runs without verified bytes at the sink: $bad"
n=$(jq '.runs | length' "$res")
[ "$n" -eq 7 ] || fail "expected 7 runs, got $n"

# Loopback delivers to a local socket, which always copies: the modes must say so.
jq -e '.runs[] | select(.name == "msg-zerocopy") | .samples[0].roles.source.mode_report
	| .notified_sends > 0 and (.copied_fraction | type) == "number" and .copied_fraction > 0
	  and .copied_fraction <= 1 and .copied_sends <= .notified_sends' "$res" >/dev/null ||
	fail "msg-zerocopy does not report its copied fraction on loopback: $(jq -c \
	     '.runs[] | select(.name == "msg-zerocopy") | .samples[0].roles.source.mode_report' "$res")"
jq -e '.runs[] | select(.name == "uring-send-zc") | .samples[0].roles.source.mode_report
	| .notifications > 0 and (.usage_reported | not) or
	  (.copied_fraction > 0 and .copied_fraction <= 1)' "$res" >/dev/null ||
	fail "uring-send-zc does not report its copied fraction: $(jq -c \
	     '.runs[] | select(.name == "uring-send-zc") | .samples[0].roles.source.mode_report' "$res")"
# io-wq splice work must run on the core being measured.
jq -e '[.runs[] | select(.name | startswith("uring")) | .samples[0].roles
	| (.source.mode_report // .proxy.mode_report).iowq_pinned] | all' "$res" >/dev/null ||
	fail "io-wq workers not pinned to the role's CPU"

# io_uring_setup denied: listed as unavailable with the reason, run marked unavailable.
if cc -o "$tmp/deny_uring" "$(dirname "$0")/deny_uring.c" 2>"$tmp/cc.log"; then
	"$tmp/deny_uring" "$ZCBENCH" list >"$tmp/list" 2>&1; rc=$?
	[ $rc -eq 77 ] && { echo "skip: no seccomp here"; exit 77; }
	grep -A1 '^  uring-splice ' "$tmp/list" | grep -q 'unavailable: io_uring_setup: ' ||
		fail "uring-splice not listed as unavailable under seccomp: $(cat "$tmp/list")"
	grep -A1 '^  msg-zerocopy ' "$tmp/list" | grep -q 'unavailable' &&
		fail "msg-zerocopy needs no io_uring but is listed unavailable"
	"$tmp/deny_uring" "$ZCBENCH" run "$tmp/w.ini" --only uring-send --out "$tmp/deny" \
		>"$tmp/dlog" 2>&1 || { cat "$tmp/dlog"; fail "an unavailable mode made the run fail"; }
	jq -e '.runs[0] | .status == "unavailable" and (.reason | test("io_uring_setup"))' \
		"$tmp"/deny/*.json >/dev/null ||
		fail "run not marked unavailable: $(jq -c '.runs[0] | {status, reason}' "$tmp"/deny/*.json)"
else
	echo "note: no C compiler, seccomp check skipped: $(head -1 "$tmp/cc.log")"
fi
echo "ok"
