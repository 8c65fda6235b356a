#!/usr/bin/env bash
# netem loss on the netns links lowers throughput and corrupts nothing: the
# sink still verifies every byte (TCP retransmits what netem dropped).
# test-locks: netns
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
sed 's/^;netem_loss = .*/netem_loss = 10%/' hosts/netns.ini >"$TMP/loss.ini"
grep -q '^netem_loss = 10%' "$TMP/loss.ini" || fail "hosts/netns.ini has no netem_loss line"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/loss.ini" --out "$TMP/loss" --only src-send \
	--duration=1 >"$TMP/loss.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "fallback failed too" "$TMP/loss.log"; then
	skip "no sch_netem and no iptables statistic match: loss cannot be emulated"
fi
[ $rc -eq 0 ] || { cat "$TMP/loss.log"; fail "run with loss exit $rc"; }
"$ZCBENCH" run workloads/smoke.ini --host hosts/netns.ini --out "$TMP/clean" --only src-send \
	--duration=1 >"$TMP/clean.log" 2>&1 || { cat "$TMP/clean.log"; fail "clean run"; }
g() { jq '.runs[0] | select(.status == "ok" and .verified) | .summary.gbps.median' "$1"/*.json; }
lossy=$(g "$TMP/loss") clean=$(g "$TMP/clean")
[ -n "$lossy" ] && [ -n "$clean" ] || fail "a run was not ok and verified"
awk -v a="$lossy" -v b="$clean" 'BEGIN { exit !(a < b * 0.8) }' ||
	fail "10% loss did not lower throughput: $lossy vs $clean Gbps"
echo "ok: 10% loss ($(jq -r .host.netns.loss_method "$TMP"/loss/*.json)): $lossy Gbps vs $clean Gbps, verified"
