#!/usr/bin/env bash
# The HTTP programs as peer modes of request/response runs (issue 23 item 4),
# short and on loopback, function not figures. nginx as the server with
# sendfile on and off (the DUT, dut = server), under churn, behind zcbench's
# splice proxy, with sizes from a file; zcbench's client verifies every body
# byte nginx sends, tps > 0, nginx-sendfile/nginx-copy is in the headline,
# nginx ran the configuration asked for and nothing of it is left. wrk and
# h2load (when installed) as the client: unverified with their reason, tps
# > 0, wrk's percentiles, none from h2load, refused with churn. Without
# nginx in PATH the run is unavailable (exit 0) naming the package; an HTTP
# program in a stream run, or another sink mode in an rr run, exits 2.
. "$(dirname "$0")/../lib.sh"
PATH=$PATH:/usr/sbin:/sbin
command -v nginx >/dev/null || skip "nginx missing (make deps installs nginx-light as an optional package)"
printf '1k\n3000\n100k\n3000\n' >"$TMP/sizes"
{ rr_workload rr-http-test; cat <<EOF2; } >"$TMP/rr.ini"
topology = direct
object_size = 64k
connections = 2
foreign_max = 100%

[run nginx-sendfile]
sink = nginx-sendfile

[run nginx-copy]
sink = nginx-copy

[run nginx-copy-churn]
sink = nginx-copy
churn = on

[run nginx-sizes]
sink = nginx-sendfile
object_sizes_file = $TMP/sizes
inflight = 2

[run splice-to-nginx]
topology = proxy
proxy = splice
sink = nginx-sendfile
EOF2
run_ok ok "$TMP/rr.ini"
while IFS='|' read -r name status verified reason; do
	s=".runs[] | select(.name == \"$name\") | .samples[0]"
	check "$name: ok and verified by zcbench's client ($status $verified $reason)" [ "$status $verified" = "ok true" ]
	check "$name: transactions in the window, tps > 0, p50 <= p99" [ "$(jq "$s |
		.roles.source.rr.transactions > 0 and .tps > 0 and .lat_p50_us > 0 and
		.lat_p50_us <= .lat_p99_us" "$f")" = true ]
	check "$name: nginx in the sink's place, measured over its group, stopped" [ "$(jq "$s | .roles.sink |
		.traffic == \"rr\" and .peer.program == \"nginx\" and .peer.exit == \"exit code 0\" and
		.window.busy_s > 0 and (.window.rusage_user_s + .window.rusage_sys_s) > 0" "$f")" = true ]
	pid=$(jq "$s | .roles.sink.peer.pid" "$f")
	dir=$(jq -r "$s | .roles.sink.peer.config" "$f" | sed -n 's|^pid \(.*\)/nginx.pid;$|\1|p')
	check "$name: no nginx left ($pid), its folder removed ($dir)" bash -c \
		"[ -n '$dir' ] && [ ! -e '$dir' ] && ! kill -0 $pid 2>/dev/null && ! pgrep -g $pid >/dev/null"
done < <(jq -r '.runs[] | [.name, .status, .verified, (.reason // "")] | map(tostring) | join("|")' "$f")
check "direct: nginx is the DUT with tps_per_core" [ "$(jq '[.runs[] | select(.key.topology == "direct") |
	.dut == "sink" and .samples[0].tps_per_core > 0 and .peer.sink == "nginx"] | all' "$f")" = true ]
