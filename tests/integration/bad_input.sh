#!/usr/bin/env bash
# Issue 30's input holes: what reaches a run is checked whole before it
# counts, and bad input is refused before anything starts.
#  F3  a proxy that flips a byte of a connection header (the flags, bytes
#      6-7, once passed) fails the run: exit 1, never verified.
# Every command runs under `timeout`: a hang fails the check instead of the
# whole script.
. "$(dirname "$0")/../lib.sh"
jqe() { jq -e "$@" >/dev/null 2>&1; }
# z ERRFILE zcbench-args...: exit code into $rc, stdout and stderr kept.
z() { local err=$1; shift; timeout -k 2 30 "$ZCBENCH" "$@" >"$TMP/out" 2>"$err"; rc=$?; }
refused() { # refused "what" ERRFILE REGEX: exit 2 and the message matches
	local what=$1 err=$2 re=$3
	if [ "$rc" -eq 2 ] && grep -Eq -- "$re" "$err"; then ok "$what"
	else bad "$what (exit $rc, wanted 2 and /$re/): $(head -c 300 "$err")"; fi
}
printf '[workload]\nwarmup = 0.1\nduration = 0.2\ntail = 0.1\nrepetitions = 1\nchunk = 64k\ntimeout = 10\nforeign_max = 100%%\n\n[run p]\ntopology = proxy\nproxy = copy\n' \
	>"$TMP/short.ini"

# --- F3: the connection header is checked whole at the sink ----------------
cc -std=gnu11 -O2 -Wall -D_GNU_SOURCE -o "$TMP/tamper" tests/tamper_proxy.c || fail "build tamper_proxy"
for b in 6 7; do
	ZC_TAMPER_HDR=$b ZC_TAMPER_HOW=none z "$TMP/h$b.err" run "$TMP/short.ini" \
		--exec-proxy "$TMP/tamper" --out "$TMP/h$b"
	f=$(result_in "$TMP/h$b")
	check "header byte $b flipped: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "header byte $b flipped: failed, not verified, the sink says why" jqe \
		'.runs[0].status == "failed" and .runs[0].verified != true and
		 (.runs[0].reason | test("no valid zcbench connection header"))' "${f:-/dev/null}"
done
# Untouched, the same proxy passes: the checks above are the header's.
ZC_TAMPER_HOW=none z "$TMP/h.err" run "$TMP/short.ini" --exec-proxy "$TMP/tamper" --out "$TMP/h"
check "header untouched: exit 0 and verified (got $rc)" jqe '.runs[0].verified == true' \
	"$(result_in "$TMP/h")"

finish
