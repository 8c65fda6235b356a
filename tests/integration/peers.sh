#!/usr/bin/env bash
# Peer modes (issue 12): HAProxy with and without splice moves verified bytes
# through zcbench's own source and sink (loopback, and across namespaces when
# root), with its configuration and `haproxy -vv` in the results; a sink
# expecting another seed catches the mismatch through HAProxy; without
# haproxy in PATH its modes are listed unavailable and a run of them fails
# with that reason (exit 1) while the rest of the file is measured; haproxy
# killed mid-window fails that sample only; iperf3 runs say unverified; no
# haproxy or iperf3 is left behind.
# test-locks: netns
. "$(dirname "$0")/../lib.sh"
PATH=$PATH:/usr/sbin:/sbin
command -v haproxy >/dev/null || skip "haproxy missing (make deps installs it as an optional package)"
exe=$(readlink -f "$ZCBENCH")
# Our peers: started by roles of this binary, their files in /tmp/zcbench-peer-*.
ours() { ours_pids '^(haproxy -db -f /tmp/zcbench-peer-|iperf3 -(s -1|c) )'; }
# Left behind: a peer whose role is gone (reparented to init) or whose role
# is one of ours (nothing of this test runs any more).
leftover() {
	local p pp
	for p in $(ours); do
		pp=$(ps -o ppid= "$p" | tr -d ' ')
		[ "$pp" = 1 ] || [ "$(readlink -f /proc/"$pp"/exe 2>/dev/null)" = "$exe" ] && echo "$p"
	done
}

w() { # w FILE: a short workload of HAProxy runs and one plain run
	printf '[workload]\nwarmup = 0.3\nduration = 1\ntail = 0.3\ntimeout = 10\nchunk = 64k\npipe_size = 1M\nrepetitions = 1\n\n' >"$1"
	printf '[run hsplice]\ntopology = proxy\nproxy = haproxy-splice\n\n[run hcopy]\ntopology = proxy\nproxy = haproxy-copy\n\n' >>"$1"
	printf '[run plain]\ntopology = proxy\nproxy = splice\n' >>"$1"
}
w "$TMP/w.ini"

# 1. Both HAProxy modes move verified bytes, with the same accounting.
"$ZCBENCH" run "$TMP/w.ini" --out "$TMP/a" >"$TMP/a.log" 2>&1
rc=$?
f=$(result_in "$TMP/a")
[ -n "$f" ] || { cat "$TMP/a.log"; fail "no results file (exit $rc)"; }
check "loopback: exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/a.log"
for r in hsplice hcopy; do
	check "loopback $r: ok, verified, every connection checked, bytes moved" jq -e --arg r "$r" \
		'.runs[] | select(.name == $r) | .status == "ok" and .verified and .peer.proxy == "haproxy" and
		 (.samples[0] | .status == "ok" and .gbps > 0 and .gbps_per_core > 0 and .connections_checked == 1
		  and .roles.proxy.window.bytes > 0 and .roles.proxy.window.busy_s > 0 and .roles.sink.verified)' "$f"
	check "loopback $r: HAProxy's window agrees with the sink's (0.5-2)" jq -e --arg r "$r" \
		'.runs[] | select(.name == $r) | .samples[0].window_agreement | . > 0.5 and . < 2' "$f"
done
check "haproxy-splice: its config splices, with the run's pipe size" jq -e \
	'.runs[0].samples[0].roles.proxy.peer | (.config | test("option splice-request") and test("option splice-response") and test("tune.pipesize 1048576") and test("cpu-map"))' "$f"
check "haproxy-copy: its config says nosplice" jq -e \
	'.runs[1].samples[0].roles.proxy.peer.config | test("nosplice") and (test("splice-request") | not)' "$f"
check "haproxy -vv and version in the results" jq -e \
	'.runs[0].samples[0].roles.proxy.peer | (.vv_head | test("HAProxy version")) and (.version | length > 0) and .splice' "$f"
