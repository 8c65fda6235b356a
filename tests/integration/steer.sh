#!/usr/bin/env bash
# Steering with several workers across namespaces (hosts/netns.ini, rps = on):
# during the run RFS's host-wide table (net.core.rps_sock_flow_entries) is
# raised and each role's veth queues steer to its workers' CPUs; afterwards
# the sysctl is back, also after a SIGKILLed controller (restored by the next
# run, which says so). A loopback run says why nothing is steered there.
# test-locks: netns
. "$(dirname "$0")/../lib.sh"
# The runs' state files in a folder of their own: a run of another test beside
# this one must not restore the killed run's settings before "the next run".
export ZC_STATE_DIR=$TMP/state
[ "$(id -u)" -eq 0 ] || skip "network namespaces and sysctls need root"
ip netns add "zcprobe-$$" 2>/dev/null || skip "cannot create a network namespace"
ip netns del "zcprobe-$$"
S=/proc/sys/net/core/rps_sock_flow_entries
[ -w $S ] || skip "no $S (kernel without RPS)"
before=$(cat $S)
[ "$before" -lt 32768 ] || skip "rps_sock_flow_entries is $before already: nothing to change and restore"
del_ns_of() { local n; for n in $(ip netns list 2>/dev/null | grep -o "^zcb-$1-[a-z]*"); do ip netns del "$n"; done; }
on_exit "[ \"\$(cat $S)\" = $before ] || echo $before >$S"

$ZCBENCH run workloads/smoke.ini --host hosts/netns.ini --connections=4 --workers=2 \
	--only proxy-splice --duration=2 --out "$TMP/run" >"$TMP/run.txt" 2>&1 &
pid=$!
on_exit del_ns_of $pid
# The global table first, then each queue: on a busy machine the queue's
# values come a while after the table's, so wait for them too (until the run
# ends).
q=/sys/class/net/zc-src/queues/rx-0
for i in $(seq 400); do
	flows=$(ip netns exec "zcb-$pid-dut" cat $q/rps_flow_cnt 2>/dev/null)
	[ "$(cat $S)" = 32768 ] && [ "$flows" = 32768 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
during=$(cat $S)
mask=$(ip netns exec "zcb-$pid-dut" cat $q/rps_cpus 2>/dev/null)
wait $pid
rc=$?
f=$(result_in "$TMP/run")
check "netns run with 2 workers ok (exit $rc)" [ "$rc" -eq 0 ] || cat "$TMP/run.txt"
check "RFS table raised during the run ($before -> $during)" [ "$during" = 32768 ]
want=$(jq -r '.runs[0].placement.steering.proxy.cpus' "$f")
check "the proxy's receive queue steered to its workers' CPUs (mask $mask, recorded $want)" \
	[ -n "$mask" ] && [ "$((16#${mask//,/}))" -eq "$((16#${want//,/}))" ]
check "RFS flow count on the proxy's queue ($flows)" [ "$flows" = 32768 ]
check "restored after the run ($(cat $S))" [ "$(cat $S)" = "$before" ]
check "results record the steering" [ "$(jq -r '.runs[0].placement.steering |
	.method + " " + (.rfs.changed | tostring) + " " + (.rfs.previous | tostring)' "$f")" = "rps+rfs+xps true $before" ]
check "softirq per CPU recorded" [ "$(jq '.runs[0].samples[0].cpu_softirq | length > 0' "$f")" = true ]

# SIGKILL mid-run: the next run puts the sysctl back and says so.
$ZCBENCH run workloads/smoke.ini --host hosts/netns.ini --connections=4 --workers=2 \
	--only src-send --duration=5 --out "$TMP/kill" >"$TMP/kill.txt" 2>&1 &
pid=$!
on_exit del_ns_of $pid
for i in $(seq 200); do [ "$(cat $S)" = 32768 ] && break; sleep 0.05; done
kill -KILL $pid
wait $pid 2>/dev/null
check "left changed by the killed run" [ "$(cat $S)" = 32768 ]
$ZCBENCH run workloads/smoke.ini --only src-send --out "$TMP/next" >"$TMP/next.txt" 2>&1 ||
	{ cat "$TMP/next.txt"; bad "run after the killed one"; }
check "the next run restored it ($(cat $S))" [ "$(cat $S)" = "$before" ]
check "... and said so" grep -q "restored steering settings left by a dead zcbench (pid $pid)" "$TMP/next.txt"
check "loopback: the results say why nothing is steered" [ "$(jq -r '.runs[0].placement.steering |
	.method + " " + (.note | test("loopback") | tostring)' "$(result_in "$TMP/next")")" = "none true" ]
del_ns_of $pid
finish
