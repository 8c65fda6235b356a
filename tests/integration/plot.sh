#!/usr/bin/env bash
# zcbench plot on the stored fixtures: gnuplot draws every picture (PNG and
# SVG, non-empty, real PNG/SVG), the CSV behind them, and the page.
set -u
cd "$(dirname "$0")/../.."
Z=${ZCBENCH:-bench/zcbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot >/dev/null || { echo "skip: gnuplot missing (make deps installs gnuplot-nox)"; exit 77; }

"$Z" plot --out "$tmp/out" results/fixtures/base.json results/fixtures/new.json \
	results/fixtures/emulated.json >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "plot exit"; }
for p in bars chunk before_after history; do
	[ -s "$tmp/out/$p.png" ] || fail "$p.png missing or empty"
	[ "$(head -c8 "$tmp/out/$p.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$p.png is not a PNG"
	grep -q '<svg' "$tmp/out/$p.svg" || fail "$p.svg is not SVG"
	[ -s "$tmp/out/$p.csv" ] || fail "$p.csv missing"
done
# Pictures carry real content, not a blank canvas: a drawn PNG of these
# plots compresses to well over 10 kB; an empty 1200x720 frame is ~5 kB.
for p in bars chunk history; do
	[ "$(stat -c %s "$tmp/out/$p.png")" -gt 10000 ] || fail "$p.png suspiciously small"
done
# bars.csv: one row per data path of the newest file (emulated.json: 13), 64k series.
[ "$(tail -n +2 "$tmp/out/bars.csv" | wc -l)" -eq 13 ] || fail "bars.csv rows"
# before/after: each native mode beside each of its after-modes (mode.h after_of):
# the four emulated modes stand for six natives (vmsplice-as-writev for vmsplice
# and vmsplice-gift, sendfile-as-copy for sendfile and splice-file).
[ "$(tail -n +2 "$tmp/out/before_after.csv" | wc -l)" -eq 6 ] || fail "before_after.csv rows"
grep -q '^"splice / splice-as-copy (proxy, 64k)",' "$tmp/out/before_after.csv" || fail "no splice / splice-as-copy pair"
head -1 "$tmp/out/bars.csv" | grep -q 'chunk 64k median,min,max' || fail "bars.csv header"
# The caption names the kernel and the host.
grep -q '6.18\|kernel' "$tmp/out/bars.svg" || fail "no kernel in caption"
grep -q 'host vm\|host ' "$tmp/out/bars.svg" || fail "no host in caption"
# history: 9 paths in all three files, 4 emulated ones in the newest only.
[ "$(grep -c '^1[0-9]*,' "$tmp/out/history.csv")" -eq 31 ] || fail "history.csv points"
grep -q '<img src="bars.png"' "$tmp/out/index.html" || fail "index.html: no bars image"
grep -q 'href="[^"]*results/fixtures/base.json"' "$tmp/out/index.html" || fail "index.html: no link"
# An unreadable file: exit 2, nothing half-drawn claimed.
echo '{' >"$tmp/bad.json"
"$Z" plot --out "$tmp/out2" "$tmp/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
echo "plot: ok"
