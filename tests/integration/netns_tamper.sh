#!/usr/bin/env bash
# The checks where they matter (issue 41): across the network namespaces of
# hosts/netns.ini (veth), with a tampering proxy in the middle (--exec-proxy,
# in the DUT's namespace, listening where zcbench tells it), a flipped byte
# of a connection header, a flipped payload byte of one connection of four,
# a flipped response body byte and a whole response replayed in place of the
# next each fail the run, named; untouched, the same proxy's runs are ok and
# verified. The same checks on loopback are bad_input.sh's, conns.sh's and
# rr_tamper.sh's.
# test-locks: netns
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
ip netns add "zcprobe-$$" 2>/dev/null || skip "cannot create a network namespace"
ip netns del "zcprobe-$$"
del_ns_of() { local n; for n in $(ip netns list 2>/dev/null | grep -o "^zcb-$1-[a-z]*"); do ip netns del "$n"; done; }
for t in tamper_proxy tamper_rr; do
	cc -std=gnu11 -O2 -Wall -D_GNU_SOURCE -o "$TMP/$t" tests/$t.c || fail "build $t"
done
printf '[workload]\nwarmup = 0.3\nduration = 0.5\ntail = 0.2\nrepetitions = 1\nchunk = 64k\ntimeout = 10\nconnections = 4\nforeign_max = 100%%\n\n[run p]\ntopology = proxy\nproxy = copy\n' \
	>"$TMP/stream.ini"
printf '[workload]\ntraffic = rr\nwarmup = 0.3\nduration = 0.5\ntail = 0.2\nrepetitions = 1\ntimeout = 3\nobject_size = 16k\nconnections = 2\nforeign_max = 100%%\n\n[run p]\ntopology = proxy\nproxy = copy\n' \
	>"$TMP/rr.ini"
# across NAME INI PROXY "ENV...": a run over the namespaces through PROXY;
# exit code in $rc, results file in $f.
across() {
	local name=$1 ini=$2 proxy=$3 env=$4
	env $env "$ZCBENCH" run "$ini" --host hosts/netns.ini --exec-proxy "$TMP/$proxy" \
		--out "$TMP/$name" >"$TMP/$name.txt" 2>&1 &
	local pid=$!
	on_exit del_ns_of $pid
	wait $pid
	rc=$?
	f=$(result_in "$TMP/$name")
	[ -s "$f" ] || { cat "$TMP/$name.txt"; fail "$name: no results (exit $rc)"; }
	check "$name: the proxy ran in the DUT's namespace" jqe '.host.roles.proxy.netns | test("^zcb-[0-9]+-dut$")' "$f"
}
# fails NAME INI PROXY "ENV" REGEX: exit 1, failed, not verified, the reason matches.
fails() {
	across "$1" "$2" "$3" "$4"
	check "$1: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "$1: failed, not verified: $(jq -r '.runs[0].reason' "$f" | head -c 200)" \
		jqe --arg re "$5" '.runs[0] | .status == "failed" and .verified != true and (.reason | test($re))' "$f"
}
# clean NAME INI PROXY: ok and verified.
clean() {
	across "$1" "$2" "$3" "ZC_TAMPER_HOW=none"
	check "$1: untouched, exit 0 (got $rc)" [ "$rc" -eq 0 ] || tail -n 5 "$TMP/$1.txt"
	check "$1: ok and verified" jqe '.runs[0] | .status == "ok" and .verified == true' "$f"
}

clean stream-clean "$TMP/stream.ini" tamper_proxy
fails stream-header "$TMP/stream.ini" tamper_proxy "ZC_TAMPER_HDR=6 ZC_TAMPER_HOW=none" \
	"no valid zcbench connection header"
fails stream-payload "$TMP/stream.ini" tamper_proxy "ZC_TAMPER_CONN=2 ZC_TAMPER_OFF=100000 ZC_TAMPER_HOW=flip" \
	"payload mismatch on connection 2 of 4 at stream offset 100000"
clean rr-clean "$TMP/rr.ini" tamper_rr
fails rr-body "$TMP/rr.ini" tamper_rr "ZC_TAMPER_OFF=$((42 + 1000))" \
	"response mismatch on connection [01], request 0 \\(object 16384 bytes\\) at body offset 1000"
fails rr-replay "$TMP/rr.ini" tamper_rr "ZC_TAMPER_HOW=replay ZC_TAMPER_LEN=$((42 + 16384))" \
	"response mismatch on connection [01], request 1 .* at body offset 0"
finish
