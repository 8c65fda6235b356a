#!/usr/bin/env bash
# The dashboard page in headless Chromium, from file:// with no network:
# the headline table (with each interval's verdict against 1.0) and every
# image render, the profile fixture's pictures and flame graphs too, the
# live fixture's intervals, no
# console message, and a screenshot comes out.
. "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot missing (make deps installs gnuplot-nox)"
command -v chromium >/dev/null || skip "chromium missing (make deps installs it)"

"$ZCBENCH" plot --out "$TMP/out" results/fixtures/base.json results/fixtures/new.json \
	results/fixtures/emulated.json >/dev/null 2>&1 ||
	fail "plot exit"
url="file://$TMP/out/index.html"
# The fair question first (issue 29 item 4), from make bench's file: each
# side at its best size, before the sizes one by one, and a DUT that waited
# for its peers said to be not saturated.
"$ZCBENCH" plot --out "$TMP/bench" results/fixtures/bench.json >/dev/null 2>&1 || fail "plot exit (bench)"
b=$(grep -n '<table id="best">' "$TMP/bench/index.html" | cut -d: -f1)
h=$(grep -n '<table id="headline">' "$TMP/bench/index.html" | cut -d: -f1)
[ -n "$b" ] && [ -n "$h" ] && [ "$b" -lt "$h" ] || fail "best-size table not before the headline (${b:-none}, ${h:-none})"
grep -Eq '<td class="below">0\.[0-8][0-9] not saturated</td>' "$TMP/bench/index.html" ||
	fail "an unsaturated DUT is not said"
browse() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --disable-extensions \
		--user-data-dir="$(mktemp -d -p "$TMP")" "$@"
}
browse --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$url" \
	>"$TMP/dom.html" 2>"$TMP/console.log"
rc=$?
if [ $rc -ne 0 ] && ! [ -s "$TMP/dom.html" ]; then
	skip "chromium cannot run here (exit $rc): $(grep -v dbus "$TMP/console.log" | tail -n 2)"
fi
# Page messages appear as ...:CONSOLE...; the page logs nothing when healthy.
if grep -q ':CONSOLE' "$TMP/console.log"; then
	grep ':CONSOLE' "$TMP/console.log"
	fail "console messages"
fi
grep -q '<table id="headline">' "$TMP/dom.html" || fail "no headline table"
grep -Eq '<td>splice/copy proxy</td><td class="t">before \(measured\)</td>.*<td>[0-9.]+×</td>' \
	"$TMP/dom.html" || fail "no splice/copy row"
