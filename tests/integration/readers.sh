#!/usr/bin/env bash
# Nothing bad read as good (issue 41): every reader refuses or says what it
# cannot use, and a gate never passes on it. A nightly series whose newest
# nights are unreadable fails the gate (exit 2) and names each file in every
# output format; values no figure can be (below 0, absurd) and a run twice
# in one file are refused naming the file and the key; a host name or a
# file name with escape sequences, a bell and a newline reaches no terminal,
# mail or exposition as itself; an output path that cannot be written or is
# one of the inputs exits 2 before any work and replaces nothing; a running
# file that cannot be judged reads unknown, never running. Under the
# ASan pass, LeakSanitizer makes a leak on any of these error paths fail.
. "$(dirname "$0")/../lib.sh"
export COLUMNS=200
command -v python3 >/dev/null || skip "python3 missing (make deps)"
B=results/fixtures/bench.json
ESC=$'\x1b'
BEL=$'\x07'
# raw FILE: FILE holds a raw control character (ESC, BEL, CR) or a line that
# an injected newline started.
raw() { grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|^all good' "$1"; }
export -f raw

# --- the nightly gate over nights it could not read -------------------------
nights() { mkdir -p "$1" && python3 tests/trend_series.py "$B" "$1" 12 0.03 10 -0.5 >/dev/null ||
	fail "trend_series.py"; }
nights "$TMP/n"
"$ZCBENCH" trend --fail-on-regression 5 "$TMP/n" >"$TMP/n.txt" 2>&1
check "12 nights, the newest 3 at half speed: the gate fails (exit $?)" [ $? -eq 1 ]
cp -r "$TMP/n" "$TMP/cut"
for f in $(ls "$TMP"/cut/*.json | tail -n 3); do head -c 1000 "$f" >"$f.x" && mv "$f.x" "$f"; done
for fmt in text json csv prometheus; do
	"$ZCBENCH" trend --fail-on-regression 5 --format $fmt --out "$TMP/cut.$fmt" "$TMP/cut" 2>"$TMP/cut.$fmt.err"
	rc=$?
	check "the same 3 cut to 1000 bytes, --format $fmt --out: exit 2, not a pass (got $rc)" [ $rc -eq 2 ]
	check "$fmt: stderr names each of the 3 and says the gate cannot judge" bash -c \
		'[ "$(grep -c "left out .*night-01[0-2].json: .*not valid JSON" "$1")" -eq 3 ] &&
		 grep -q "the gate cannot judge the series: 3 files were left out" "$1"' _ "$TMP/cut.$fmt.err"
done
check "text: each file left out in the output" [ "$(grep -c '^left out .*night-01[0-2].json' "$TMP/cut.text")" -eq 3 ]
check "json: left_out lists the 3 with a reason" \
	jqe '[.left_out[] | select((.file | test("night-01[0-2].json$")) and (.reason | length > 0))] | length == 3' "$TMP/cut.json"
check "csv: a left_out row for each" [ "$(grep -c '^left_out,,,.*night-01[0-2].json,' "$TMP/cut.csv")" -eq 3 ]
check "prometheus: the count and a gauge per file" bash -c \
	'grep -qx "zcbench_trend_left_out_files 3" "$1" && [ "$(grep -c "^zcbench_trend_left_out{file=" "$1")" -eq 3 ]' _ "$TMP/cut.prometheus"
if command -v promtool >/dev/null; then
	check "prometheus: promtool reads it" promtool check metrics <"$TMP/cut.prometheus"
fi
"$ZCBENCH" trend --fail-on-regression 5 --pass-cant-tell "$TMP/cut" >/dev/null 2>&1
check "--pass-cant-tell does not pass what was left out (exit $?)" [ $? -eq 2 ]
"$ZCBENCH" trend "$TMP/cut" >/dev/null 2>"$TMP/nogate.err"
rc=$?
check "no gate: a reading (exit $rc), the files still said on stderr" \
	bash -c '[ "$1" -eq 0 ] && [ "$(grep -c "left out" "$2")" -eq 3 ]' _ $rc "$TMP/nogate.err"

# A bad file named among good nights (no step: the gate alone would pass or
# not tell): empty, a FIFO (never waited on), not a results file, a night
# without its date.
mkdir -p "$TMP/flat" && python3 tests/trend_series.py "$B" "$TMP/flat" 12 0.03 10 0 >/dev/null ||
	fail "trend_series.py"
: >"$TMP/empty.json"
mkfifo "$TMP/fifo.json"
printf '{"schema":"zcbench-noise","schema_version":"1.0","runs":[]}\n' >"$TMP/noise.json"
jq 'del(.meta.date)' "$TMP/n/night-001.json" >"$TMP/nodate.json"
for bad in empty fifo noise nodate; do
	timeout 60 "$ZCBENCH" trend --fail-on-regression 5 "$TMP/flat" "$TMP/$bad.json" >/dev/null 2>"$TMP/e"
	rc=$?
	check "gate with $bad.json named: exit 2 naming it (got $rc)" \
		bash -c '[ "$1" -eq 2 ] && grep -q "left out .*$2.json" "$3"' _ $rc $bad "$TMP/e"
done
# A run that failed in the newest night: its series cannot pass on the nights before.
cp -r "$TMP/flat" "$TMP/failed"
jq '(.runs[] | select(.key.proxy == "splice") | .status) = "error"' "$TMP/flat/night-012.json" \
	>"$TMP/failed/night-012.json"
"$ZCBENCH" trend --fail-on-regression 5 --json "$TMP/failed" >"$TMP/failed.json" 2>"$TMP/e"
rc=$?
check "a run failed in the newest night: exit 2 (got $rc)" [ $rc -eq 2 ]
check "stderr names its series and the night" grep -q 'splice.*its run was left out of night 12 (2026-01-12)' "$TMP/e"
check "json: newest.left_out_night on its series" \
	jqe '[.series[] | select(.newest.left_out_night != null) | .key] | length > 0 and all(test("splice"))' "$TMP/failed.json"
# Every reason listed, never cut; when none is left the error says so and why.
mkdir "$TMP/bad"
for i in $(seq 80); do printf '{\n' >"$TMP/bad/night-$i.json"; done
"$ZCBENCH" trend "$TMP/bad" >/dev/null 2>"$TMP/e"
rc=$?
check "80 unreadable files: exit 2 (got $rc)" [ $rc -eq 2 ]
check "each of the 80 named with why" [ "$(grep -c 'left out .*/night-[0-9]*.json: .*not valid JSON' "$TMP/e")" -eq 80 ]
check "the error says none was a results file" grep -q 'no results file among them (80 files' "$TMP/e"

# --- values no figure can be, a run twice -----------------------------------
# refused WHAT FILE WANT: compare, report and export each exit 2 and name
# the file and WANT (the key and why).
refused() {
	local what=$1 file=$2 want=$3 rc
	for cmd in "compare $B" "report" "export --format csv"; do
		# shellcheck disable=SC2086
		"$ZCBENCH" $cmd "$file" >"$TMP/o" 2>"$TMP/e"
		rc=$?
		check "$what: ${cmd%% *} exits 2 naming the file and key (got $rc: $(head -c 200 "$TMP/e"))" \
			bash -c '[ "$1" -eq 2 ] && grep -qF "$2" "$3" && grep -qF -- "$4" "$3"' _ $rc "$(basename "$file")" "$TMP/e" "$want"
	done
}
jq '.runs[0].samples[0].gbps_per_core = -8.55' "$B" >"$TMP/neg.json"
refused "a negative Gbit/s per core" "$TMP/neg.json" "runs[0].samples[0].gbps_per_core: -8.55 is not a figure"
jq '.runs[1].summary.gbps.median = 1e308' "$B" >"$TMP/huge.json"
refused "1e308 Gbit/s" "$TMP/huge.json" "runs[1].summary.gbps.median: 1e+308 is not a figure"
jq '.runs += [.runs[3]]' "$B" >"$TMP/twice.json"
refused "a run twice" "$TMP/twice.json" "runs[$(jq '.runs | length' "$B")]: the same run as runs[3]"
# Not seen before: any gated figure, any run, any sample, below 0.
for seed in 1 2 3; do
	python3 - "$B" "$TMP/r$seed.json" $seed <<'EOF' || fail "python3"
import json, random, sys
random.seed(int(sys.argv[3]))
d = json.load(open(sys.argv[1]))
run = random.choice([r for r in d["runs"] if r.get("samples")])
s = random.choice(run["samples"])
# A metric of the run (its summary names them) with a value in this sample.
k = random.choice([k for k, v in s.items() if k in run.get("summary", {})
                   and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0])
s[k] = -random.uniform(0.001, 1e6)
json.dump(d, open(sys.argv[2], "w"))
print(k, file=open(sys.argv[2] + ".key", "w"))
EOF
	"$ZCBENCH" report "$TMP/r$seed.json" >/dev/null 2>"$TMP/e"
	rc=$?
	k=$(cat "$TMP/r$seed.json.key")
	check "seed $seed: $k below 0 refused (exit $rc)" bash -c '[ "$1" -eq 2 ] && grep -q "$2: -" "$3"' _ $rc "$k" "$TMP/e"
done

# --- escape sequences from a file and from a file name ---------------------
jq --arg h "vm${ESC}[2J${ESC}]0;owned${BEL}"$'\r\nall good: 0 regressions' '.meta.hostname = $h' "$B" >"$TMP/esc.json"
E="$TMP/e${ESC}[31mvil"$'\n'"all good.json"
cp "$B" "$E"
"$ZCBENCH" compare "$B" "$TMP/esc.json" >"$TMP/c1" 2>&1
"$ZCBENCH" compare "$B" "$E" >"$TMP/c2" 2>&1
"$ZCBENCH" report "$TMP/esc.json" "$E" >"$TMP/r" 2>&1
"$ZCBENCH" report --mail "$TMP/esc.json" "$E" >"$TMP/m" 2>&1
"$ZCBENCH" report --json "$TMP/esc.json" >"$TMP/j" 2>&1
"$ZCBENCH" export --format prometheus "$TMP/esc.json" >"$TMP/p" 2>&1
"$ZCBENCH" export --format csv "$TMP/esc.json" >"$TMP/csv" 2>&1
"$ZCBENCH" report "$TMP/no${ESC}[31msuch"$'\n'"all good.json" >"$TMP/nf" 2>&1
"$ZCBENCH" trend "$TMP/n" "$E" >"$TMP/t" 2>&1
for o in c1 c2 r m j p csv nf t; do
	check "$o: no raw control character, no injected line" bash -c '! raw "$1"' _ "$TMP/$o" || cat -v "$TMP/$o" | head -n 5
done
check "compare shows the host escaped" grep -qF 'host vm\x1b[2J\x1b]0;owned\x07\x0d\x0aall good' "$TMP/c1"
check "compare shows the file name escaped" grep -qF 'e\x1b[31mvil\x0aall good.json' "$TMP/c2"
check "the mail names both escaped" bash -c 'grep -qF "vm\\x1b[2J" "$1" && grep -qF "e\\x1b[31mvil\\x0aall good.json" "$1"' _ "$TMP/m"
check "No such file: the name escaped" grep -qF 'no\x1b[31msuch\x0aall good.json: No such file' "$TMP/nf"
check "prometheus: the host label escaped" grep -qF 'host="vm\\x1b[2J' "$TMP/p"
jq '.meta["k\u001bey"] = 1' "$B" >"$TMP/key.json"
"$ZCBENCH" report "$TMP/key.json" >/dev/null 2>"$TMP/e"
check "a key with a control character: exit 2 naming it (got $?)" grep -qF 'meta: key "k\x1bey"' "$TMP/e"

# --- a file's state: never "running" when that cannot be told ----------------
jq '.status = "running" | .controller = {pid: 4242, start_ticks: 1, boot_id: "x", pid_ns: "pid:[1]"}
    | .meta.hostname = "far-away"' "$B" >"$TMP/far.json"
jq '.status = "running" | del(.controller)' "$B" >"$TMP/old.json"
"$ZCBENCH" report "$TMP/far.json" >"$TMP/far.txt" 2>&1
check "another host's running file reads unknown, naming pid and host" \
	grep -q '^  status unknown (written by pid 4242 on host far-away; .*another machine)' "$TMP/far.txt"
"$ZCBENCH" report --mail "$TMP/old.json" >"$TMP/old.txt" 2>&1
check "a file without a controller record reads unknown in the mail too" bash -c \
	"tr -s '\n ' ' ' <'$TMP/old.txt' | grep -q 'status unknown (written by an unknown pid .*schema before 1.8)'"

# --- output paths -------------------------------------------------------------
mkdir "$TMP/od"
# out_refused WHAT WANT CMD...: exit 2 with WANT on stderr, nothing written.
out_refused() {
	local what=$1 want=$2 rc
	shift 2
	timeout 60 "$@" >/dev/null 2>"$TMP/e"
	rc=$?
	check "$what: exit 2 (got $rc: $(head -c 200 "$TMP/e"))" bash -c '[ "$1" -eq 2 ] && grep -qF -- "$2" "$3"' _ $rc "$want" "$TMP/e"
}
out_refused "trend --out DIR/x.csv/" "ends in /" "$ZCBENCH" trend --format csv --out "$TMP/od/x.csv/" "$TMP/n"
out_refused "export --out /proc/self/comm" "cannot be written" "$ZCBENCH" export --format csv --out /proc/self/comm "$B"
cp "$B" "$TMP/victim.json"
out_refused "export --out its own input" "one of the files read" \
	"$ZCBENCH" export --format csv --out "$TMP/victim.json" "$TMP/victim.json"
check "the input is untouched" cmp -s "$B" "$TMP/victim.json"
ln -s victim.json "$TMP/alias.json"
out_refused "export --out a link to its input" "one of the files read" \
	"$ZCBENCH" export --format csv --out "$TMP/alias.json" "$TMP/victim.json"
cp "$TMP/n/night-012.json" "$TMP/keep.json"
out_refused "trend --out a night in its folder" "one of the files read" \
	"$ZCBENCH" trend --format csv --out "$TMP/n/night-012.json" "$TMP/n"
check "the night is untouched" cmp -s "$TMP/keep.json" "$TMP/n/night-012.json"
finish
