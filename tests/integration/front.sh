#!/usr/bin/env bash
# The front door (issue 32): list and keys as JSON (their schemas in
# results/README.md), one spelling of flags with the old one still read,
# durations with units and percents with or without %, zcbench help CMD,
# and exit 2 on every bad command line tried here. Nothing here runs a
# benchmark: every command either prints or refuses before it starts.
. "$(dirname "$0")/../lib.sh"

# --- zcbench list --json ---
$ZCBENCH list --json >"$TMP/list.json" || fail "list --json exit $?"
check "list --json is JSON, schema zcbench-list 1.0" jqe '.schema == "zcbench-list" and .schema_version == "1.0"' "$TMP/list.json"
n_text=$($ZCBENCH list --names | wc -l)
check "list --json has every mode list --names has ($n_text)" \
	jqe --argjson n "$n_text" '.modes | length == $n' "$TMP/list.json"
check "every mode has name, role, summary, flags, options, availability" jqe '.modes | all(
	(.name | type == "string") and (.role | IN("source", "proxy", "sink")) and
	(.summary | type == "string") and (.flags | type == "array") and
	(.options | type == "array") and (.available | type == "boolean") and
	(if .available then .unavailable_why == null else (.unavailable_why | type == "string") end) and
	(.after_modes | type == "array") and (.after_mode_of | type == "array"))' "$TMP/list.json"
check "send is a source mode, splice a proxy mode" jqe '
	(.modes[] | select(.name == "send") | .role == "source") and
	(.modes[] | select(.name == "splice") | .role == "proxy")' "$TMP/list.json"
check "vmsplice's headline is against send, and vmsplice-as-writev is its after-mode" jqe '
	.modes[] | select(.name == "vmsplice") | .headline_vs == "send" and
	(.after_modes | index("vmsplice-as-writev") != null)' "$TMP/list.json"
check "a mode option has key, type, default, bounds and help" jqe '
	[.modes[].options[]] | length > 0 and all((.key | type == "string") and
	(.type | IN("integer", "size", "number")) and (.default | type == "string") and
	(.min | type == "number") and (.max | type == "number") and (.help | length > 0))' \
	"$TMP/list.json"
# the text and the JSON agree on availability
if unav=$(jq -r '.modes[] | select(.available | not) | .name' "$TMP/list.json") && [ -n "$unav" ]; then
	m=$(head -1 <<<"$unav")
	check "an unavailable mode ($m) says so in the text too" \
		bash -c "COLUMNS=1000 $ZCBENCH list | grep -A1 -E '^  $m ' | grep -q unavailable"
fi

