#!/usr/bin/env bash
# make fuzz: each harness named on the command line for FUZZ_SECONDS (default
# 60) on its seeds plus what earlier runs found (build/fuzz/corpus/NAME), then
# its execution count. A crash: the input is kept as build/fuzz/artifacts/NAME-crash-*
# (copy it to tests/fuzz/regressions/NAME/ with the fix) and the exit is 1.
set -u
cd "$(dirname "$0")/../.."
. tests/fuzz/seeds.sh
SECONDS_EACH=${FUZZ_SECONDS:-60}
# FUZZ_MAX_LEN: libFuzzer's -max_len (default: the largest seed's size); a
# smaller one keeps a loader harness fast (make fuzz-long's results: 20000).
# FUZZ_BIN_DIR: where the harnesses are (default build/fuzz); a long run can
# use a copy so that a rebuild meanwhile does not replace a running binary.
BIN_DIR=${FUZZ_BIN_DIR:-build/fuzz}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
mkdir -p build/fuzz/artifacts build/fuzz/logs
# The seeds are copies: nothing a fuzzer writes may land among the fixtures
# (a stray libFuzzer output once did).
fixtures_before=$(ls -A results/fixtures)
for name in "$@"; do
	bin=$BIN_DIR/fuzz_$name corpus=build/fuzz/corpus/$name seeds=build/fuzz/seeds/$name
	log=build/fuzz/logs/$name.log
	[ -x "$bin" ] || { echo "$name: $bin not built (make fuzz-build)"; failed+=("$name"); continue; }
	rm -rf "$seeds"
	zc_fuzz_seeds "$name" "$seeds"
	mkdir -p "$corpus"
	echo "fuzzing $name for ${SECONDS_EACH} s ..."
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
		${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} \
		-artifact_prefix="build/fuzz/artifacts/$name-" "$corpus" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
	units=$(ls "$corpus" | wc -l)
	if [ "$rc" -ne 0 ]; then
		failed+=("$name")
		echo "FAIL $name (exit $rc): $(grep -m1 -E 'ERROR|SUMMARY|deadly|exited' "$log")"
		grep -E 'Test unit written|artifact' "$log" | sed 's/^/    /'
	else
		echo "ok   $name: ${execs:-?} executions in ${SECONDS_EACH} s (${rate:-?}/s), corpus $units inputs"
	fi
done
if [ "$(ls -A results/fixtures)" != "$fixtures_before" ]; then
	echo "FAIL: results/fixtures changed while fuzzing: $(diff <(echo "$fixtures_before") <(ls -A results/fixtures) | grep '^>' | tr '\n' ' ')"
	failed+=(fixtures)
fi
[ ${#failed[@]} -eq 0 ] || { echo "failed: ${failed[*]} (logs in build/fuzz/logs)"; exit 1; }
