#!/usr/bin/env bash
# report and compare on the profile fixture, without perf: report prints
# each profiled run's buckets and what each headline path saves per byte
# (the parts adding up to the saving); compare prints perf-profile lines
# with their change in points beside the throughput lines, in both layouts,
# and none where the files have no profile.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 missing (make deps)"
P=results/fixtures/profile.json

# One line per row and per saving, however long (the width test measures the fit).
COLUMNS=1000 "$ZCBENCH" report "$P" >"$TMP/report" || fail "report exit"
check "report: the buckets table" grep -q 'Where the DUT core goes: profile of the window' "$TMP/report"
check "report: a row per profiled run" \
	test "$(grep -Ec '^  (proxy|src)-[a-z-]+ +(64k|1M) ' "$TMP/report")" -eq "$(jq '[.runs[] | select(.profile)] | length' "$P")"
check "report: what splice does per byte against copy" \
	grep -Eq '^  splice/copy proxy 64k: splice (saves|costs) [0-9]+% of the core per byte over copy: .*kernel copy -[0-9]+' "$TMP/report"
# The parts add up to the saving (rounding: one point per part at most).
python3 - "$TMP/report" <<'PY' || fail "report: parts do not add up to the saving"
import re, sys
n = 0
for line in open(sys.argv[1]):
    m = re.match(r"\s+\S+ .*?: \S+ (saves|costs) (\d+)% of the core per byte over \S+:(.*)", line)
    if not m:
        continue
    saving = int(m.group(2)) * (1 if m.group(1) == "saves" else -1)
    parts = [int(x) for x in re.findall(r" ([+-]\d+)(?=,|$| \()", m.group(3).strip())]
    assert abs(sum(parts) + saving) <= len(parts) + 1, (line, parts, saving)
    n += 1
assert n >= 4, n
PY
ok "report: parts add up to each saving"
check "report: the other processes on the DUT core are named" grep -q 'went to other processes' "$TMP/report"

# compare: the fixture against itself with the copy routine's share cut.
jq '(.runs[] | select(.name == "proxy-copy" and .key.chunk == 65536) | .profile.self["perf-profile.self.cycles-pp._copy_to_iter"]) = 1.0' \
	"$P" >"$TMP/new.json"
"$ZCBENCH" compare "$P" "$TMP/new.json" >"$TMP/lkp" || fail "compare exit"
check "compare lkp: the moved symbol's line, change in points" \
	grep -Eq '^ +[0-9.]+ +-[0-9.]+ +1\.00 +proxy-copy\.perf-profile\.self\.cycles-pp\._copy_to_iter( |$)' "$TMP/lkp"
# In the run's own block, after its throughput lines, before the next run.
check "compare lkp: bucket lines beside the throughput lines" awk '
	/# proxy send>copy>recv chunk=65536/ { inrun = 1; next }
	inrun && /^ +# / { exit }
	inrun && /proxy-copy\.gbps_per_core( |$)/ { tput = NR }
	inrun && /proxy-copy\.profile-bucket\.kernel_copy( |$)/ { bucket = NR }
	END { exit !(tput && bucket > tput) }' "$TMP/lkp"
check "compare lkp: symbols that did not move are left out" \
	bash -c "! grep -q 'proxy-splice.perf-profile.self' '$TMP/lkp'"
"$ZCBENCH" compare --format mmtests "$P" "$TMP/new.json" >"$TMP/mm" || fail "compare mmtests exit"
check "compare mmtests: the moved symbol's line (its name cut at the layout's width)" grep -Eq 'perf-profile.self.cycles-pp._copy_t.* -10\.[0-9]+%' "$TMP/mm"
check "compare --metrics: no profile lines" bash -c \
	"'$ZCBENCH' compare --metrics gbps '$P' '$TMP/new.json' | grep -vq perf-profile"
"$ZCBENCH" compare results/fixtures/base.json results/fixtures/new.json >"$TMP/plain" || fail "compare exit (no profile)"
check "compare without profiles: no profile lines" bash -c "! grep -q 'perf-profile\|profile-bucket' '$TMP/plain'"
finish