check "behind the splice proxy: the proxy is the DUT" [ "$(jq -r '.runs[] | select(.name == "splice-to-nginx") | .dut' "$f")" = proxy ]
for sf in on off; do
	name=nginx-sendfile; [ $sf = off ] && name=nginx-copy
	check "$name: nginx ran sendfile $sf, at most chunk bytes a call" [ "$(jq --arg sf "$sf" --arg n "$name" \
		'.runs[] | select(.name == $n) | .samples[0].roles.sink.peer.config |
		 test("\tsendfile " + $sf + ";") and test("sendfile_max_chunk 65536;|output_buffers 2 65536;")' "$f")" = true ]
done
check "churn: a connection per request through nginx" [ "$(jq '.runs[] | select(.name == "nginx-copy-churn") |
	.samples[0].roles.source.rr | .connections_opened >= .transactions_total and .transactions_total > 1' "$f")" = true ]
check "headline: nginx-sendfile over nginx-copy of the same rr shape, both verified" [ "$(jq -c '[.headline[] |
	select(.ratio == "nginx-sendfile/nginx-copy sink [peer]") | [.numerator, .denominator, .rr, .verified,
	(.value > 0)]]' <(report_json "$f"))" = '[["nginx-sendfile","nginx-copy","rr object=65536",true,true]]' ]

# wrk and h2load as the client (when installed): against zcbench's server
# and against nginx, unverified with their reason, tps > 0; wrk's own
# percentiles in lat_*, none from h2load (it prints none, and says so).
clients=()
for c in wrk h2load; do
	if command -v $c >/dev/null; then clients+=("$c"); else echo "# $c missing: its checks skipped"; fi
done
if [ ${#clients[@]} -gt 0 ]; then
	{
		sed -n '/^\[workload\]/,/^foreign_max/p' "$TMP/rr.ini"
		for c in "${clients[@]}"; do
			printf '[run %s-zcbench]\nsource = %s\n\n[run %s-nginx]\nsource = %s\nsink = nginx-copy\n\n' \
				"$c" "$c" "$c" "$c"
		done
		printf '[run %s-dut]\nsource = %s\ndut = client\n' "${clients[0]}" "${clients[0]}"
	} >"$TMP/clients.ini"
	$ZCBENCH run "$TMP/clients.ini" --out "$TMP/cl" >"$TMP/cl.txt" 2>&1
	rc=$?
	cat "$TMP/cl.txt"
	f=$(result_in "$TMP/cl")
	[ -s "$f" ] || fail "clients: no results (exit $rc)"
	check "clients: exit 0 (got $rc)" [ "$rc" -eq 0 ]
	while IFS='|' read -r name prog status verified unverified; do
		s=".runs[] | select(.name == \"$name\") | .samples[0]"
		check "$name: ok, unverified with $prog's reason ($status $verified $unverified)" \
			bash -c "[ '$status $verified' = 'ok false' ] && [[ '$unverified' == '$prog '*'without checking them'* ]]"
		check "$name: tps > 0 from the window's share of its responses, its report kept" [ "$(jq "$s |
			.tps > 0 and .roles.source.rr.transactions > 0 and
			.roles.source.rr.transactions <= .roles.source.rr.transactions_total and
			.roles.source.peer.program == \"$prog\" and .roles.source.peer.exit == \"exit code 0\"" "$f")" = true ]
		if [ "$prog" = wrk ]; then
			check "$name: wrk's percentiles in lat_*, p50 <= p99 <= max" [ "$(jq "$s |
				.lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_max_us" "$f")" = true ]
		else
			check "$name: no percentiles from h2load, and why" [ "$(jq "$s | (has(\"lat_p50_us\") | not) and
				(.roles.source.rr.latency_why | test(\"prints no latency percentiles\"))" "$f")" = true ]
		fi
	done < <(jq -r '.runs[] | [.name, (.name | sub("-.*"; "")), .status, .verified, (.unverified // "")] |
		map(tostring) | join("|")' "$f")
	check "${clients[0]}-dut: the client program is the DUT" [ "$(jq -r ".runs[] | select(.name == \"${clients[0]}-dut\") |
		.dut + \" \" + (.samples[0].tps_per_core > 0 | tostring)" "$f")" = "source true" ]
	$ZCBENCH run "$TMP/clients.ini" --only "${clients[0]}-zcbench" --churn on --out "$TMP/cl2" >"$TMP/cl2.txt" 2>&1
	rc=$?
	check "${clients[0]} with churn: exit 2 (got $rc), reason" bash -c "[ $rc -eq 2 ] &&
		grep -q 'churn: source ${clients[0]} keeps its connections open' $TMP/cl2.txt"
fi

# Without nginx in PATH: unavailable, not failed, the package named.
if [ ! -x /usr/bin/nginx ] && [ ! -x /bin/nginx ]; then
	env PATH=/usr/bin:/bin $ZCBENCH run "$TMP/rr.ini" --only nginx-copy --out "$TMP/missing" >"$TMP/missing.txt" 2>&1
	rc=$?
	f=$(result_in "$TMP/missing")
	check "no nginx: exit 0 (got $rc)" [ "$rc" -eq 0 ]
	check "no nginx: unavailable, naming nginx-light" [ "$(jq '.runs[0] | .status == "unavailable" and
		(.reason | test("nginx not installed.*apt-get install nginx-light"))' "$f")" = true ]
fi

# An HTTP program in a stream run, another sink mode in an rr run: refused.
printf '[workload]\nname = s\n[run s]\ntopology = direct\nsink = nginx-copy\n' >"$TMP/stream.ini"
$ZCBENCH run "$TMP/stream.ini" --out "$TMP/no" >"$TMP/no.txt" 2>&1
rc=$?
check "stream run with nginx: exit 2 (got $rc), reason" bash -c "[ $rc -eq 2 ] &&
	grep -q \"key 'sink': nginx-copy is an HTTP program: only request/response runs take it\" $TMP/no.txt"
$ZCBENCH run "$TMP/rr.ini" --only nginx-copy --sink splice-null --out "$TMP/no2" >"$TMP/no2.txt" 2>&1
rc=$?
check "rr run with sink splice-null: exit 2 (got $rc), reason" bash -c "[ $rc -eq 2 ] &&
	grep -q \"sink: traffic = rr has its own client and server\" $TMP/no2.txt"
finish
