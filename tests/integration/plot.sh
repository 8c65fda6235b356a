#!/usr/bin/env bash
# zcbench plot on the stored fixtures: gnuplot draws every picture (PNG and
# SVG, non-empty, real PNG/SVG), the CSV behind them, and the page.
. "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot missing (make deps installs gnuplot-nox)"

"$ZCBENCH" plot --out "$TMP/out" results/fixtures/base.json results/fixtures/new.json \
	results/fixtures/emulated.json >"$TMP/log" 2>&1 ||
	{ cat "$TMP/log"; fail "plot exit"; }
for p in bars chunk before_after history; do
	[ -s "$TMP/out/$p.png" ] || fail "$p.png missing or empty"
	[ "$(head -c8 "$TMP/out/$p.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$p.png is not a PNG"
	grep -q '<svg' "$TMP/out/$p.svg" || fail "$p.svg is not SVG"
	[ -s "$TMP/out/$p.csv" ] || fail "$p.csv missing"
done
# Pictures carry real content, not a blank canvas: a drawn PNG of these
# plots compresses to well over 10 kB; an empty 1200x720 frame is ~5 kB.
for p in bars chunk history; do
	[ "$(stat -c %s "$TMP/out/$p.png")" -gt 10000 ] || fail "$p.png suspiciously small"
done
# bars.csv: one row per data path of the newest file (emulated.json: 13), 64k series.
[ "$(tail -n +2 "$TMP/out/bars.csv" | wc -l)" -eq 13 ] || fail "bars.csv rows"
# before/after: each native mode beside each of its after-modes (mode.h after_of):
# the four emulated modes stand for six natives (vmsplice-as-writev for vmsplice
# and vmsplice-gift, sendfile-as-copy for sendfile and splice-file).
[ "$(tail -n +2 "$TMP/out/before_after.csv" | wc -l)" -eq 6 ] || fail "before_after.csv rows"
grep -q '^"splice / splice-as-copy (proxy, 64k)",' "$TMP/out/before_after.csv" || fail "no splice / splice-as-copy pair"
head -1 "$TMP/out/bars.csv" | grep -q 'chunk 64k median,min,max' || fail "bars.csv header"
# The caption names the kernel and the host.
grep -q '6.18\|kernel' "$TMP/out/bars.svg" || fail "no kernel in caption"
grep -q 'host vm\|host ' "$TMP/out/bars.svg" || fail "no host in caption"
# history: 9 paths in all three files, 4 emulated ones in the newest only.
[ "$(grep -c '^1[0-9]*,' "$TMP/out/history.csv")" -eq 31 ] || fail "history.csv points"
grep -q '<img src="bars.png"' "$TMP/out/index.html" || fail "index.html: no bars image"
grep -q 'href="[^"]*results/fixtures/base.json"' "$TMP/out/index.html" || fail "index.html: no link"
# An unreadable file: exit 2, nothing half-drawn claimed.
echo '{' >"$TMP/bad.json"
"$ZCBENCH" plot --out "$TMP/out2" "$TMP/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
echo "plot: ok"
