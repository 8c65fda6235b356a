#!/usr/bin/env bash
# The dashboard page in headless Chromium, from file:// with no network:
# the headline table and every image render, no console message, and a
# screenshot comes out.
. "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot missing (make deps installs gnuplot-nox)"
command -v chromium >/dev/null || skip "chromium missing (make deps installs it)"

"$ZCBENCH" plot --out "$TMP/out" results/fixtures/base.json results/fixtures/new.json \
	results/fixtures/emulated.json >/dev/null 2>&1 ||
	fail "plot exit"
url="file://$TMP/out/index.html"
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
# The page's own script counts images that decoded (naturalWidth > 0).
# Every figure of the page (dashboard.c's list: five now, scale included).
grep -Eq 'data-images-loaded="([5-9]|[1-9][0-9])/\1"' "$TMP/dom.html" ||
	fail "images not all loaded: $(grep -o 'data-images-loaded="[^"]*"' "$TMP/dom.html")"
browse --window-size=1300,2400 --screenshot="$TMP/shot.png" "$url" >/dev/null 2>&1
[ -s "$TMP/shot.png" ] || fail "no screenshot"
[ "$(head -c8 "$TMP/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot not PNG"
[ "$(stat -c %s "$TMP/shot.png")" -gt 50000 ] || fail "screenshot looks blank"
echo "dashboard: ok"
