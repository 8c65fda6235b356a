#!/usr/bin/env bash
# The outputs of request/response runs (issue 23) on results/fixtures/rr.json
# (no run here): plot draws rr_crossover and rr_latency (gnuplot exits 0,
# real PNG/SVG, named on the dashboard), a line per program derived from the
# runs (HAProxy's pair appears when its runs are in the file); size takes a
# requests/s target at an object size and refuses bad ones with exit 2;
# compare flags a p99 latency raised by 30% (lower is better) and not one
# lowered; the exports carry tps, tps_per_core and lat_* per object size.
. "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot missing (make deps installs gnuplot-nox)"
command -v jq >/dev/null || skip "jq missing (make deps)"
F=results/fixtures/rr.json
is_png() { [ "$(head -c8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# Plot: both pictures, their CSV, on the page.
"$ZCBENCH" plot --out "$TMP/out" "$F" >"$TMP/log" 2>&1
rc=$?
check "plot exits 0 (got $rc; $(tail -n 3 "$TMP/log" | tr '\n' ' '))" [ "$rc" -eq 0 ]
for p in rr_crossover rr_latency; do
	check "$p.png is a PNG" is_png "$TMP/out/$p.png"
	check "$p.svg is SVG" grep -q '<svg' "$TMP/out/$p.svg"
	check "$p on the dashboard" grep -q "$p.png" "$TMP/out/index.html"
done
# A line per program and run shape, at each object size, from the headline's
# splice/copy pairs: keep-alive and churn, each at 1k and 64k.
c="$TMP/out/rr_crossover.csv"
check "crossover: a keep-alive and a churn line" [ "$(grep -c '^"splice/copy proxy' "$c")" -eq 2 ]
check "crossover: both object sizes on each line" [ "$(grep -cE '^(1024|65536),' "$c")" -eq 4 ]
v=$(jq '[.headline[] | select(.numerator == "rr-proxy-splice" and .rr == "rr object=1024")][0].value' "$F")
check "crossover: the headline's ratio at 1k ($v)" grep -q "^1024,$(printf '%.6g' "$v")," "$c"
# The percentile picture: a line per run and size, its x up to 99.99 nines,
# latencies rising with the percentile.
l="$TMP/out/rr_latency.csv"
n=$(jq '[.runs[] | select(.latency_merged)] | length' "$F")
check "latency: a line per rr run ($n)" [ "$(grep -c '^"rr-proxy' "$l")" -eq "$n" ]
check "latency: x within 1..10000 and latency rising" python3 - "$l" <<'PY'
import sys
prev = None
for line in open(sys.argv[1]):
    line = line.strip()
    if not line or line.startswith('"'):
        prev = None
        continue
    us, x = map(float, line.split(','))
    assert 1 <= x <= 10000, line
    assert prev is None or us >= prev[0] and x >= prev[1], line
    prev = (us, x)
PY
# Programs not in a list: HAProxy's pair appears once its runs are there.
jq '.runs += [.runs[] | select(.name == "rr-proxy-copy" or .name == "rr-proxy-splice") |
	.name |= sub("rr-proxy-"; "rr-haproxy-") | .key.proxy |= "haproxy-" + .]' "$F" >"$TMP/ha.json"
"$ZCBENCH" plot --out "$TMP/ha" "$TMP/ha.json" >"$TMP/ha.log" 2>&1
check "plot with HAProxy runs exits 0" [ $? -eq 0 ]
check "crossover: a haproxy-splice/haproxy-copy line" \
	grep -q '^"haproxy-splice/haproxy-copy' "$TMP/ha/rr_crossover.csv"
# A stream-only file draws neither (an old picture is removed).
"$ZCBENCH" plot --out "$TMP/out" results/fixtures/base.json >"$TMP/log2" 2>&1
check "stream file: no rr pictures" [ ! -e "$TMP/out/rr_crossover.png" -a ! -e "$TMP/out/rr_latency.png" ]
check "stream file: not on the page" bash -c "! grep -q 'src=\"rr_' '$TMP/out/index.html'"

# Size: cores = target / tps_per_core, per rr run of that size.
tpc=$(jq '[.runs[] | select(.name == "rr-proxy-copy" and .key.object_size == 65536)][0].samples[0].tps_per_core' "$F")
"$ZCBENCH" size --json --target 100k/s@64k "$F" >"$TMP/size.json" 2>"$TMP/size.err"
check "size 100k/s@64k exits 0" [ $? -eq 0 ]
got=$(jq '.rr[] | select(.run == "rr-proxy-copy") | .cores' "$TMP/size.json")
check "size: cores = 100000 / tps_per_core ($got, $tpc)" \
	python3 -c "import sys; assert abs($got - 100000 / $tpc) < 1e-3 * $got"
"$ZCBENCH" size --target 100k/s@64k "$F" >"$TMP/size.txt" 2>&1
check "size text names the runs" grep -q 'rr-proxy-splice-churn' "$TMP/size.txt"
"$ZCBENCH" size --target 100k/s@1k,10G "$F" >"$TMP/mixed.txt" 2>&1
rc=$?
check "size with an rps and a Gbit/s target exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "size with both: both tables" grep -q 'requests/s of 1k' "$TMP/mixed.txt"
check "size with both: the Gbit/s table" grep -q '10 Gbit/s' "$TMP/mixed.txt"
for bad in 100k/s@4k 5e13/s@64k 0/s@64k 100x/s@64k 100k/s@0 100k/s@ 100k@64k; do
	"$ZCBENCH" size --target "$bad" "$F" >"$TMP/bad.out" 2>"$TMP/bad.err"
	rc=$?
	check "size --target $bad: exit 2 (got $rc)" [ "$rc" -eq 2 ]
	check "size --target $bad: says why" grep -qE "target.*(not|no request/response run)" "$TMP/bad.err"
done

# Compare: 8 repetitions each side, p99 raised by 30% is a regression,
# lowered by 30% is not.
mk() { jq --argjson f "$1" '.runs |= map(.samples |= ([range(8)] as $r | [.[0] as $s | $r[] |
	$s] | to_entries | map(.value + {rep: .key} | .lat_p99_us *= ($f * (1 + 0.002 * .rep)))))' "$F"; }
mk 1 >"$TMP/b.json"; mk 1.3 >"$TMP/worse.json"; mk 0.7 >"$TMP/better.json"
"$ZCBENCH" compare --fail-on-regression 10 "$TMP/b.json" "$TMP/worse.json" >"$TMP/cmp.txt" 2>&1
"$ZCBENCH" compare --fail-on-regression 10 "$TMP/b.json" "$TMP/worse.json" >"$TMP/cmp.txt" 2>&1
rc=$?
check "compare: p99 +30% exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "compare: names lat_p99_us as the regression" grep -q 'REGRESSION.*lat_p99_us +30' "$TMP/cmp.txt"
"$ZCBENCH" compare --fail-on-regression 10 "$TMP/b.json" "$TMP/better.json" >"$TMP/cmp2.txt" 2>&1
rc=$?
check "compare: p99 -30% is no regression (exit $rc)" [ "$rc" -eq 0 ]

# Exports: the rr metrics, one series per object size.
"$ZCBENCH" export --format prometheus "$F" >"$TMP/prom" || fail "export prometheus"
for m in transactions_per_second transactions_per_second_per_core lat_p99_seconds; do
	check "prometheus: zcbench_$m" grep -q "^zcbench_$m{.*object_size=\"65536\"" "$TMP/prom"
done
check "prometheus: no duplicate series" [ -z "$(grep -v '^#' "$TMP/prom" | sed 's/} .*//' | sort | uniq -d)" ]
"$ZCBENCH" export --format csv "$F" >"$TMP/csv" || fail "export csv"
check "csv: tps, lat_p99_us and object_size columns" \
	bash -c "head -n1 '$TMP/csv' | grep -q ',tps,tps_per_core,.*lat_p99_us.*,object_size,'"
"$ZCBENCH" export --format bmf "$F" >"$TMP/bmf" || fail "export bmf"
check "bmf: tps_per_core and lat_p99_us per object size" [ "$(jq '[to_entries[] |
	select(.key | test("rr object=")) | select(.value.tps_per_core and .value.lat_p99_us)] | length' "$TMP/bmf")" -eq 8 ]
"$ZCBENCH" export --format gab "$F" >"$TMP/gab" || fail "export gab"
check "gab: tps_per_core (bigger is better only)" [ "$(jq '[.[] | select(.name | endswith("tps_per_core"))] | length' "$TMP/gab")" -eq 8 ]
finish
