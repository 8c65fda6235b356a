#!/usr/bin/env bash
# Every output a person reads fits the terminal (issue 32): every command's
# --help, `zcbench help CMD`, and the human output of every command that can
# run here on the stored fixtures (or a short live run), at COLUMNS=80 and
# COLUMNS=100, has no line longer than the width. The run table has its own
# test (table_width.sh); machine formats (--json, csv, prometheus, man's roff,
# the completion script) are not read as text and are not measured.
. "$(dirname "$0")/../lib.sh"
F=results/fixtures
longest() { awk '{ n = length($0); if (n > m) { m = n; l = $0 } } END { print m + 0 }' "$1"; }
mkdir -p "$TMP/nights" && python3 tests/trend_series.py $F/bench.json "$TMP/nights" 8 0.03 5 -0.30 >/dev/null 2>&1 ||
	fail "trend_series.py"

# name|command: run with COLUMNS set, its stdout and stderr measured.
cmds=()
for c in $("$ZCBENCH" --help | awk '/^  [a-z]/ { print $1 }'); do
	cmds+=("$c --help|$ZCBENCH $c --help" "help $c|$ZCBENCH help $c")
done
cmds+=(
	"--help|$ZCBENCH --help"
	"list|$ZCBENCH list"
	"keys|$ZCBENCH keys"
	"report bench|$ZCBENCH report $F/bench.json"
	"report rr|$ZCBENCH report $F/rr.json"
	"report emulated|$ZCBENCH report $F/emulated.json"
	"report profile|$ZCBENCH report $F/profile.json"
	"report scale|$ZCBENCH report $F/scale.json"
	"report --mail|$ZCBENCH report --mail $F/bench.json"
	"compare|$ZCBENCH compare $F/base.json $F/new.json"
	"compare same|$ZCBENCH compare $F/bench.json $F/bench.json"
	"compare rr|$ZCBENCH compare $F/rr.json $F/rr.json"
	"compare lkp|$ZCBENCH compare --layout lkp $F/base.json $F/new.json"
	"compare mmtests|$ZCBENCH compare --layout mmtests $F/base.json $F/new.json"
	"compare other runs|$ZCBENCH compare $F/scale.json $F/bench.json"
	"compare lkp other runs|$ZCBENCH compare --layout lkp $F/emulated.json $F/bench.json"
	"compare mmtests other runs|$ZCBENCH compare --layout mmtests $F/emulated.json $F/bench.json"
	"compare three files --all|$ZCBENCH compare --all $F/base.json $F/new.json $F/bench.json"
	"compare gated (stdout; a REGRESSION line on stderr is a log line)|$ZCBENCH compare --fail-on-regression 5 $F/new.json $F/base.json 2>/dev/null"
	"trend|$ZCBENCH trend $TMP/nights/*.json"
	"before-after|$ZCBENCH before-after $F/emulated.json"
	"scale|$ZCBENCH scale $F/scale.json"
	"size|$ZCBENCH size $F/scale.json"
	"probe|$ZCBENCH probe --no-modes"
	"export (no format)|$ZCBENCH export $F/bench.json"
)
for cols in 80 100; do
	for entry in "${cmds[@]}"; do
		name=${entry%%|*} cmd=${entry#*|}
		out="$TMP/out"
		COLUMNS=$cols bash -c "$cmd" >"$out" 2>&1
		rc=$?
		n=$(longest "$out")
		if [ "$n" -le "$cols" ]; then
			ok "COLUMNS=$cols $name: longest line $n"
		else
			bad "COLUMNS=$cols $name (exit $rc): longest line $n"
			awk -v w="$cols" 'length($0) > w { print "    " length($0) ": " $0 }' "$out" | head -3
		fi
	done
done
# Not a terminal and no COLUMNS: 100.
env -u COLUMNS "$ZCBENCH" keys </dev/null >"$TMP/k" 2>&1
check "no COLUMNS, not a terminal: keys at most 100 ($(longest "$TMP/k"))" [ "$(longest "$TMP/k")" -le 100 ]
finish
