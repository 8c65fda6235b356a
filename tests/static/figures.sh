#!/usr/bin/env bash
# Every derived figure in one place (issue 33 item 3): Gbit/s, busy cores,
# per core, busy fraction and service demand are metrics/figures.h's, so
# bytes turned into bits per second by hand (`* 8 /`, or a division or
# product by 1e9 on a line about bytes, bits or Gbit/s) appears in
# bench/metrics/ only. What else matches is listed below with its reason; an
# entry that no longer matches anything fails too, so the list stays true.
. "$(dirname "$0")/../lib.sh"

# flagged FILE...: "file:line:text" of each code line (not a comment) that
# does such arithmetic.
flagged() {
	grep -nHE '\* *8 */|([*/] *(1e9|1e-9|8e-9)\b|\b(1e9|1e-9|8e-9) *[*/])' "$@" |
		grep -vE '^[^:]+:[0-9]+:\s*(\*|//|/\*)' |
		grep -iE '\* *8 */|bytes|bits|gbps|gbit'
}

# file|ERE of the line|why it is not a figure computed again
exceptions='
bench/export/fmt_prometheus.c|1e9 / 8|Prometheus wants base units: a figure already derived, Gbit/s, scaled to bytes per second
bench/results/slices.c|cost / 1e9|cost is CPU nanoseconds: a slice'"'"'s bytes per CPU second, only ever compared with its neighbour'"'"'s
bench/role/slices.c|llround\(t1 \* 1e9\)|seconds to nanoseconds of a slice'"'"'s timestamps, beside its byte count
'

hits=$(flagged $(git ls-files 'bench/*.c' 'bench/*.h' | grep -v '^bench/metrics/'))
left=$hits
while IFS='|' read -r file re why; do
	[ -n "$file" ] || continue
	mine=$(grep -E "^$file:[0-9]+:.*$re" <<<"$hits")
	check "listed: $file ($why) still matches" [ -n "$mine" ]
	left=$(grep -vE "^$file:[0-9]+:.*$re" <<<"$left")
done <<<"$exceptions"
check "no Gbit/s or bits-per-second arithmetic outside bench/metrics/ but the listed ${left:+($left)}" \
	[ -z "$left" ]

# The pattern finds what it forbids, and leaves alone what it must.
printf '\tdouble g = b * 8 / s / 1e9;\n\tdouble h = bytes / secs / 1e9;\n' >"$TMP/bad.c"
printf '\tif (n < 1e9)\n\t/* bytes * 8 / 1e9 */\n\tns = t * 1e9;\n\tbuf[N * 8];\n' >"$TMP/good.c"
check "the pattern finds bits per second by hand" [ "$(flagged "$TMP/bad.c" | wc -l)" -eq 2 ]
check "the pattern leaves bounds, comments, plain unit changes alone" [ -z "$(flagged "$TMP/good.c")" ]
finish
