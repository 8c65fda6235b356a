#!/usr/bin/env bash
# netem loss on the netns links lowers throughput and corrupts nothing: the
# sink still verifies every byte (TCP retransmits what netem dropped).
set -u
ZCBENCH=${ZCBENCH:-bench/zcbench}
[ "$(id -u)" -eq 0 ] || { echo "skip: network namespaces need root"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing (make deps)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed 's/^;netem_loss = .*/netem_loss = 10%/' hosts/netns.ini >"$dir/loss.ini"
grep -q '^netem_loss = 10%' "$dir/loss.ini" || { echo "FAIL: hosts/netns.ini has no netem_loss line"; exit 1; }
"$ZCBENCH" run workloads/smoke.ini --host "$dir/loss.ini" --out "$dir/loss" --only src-send \
	--duration=1 >"$dir/loss.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "fallback failed too" "$dir/loss.log"; then
	echo "skip: no sch_netem and no iptables statistic match: loss cannot be emulated"
	exit 77
fi
[ $rc -eq 0 ] || { echo "FAIL: run with loss exit $rc"; cat "$dir/loss.log"; exit 1; }
"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$dir/clean" --only src-send \
	--duration=1 >"$dir/clean.log" 2>&1 || { echo "FAIL: clean run"; cat "$dir/clean.log"; exit 1; }
g() { jq '.runs[0] | select(.status == "ok" and .verified) | .summary.gbps.median' "$1"/*.json; }
lossy=$(g "$dir/loss") clean=$(g "$dir/clean")
[ -n "$lossy" ] && [ -n "$clean" ] || { echo "FAIL: a run was not ok and verified"; exit 1; }
awk -v a="$lossy" -v b="$clean" 'BEGIN { exit !(a < b * 0.8) }' ||
	{ echo "FAIL: 10% loss did not lower throughput: $lossy vs $clean Gbps"; exit 1; }
echo "ok: 10% loss ($(jq -r .host.netns.loss_method "$dir"/loss/*.json)): $lossy Gbps vs $clean Gbps, verified"
