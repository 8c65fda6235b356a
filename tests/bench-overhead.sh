#!/usr/bin/env bash
# make bench-overhead: what --counters=all costs the device under test.
#  1. Gbps per core of the splice and copy proxies, counters none vs all,
#     alternating in one invocation (workloads/overhead.ini): the ratio.
#  2. Where the time goes, robust to a noisy machine: the ns a syscall pays
#     for the accounting programs (tight loop, build/ctr_syscall_cost), and
#     one more pass with the kernel timing every program run (ZC_BPF_STATS=1):
#     the DUT CPU's share spent in all roles' programs.
# Target: under 3%. Extra `zcbench run` flags come from $ZC_OVERHEAD_ARGS.
set -u
cd "$(dirname "$0")/.."
Z=${ZCBENCH:-bench/zcbench}
out=${ZC_OVERHEAD_OUT:-$(mktemp -d)}
mkdir -p "$out" || exit 1
med='def med: map(select(. != null)) | sort | if length == 0 then null else .[(length - 1) / 2 | floor] end;'
# shellcheck disable=SC2086
"$Z" run workloads/overhead.ini --out "$out" ${ZC_OVERHEAD_ARGS:-} >"$out/table.txt" || {
	cat "$out/table.txt"; exit 1; }
f=$(ls -t "$out"/*.json | head -n1)
cat "$out/table.txt"
echo
echo "1. counters all vs none, median Gbps per core of the DUT (proxy); $f"
printf '%-8s %10s %10s %9s %9s %12s\n' proxy none all all/none overhead syscalls/MB
fail=0
for mode in splice copy; do
	read -r none all spm < <(jq -r --arg m "$mode" "$med"'
		[.runs[] | select(.key.proxy == $m and .status == "ok")] as $r
		| [($r | map(select(.options.counters == "none") | .summary.gbps_per_core.median) | med),
		   ($r | map(select(.options.counters == "all") | .summary.gbps_per_core.median) | med),
		   ($r | map(select(.options.counters == "all") | .summary.dut_syscalls_per_mb.median) | med)]
		| map(. // "nan") | @tsv' "$f")
	awk -v m="$mode" -v n="$none" -v a="$all" -v s="$spm" 'BEGIN {
		if (n == "nan" || a == "nan" || n <= 0) { printf "%-8s no successful samples\n", m; exit 1 }
		printf "%-8s %10.2f %10.2f %9.3f %8.1f%% %12.1f\n", m, n, a, a / n, (1 - a / n) * 100, s
	}' || fail=1
done

echo
echo "2. where the time goes"
own_ns=0
if [ -x build/ctr_syscall_cost ]; then
	build/ctr_syscall_cost >"$out/syscall_cost.txt"
	own_ns=$(awk '$1 == "own" { print $3 }' "$out/syscall_cost.txt")
	own_ns=${own_ns:-0}
	awk '
		$1 == "none" { printf "   getppid() alone:                   %6.0f ns\n", $2 }
		$1 == "own" { printf "   + the role'\''s own programs:        %+6.0f ns per syscall\n", $3 }
		$1 == "own+2" { printf "   + two other roles'\'' (filter fails): %+6.0f ns per syscall, all three\n", $3 }
		$1 == "skip:" { print "   " $0 }' "$out/syscall_cost.txt"
fi
ZC_BPF_STATS=1 "$Z" run workloads/overhead.ini --only copy-all-1 --only splice-all-1 \
	--out "$out" ${ZC_OVERHEAD_ARGS:-} >/dev/null 2>&1
g=$(ls -t "$out"/*.json | head -n1)
jq -r --argjson own "$own_ns" '.runs[] | .samples[0] as $s | $s.roles as $roles | $roles.proxy.counters.bpf as $b
	| ($roles.proxy.window.busy_s * 1e9) as $busy
	| ([$b.softirq.vectors[].count] | add // 0) as $sirq
	| ([$b.tcp_sendmsg_locked[]] | add // 0) as $sends
	# mean ns of one program summed over the three roles (each runs its own copy)
	| def m(p): [$roles[].counters.bpf.self_cost.programs[p].mean_ns // 0] | add;
	  def pct(x): x / $busy * 1000 | round / 10;
	"   \(.key.proxy) proxy: the loaded programs take \(($s.dut_bpf_cost_share // 0) * 1000 | round / 10)% of the DUT core:"
	+ " syscalls \(pct($b.syscalls_total * (m("sys_enter") + m("sys_exit"))))%,"
	+ " softirqs \(pct($sirq * (m("softirq_entry") + m("softirq_exit"))))%,"
	+ " skb copies \(pct($b.rx_copy_calls * m("skb_copy_datagram_iovec")))%,"
	+ " TCP sends \(pct($sends * m("tcp_sendmsg_locked")))%"
	+ "\n     counting the tracepoint slow path too (the loop'\''s +\($own | round) ns per syscall), syscalls take \(pct($b.syscalls_total * $own))%"
	+ "\n     per run of the DUT'\''s own programs (stats add two clock reads each): "
	+ ([$b.self_cost.programs | to_entries[] | "\(.key) \(.value.mean_ns | round) ns"] | join(", "))' "$g"
echo "   every loaded set runs on every syscall, softirq and TCP send of the host (other sets"
echo "   fail their tid/CPU filter at once): counters_roles = dut (default) loads one set, on the"
echo "   DUT; counters_roles = all loads three and costs the DUT about three times as much."
echo "target: overhead under 3%; the figure in 1. needs a quiet machine to mean anything"
exit "$fail"