# A mode's line is one line at any width (cut with ~, never wrapped), so that
# "unavailable:" stays right under it (scripts read it with grep -A1:
# peers.sh, uring.sh, bench-peers.sh).
for cols in 80 100; do
	names=$(COLUMNS=$cols $ZCBENCH list | awk -v n="$($ZCBENCH list --names | tr '\n' ' ')" '
		BEGIN { split(n, v, " "); for (i in v) m[v[i]] = 1 }
		prev != "" && match($0, /^ +/) && RLENGTH >= 20 &&
			!/^ +(unavailable|headline|after-mode|option|unverified|[a-z_]+: not used)/ { print prev }
		{ prev = ""; if ($1 in m && /^  [^ ]/) prev = $1 }')
	check "COLUMNS=$cols: no mode's line wraps (wrapped: ${names:-none})" [ -z "$names" ]
done
PATH=/nonexistent "$(cd "$(dirname "$ZCBENCH")" && pwd)/$(basename "$ZCBENCH")" list >"$TMP/nopath" 2>&1
check "no haproxy in PATH: unavailable: right under haproxy-splice's line" \
	bash -c "grep -A1 '^  haproxy-splice ' '$TMP/nopath' | grep -q 'unavailable: haproxy not installed'"

# --- zcbench keys --json ---
$ZCBENCH keys --json >"$TMP/keys.json" || fail "keys --json exit $?"
check "keys --json is JSON, schema zcbench-keys 1.0" jqe '.schema == "zcbench-keys" and .schema_version == "1.0"' "$TMP/keys.json"
nhelp=$(COLUMNS=1000 $ZCBENCH keys | awk '/^workload keys/ { on = 1; next } on && /^  --/ { n++ } on && /^mode options/ { exit } END { print n + 0 }')
check "every workload key of keys (text: $nhelp) is in the JSON" \
	jqe --argjson n "$nhelp" '.workload_keys | length == $n and $n > 40' "$TMP/keys.json"
check "each workload key: key, --flag with dashes, type, default, unit, bounds, help, sections" jqe '
	.workload_keys | all((.key | type == "string") and (.flag | startswith("--")) and
	(.flag | contains("_") | not) and
	(.type | IN("size", "number", "integer", "bool", "text", "texts", "choice")) and
	(.unit == null or (.unit | IN("bytes", "s", "ms", "%"))) and (.help | length > 0) and
	(.sections == ["workload", "run NAME"]))' "$TMP/keys.json"
check "chunk: a size list in bytes, default 64k" jqe '.workload_keys[] | select(.key == "chunk") |
	.type == "size" and .list and .unit == "bytes" and .default == "64k"' "$TMP/keys.json"
check "duration in seconds, default 4, 0.05..86400" jqe '.workload_keys[] |
	select(.key == "duration") | .unit == "s" and .default == "4" and .min == 0.05 and .max == 86400' \
	"$TMP/keys.json"
check "pipe_size keeps its key and has the flag --pipe-size" jqe '.workload_keys[] |
	select(.key == "pipe_size") | .flag == "--pipe-size"' "$TMP/keys.json"
check "topology's choices" jqe '.workload_keys[] | select(.key == "topology") |
	.choices == ["proxy", "direct"]' "$TMP/keys.json"
check "mode options name their mode" jqe '.mode_options | length > 0 and
	all(.mode | type == "string")' "$TMP/keys.json"
check "host keys: name in [host] for every transport; a netns key names its transport" jqe '
	(.host_keys[] | select(.key == "name") | .sections == ["host"] and .transport == null) and
	([.host_keys[] | select(.transport == "netns")] | length > 0)' "$TMP/keys.json"

# --- one spelling: help shows dashes, both spellings are read ---
$ZCBENCH run --help >"$TMP/run.help"
check "run --help spells --pipe-size with a dash" grep -q -- '--pipe-size SIZE' "$TMP/run.help"
check "run --help has no flag with an underscore" \
	bash -c "! grep -Eo -- '--[a-z0-9]+_[a-z0-9_]+' '$TMP/run.help' | grep -q ."
# An unknown flag after a good one is refused: the good one was read (exit 2
# names the later flag, not the first).
for spelling in --pipe-size=1M --pipe_size=1M --exec-source=/bin/true --exec_source=/bin/true; do
	$ZCBENCH run "$spelling" --no-such-flag >"$TMP/o" 2>&1
	rc=$?
	check "$spelling is read (the next, unknown flag is what exit $rc names)" \
		bash -c "[ $rc -eq 2 ] && grep -q -- '--no-such-flag: unknown option' '$TMP/o'"
done

# --- durations and percents ---
for d in 2s 500ms 1m 2; do
	$ZCBENCH run --duration "$d" --no-such-flag >"$TMP/o" 2>&1
	check "--duration $d is a duration" grep -q -- '--no-such-flag: unknown' "$TMP/o"
done
$ZCBENCH run --duration 2x >"$TMP/o" 2>&1
rc=$?
check "--duration 2x: exit 2 (got $rc) and says what a duration is" \
	bash -c "[ $rc -eq 2 ] && grep -q \"'2x' is not a duration (examples: 2, 2s, 500ms, 1m)\" '$TMP/o'"
for p in 3 3%; do
	$ZCBENCH run --ci-target "$p" --no-such-flag >"$TMP/o" 2>&1
	check "--ci-target $p is a percent" grep -q -- '--no-such-flag: unknown' "$TMP/o"
done
for p in 5 5%; do
	$ZCBENCH compare --fail-on-regression "$p" >"$TMP/o" 2>&1
	check "compare --fail-on-regression $p is a percent" bash -c "! grep -q 'not a' '$TMP/o'"
	$ZCBENCH trend --fail-on-regression "$p" --threshold "$p" >"$TMP/o" 2>&1
	check "trend --fail-on-regression $p --threshold $p are percents" bash -c "! grep -q 'not a' '$TMP/o'"
done
$ZCBENCH compare --fail-on-regression 5%% a b >"$TMP/o" 2>&1
rc=$?
check "--fail-on-regression 5%%: exit 2 (got $rc), not a percentage" \
	bash -c "[ $rc -eq 2 ] && grep -q 'not a percentage' '$TMP/o'"

# --- zcbench help CMD is zcbench CMD --help ---
for c in run compare keys; do
	check "zcbench help $c is zcbench $c --help" cmp -s <($ZCBENCH help "$c") <($ZCBENCH "$c" --help)
done
$ZCBENCH help no-such >/dev/null 2>&1
check "zcbench help no-such: exit 2" [ $? -eq 2 ]

# --- bad usage exits 2 ---
F=results/fixtures
usage=(
	"run --no-such-flag" "list extra" "keys --bogus" "completion zsh" "man --x"
	"report /nonexistent.json" "export --format csv --out /nonexistent/x.csv $F/bench.json"
	"plot --out /etc/passwd/x $F/bench.json" "profile --folded /nonexistent"
	"run --out /etc/passwd/x" "compare $F/bench.json" "help run extra"
)
for u in "${usage[@]}"; do
	# shellcheck disable=SC2086
	timeout 30 $ZCBENCH $u >/dev/null 2>&1
	rc=$?
	check "zcbench $u: exit 2 (got $rc)" [ "$rc" -eq 2 ]
done
finish
