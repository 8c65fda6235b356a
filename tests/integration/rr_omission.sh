#!/usr/bin/env bash
# Latency without coordinated omission (issue 41): in open loop (rate > 0)
# a connection that stops answering for a while (tests/tamper_rr.c pauses
# the responses of one connection, shorter than the timeout: the run is ok)
# must not hide the requests it could not send. The latency holds every
# request intended in the window (as many as the rate asks, whatever
# stalled), the ones sent late are counted, and those never sent before the
# run ended are counted and in the latency from their time. Counts and lower
# bounds only: a loaded machine makes latencies longer, never these counts
# other.
. "$(dirname "$0")/../lib.sh"
cc -std=gnu11 -O2 -Wall -D_GNU_SOURCE -o "$TMP/tamper" tests/tamper_rr.c || fail "build tamper_rr"
RATE=200 DUR=1
cat >"$TMP/rr.ini" <<EOF
[workload]
name = rr-omission
traffic = rr
warmup = 0.2
duration = $DUR
tail = 1
timeout = 4
repetitions = 1
object_size = 16k
connections = 2
rate = $RATE
foreign_max = 100%

[run proxy]
topology = proxy
proxy = copy
EOF
# paused NAME AFTER PAUSE: a run whose connection 0 gets no response from
# AFTER s after GO for PAUSE s; its client's rr object in $TMP/NAME.rr.
paused() {
	ZC_TAMPER_HOW=pause ZC_TAMPER_AFTER=$2 ZC_TAMPER_PAUSE=$3 $ZCBENCH run "$TMP/rr.ini" \
		--exec-proxy "$TMP/tamper" --out "$TMP/$1" >"$TMP/$1.txt" 2>&1
	rc=$?
	f=$(result_in "$TMP/$1")
	[ -s "$f" ] || { cat "$TMP/$1.txt"; fail "$1: no results (exit $rc)"; }
	case $(jq -r '.runs[0].reason // ""' "$f") in
	*"did not run when the window opened"*)
		echo "# $1: a loaded machine: $(jq -r '.runs[0].reason' "$f")"; return 1 ;;
	esac
	check "$1: ok and verified, a pause is no failure (exit $rc)" \
		jqe '.runs[0] | .status == "ok" and .verified == true' "$f" || { tail -n 5 "$TMP/$1.txt"; return 1; }
	jq '.runs[0].samples[0].roles.source.rr' "$f" >"$TMP/$1.rr"
	echo "# $1: $(jq -c '{late, unsent, stalled, count: .latency.count, p50: .latency.p50_ns, p90: .latency.p90_ns, max: .latency.max_ns}' "$TMP/$1.rr")"
}
want=$((RATE * DUR))
# Every request intended in the window, once: RATE * DUR of them, give or
# take one a connection at the window's edges.
all_in() { jqe --argjson w $want '.latency.count >= $w - 2 and .latency.count <= $w + 2' "$1"; }

# A half-second pause in the window: about 50 requests of connection 0 were
# due while it waited; each is late and carries the wait in its latency.
if paused pause 0.5 0.5; then
	check "pause: every request intended in the window is in the latency ($want +-2)" all_in "$TMP/pause.rr"
	check "pause: the requests that waited are counted late (25 or more)" jqe '.late >= 25 and .stalled == 0' "$TMP/pause.rr"
	check "pause: the 90th percentile shows the wait (100 ms or more)" jqe '.latency.p90_ns >= 1e8' "$TMP/pause.rr"
	check "pause: the longest shows all of it (400 ms or more)" jqe '.latency.max_ns >= 4e8' "$TMP/pause.rr"
	check "pause: the sample's p90 is the histogram's" \
		jqe '.runs[0].samples[0] | (.lat_p90_us * 1000 - .roles.source.rr.latency.p90_ns) as $d | $d < 1 and $d > -1' "$f"
fi
# A pause from 0.3 s before the window's end past the tail's: connection 0's
# requests due in that last stretch were never sent; counted unsent, and in
# the latency from their time (so still every request intended).
if paused unsent 0.9 1.6; then
	check "unsent: every request intended in the window is in the latency ($want +-2)" all_in "$TMP/unsent.rr"
	check "unsent: the requests never sent are counted (20 or more)" jqe '.unsent >= 20 and .stalled == 0' "$TMP/unsent.rr"
	check "unsent: the longest latency runs past the window (1 s or more)" jqe '.latency.max_ns >= 1e9' "$TMP/unsent.rr"
fi
# Closed loop has no intended times: neither count is written.
sed -i '/^rate = /d' "$TMP/rr.ini"
if paused closed 0.5 0.3; then
	check "closed loop: no late or unsent keys" jqe 'has("late") or has("unsent") | not' "$TMP/closed.rr"
fi
finish
