#!/usr/bin/env bash
# zcbench compare on the two stored fixtures (results/fixtures/, real runs of
# workloads/smoke.ini --repetitions 3): both layouts, the regression gate's
# exit codes, runs on one side only, and exit 2 on unreadable files.
set -u
cd "$(dirname "$0")/../.."
Z=${ZCBENCH:-bench/zcbench}
B=results/fixtures/base.json N=results/fixtures/new.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "skip: python3 missing (make deps)"; exit 77; }

"$Z" compare "$B" "$N" >"$tmp/lkp" || fail "lkp compare exit $?"
grep -q '^         %stddev     %change         %stddev$' "$tmp/lkp" || fail "lkp header"
grep -Eq '^ +[0-9.]+ ± +[0-9]+% +[+-][0-9.]+% +[0-9.]+ ± +[0-9]+%  proxy-splice\.gbps_per_core ' "$tmp/lkp" ||
	fail "lkp metric line"
grep -q 'smallest two-sided U-test p is 0.100' "$tmp/lkp" || fail "3 v 3 note missing"

"$Z" compare --format mmtests "$B" "$N" >"$tmp/mm" || fail "mmtests compare exit $?"
grep -Eq '^Hmean +proxy-splice\.gbps_per_core +[0-9.]+ \(   0\.00%\) +[0-9.]+ \( *-?[0-9.]+%\)$' "$tmp/mm" ||
	fail "mmtests Hmean line"
"$Z" compare --format mmtests --test welch --metrics gbps_per_core "$N" "$B" >"$tmp/mmw" || fail "welch"
grep -Eq '\* *-[0-9.]+%\*$' "$tmp/mmw" || fail "no *significant* mark with Welch on a real drop"
[ "$(grep -c '^Hmean' "$tmp/mmw")" -eq 9 ] || fail "--metrics gbps_per_core: expected 9 rows"

# Gate: new -> base lost Gbps per core on several paths (Welch p < 0.05).
"$Z" compare --test welch --metrics gbps_per_core --fail-on-regression 5 "$N" "$B" >"$tmp/g1" 2>"$tmp/g1e"
[ $? -eq 1 ] || fail "gate should exit 1 on a significant drop"
grep -q 'REGRESSION.*splice.*gbps_per_core' "$tmp/g1e" || fail "regression not named on stderr"
# base -> new only improved: exit 0; a huge threshold: exit 0.
"$Z" compare --test welch --metrics gbps_per_core --fail-on-regression 5 "$B" "$N" >/dev/null 2>&1 ||
	fail "gate fired on improvements"
"$Z" compare --test welch --fail-on-regression 500 "$N" "$B" >/dev/null 2>&1 || fail "gate 500% fired"
# U test with 3 v 3 can never be significant at 0.05: the gate stays shut.
"$Z" compare --metrics gbps_per_core --fail-on-regression 5 "$N" "$B" >/dev/null 2>&1 ||
	fail "U gate fired with 3 v 3 at alpha 0.05"
"$Z" compare --alpha 0.11 --metrics gbps_per_core --fail-on-regression 5 "$N" "$B" >/dev/null 2>&1
[ $? -eq 1 ] || fail "U gate at alpha 0.11 should fire"

# A run on one side only is listed, not dropped.
python3 - "$N" "$tmp/fewer.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = [r for r in d["runs"] if r["name"] != "src-tee"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$Z" compare "$B" "$tmp/fewer.json" >"$tmp/one" || fail "one-sided compare exit"
grep -q 'direct tee>recv .*only in results/fixtures/base.json' "$tmp/one" || fail "one-sided run not listed"

# Unreadable input: exit 2 with the file named.
echo '{"schema": "zcbench-results", ' >"$tmp/corrupt.json"
sed 's/"schema_version": "1\.[0-9]*"/"schema_version": "2.0"/' "$B" >"$tmp/v2.json"
grep -q '"2.0"' "$tmp/v2.json" || fail "could not make a 2.0 file"
for bad in "$tmp/corrupt.json" "$tmp/v2.json" "$tmp/missing.json"; do
	"$Z" compare "$B" "$bad" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
	grep -q "$(basename "$bad")" "$tmp/err" || fail "$bad: error does not name the file"
done
"$Z" compare "$B" >/dev/null 2>&1; [ $? -eq 2 ] || fail "one file: want exit 2"
"$Z" compare --format xml "$B" "$N" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad format: want 2"
"$Z" report "$B" >"$tmp/rep" || fail "report exit"
grep -Eq '^  splice/copy proxy +this kernel +64k +256k +[0-9.]+x +\[[0-9.]+-[0-9.]+\]' "$tmp/rep" ||
	fail "report: splice/copy ratio with CI"
grep -q 'kernel fingerprint: none recorded' "$tmp/rep" || fail "report: null fingerprint"
# A file with the probe's fingerprint and emulated X-as-Y runs: both sides.
E=results/fixtures/emulated.json
"$Z" report "$E" >"$tmp/rep2" || fail "report emulated exit"
for r in 'splice/copy proxy' 'tee/send source'; do
	grep -Eq "^  $r +before, measured +64k .*x +\[" "$tmp/rep2" || fail "report: $r before"
	grep -Eq "^  $r +after, emulated +64k .*x +\[" "$tmp/rep2" || fail "report: $r after"
done
grep -q 'kernel fingerprint: vmsplice=zero-copy' "$tmp/rep2" || fail "report: probe label"
# Same CI twice: the bootstrap is seeded.
"$Z" report "$E" | cmp -s - "$tmp/rep2" || fail "report not deterministic"
echo "compare: ok"
