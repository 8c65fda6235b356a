#!/usr/bin/env bash
# The dashboard page in headless Chromium, from file:// with no network:
# the headline table and every image render, no console message, and a
# screenshot comes out.
set -u
cd "$(dirname "$0")/../.."
Z=${ZCBENCH:-bench/zcbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot >/dev/null || { echo "skip: gnuplot missing (make deps installs gnuplot-nox)"; exit 77; }
command -v chromium >/dev/null || { echo "skip: chromium missing (make deps installs it)"; exit 77; }

"$Z" plot --out "$tmp/out" results/fixtures/base.json results/fixtures/new.json \
	results/fixtures/emulated.json >/dev/null 2>&1 ||
	fail "plot exit"
url="file://$tmp/out/index.html"
browse() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --disable-extensions \
		--user-data-dir="$(mktemp -d -p "$tmp")" "$@"
}
browse --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$url" \
	>"$tmp/dom.html" 2>"$tmp/console.log"
rc=$?
if [ $rc -ne 0 ] && ! [ -s "$tmp/dom.html" ]; then
	echo "skip: chromium cannot run here (exit $rc): $(grep -v dbus "$tmp/console.log" | tail -n 2)"
	exit 77
fi
# Page messages appear as ...:CONSOLE...; the page logs nothing when healthy.
if grep -q ':CONSOLE' "$tmp/console.log"; then
	grep ':CONSOLE' "$tmp/console.log"
	fail "console messages"
fi
grep -q '<table id="headline">' "$tmp/dom.html" || fail "no headline table"
grep -Eq '<td>splice/copy proxy</td><td class="t">before \(measured\)</td>.*<td>[0-9.]+×</td>' \
	"$tmp/dom.html" || fail "no splice/copy row"
grep -q '<td class="t">after (emulated)</td>' "$tmp/dom.html" || fail "no emulated after row"
[ "$(grep -c '<li><a href=' "$tmp/dom.html")" -eq 3 ] || fail "not 3 results links"
# The page's own script counts images that decoded (naturalWidth > 0).
grep -Eq 'data-images-loaded="4/4"' "$tmp/dom.html" ||
	fail "images not all loaded: $(grep -o 'data-images-loaded="[^"]*"' "$tmp/dom.html")"
browse --window-size=1300,2400 --screenshot="$tmp/shot.png" "$url" >/dev/null 2>&1
[ -s "$tmp/shot.png" ] || fail "no screenshot"
[ "$(head -c8 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot not PNG"
[ "$(stat -c %s "$tmp/shot.png")" -gt 50000 ] || fail "screenshot looks blank"
echo "dashboard: ok"
