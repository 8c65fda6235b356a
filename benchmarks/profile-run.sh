#!/usr/bin/env bash
# `zcbench run` with every run's DUT core profiled from OUTSIDE (how the
# profile fixture was made before `zcbench run --profile` called the profile
# library at the window edges itself; use that): runs WORKLOAD with the flags given,
# profiles the DUT of each run's first repetition from outside
# (tests/profile_dut.sh: `zcbench profile`, the DUT's own process), and
# writes OUTDIR/results.json, the results file with each run's summary as
# its "profile" (schema 1.3; paths relative to OUTDIR) and
# OUTDIR/profile/RUN-CHUNK/ (stacks.folded, flamegraph.svg, perf.data).
# Then: zcbench report OUTDIR/results.json; zcbench plot --out DIR OUTDIR/results.json.
# Root (CPU-wide sampling).
#
#   bash benchmarks/profile-run.sh WORKLOAD OUTDIR [zcbench run flags ...]
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/profile_dut.sh
[ $# -ge 2 ] || { echo "usage: $0 WORKLOAD OUTDIR [run flags]" >&2; exit 2; }
W=$1 OUT=$2
shift 2
why=$(profile_possible) || skip "$why"
mkdir -p "$OUT/profile"
warmup=$(awk -F= '/^warmup/ {gsub(/ /, "", $2); print $2; exit}' "$W")
duration=$(awk -F= '/^duration/ {gsub(/ /, "", $2); print $2; exit}' "$W")
for a in "$@"; do
	case $a in --warmup=*) warmup=${a#*=} ;; --duration=*) duration=${a#*=} ;; esac
done
warmup=${warmup:-1} duration=${duration:-4}

"$ZCBENCH" run "$W" --out "$TMP/run" "$@" >"$TMP/run.log" 2>&1 &
runpid=$!
# The window opens a warm-up after the DUT starts (plus READY/GO): sample
# from 0.4 s into it until 0.6 s before its end.
profile_duts "$runpid" "$TMP/prof" "$(awk -v w="$warmup" 'BEGIN { print w + 0.4 }')" \
	"$(awk -v d="$duration" 'BEGIN { print (d > 1.5 ? d - 1 : d / 2) }')"
wait "$runpid"
rc=$?
cat "$TMP/run.log"
res=$(result_in "$TMP/run")
[ -n "$res" ] || fail "zcbench run left no results file (exit $rc)"
cp "$res" "$OUT/results.json"
for d in "$TMP"/prof/*/; do
	[ -s "$d/summary.json" ] || { echo "profile of $(cat "$d/key"): $(cat "$d/err")"; continue; }
	read -r topo src prx snk chunk pipe <"$d/key"
	[ "$prx" = - ] && prx=""
	sel='.key.topology == $t and .key.source == $s and .key.proxy == $p and .key.sink == $k and
	     (.key.chunk // $c) == $c and (.key.pipe_size // $ps) == $ps'
	args=(--arg t "$topo" --arg s "$src" --arg p "$prx" --arg k "$snk" --argjson c "$chunk"
	      --argjson ps "$pipe")
	name=$(jq -r "${args[@]}" ".runs[] | select($sel) | .name" "$OUT/results.json" | head -n1)
	[ -n "$name" ] || continue
	dir="profile/$name-$chunk-$pipe"
	rm -rf "${OUT:?}/$dir"
	mkdir -p "$OUT/$dir"
	cp "$d"/stacks.folded "$d"/flamegraph.svg "$d"/summary.json "$OUT/$dir/"
	[ -f "$d/perf.data" ] && cp "$d/perf.data" "$OUT/$dir/"
	data=null
	[ -f "$d/perf.data" ] && data="\"$dir/perf.data\""
	jq "${args[@]}" --arg dir "$dir" --argjson data "$data" --slurpfile p1 "$d/summary.json" \
		"(.runs[] | select($sel) | .profile) = (\$p1[0] | .folded = (\$dir + \"/stacks.folded\") |
		  .flamegraph = (\$dir + \"/flamegraph.svg\") | .data = \$data)" \
		"$OUT/results.json" >"$TMP/m.json" && mv "$TMP/m.json" "$OUT/results.json"
done
jq '.schema_version = "1.3"' "$OUT/results.json" >"$TMP/m.json" && mv "$TMP/m.json" "$OUT/results.json"
echo "results with profiles: $OUT/results.json"
exit $rc
