# Shared by every test script (integration, static, guest): sourced, not run.
# Exit codes as tests/run.sh reads them: 0 pass, 77 skip, anything else fail.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ZCBENCH=${ZCBENCH:-bench/zcbench}
# A key in no list of bench/results/keys.h aborts the getters: a typo fails, never a NaN.
export ZC_STRICT_KEYS=1
TMP=$(mktemp -d /tmp/zc-it.XXXXXX)
FAILS=0
# In the environment of everything this script starts (controllers, roles,
# the peers they run), so ours_pids tells them from other tests' beside it.
export ZC_TEST_TAG=$TMP
# ours_pids REGEX: the processes pgrep -f REGEX finds that this script started.
ours_pids() {
	local p
	for p in $(pgrep -f "$1"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "ZC_TEST_TAG=$ZC_TEST_TAG" && echo "$p"
	done
	return 0
}

# on_exit 'command...': run it when the script exits, however it exits (last
# registered first), before $TMP goes (kept, and named, with KEEP=1). The
# script's exit code stays its own.
ZC_ON_EXIT=()
on_exit() { ZC_ON_EXIT=("$*" "${ZC_ON_EXIT[@]}"); }
zc_exit() {
	local c
	for c in "${ZC_ON_EXIT[@]}"; do eval "$c"; done
	if [ -n "${KEEP:-}" ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap zc_exit EXIT

skip() { echo "skip: $*"; exit 77; }
ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; FAILS=$((FAILS + 1)); }
check() { # check "description" command...: 1 when it failed (check ... || cat LOG)
	local what=$1; shift
	if "$@"; then ok "$what"; else bad "$what"; return 1; fi
}
# A check that cannot go on: fail the script now.
fail() { echo "not ok - $*"; echo "FAIL: $*"; exit 1; }
finish() { [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }; exit 0; }
command -v jq >/dev/null || skip "jq missing (make deps installs it)"
# jqe ARGS...: jq -e, its output dropped (a check's condition).
jqe() { jq -e "$@" >/dev/null; }
# The one results file a run left in a folder.
result_in() { ls "$1"/*.json 2>/dev/null | head -n 1; }
# report_json FILE: what report --json says of one results file: its
# headline (each pair, then its emulated after rows), headline_best and
# headline_slices, which every reader computes (the file holds none: 1.10).
report_json() { $ZCBENCH report --json "$1" | jq '.files[0]'; }
# run_ok NAME INI [ARGS...]: zcbench run INI (and ARGS) into $TMP/NAME, its
# output printed and kept in $TMP/NAME.txt; the exit code in $rc, the results
# file in $f. No results file fails the test, an exit other than 0 the check.
run_ok() {
	local name=$1 ini=$2
	shift 2
	$ZCBENCH run "$ini" --out "$TMP/$name" "$@" >"$TMP/$name.txt" 2>&1
	rc=$?
	cat "$TMP/$name.txt"
	f=$(result_in "$TMP/$name")
	[ -s "$f" ] || fail "no results (exit $rc)"
	check "exit 0 (got $rc)" [ "$rc" -eq 0 ]
}
# rr_workload NAME: the [workload] head of a short request/response test
# workload (a 1 s window, one repetition); the caller adds its own keys.
rr_workload() {
	printf '[workload]\nname = %s\ntraffic = rr\nwarmup = 0.3\nduration = 1\ntail = 0.2\n' "$1"
	printf 'repetitions = 1\ntimeout = 10\n'
}
# wait_file PATH: wait (30 s at most) until PATH exists; 1 if it never does.
wait_file() {
	local _
	for _ in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.05; done
	return 1
}
# wait_sample DIR [JQ]: wait (30 s at most) until DIR's results file has been
# rewritten with a sample (JQ true; default: the first run has one), rather
# than for a time a loaded machine stretches. The file's path in $f; 1 if never.
wait_sample() {
	local cond=${2:-'.runs[0].samples | length >= 1'}
	for _ in $(seq 600); do
		f=$(result_in "$1")
		[ -n "$f" ] && jq -e "$cond" "$f" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}
