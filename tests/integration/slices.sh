#!/usr/bin/env bash
# Paired slices inside one window (issue 22, alternate): workloads/slices.ini
# run short (3 s windows of 100 ms slices, one repetition). Every run's DUT
# took its two modes in ABBA turns (each turn three slices, the first after a
# switch dropped and listed as dropped), every slice counted its bytes and CPU
# time (together some: one slice may get no CPU on a busy core), the slices
# tile the window in time, the sink verified every byte
# across the switches (copy/splice proxy, send/vmsplice, send/sendfile, the
# splice, tee and vmsplice after-modes), the A/A run's slice ratio is printed
# (never asserted: a live interval misses by chance), run and report print
# the slice ratio, slice_drop = 0 keeps every
# slice, and an alternate that cannot share the stream exits 2 naming the key.
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || skip "jq missing"
short=(--duration 3 --repetitions 1 --slice_ms 100 --warmup 0.5 --foreign_max 100%)
$ZCBENCH run workloads/slices.ini "${short[@]}" --out "$TMP/s" >"$TMP/s.txt" 2>&1
rc=$?
f=$(result_in "$TMP/s")
[ -s "$f" ] || { cat "$TMP/s.txt"; fail "no results (exit $rc)"; }
check "exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/s.txt"
report_json "$f" >"$TMP/report.json"
for name in proxy-copy-aa proxy-copy-splice proxy-splice-after src-send-vmsplice src-send-sendfile src-tee-after \
	src-vmsplice-after; do
	r=".runs[] | select(.name == \"$name\")"
	check "$name: ok and verified at the sink" jqe "$r | .status == \"ok\" and .verified == true" "$f" ||
		jq -c "$r | {status, verified, reason, samples: [.samples[] | {status, reason}]}" "$f"
	dut=$(jq -r "$r | .dut" "$f")
	sl="$r | .samples[0].roles.$dut"
	check "$name: at least 16 slices (a 3 s window of 100 ms)" jqe "$sl | .slices | length >= 16" "$f"
	check "$name: sides A [B] B B [A] A A ..., the kept ones ABBA" jqe "$sl | .slices |
		([.[] | if .dropped then \".\" else .side end] | join(\"\")) as \$s |
		(\"A.BB.AA.BB.AA.BB.AA.BB.AA.BB.AA.BB\" | startswith(\$s) or (\$s | startswith(.)))" "$f"
	check "$name: the dropped ones are those the results list, the first after each switch" \
		jqe "$sl | ([.slices[] | select(.dropped) | .k] == .slice_drop.dropped) and
		.slice_drop.first_after_switch == true and
		([.slices as \$a | range(1; \$a | length) | select(\$a[.].side != \$a[. - 1].side)] ==
		 .slice_drop.dropped)" "$f"
	# One slice's share may be nothing on a busy core (another task had the
	# CPU for its 100 ms); together they moved bytes and took DUT CPU time.
	check "$name: every slice's bytes and DUT CPU time counted, together some" \
		jqe "$sl | ([.slices[] | .bytes >= 0 and .cpu_ns >= 0 and (.softirq_ns | type) == \"number\" and .busy_ns >= 0] | all)
			and ([.slices[].bytes] | add) > 0 and ([.slices[].cpu_ns] | add) > 0 and ([.slices[].busy_ns] | add) > 0" "$f"
	check "$name: slices follow each other in time" jqe "$sl | .slices as \$a |
		[range(0; \$a | length) | \$a[.].t_end_ns > \$a[.].t_start_ns and
		 (. == 0 or \$a[.].t_start_ns >= \$a[. - 1].t_end_ns)] | all" "$f"
	a=$(jq -r "$r | .key.$dut" "$f") b=$(jq -r "$r | .options.alternate" "$f")
	nd=$(jq "$sl | .slice_drop.dropped | length" "$f")
	check "$name: the two modes named ($a, $b)" jqe --arg a "$a" --arg b "$b" "$sl | .slice_setup |
		.a == \$a and .b == \$b and .softirq_resolution_s > 0" "$f"
	check "$name: a slice ratio in the headline, $nd slices dropped" jqe --argjson nd "$nd" \
		".headline_slices[] | select(.run == \"$name\") | .pairs >= 5 and .lo <= .ratio and
		.ratio <= .hi and .slices_dropped == \$nd and \$nd > 0" "$TMP/report.json"
done
# The A/A run's interval is printed, not asserted: a 95% interval misses
# 1.00 by chance in one run of twenty, and a test of a live run never
# asserts an interval (issue 29 item 7; CI failed on it once). Its coverage
# is tested on synthetic slices (tests/unit/test_slices.c) and of the
# interval itself by simulation (tests/unit/test_verdict.c); here the run's
# records and bytes, which must always hold.
echo "# A/A (copy against itself) slice ratio [lo, ratio, hi]: $(jq -c '.headline_slices[] |
	select(.run == "proxy-copy-aa") | [.lo, .ratio, .hi]' "$TMP/report.json")"
check "the table's path shows both modes of the DUT" grep -q "send>copy|splice>recv" "$TMP/s.txt"
# copy passes no pipe size on (bench/modes/mode.h, uses): "-" for it.
check "run prints the slice ratio, its sizes and half-width" \
	grep -Eq "proxy-copy-aa +copy/copy +64k +- +[0-9.]+ \[[0-9.-]+\] \+-[0-9.]+%" "$TMP/s.txt"
check "the half-width in report --json is half the interval in % of the ratio" jqe '.headline_slices[] |
	select(.ratio != null) | .chunk == 65536 and
	((.half_width_pct - (.hi - .lo) / 2 / .ratio * 100) | fabs) < 1e-6' "$TMP/report.json"
$ZCBENCH report "$f" >"$TMP/report.txt" 2>&1
check "report prints the slice ratio" grep -Eq "splice/copy +64k +256k +[0-9.]+ \[" "$TMP/report.txt"

# slice_drop = 0: every slice kept, ABBA slice by slice.
$ZCBENCH run workloads/slices.ini --only proxy-copy-aa "${short[@]}" --duration 2 --slice_drop 0 \
	--out "$TMP/k" >"$TMP/k.txt" 2>&1
f=$(result_in "$TMP/k")
check "slice_drop = 0: ok" jqe '.runs[0].status == "ok" and .runs[0].verified' "$f"
check "slice_drop = 0: ABBA, none dropped" jqe '.runs[0].samples[0].roles.proxy |
	([.slices[] | .side] | join("")) as $s | ("ABBAABBAABBAABBAABBAABBA" | startswith($s)) and
	($s | length) >= 12 and (.slice_drop.dropped | length) == 0 and ([.slices[].dropped] | any | not)' "$f"

# An alternate that cannot share the stream: exit 2, the key named.
bad() { # bad "what" "grep pattern" ini-body
	printf '[workload]\nduration = 2\n\n[run x]\n%s\n' "$3" >"$TMP/bad.ini"
	$ZCBENCH run "$TMP/bad.ini" --out "$TMP/o" >"$TMP/err" 2>&1
	local rc=$?
	check "$1: exit 2 (got $rc), naming the key: $(head -c 200 "$TMP/err")" \
		[ "$rc" -eq 2 ] && grep -q "key 'alternate'.*$2" "$TMP/err"
}
bad "tee against send" "re-sends one chunk" $'topology = direct\nsource = send\nalternate = tee'
bad "a peer program" "haproxy-splice.*peer program" $'topology = proxy\nproxy = copy\nalternate = haproxy-splice'
bad "io_uring" "io_uring" $'topology = direct\nsource = send\nalternate = uring-send'
bad "another role's mode" "not a source mode" $'topology = direct\nsource = send\nalternate = copy'
bad "a window of part slices" "whole number of slices" $'topology = proxy\nproxy = copy\nalternate = splice\nslice_ms = 300'
printf '[workload]\nduration = 2\n\n[run x]\nproxy = copy\nslice_ms = 100\n' >"$TMP/bad.ini"
$ZCBENCH run "$TMP/bad.ini" --out "$TMP/o" >"$TMP/err" 2>&1
rc=$?
check "slice_ms without alternate: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "slice_ms without alternate: exit 2, naming it" grep -q "key 'slice_ms'.*alternate" "$TMP/err"
check "no results folder made on bad input" [ ! -e "$TMP/o" ]
finish
