#!/usr/bin/env bash
# zcbench scale and size on a hand-made curve with known answers
# (results/fixtures/scale.json: copy 10/18/32 Gbit/s and splice 20/36/64 at
# 1/2/4 workers, Gbit/s per core 10/9/8 and 20/18/16, ranges +-0.5..1):
# interpolation between points, the first point's rate below it, the largest
# point's rate held (and labelled extrapolated) past it, the interval from
# the repetitions' extremes, and what splice saves in cores.
. "$(dirname "$0")/../lib.sh"
F=results/fixtures/scale.json
"$ZCBENCH" size --target 5G,25G,100G --json "$F" >"$TMP/s.json" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "size --json exit"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.005 && d > -0.005) }'; }
got() { jq -r "$1" "$TMP/s.json"; }
c='.curves[] | select(.mode == "copy") | .sizes'
s='.curves[] | select(.mode == "splice") | .sizes'
check "copy at 5G: below the first point, 5/10 = 0.50" near "$(got "$c[0].cores")" 0.5
check "copy at 25G: rate 9 + (25-18)/(32-18) * (8-9) = 8.5, 25/8.5 = 2.94" near "$(got "$c[1].cores")" 2.9412
check "splice at 25G: rate 20 + 5/16 * (18-20) = 19.375, 1.29" near "$(got "$s[1].cores")" 1.2903
check "copy at 100G: 100/8 = 12.50, extrapolated" [ "$(got "$c[2].cores"),$(got "$c[2].extrapolated")" = "12.5,true" ]
check "copy at 100G interval: 100/8.5, 100/7.5" near "$(got "$c[2].low")" 11.7647
near "$(got "$c[2].high")" 13.3333 || bad "copy at 100G high"
check "interpolated points are not extrapolated" [ "$(got "$c[1].extrapolated")" = false ]
p='.pairs[] | select(.mode == "splice" and .vs == "copy" and .target_gbps == 100)'
check "splice saves 12.5 - 6.25 = 6.25 cores at 100G" near "$(got "$p.saves_cores")" 6.25
check "its interval: 11.76 - 6.67, 13.33 - 5.88" near "$(got "$p.saves_low")" 5.0980
check "the sentence" grep -q '"splice saves 6.2 cores \[5.1, 7.5\] at 100 Gbit/s over copy' "$TMP/s.json"
# The modes swapped: splice costs what it saved, its interval in the same sign.
jq '.runs |= map(.key.proxy |= (if . == "copy" then "splice" elif . == "splice" then "copy" else . end))' \
	"$F" >"$TMP/swap.json"
"$ZCBENCH" size --target 100G "$TMP/swap.json" >"$TMP/swap.txt" || fail "size (swapped) exit"
check "a cost reads with its own bounds" grep -q 'splice costs 6.2 cores \[5.1, 7.5\] at 100 Gbit/s' "$TMP/swap.txt"
"$ZCBENCH" size --target 100G "$F" >"$TMP/t.txt" || fail "size table exit"
check "table: extrapolated mark" grep -q '12.50 \[11.76, 13.33\]\*' "$TMP/t.txt"
"$ZCBENCH" scale "$F" >"$TMP/scale.txt" || fail "scale exit"
check "scale: efficiency 32 / (4 x 10) = 0.80" grep -Eq '^ +4 +4\.00 .* 0\.80$' "$TMP/scale.txt"
"$ZCBENCH" size --target fast "$F" >/dev/null 2>&1; check "a bad --target: exit 2" [ $? -eq 2 ]
finish
