#!/usr/bin/env bash
# make check's share of the fuzzing: every harness replays the inputs that
# once crashed it (tests/fuzz/regressions/NAME) and its seeds, then fuzzes for
# a few seconds ($ZC_FUZZ_CHECK_SECONDS, default 4). make fuzz runs longer.
. "$(dirname "$0")/../lib.sh"
. tests/fuzz/seeds.sh
# A fuzzed file names keys of its own (its runs' "dut" is looked up as one): not a bug.
unset ZC_STRICT_KEYS
secs=${ZC_FUZZ_CHECK_SECONDS:-4}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fixtures_before=$(ls -A results/fixtures)
targets=$(sed -n 's/^FUZZ_TARGETS *:= *//p' Makefile)
[ -n "$targets" ] || fail "no FUZZ_TARGETS in the Makefile"
for name in $targets; do
	[ -x "build/fuzz/fuzz_$name" ] || skip "build/fuzz/fuzz_$name not built (clang with libFuzzer: make deps installs clang and libclang-rt-dev)"
done
for name in $targets; do
	bin=build/fuzz/fuzz_$name
	zc_fuzz_seeds "$name" "$TMP/seeds-$name"
	mapfile -t regs < <(zc_fuzz_regressions "$name")
	# Each file given alone is run once, not fuzzed.
	"$bin" "${regs[@]}" "$TMP/seeds-$name"/* >"$TMP/$name.replay" 2>&1
	check "$name: ${#regs[@]} regression inputs and the seeds run clean" [ $? -eq 0 ] ||
		tail -n 30 "$TMP/$name.replay"
	mkdir -p "$TMP/corpus-$name"
	"$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$TMP/$name-" "$TMP/corpus-$name" "$TMP/seeds-$name" >"$TMP/$name.log" 2>&1
	rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$name.log")
	check "$name: fuzzed ${secs} s clean (${n:-?} executions)" [ $rc -eq 0 ] ||
		{ grep -E -m3 'ERROR|SUMMARY|exited' "$TMP/$name.log"; cp "$TMP/$name-"* build/fuzz/ 2>/dev/null; }
done
check "results/fixtures untouched by the fuzzers" [ "$(ls -A results/fixtures)" = "$fixtures_before" ]
finish
