#!/usr/bin/env bash
# zcbench compare on the two stored fixtures (results/fixtures/, real runs of
# workloads/smoke.ini --repetitions 3): both layouts, the regression gate's
# exit codes, runs on one side only, and exit 2 on unreadable files.
. "$(dirname "$0")/../lib.sh"
B=results/fixtures/base.json N=results/fixtures/new.json
command -v python3 >/dev/null || skip "python3 missing (make deps)"

"$ZCBENCH" compare "$B" "$N" >"$TMP/lkp" || fail "lkp compare exit $?"
grep -q '^         %stddev     %change         %stddev$' "$TMP/lkp" || fail "lkp header"
grep -Eq '^ +[0-9.]+ ± +[0-9]+% +[+-][0-9.]+% +[0-9.]+ ± +[0-9]+%  proxy-splice\.gbps_per_core ' "$TMP/lkp" ||
	fail "lkp metric line"
grep -q "^# intervals: Student's t on the logs" "$TMP/lkp" || fail "the intervals' method not said"
grep -Eq 'proxy-splice\.gbps_per_core +\(\[[-+0-9.]+%, [-+0-9.]+%\] unpaired, (changed|unchanged|can.t tell)' "$TMP/lkp" ||
	fail "lkp: the interval and its answer in the notes"

"$ZCBENCH" compare --format mmtests "$B" "$N" >"$TMP/mm" || fail "mmtests compare exit $?"
grep -Eq '^Hmean +proxy-splice\.gbps_per_core +[0-9.]+ \(   0\.00%\) +[0-9.]+ (\( *-?[0-9.]+%\)|\* *-?[0-9.]+%\*)' "$TMP/mm" ||
	fail "mmtests Hmean line"
"$ZCBENCH" compare --format mmtests --metrics gbps_per_core "$N" "$B" >"$TMP/mmw" || fail "mmtests --metrics"
grep -Eq '\* *-[0-9.]+%\*' "$TMP/mmw" || fail "no *significant* mark on sendfile's real drop"
[ "$(grep -c '^Hmean' "$TMP/mmw")" -eq 9 ] || fail "--metrics gbps_per_core: expected 9 rows"

# Gate: new -> base lost Gbps per core on sendfile (-35%, its interval wholly
# beyond -5% even at the family's level): exit 1, named.
"$ZCBENCH" compare --metrics gbps_per_core --fail-on-regression 5 "$N" "$B" >"$TMP/g1" 2>"$TMP/g1e"
[ $? -eq 1 ] || fail "gate should exit 1 on a drop it can see"
grep -q 'REGRESSION.*sendfile.*gbps_per_core' "$TMP/g1e" || fail "regression not named on stderr"
# base -> new only improved, or can't tell at 3 v 3: never exit 1; the same
# at a 500% threshold.
"$ZCBENCH" compare --metrics gbps_per_core --fail-on-regression 5 "$B" "$N" >/dev/null 2>&1
[ $? -ne 1 ] || fail "gate fired on improvements"
"$ZCBENCH" compare --fail-on-regression 500 "$N" "$B" >/dev/null 2>&1
[ $? -ne 1 ] || fail "gate 500% fired"
# Flags that went with the p-value gate are refused, named.
"$ZCBENCH" compare --correction holm "$N" "$B" >/dev/null 2>"$TMP/corr.err"
[ $? -eq 2 ] || fail "--correction: want exit 2"
grep -q 'correction' "$TMP/corr.err" || fail "--correction: not named"

# A run on one side only is listed, not dropped.
python3 - "$N" "$TMP/fewer.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = [r for r in d["runs"] if r["name"] != "src-tee"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$ZCBENCH" compare "$B" "$TMP/fewer.json" >"$TMP/one" || fail "one-sided compare exit"
grep -q 'direct tee>recv .*only in results/fixtures/base.json' "$TMP/one" || fail "one-sided run not listed"

# Unreadable input: exit 2 with the file named.
echo '{"schema": "zcbench-results", ' >"$TMP/corrupt.json"
sed 's/"schema_version": "1\.[0-9]*"/"schema_version": "2.0"/' "$B" >"$TMP/v2.json"
grep -q '"2.0"' "$TMP/v2.json" || fail "could not make a 2.0 file"
for bad in "$TMP/corrupt.json" "$TMP/v2.json" "$TMP/missing.json"; do
	"$ZCBENCH" compare "$B" "$bad" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
	grep -q "$(basename "$bad")" "$TMP/err" || fail "$bad: error does not name the file"
done
"$ZCBENCH" compare "$B" >/dev/null 2>&1; [ $? -eq 2 ] || fail "one file: want exit 2"
"$ZCBENCH" compare --format xml "$B" "$N" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad format: want 2"
"$ZCBENCH" report "$B" >"$TMP/rep" || fail "report exit"
grep -A9 '^  splice/copy proxy (this kernel): splice over copy' "$TMP/rep" |
	grep -Eq '^    64k/256k +[0-9.]+x +\[[0-9.]+-[0-9.]+\]' || fail "report: splice/copy ratio with CI"
grep -q 'kernel fingerprint: none recorded' "$TMP/rep" || fail "report: null fingerprint"
# A file with the probe's fingerprint and emulated X-as-Y runs: both sides.
E=results/fixtures/emulated.json
"$ZCBENCH" report "$E" >"$TMP/rep2" || fail "report emulated exit"
for r in 'splice/copy proxy' 'tee/send source'; do
	grep -A1 "^  $r (before, measured): " "$TMP/rep2" | grep -Eq "^    64k/.*x +\[" ||
		fail "report: $r before"
	grep -A1 "^  $r (after, emulated): " "$TMP/rep2" | grep -Eq "^    64k/.*x +\[" ||
		fail "report: $r after"
done
grep -q 'kernel fingerprint: vmsplice=zero-copy' "$TMP/rep2" || fail "report: probe label"
# Same interval twice: nothing random in it.
"$ZCBENCH" report "$E" | cmp -s - "$TMP/rep2" || fail "report not deterministic"
echo "compare: ok"
