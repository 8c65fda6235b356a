#!/usr/bin/env bash
# hosts/netns.ini: roles in three namespaces move verified bytes over veth,
# each reports its veth NIC (virtual), and the namespaces are gone after a
# normal run, after Ctrl-C, and (via the next run) after a SIGKILLed one.
set -u
ZCBENCH=${ZCBENCH:-bench/zcbench}
[ "$(id -u)" -eq 0 ] || { echo "skip: network namespaces need root"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing (make deps)"; exit 77; }
ip netns add "zcprobe-$$" 2>/dev/null || { echo "skip: cannot create a network namespace"; exit 77; }
ip netns del "zcprobe-$$"
dir=$(mktemp -d)
pids=
# Whatever happens, no namespace of ours outlives the test.
trap 'rm -rf "$dir"; for p in $pids; do for n in $(ip netns list 2>/dev/null | grep -o "^zcb-$p-[a-z]*"); do ip netns del $n; done; done' EXIT
ns_of() { ip netns list 2>/dev/null | grep -c "^zcb-$1-" ; }

"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$dir/out" \
	--only proxy-splice --only src-send >"$dir/log" 2>&1 &
pid=$!
pids="$pids $pid"
wait $pid
rc=$?
f=$(ls "$dir"/out/*.json 2>/dev/null | head -1)
[ $rc -eq 0 ] && [ -n "$f" ] || { echo "FAIL: netns run exit $rc"; cat "$dir/log"; exit 1; }
[ "$(ns_of $pid)" = 0 ] || { echo "FAIL: namespaces of $pid left after the run"; ip netns list; exit 1; }
ok=$(jq '[.runs[] | select(.status == "ok" and .verified and .summary.gbps.median > 0)] | length' "$f")
[ "$ok" = 2 ] || { echo "FAIL: expected 2 verified ok runs, got $ok"; cat "$dir/log"; exit 1; }
# Each role ran in its own namespace, on veth, and said so.
jq -e --arg p "zcb-$pid-dut" '.host.roles.proxy.netns == $p' "$f" >/dev/null ||
	{ echo "FAIL: proxy namespace not recorded"; exit 1; }
nic=$(jq -c '.runs[0].samples[0].roles.proxy.nics | [.in.name, .in.driver, .in.virtual, .out.name, .in.mtu]' "$f")
[ "$nic" = '["zc-src","veth",true,"zc-snk",1500]' ] || { echo "FAIL: proxy NICs $nic"; exit 1; }
nic=$(jq -c '.runs[1].samples[0].roles.sink.nics.in | [.name, .local_address]' "$f")
[ "$nic" = '["zc-src","198.18.2.2"]' ] || { echo "FAIL: direct run not over the source-sink link: $nic"; exit 1; }

# The knobs reach the veths: MTU, queues, offloads, as the roles saw them.
sed 's/^mtu = .*/mtu = 9000/; s/^queues = .*/queues = 2/; s/^gro = .*/gro = off/; s/^tso = .*/tso = off/' \
	hosts/netns.ini >"$dir/knobs.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/knobs.ini" --out "$dir/knobs" --only src-send \
	>"$dir/knobs.log" 2>&1 || { echo "FAIL: knobs run"; cat "$dir/knobs.log"; exit 1; }
nic=$(jq -c '.runs[0].samples[0].roles.sink.nics.in | [.mtu, .rx_queues, .offloads.gro, .offloads.tso, .offloads.gso]' "$dir"/knobs/*.json)
[ "$nic" = '[9000,2,false,false,true]' ] || { echo "FAIL: knobs not applied: $nic"; exit 1; }

# Ctrl-C mid-run: interrupted (exit 130), namespaces removed.
"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$dir/int" --duration=5 \
	--only src-send >"$dir/int.log" 2>&1 &
pid=$!
pids="$pids $pid"
for i in $(seq 100); do [ "$(ns_of $pid)" = 3 ] && break; sleep 0.05; done
[ "$(ns_of $pid)" = 3 ] || { echo "FAIL: namespaces of $pid never appeared"; cat "$dir/int.log"; exit 1; }
# rps = on in hosts/netns.ini: the sink's receive work is steered to its CPU
# (set when the run starts, after setup and metadata: poll).
for i in $(seq 100); do
	rps=$(ip netns exec "zcb-$pid-snk" cat /sys/class/net/zc-src/queues/rx-0/rps_cpus 2>&1)
	case $rps in *[1-9a-f]*) break ;; esac
	sleep 0.05
done
case $rps in *[1-9a-f]*) ;; *) echo "FAIL: sink's rps_cpus is '$rps'"; kill $pid; exit 1 ;; esac
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { echo "FAIL: interrupted run exit $rc"; cat "$dir/int.log"; exit 1; }
[ "$(ns_of $pid)" = 0 ] || { echo "FAIL: namespaces left after Ctrl-C"; ip netns list; exit 1; }

# SIGKILL: nothing can clean up then; the next netns run removes the leftovers.
"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$dir/kill" --duration=5 \
	--only src-send >"$dir/kill.log" 2>&1 &
pid=$!
pids="$pids $pid"
for i in $(seq 100); do [ "$(ns_of $pid)" = 3 ] && break; sleep 0.05; done
kill -KILL $pid
wait $pid 2>/dev/null
[ "$(ns_of $pid)" = 3 ] || { echo "FAIL: expected the killed run's 3 namespaces left"; ip netns list; exit 1; }
"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$dir/next" --only src-send \
	>"$dir/next.log" 2>&1 || { echo "FAIL: run after a killed one"; cat "$dir/next.log"; exit 1; }
[ "$(ns_of $pid)" = 0 ] || { echo "FAIL: the next run left the killed run's namespaces"; ip netns list; exit 1; }
grep -q "left by a dead zcbench (pid $pid)" "$dir/next.log" || { echo "FAIL: no note of the cleanup"; cat "$dir/next.log"; exit 1; }
echo "ok: netns runs verified; namespaces gone after run, Ctrl-C and SIGKILL"
