#!/usr/bin/env bash
# irq_cpu = same: the DUT NIC's IRQs are pinned to the DUT's CPU during the
# run and their previous affinity is back afterwards, also after a SIGKILLed
# controller (restored by the next run). Traffic stays on loopback: only the
# named NIC's IRQ affinity is touched, for about a second.
# test-locks: irq
. "$(dirname "$0")/../lib.sh"
# The runs' state files in a folder of their own: a run of another test beside
# this one must not restore the killed run's affinities before "the next run".
export ZC_STATE_DIR=$TMP/state
[ "$(id -u)" -eq 0 ] || skip "IRQ affinity needs root"
nic= irqs=
for d in /sys/class/net/*; do
	for m in "$d/device/msi_irqs" "$d/device/../msi_irqs"; do
		[ -d "$m" ] && [ -n "$(ls "$m")" ] && { nic=${d##*/}; irqs=$(ls "$m" | tr '\n' ' '); break 2; }
	done
done
[ -n "$nic" ] || skip "no NIC with MSI IRQs here"
affs() { for i in $irqs; do cat /proc/irq/$i/smp_affinity_list; done | tr '\n' ' '; }
before=$(affs)
printf '[host]\nname = irq\nirq_cpu = same\n[proxy]\ninterface = %s\naddress = 127.0.0.1\n' "$nic" >"$TMP/h.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/h.ini" --out "$TMP/out" --only proxy-copy \
	--duration=2 >"$TMP/log" 2>&1 &
pid=$!
# Pinned when the run starts (after setup and metadata): wait for the state file.
wait_file "$ZC_STATE_DIR/irq-$pid" || { cat "$TMP/log"; fail "the run never pinned the IRQs (no $ZC_STATE_DIR/irq-$pid in 30 s)"; }
sleep 0.2
during=$(affs)
wait $pid || { rc=$?; cat "$TMP/log"; fail "run exit $rc"; }
after=$(affs)
cpu=$(jq '.runs[0].placement.proxy.cpu' "$TMP"/out/*.json)
[ "$after" = "$before" ] || fail "affinity not restored: '$before' -> '$after'"
n=$(jq '.runs[0].placement.irqs.irqs | map(select(.error == null)) | length' "$TMP"/out/*.json)
[ "$n" -gt 0 ] && echo "$during" | grep -qw "$cpu" ||
	fail "not pinned to CPU $cpu during the run ($during; $n IRQs written)"

"$ZCBENCH" run workloads/smoke.ini --host "$TMP/h.ini" --out "$TMP/kill" --only proxy-copy \
	--duration=3 >"$TMP/kill.log" 2>&1 &
pid=$!
wait_file "$ZC_STATE_DIR/irq-$pid" || { cat "$TMP/kill.log"; fail "the run to kill never pinned the IRQs (no $ZC_STATE_DIR/irq-$pid in 30 s)"; }
sleep 0.2
kill -KILL $pid
wait $pid 2>/dev/null
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/h.ini" --out "$TMP/next" --only proxy-copy \
	>"$TMP/next.log" 2>&1 || { cat "$TMP/next.log"; fail "run after kill"; }
grep -q "left pinned by a dead zcbench (pid $pid)" "$TMP/next.log" ||
	{ cat "$TMP/next.log"; fail "killed run's IRQ affinities not reclaimed"; }
[ "$(affs)" = "$before" ] || fail "after kill + next run: '$before' -> '$(affs)'"
echo "ok: $nic IRQs ($irqs) pinned to CPU $cpu and restored, also after SIGKILL"