check "haproxy stopped and reaped after each sample" jq -e \
	'[.runs[0,1].samples[0].roles.proxy.peer.exit] | all(test("signal 15|exit code 0"))' "$f"
check "table marks the peer runs" grep -q "hsplice .* ok peer" "$TMP/a.log"

# 2. A sink expecting another seed catches the mismatch through HAProxy.
"$ZCBENCH" run "$TMP/w.ini" --only hsplice --sink-seed=7 --out "$TMP/s" >"$TMP/s.log" 2>&1
rc=$?
f=$(result_in "$TMP/s")
check "other seed: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "other seed: the sink names the mismatch through haproxy-splice" jq -e \
	'.runs[0].samples[0] | .status == "failed" and (.reason | test("payload mismatch"))' "$f"

# 3. No haproxy in PATH: listed unavailable, its runs fail with the reason, the rest runs.
PATH=/usr/bin:/bin "$ZCBENCH" list >"$TMP/list" 2>&1
check "no haproxy: list says haproxy-splice is unavailable, and why" \
	bash -c "grep -A1 '^  haproxy-splice ' '$TMP/list' | grep -q 'unavailable: haproxy not installed'"
check "no haproxy: list says haproxy-copy is unavailable" \
	bash -c "grep -A1 '^  haproxy-copy ' '$TMP/list' | grep -q 'unavailable: haproxy not installed'"
PATH=/usr/bin:/bin "$ZCBENCH" run "$TMP/w.ini" --out "$TMP/n" >"$TMP/n.log" 2>&1
rc=$?
f=$(result_in "$TMP/n")
check "no haproxy: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "no haproxy: both HAProxy runs failed with the reason" jq -e \
	'[.runs[] | select(.name != "plain") | .status == "failed" and (.reason | test("unavailable: haproxy not installed"))] | length == 2 and all' "$f"
check "no haproxy: the plain run is measured" jq -e \
	'.runs[] | select(.name == "plain") | .status == "ok" and .samples[0].gbps > 0' "$f"

# The HAProxy that controller $1's proxy role started (its grandchild),
# waited for up to 10 s; nothing if none came.
run_haproxy() {
	local h="" p pp
	for _ in $(seq 200); do
		h=$(for p in $(ours_pids '^haproxy -db -f /tmp/zcbench-peer-'); do
			pp=$(ps -o ppid= "$p" | tr -d ' '); [ "$(ps -o ppid= "$pp" | tr -d ' ')" = "$1" ] && echo "$p"; done | head -n1)
		[ -n "$h" ] && break
		sleep 0.05
	done
	echo "$h"
}

# 4. haproxy killed mid-window fails that sample only.
printf '[workload]\nwarmup = 0.3\nduration = 2\ntail = 0.3\ntimeout = 5\nchunk = 64k\nrepetitions = 2\n\n[run hcopy]\ntopology = proxy\nproxy = haproxy-copy\n' >"$TMP/k.ini"
"$ZCBENCH" run "$TMP/k.ini" --out "$TMP/k" >"$TMP/k.log" 2>&1 &
ctl=$!
h=$(run_haproxy "$ctl")
sleep 1.2
[ -n "$h" ] && kill -9 "$h"
wait "$ctl"
rc=$?
f=$(result_in "$TMP/k")
check "kill: found this run's haproxy (pid ${h:-none})" [ -n "$h" ]
check "kill: exit 1 (got $rc)" [ "$rc" -eq 1 ]
# Killed 1.2 s after it appeared: in its window on a quiet machine; a loaded
# one may bring GO later, so any phase is accepted (the reason is printed).
check "kill: first sample failed, saying haproxy was killed ($(jq -r '.runs[0].samples[0].reason' "${f:-/dev/null}"))" jq -e \
	'.runs[0].samples[0] | .status == "failed" and (.reason | test("haproxy exited [^;]*\\(killed by signal 9"))' "$f"
