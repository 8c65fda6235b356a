#!/usr/bin/env bash
# irq_cpu = same: the DUT NIC's IRQs are pinned to the DUT's CPU during the
# run and their previous affinity is back afterwards, also after a SIGKILLed
# controller (restored by the next run). Traffic stays on loopback: only the
# named NIC's IRQ affinity is touched, for about a second.
set -u
ZCBENCH=${ZCBENCH:-bench/zcbench}
[ "$(id -u)" -eq 0 ] || { echo "skip: IRQ affinity needs root"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing (make deps)"; exit 77; }
nic= irqs=
for d in /sys/class/net/*; do
	for m in "$d/device/msi_irqs" "$d/device/../msi_irqs"; do
		[ -d "$m" ] && [ -n "$(ls "$m")" ] && { nic=${d##*/}; irqs=$(ls "$m" | tr '\n' ' '); break 2; }
	done
done
[ -n "$nic" ] || { echo "skip: no NIC with MSI IRQs here"; exit 77; }
dir=$(mktemp -d)
affs() { for i in $irqs; do cat /proc/irq/$i/smp_affinity_list; done | tr '\n' ' '; }
before=$(affs)
trap 'rm -rf "$dir"' EXIT
printf '[host]\nname = irq\nirq_cpu = same\n[proxy]\ninterface = %s\naddress = 127.0.0.1\n' "$nic" >"$dir/h.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/h.ini" --out "$dir/out" --only proxy-copy \
	--duration=2 >"$dir/log" 2>&1 &
pid=$!
# Pinned when the run starts (after setup and metadata): wait for the state file.
for i in $(seq 100); do [ -e /run/zcbench/irq-$pid ] && break; sleep 0.05; done
sleep 0.2
during=$(affs)
wait $pid || { echo "FAIL: run exit $?"; cat "$dir/log"; exit 1; }
after=$(affs)
cpu=$(jq '.runs[0].placement.proxy.cpu' "$dir"/out/*.json)
[ "$after" = "$before" ] || { echo "FAIL: affinity not restored: '$before' -> '$after'"; exit 1; }
n=$(jq '.runs[0].placement.irqs.irqs | map(select(.error == null)) | length' "$dir"/out/*.json)
[ "$n" -gt 0 ] && echo "$during" | grep -qw "$cpu" ||
	{ echo "FAIL: not pinned to CPU $cpu during the run ($during; $n IRQs written)"; exit 1; }

"$ZCBENCH" run workloads/smoke.ini --host "$dir/h.ini" --out "$dir/kill" --only proxy-copy \
	--duration=3 >"$dir/kill.log" 2>&1 &
pid=$!
for i in $(seq 100); do [ -e /run/zcbench/irq-$pid ] && break; sleep 0.05; done
sleep 0.2
kill -KILL $pid
wait $pid 2>/dev/null
"$ZCBENCH" run workloads/smoke.ini --host "$dir/h.ini" --out "$dir/next" --only proxy-copy \
	>"$dir/next.log" 2>&1 || { echo "FAIL: run after kill"; cat "$dir/next.log"; exit 1; }
grep -q "left pinned by a dead zcbench (pid $pid)" "$dir/next.log" ||
	{ echo "FAIL: killed run's IRQ affinities not reclaimed"; cat "$dir/next.log"; exit 1; }
[ "$(affs)" = "$before" ] || { echo "FAIL: after kill + next run: '$before' -> '$(affs)'"; exit 1; }
echo "ok: $nic IRQs ($irqs) pinned to CPU $cpu and restored, also after SIGKILL"