grep -q '<td class="t">after (emulated)</td>' "$TMP/dom.html" || fail "no emulated after row"
[ "$(grep -c '<li><a href=' "$TMP/dom.html")" -eq 3 ] || fail "not 3 results links"
# The page's own script counts images that decoded (naturalWidth > 0):
# bars, core, ratio, before/after, history (one chunk size: no chunk plot;
# no workers sweep: no scale picture).
grep -Eq 'data-images-loaded="5/5"' "$TMP/dom.html" ||
	fail "images not all loaded: $(grep -o 'data-images-loaded="[^"]*"' "$TMP/dom.html")"
for p in core ratio; do
	grep -q "<img src=\"$p.png\"" "$TMP/dom.html" || fail "no $p picture on the page"
done
# Beside each ratio's verdict, what it rests on: n, then each side's DUT
# busy (issue 32); in the best-size table too.
grep -Eq '<td class="t (same|above|below|unknown)">[^<]*</td><td>[0-9]+/[0-9]+</td><td( class="below")?>([0-9.]+|-)' \
	"$TMP/dom.html" || fail "headline: no n and DUT busy beside the verdict"
grep -Eq '<td class="t (same|above|below|unknown)">[^<]*</td><td>[0-9]+</td><td( class="below")?>[0-9.]+' \
	"$TMP/bench/index.html" || fail "best-size table: no n and DUT busy beside the verdict"
# The page embeds exactly the pictures drawn, and names the ones not drawn.
drawn=$(cd "$TMP/out" && ls *.png | sort | tr '\n' ' ')
shown=$(grep -o '<img src="[^"]*"' "$TMP/out/index.html" | sed 's/<img src="//; s/"//' | sort | tr '\n' ' ')
[ "$drawn" = "$shown" ] || fail "page pictures ($shown) are not the drawn ones ($drawn)"
grep -q '<li>scale: ' "$TMP/out/index.html" || fail "the page does not say scale was not drawn"
# Each interval says what it says against 1.0+-5%: three answers.
grep -Eq '<td class="t (same|above|below|unknown)">(above 1.05|below 0.95|within 0.95-1.05|can.t tell)</td>' \
	"$TMP/dom.html" || fail "ratio table: no verdict against 1.0"
grep -q 'id="provenance">unknown (dirty tree)<' "$TMP/dom.html" || fail "provenance not the results file's"
# The profile fixture: every picture (chunk, profile and scale too), the profiles
# table, and a flame graph that renders as an SVG document in the browser.
"$ZCBENCH" plot --out "$TMP/prof" results/fixtures/profile.json >/dev/null 2>&1 || fail "plot exit (profile)"
browse --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$TMP/prof/index.html" \
	>"$TMP/pdom.html" 2>"$TMP/pconsole.log"
grep -q ':CONSOLE' "$TMP/pconsole.log" && { grep ':CONSOLE' "$TMP/pconsole.log"; fail "console messages (profile)"; }
# bars, before/after, chunk, core, profile, ratio, and sweep_chunk (issue
# 21: the fixture has splice/copy at two chunk sizes); no history (one
# file) nor scale (no workers sweep): pictures without data are not drawn.
[ -s "$TMP/prof/sweep_chunk.png" ] || fail "profile page: no sweep_chunk.png for two chunk sizes"
grep -Eq 'data-images-loaded="7/7"' "$TMP/pdom.html" ||
	fail "profile page: images not all loaded: $(grep -o 'data-images-loaded="[^"]*"' "$TMP/pdom.html")"
grep -q '<table id="profiles">' "$TMP/pdom.html" || fail "no profiles table"
[ "$(grep -o 'class="flame" href="flame-[0-9]*.svg"' "$TMP/pdom.html" | wc -l)" -eq 2 ] || fail "not 2 flame graph links"
browse --virtual-time-budget=3000 --dump-dom "file://$TMP/prof/flame-0.svg" >"$TMP/flame.dom" 2>/dev/null
[ "$(grep -o '<rect' "$TMP/flame.dom" | wc -l)" -gt 20 ] || fail "flame graph does not render"
grep -q '<title>[^<]*copy[^<]*samples' "$TMP/flame.dom" || fail "flame graph: no copy frame with its samples"
# A run's live intervals (zcbench run --interval): their time series on the page.
"$ZCBENCH" plot --out "$TMP/live" results/fixtures/live.json >/dev/null 2>&1 || fail "plot exit (live)"
browse --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$TMP/live/index.html" \
	>"$TMP/ldom.html" 2>"$TMP/lconsole.log"
grep -q ':CONSOLE' "$TMP/lconsole.log" && { grep ':CONSOLE' "$TMP/lconsole.log"; fail "console messages (live)"; }
grep -q '<img src="intervals.png"' "$TMP/ldom.html" || fail "no intervals picture on the page"
# bars, core, ratio and intervals: one file of one chunk size and no
# emulated run has no chunk, history, before/after or scale picture.
grep -Eq 'data-images-loaded="4/4"' "$TMP/ldom.html" ||
	fail "live page: images not all loaded: $(grep -o 'data-images-loaded="[^"]*"' "$TMP/ldom.html")"
[ "$(grep -c '^$' "$TMP/live/intervals.csv")" -ge 4 ] || fail "intervals.csv: not a line per repetition"
grep -q '<img src="intervals.png"' "$TMP/dom.html" && fail "intervals picture drawn for files without intervals"
browse --window-size=1300,2400 --screenshot="$TMP/shot.png" "$url" >/dev/null 2>&1
[ -s "$TMP/shot.png" ] || fail "no screenshot"
[ "$(head -c8 "$TMP/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot not PNG"
[ "$(stat -c %s "$TMP/shot.png")" -gt 50000 ] || fail "screenshot looks blank"
echo "dashboard: ok"
