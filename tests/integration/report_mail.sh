#!/usr/bin/env bash
# zcbench report --mail FILE [BASE] (issue 24): on every results fixture,
# alone and against a BASE, every line at most 72 columns, the kernel,
# fingerprint, machine and headline parts there, and a reproduce command
# the shell reads back as exactly the command line the file recorded; a bad
# file is refused (exit 2) with its name in the message.
. "$(dirname "$0")/../lib.sh"
base=results/fixtures/base.json
n=0
for f in results/fixtures/*.json; do
	for b in "" "$base"; do
		out="$TMP/mail.$n"
		n=$((n + 1))
		$ZCBENCH report --mail "$f" $b >"$out" 2>"$out.err" || { bad "$f ${b:-}: exit $?: $(cat "$out.err")"; continue; }
		w=$(awk '{ l = length($0); if (l > m) m = l } END { print m + 0 }' "$out")
		check "$f ${b:+against $b}: at most 72 columns ($w)" [ "$w" -le 72 ]
		for part in '^kernel: ' '^fingerprint: ' '^machine: ' '^network: ' '^Headline at each size: ' '^To reproduce'; do
			grep -q "$part" "$out" || bad "$f: no '$part' line"
		done
		[ -n "$b" ] && { grep -q '^base: ' "$out" && grep -q 'before (BASE)' "$out" || bad "$f: no BASE part"; }
		# The command as printed, run with printf in zcbench's place: the words.
		cmd=$(awk '/^  bench\/zcbench / { on = 1 } on { print; if ($0 !~ /\\$/) exit }' "$out")
		got=$(bash -c "$(sed '1s|^  bench/zcbench|printf "%s\\n"|' <<<"$cmd")")
		want=$(jq -r '.command | if .[0] == "zcbench" then .[1:] else . end | .[]' "$f")
		check "$f: the reproduce command is the recorded one" bash -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$want" "$got"
	done
done
$ZCBENCH report --mail results/fixtures/emulated.json >"$TMP/emu" 2>&1
check "the headline of the emulated fixture has intervals and answers" \
	grep -Eq '^  splice/copy proxy +this +64k/256k +[0-9.]+x \[[0-9.]+-[0-9.]+\] +(above 1|below 1|about 1|can.t tell)$' "$TMP/emu"
$ZCBENCH report --mail results/fixtures/new.json "$base" >"$TMP/ba" 2>&1
check "before-after rows and a verdict against BASE" grep -Eq '^verdict: +of [0-9]+ patched paths?, per core after: [0-9]+ slower by more' "$TMP/ba"
check "each before-after row has its interval and answer under it" \
	grep -Eq "^    (changed|unchanged within|can't tell)" "$TMP/ba"

# The fair question first (issue 29 item 4): each side at its best size
# before the sizes one by one, and both DUTs' busy with NOT SATURATED.
$ZCBENCH report --mail results/fixtures/bench.json >"$TMP/fair" 2>&1
b=$(grep -n '^Each side at its best size' "$TMP/fair" | cut -d: -f1)
h=$(grep -n '^Headline at each size' "$TMP/fair" | cut -d: -f1)
check "the best-size ratios come first (lines ${b:-none}, ${h:-none})" bash -c '[ -n "$1" ] && [ -n "$2" ] && [ "$1" -lt "$2" ]' _ "$b" "$h"
check "the best-size row names both sizes and its answer" \
	grep -Eq '^  splice/copy proxy +-/[0-9]+[kM] vs [0-9]+[kM]/- +[0-9.]+x \[[0-9.]+-[0-9.]+\] (above 1|below 1|about 1|can.t tell)$' "$TMP/fair"
check "an unsaturated DUT is said under its ratio" grep -Eq '^    DUT busy 0\.[0-8][0-9] / [0-9.?]+ of a core: NOT SATURATED' "$TMP/fair"

# Issue 29 item 7: every run's Gbit/s per core (samples and summaries)
# times 0.99, from another invocation: never "slower" in the mail.
B=results/fixtures/bench.json
jq '.invocation = "another" | .runs[] |= (.samples[] |= (if (.gbps_per_core | type) == "number"
	then .gbps_per_core *= 0.99 else . end) | .summary.gbps_per_core.median *= 0.99)' "$B" >"$TMP/wobble.json"
$ZCBENCH report --mail "$TMP/wobble.json" "$B" >"$TMP/wob" 2>&1
check "-1% everywhere: the mail's verdict counts 0 slower" \
	grep -Eq '^verdict: +of [0-9]+ patched paths, per core after: 0 slower by more' "$TMP/wob"
check "-1% everywhere: no row called changed" bash -c "! grep -q '^    changed' '$TMP/wob'"
# sendfile halved, from another invocation: the verdict names the path it
# counts, and says what two invocations, one a side, are held to.
jq '.invocation = "another" | .runs[] |= (if .name == "src-sendfile" then (.samples[] |= (if (.gbps_per_core | type)
	== "number" then .gbps_per_core /= 2 else . end) | .summary.gbps_per_core.median /= 2) else . end)' "$B" >"$TMP/half.json"
$ZCBENCH report --mail "$TMP/half.json" "$B" >"$TMP/half" 2>&1
check "sendfile halved: the verdict names it ($(grep -A3 '^verdict:' "$TMP/half" | tr -s ' \n' ' '))" \
	bash -c "grep -A3 '^verdict:' '$TMP/half' | tr -s ' \n' ' ' | grep -q '1 slower by more than 5% (sendfile 64k/'"
check "sendfile halved: the stated spread between invocations said" \
	bash -c "grep -A6 '^verdict:' '$TMP/half' | tr -s ' \n' ' ' | grep -q 'held to a stated spread between invocations of 12%'"

$ZCBENCH report --mail "$TMP/missing.json" >/dev/null 2>"$TMP/e1"
rc=$?
check "a missing file: exit 2 ($rc), named ($(cat "$TMP/e1"))" bash -c '[ "$1" -eq 2 ] && grep -q "$2" "$3"' _ "$rc" "$TMP/missing.json" "$TMP/e1"
echo '{"schema": "something else"}' >"$TMP/other.json"
$ZCBENCH report --mail results/fixtures/new.json "$TMP/other.json" >/dev/null 2>"$TMP/e2"
rc=$?
check "a BASE that is no results file: exit 2 ($rc), named" bash -c '[ "$1" -eq 2 ] && grep -q "$2" "$3"' _ "$rc" "$TMP/other.json" "$TMP/e2"
printf '{"schema": ' >"$TMP/cut.json"
$ZCBENCH report --mail "$TMP/cut.json" >/dev/null 2>"$TMP/e3"
rc=$?
check "a cut JSON file: exit 2 ($rc), named" bash -c '[ "$1" -eq 2 ] && grep -q "$2" "$3"' _ "$rc" "$TMP/cut.json" "$TMP/e3"
$ZCBENCH report --mail "$base" "$base" "$base" >/dev/null 2>"$TMP/e4"
check "three files: refused (exit $?)" grep -q 'at most one BASE' "$TMP/e4"
finish
