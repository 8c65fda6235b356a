#!/usr/bin/env bash
# The run table a person reads fits the terminal (issue 24): at COLUMNS=100
# (what a terminal's width or, off one, the default gives) every line run
# prints is at most that wide, with the narrow columns (run, path, chunk, Gbps, Gbps per core with
# its range, DUT busy, status) and long cells cut with the mark, not
# wrapped; --wide prints the whole table as before. The results file is the
# same either way.
. "$(dirname "$0")/../lib.sh"
# A long run name and a long path (the cut cells), a proxy and a source.
only=(--only proxy-copy --only proxy-splice --only src-send --only src-vmsplice-as-writev --only proxy-splice-as-copy)
longest() { awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$1"; }

COLUMNS=100 $ZCBENCH run workloads/smoke.ini --out "$TMP/n" --progress=never "${only[@]}" >"$TMP/n.out" 2>"$TMP/n.err"
rc=$?
cat "$TMP/n.out"
[ "$rc" -le 1 ] && [ -n "$(result_in "$TMP/n")" ] || fail "run (exit $rc): $(tail -5 "$TMP/n.err")"
check "COLUMNS=100: no line wider than 100 ($(longest "$TMP/n.out"))" [ "$(longest "$TMP/n.out")" -le 100 ]
head=$(grep -m1 '^run ' "$TMP/n.out")
for col in run path Gbps 'Gbps/core \[min-max\]' DUTcores status; do
	check "narrow header has '$col'" grep -Eq "(^| )$col( |$)" <<<"$head"
done
# One chunk in every run: rather than cut a name, the column goes to a line
# above the table; else it is in the header.
check "the chunk is in the header or, one for every run, above it" \
	bash -c "grep -Eq '(^| )chunk( |\$)' <<<'$head' || grep -Eq '^every run: chunk [0-9]+[kM]?' '$TMP/n.out'"
for col in topo pipe us/KB 'sd%'; do
	check "narrow header leaves '$col' to --wide" bash -c "! grep -q ' $col ' <<<'$head'"
done
check "every run has a row" [ "$(grep -cE '^(proxy-copy|proxy-splice|src-send|src-vmsplice-as-writev|proxy-splice-as-copy) ' "$TMP/n.out")" -eq 5 ]
check "the headline is there" grep -q 'splice/copy proxy' "$TMP/n.out"

# A terminal of 80 columns: the long cells cut with the mark.
(unset COLUMNS; COLUMNS=80 $ZCBENCH run workloads/smoke.ini --out "$TMP/s" --progress=never \
	--only src-vmsplice-as-writev >"$TMP/s.out" 2>"$TMP/s.err")
cat "$TMP/s.out"
check "COLUMNS=80: table and headline lines at most 80" \
	[ "$(grep -v '^results: ' "$TMP/s.out" | awk 'length($0) > 80' | wc -l)" -eq 0 ]
check "COLUMNS=80: the long run name is cut with the mark" grep -q '^src-vmsp[a-z-]*~ ' "$TMP/s.out"

(unset COLUMNS; $ZCBENCH run workloads/smoke.ini --out "$TMP/w" --progress=never --wide \
	--only proxy-copy --only proxy-splice --only src-vmsplice-as-writev >"$TMP/w.out" 2>"$TMP/w.err")
cat "$TMP/w.out"
head=$(grep -m1 '^run ' "$TMP/w.out")
for col in topo 'source>proxy>sink' chunk pipe Gbps 'Gbps/core \[min-max\]' 'sd%' DUTcores us/KB status; do
	check "--wide header has '$col'" grep -Eq "(^| )$col( |$)" <<<"$head"
done
check "--wide: the whole run name" grep -q '^src-vmsplice-as-writev ' "$TMP/w.out"
check "--wide: headline with both Gbps per core" grep -Eq 'splice/copy proxy .* vs .* Gbps/core' "$TMP/w.out"
n=$(result_in "$TMP/n") w=$(result_in "$TMP/w")
shape='[.runs[0] | paths | map(tostring) | join(".")] | map(select(test("samples") | not)) | sort'
check "results file: the same keys narrow or wide" \
	[ "$(jq -c "$shape" "$n")" = "$(jq -c "$shape" "$w")" ]
finish