check "kill: second sample still measured" jq -e '.runs[0].samples[1].status == "ok" and .runs[0].samples[1].gbps > 0' "$f"
check "kill: run partial" [ "$(jq -r '.runs[0].status' "$f")" = partial ]

# 4b. Ctrl-C mid-window: exit 130, HAProxy gone (the SIGKILLed role's
# PDEATHSIG), and its folder removed by the next peer role.
"$ZCBENCH" run "$TMP/k.ini" --out "$TMP/c" >"$TMP/c.log" 2>&1 &
ctl=$!
h=$(run_haproxy "$ctl")
dir=$(tr '\0' ' ' <"/proc/$h/cmdline" 2>/dev/null | sed -n 's|.* -f \(/tmp/zcbench-peer-[^/]*\)/.*|\1|p')
sleep 1
kill -INT "$ctl"
wait "$ctl"
rc=$?
# Gone once its role's death reached it (PDEATHSIG) and it was reaped: a
# zombie waiting for init counts as gone.
gone() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null); [ -z "$st" ] || [ "${st#Z}" != "$st" ]; }
for _ in $(seq 50); do gone "$h" && break; sleep 0.1; done
check "ctrl-c: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "ctrl-c: haproxy $h is gone" gone "$h"
"$ZCBENCH" run "$TMP/w.ini" --only hcopy --out "$TMP/c2" >/dev/null 2>&1
check "ctrl-c: the next peer role removed the folder ${dir:-none} left behind" [ -n "$dir" -a ! -e "$dir" ]

# 5. iperf3: its own payload, measured alike, said unverified.
if command -v iperf3 >/dev/null; then
	printf '[workload]\nwarmup = 0.3\nduration = 1\ntail = 0.3\nchunk = 64k\nrepetitions = 1\n\n[run i]\ntopology = direct\nsource = iperf3-send\n\n[run z]\ntopology = direct\nsource = iperf3-sendfile\n' >"$TMP/i.ini"
	"$ZCBENCH" run "$TMP/i.ini" --out "$TMP/i" >"$TMP/i.log" 2>&1
	rc=$?
	f=$(result_in "$TMP/i")
	check "iperf3: exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/i.log"
	check "iperf3: both runs ok, unverified with the reason, bytes and busy time measured" jq -e \
		'[.runs[] | .status == "ok" and (.verified | not) and (.unverified | test("own payload")) and
		  .samples[0].gbps > 0 and .samples[0].dut_busy_cores > 0 and
		  (.samples[0].roles.source.peer.command | test("^iperf3 -c"))] | all' "$f"
	check "iperf3 -Z: the client ran with -Z" jq -e '.runs[1].samples[0].roles.source.peer.command | test(" -Z")' "$f"
else
	echo "# iperf3 missing: its runs not tested"
fi

# 6. Across namespaces (root).
if [ "$(id -u)" -eq 0 ] && ip netns add "zcprobe-$$" 2>/dev/null; then
	ip netns del "zcprobe-$$"
	"$ZCBENCH" run "$TMP/w.ini" --host hosts/netns.ini --only hsplice --only hcopy --out "$TMP/ns" >"$TMP/ns.log" 2>&1 &
	pid=$!
	on_exit 'for n in $(ip netns list 2>/dev/null | grep -o "^zcb-'$pid'-[a-z]*"); do ip netns del "$n"; done'
	wait $pid
	rc=$?
	f=$(result_in "$TMP/ns")
	check "netns: exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/ns.log"
	check "netns: both HAProxy runs verified over veth" jq -e \
		'[.runs[] | .status == "ok" and .verified and .samples[0].gbps > 0 and .samples[0].connections_checked == 1 and (.samples[0].roles.source.nics.out.driver == "veth")] | length == 2 and all' "$f"
else
	echo "# not root or no namespaces: netns part not tested"
fi

sleep 0.3
check "no haproxy or iperf3 of ours left running" [ -z "$(leftover)" ]
finish
