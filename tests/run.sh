#!/usr/bin/env bash
# Test runner (liburing's habit): every test is a program or script that
# exits 0 pass, 77 skip, anything else fail; each has a timeout. Integration
# scripts run twice: with bench/zcbench and with the ASan+UBSan build.
# Each result line carries the test's time; those slower than $ZC_TEST_SLOW
# seconds are listed again at the end. A SKIP shows the test's "skip:" line;
# a unit program that skipped some of its tests passes and names them.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0 failed=() times=()
# Tests slower than this are listed at the end (seconds).
SLOW=${ZC_TEST_SLOW:-30}
TIMEOUT=${ZC_TEST_TIMEOUT:-300}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The reason a test gives for skipping: its "skip: ..." line.
skip_reason() {
	grep -m1 '^skip: ' "$1" | cut -c7- | grep . || grep -m1 -i 'skip' "$1" || tail -n1 "$1"
}

one() {
	local name=$1; shift
	local log t0 secs rc note
	log=$(mktemp)
	t0=$(date +%s.%N)
	timeout -k 5 "${TIMEOUT}" "$@" >"$log" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	times+=("$secs $name")
	case $rc in
	0)
		pass=$((pass + 1))
		# A unit program that skipped some of its tests says so (tests/unit/zc_test.h).
		note=$(grep -m1 '^skipped: ' "$log")
		[ -n "$note" ] && note=" ($note: $(grep '^skip: ' "$log" | cut -c7- | paste -sd ';' - | sed 's/;/; /g'))"
		echo "PASS $name [${secs} s]$note" ;;
	77) skip=$((skip + 1)); echo "SKIP $name [${secs} s]: $(skip_reason "$log")" ;;
	*)
		fail=$((fail + 1)); failed+=("$name")
		[ $rc -eq 124 ] && note=" (timeout ${TIMEOUT} s)" || note=""
		echo "FAIL $name (exit $rc)$note [${secs} s]"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
	rm -f "$log"
}

for t in "$@"; do
	case $t in
	tests/static/*.sh | tests/fuzz/*.sh)
		# Reads the sources, or runs its own sanitized harnesses: once.
		one "$t" bash "$t" ;;
	tests/guest/*.sh)
		# A whole qemu boot: once, with the plain binary, and more time.
		TIMEOUT=${ZC_GUEST_TIMEOUT:-900} one "$t" env ZCBENCH=bench/zcbench bash "$t" ;;
	*.sh)
		one "$t" env ZCBENCH=bench/zcbench bash "$t"
		if [ -z "${ZC_NO_ASAN:-}" ] && [ -x build/asan/zcbench ]; then
			one "$t [asan]" env ZCBENCH=build/asan/zcbench ZC_ASAN=1 bash "$t"
		fi ;;
	*) one "$t" "$t" ;;
	esac
done
echo
slow=$(printf '%s\n' "${times[@]}" | awk -v s="$SLOW" '$1 > s' | sort -rn)
[ -n "$slow" ] && { echo "slower than ${SLOW} s:"; echo "$slow" | sed 's/^/  /'; }
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
