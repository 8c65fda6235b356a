#!/usr/bin/env bash
# Test runner (liburing's habit): every test is a program or script that
# exits 0 pass, 77 skip, anything else fail; each has a timeout. Integration
# scripts run twice: with bench/zcbench and with the ASan+UBSan build.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0 failed=()
TIMEOUT=${ZC_TEST_TIMEOUT:-300}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

one() {
	local name=$1; shift
	local log
	log=$(mktemp)
	timeout -k 5 "${TIMEOUT}" "$@" >"$log" 2>&1
	local rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $name" ;;
	77) skip=$((skip + 1)); echo "SKIP $name: $(grep -m1 -i 'skip' "$log" || tail -n1 "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name (exit $rc)"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
	rm -f "$log"
}

for t in "$@"; do
	case $t in
	tests/static/*.sh)
		# Reads the sources, not the binary: once.
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
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
