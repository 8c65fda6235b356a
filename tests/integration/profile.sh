#!/usr/bin/env bash
# The profile library against a real DUT: while `zcbench run` forwards with
# the copy proxy and then the splice proxy, `zcbench profile` samples the
# proxy's core from outside for part of the window (tests/profile_dut.sh).
# The copy proxy's top symbols by self share include a copy routine, the
# splice proxy's do not; the buckets agree; the files it leaves are sound.
# Skips where CPU-wide sampling is not permitted.
. "$(dirname "$0")/../lib.sh"
. tests/profile_dut.sh
why=$(profile_possible) || skip "$why"

# A kernel or user routine that copies payload bytes (buckets.c's list).
COPY_RE='^perf-profile\.self\.cycles-pp\.(_?copy_(to|from)_(iter|user)|copy_user|__copy_user|rep_movs|[_a-z]*memcpy|[_a-z]*memmove|copy_page|skb_copy|csum_partial_copy)'
TOP=5

for m in copy splice; do
	"$ZCBENCH" run workloads/default.ini --only "proxy-$m" --chunk 64k --repetitions 1 --warmup 1 \
		--duration 4 --out "$TMP/run-$m" >"$TMP/run-$m.log" 2>&1 &
	runpid=$!
	# Sampled 1.3 .. 3.8 s after the proxy starts: inside its 1 .. 5 s window.
	profile_duts "$runpid" "$TMP/prof-$m" 1.3 2.5
	wait "$runpid" || { tail -n 5 "$TMP/run-$m.log"; fail "zcbench run proxy-$m failed"; }
	d="$TMP/prof-$m/1"
	[ -d "$d" ] || fail "proxy-$m: no proxy process seen"
	if ! [ -s "$d/summary.json" ]; then
		grep -q 'not permitted' "$d/err" && skip "$(cat "$d/err")"
		cat "$d/err"
		fail "proxy-$m: zcbench profile failed"
	fi
	jq -r --argjson n "$TOP" '.self | to_entries[:$n][] | .key' "$d/summary.json" >"$TMP/top-$m"
	echo "proxy-$m: $(jq -r '"\(.samples) samples of the proxy (\(.backend), \(.event)); kernel copy \(.buckets.kernel_copy)%"' "$d/summary.json")"
	sed 's/^/    /' "$TMP/top-$m"
done

check "copy proxy: a copy routine in its top $TOP by self share" grep -Eq "$COPY_RE" "$TMP/top-copy"
check "splice proxy: no copy routine in its top $TOP by self share" \
	bash -c "! grep -Eq '$COPY_RE' '$TMP/top-splice'"
check "kernel copy bucket: copy proxy above 3%, splice proxy below 1%" \
	jqe -n --slurpfile c "$TMP/prof-copy/1/summary.json" --slurpfile s "$TMP/prof-splice/1/summary.json" \
	'$c[0].buckets.kernel_copy > 3 and $s[0].buckets.kernel_copy < 1'
check "splice proxy: pipe and splice code shows" \
	jqe '.buckets.pipe_splice > 0.5' "$TMP/prof-splice/1/summary.json"

d="$TMP/prof-copy/1"
check "buckets add up to 100%" jqe '([.buckets[]] | add) - 100 | fabs < 0.01' "$d/summary.json"
check "summary names the event, backend, CPU and window" \
	jqe '(.event == "cycles" or .event == "cpu-clock") and (.backend | length > 0) and
		(.cpus | length == 1) and .window_s > 2 and .window_s < 3.5' "$d/summary.json"
# The folded file is what the summary counted: summarising it again gives the same.
"$ZCBENCH" profile --folded "$d/stacks.folded" --comm "$(cat "$d/pid")" --json >"$TMP/again.json" ||
	fail "profile --folded"
check "profile --folded gives the same summary" \
	jqe -n --slurpfile a "$d/summary.json" --slurpfile b "$TMP/again.json" \
	'$a[0].buckets == $b[0].buckets and $a[0].self == $b[0].self and $a[0].samples == $b[0].samples'
check "flame graph is well-formed SVG with boxes and no script" python3 - "$d/flamegraph.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert t.tag == ns + "svg"
assert len(t.findall(f".//{ns}rect")) > 20
assert not t.findall(f".//{ns}script") and b"http://" not in open(sys.argv[1], "rb").read().replace(b"http://www.w3.org/2000/svg", b"")
PY

# Our own sampler (no perf(1)) on this CPU for half a second: it folds and names.
"$ZCBENCH" profile --cpus 0 --duration 0.5 --backend perf_event_open --out "$TMP/own" --json \
	>"$TMP/own.json" 2>"$TMP/own.err" || { cat "$TMP/own.err"; fail "perf_event_open backend"; }
check "perf_event_open backend: samples, folded stacks, kernel names" \
	jqe '.backend == "perf_event_open" and .samples > 100' "$TMP/own.json"
check "perf_event_open backend: kernel frames named" grep -q '_\[k\]' "$TMP/own/stacks.folded"
finish
