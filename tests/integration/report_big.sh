#!/usr/bin/env bash
# report on a file of 20,000 runs (issue 13: it took minutes, pairing each run
# by scanning all the others). A benchmark-ish sanity check with a generous
# bound, not a timed test: the file is built so that pairing is all the work
# (every run's peer is looked up, none exists, so no bootstrap runs), and the
# old scan needed about 4e8 key comparisons for it.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 missing (make deps)"
python3 - "$TMP/big.json" <<'EOF'
import json, sys
runs = []
for i in range(20000):
    mode = ("vmsplice", "tee", "splice-file", "sendfile")[i % 4]
    s = [{"rep": r, "status": "ok", "gbps_per_core": 10.0 + r} for r in range(3)]
    runs.append({"name": "r%d" % i, "dut": "source", "status": "ok",
                 "key": {"topology": "direct", "source": mode, "proxy": "", "sink": "recv",
                         "chunk": 4096 * (i // 4 + 1), "pipe_size": 1048576, "connections": 1},
                 "samples": s,
                 "summary": {"gbps_per_core": {"n": 3, "median": 11.0, "min": 10.0, "max": 12.0}}})
json.dump({"schema": "zcbench-results", "schema_version": "1.2", "status": "complete",
           "meta": {"hostname": "big", "date": "2026-12-03T00:00:00Z"}, "runs": runs},
          open(sys.argv[1], "w"))
EOF
t0=$(date +%s)
timeout -k 5 240 "$ZCBENCH" report "$TMP/big.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
secs=$(( $(date +%s) - t0 ))
check "report on 20,000 runs finished within 240 s (exit $rc after ${secs} s)" [ "$rc" -eq 0 ]
check "report says there is no pair to show" grep -q "no pair of runs for a headline ratio" "$TMP/out"
# The same pairing answers with a peer for each: a send run for every 4th chunk.
python3 - "$TMP/big.json" "$TMP/pairs.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = d["runs"][:400]
for r in list(d["runs"][::4]):
    p = json.loads(json.dumps(r)); p["key"]["source"] = "send"; p["name"] += "-send"
    d["runs"].append(p)
json.dump(d, open(sys.argv[2], "w"))
EOF
timeout -k 5 240 "$ZCBENCH" report "$TMP/pairs.json" >"$TMP/out2" 2>"$TMP/err2"
# One group (ratio, side, modes), a row per size under it.
check "100 vmsplice/send pairs found among 500 runs" \
	[ "$(awk '/^  [a-z]/ { g = $0 } g ~ /^  vmsplice\/send source \(this kernel\)/ && /^    [0-9]+k\/1M +[0-9.]+x / { n++ } END { print n + 0 }' "$TMP/out2")" -eq 100 ]
check "under one heading" [ "$(grep -c '^  vmsplice/send source (this kernel): vmsplice over send; UNVERIFIED' "$TMP/out2")" -eq 1 ]
timeout -k 5 240 "$ZCBENCH" report --json "$TMP/pairs.json" >"$TMP/out3" 2>"$TMP/err3"
check "--json: the same 100 pairs" \
	[ "$(jq '[.files[0].headline[] | select(.ratio == "vmsplice/send source")] | length' "$TMP/out3")" -eq 100 ]
finish
