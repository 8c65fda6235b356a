#!/usr/bin/env bash
# zcbench plot on the stored fixtures: gnuplot draws every picture (PNG and
# SVG, non-empty, real PNG/SVG), the CSV behind them, and the page; the
# pictures of issue 15 (core, ratio, profile, flame graphs), the history
# split by host, provenance from the results file, no chunk plot
# with one chunk size, the sweep pictures only through two sizes or more,
# styles that stay apart past 12 series; and issue 32: no picture without
# data (nor on the page, and said why), y axes past the largest whisker,
# sizes never joined by lines, no two series of a frame in one style, and
# make plots' own dependencies.
. "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot missing (make deps installs gnuplot-nox)"
command -v python3 >/dev/null || skip "python3 missing (make deps)"
F=results/fixtures
# Sizes are the sizes run: points with their bars, never a line from one
# size to the next (a slanted segment in a series; bars and their caps are
# upright or level): chunk, the sweeps, rr_crossover.
no_lines() {
	python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
plots = re.findall(r'<g id="gnuplot_plot_\d+" >(.*?)(?=<g id="gnuplot_plot_|\Z)', s, re.S)
assert plots, "no series"
for body in plots:
    for d in re.findall(r"<path [^>]*d='([^']*)'", body):
        at = None
        for cmd, x, y in re.findall(r"([ML])\s*([-0-9.]+),([-0-9.]+)", d):
            x, y = float(x), float(y)
            if cmd == "L" and at and abs(x - at[0]) > 0.5 and abs(y - at[1]) > 0.5:
                raise SystemExit("slanted segment %s -> %s" % (at, (x, y)))
            at = (x, y)
PY
}

"$ZCBENCH" plot --out "$TMP/out" $F/base.json $F/new.json $F/emulated.json >"$TMP/log" 2>&1 ||
	{ cat "$TMP/log"; fail "plot exit"; }
is_png() { [ "$(head -c8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
for p in bars core ratio before_after history; do
	[ -s "$TMP/out/$p.png" ] || fail "$p.png missing or empty"
	is_png "$TMP/out/$p.png" || fail "$p.png is not a PNG"
	grep -q '<svg' "$TMP/out/$p.svg" || fail "$p.svg is not SVG"
	[ -s "$TMP/out/$p.csv" ] || fail "$p.csv missing"
done
# Pictures carry real content, not a blank canvas: a drawn PNG of these
# plots compresses to well over 10 kB; an empty 1200x720 frame is ~5 kB.
for p in bars core ratio history; do
	[ "$(stat -c %s "$TMP/out/$p.png")" -gt 10000 ] || fail "$p.png suspiciously small"
done
# One chunk size in these files: no chunk curve, and none on the page.
check "no chunk plot with one chunk size" test ! -e "$TMP/out/chunk.png"
check "the page does not show a chunk plot" bash -c "! grep -q 'chunk.png' '$TMP/out/index.html'"
# bars.csv: one row per data path of the newest file (emulated.json: 13), 64k series.
[ "$(tail -n +2 "$TMP/out/bars.csv" | wc -l)" -eq 13 ] || fail "bars.csv rows"
# before/after: each native mode beside each of its after-modes (mode.h after_of):
# the four emulated modes stand for six natives (vmsplice-as-writev for vmsplice
# and vmsplice-gift, sendfile-as-copy for sendfile and splice-file).
[ "$(tail -n +2 "$TMP/out/before_after.csv" | wc -l)" -eq 6 ] || fail "before_after.csv rows"
grep -q '^"splice / splice-as-copy (proxy, 64k)",' "$TMP/out/before_after.csv" || fail "no splice / splice-as-copy pair"
head -1 "$TMP/out/bars.csv" | grep -q 'chunk 64k median,min,max' || fail "bars.csv header"
# Provenance: the newest results file's own zcbench (emulated.json: sha
# "unknown", dirty tree), never the plotting binary's.
sha=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
check "caption: the results file's zcbench" grep -q 'zcbench unknown (dirty tree)' "$TMP/out/bars.svg"
check "caption: not this binary's sha" bash -c "! grep -q 'zcbench $sha' '$TMP/out/bars.svg'"
check "page: the results file's zcbench" grep -q 'id="provenance">unknown (dirty tree)<' "$TMP/out/index.html"
grep -q '6.18\|kernel' "$TMP/out/bars.svg" || fail "no kernel in caption"
grep -q 'host vm\|host ' "$TMP/out/bars.svg" || fail "no host in caption"
# history: 9 paths in all three files, 4 emulated ones in emulated.json only.
[ "$(grep -c '^1[0-9]*,' "$TMP/out/history.csv")" -eq 31 ] || fail "history.csv points"
# core: one row per run of the newest file, every sample a point.
check "core.csv: a row per run" test "$(tail -n +2 "$TMP/out/core.csv" | wc -l)" -eq 13
check "core_samples.csv: every ok sample" test "$(tail -n +2 "$TMP/out/core_samples.csv" | wc -l)" -eq \
	"$(jq '[.runs[].samples[] | select(.status == "ok")] | length' $F/emulated.json)"
# ratio: each headline row with its interval; its answer against 1.0+-5%.
python3 - "$TMP/out/ratio.csv" <<'PY' || fail "ratio.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows"
for r in rows:
    lo, v, hi, verdict = float(r["lo"]), float(r["ratio"]), float(r["hi"]), int(r["verdict"])
    assert lo <= v <= hi, r
    # Against 1.0+-5%: 1 wholly above 1.05, -1 wholly below 0.95, 0 wholly
    # within, 2 spanning a bound (can't tell). An interval of no width (n < 3)
    # is lo = hi = the ratio and can't tell.
    if lo == hi:
        want = 2
    elif lo > 1.05:
        want = 1
    elif hi < 0.95:
        want = -1
    elif lo >= 0.95 and hi <= 1.05:
        want = 0
    else:
        want = 2
    assert verdict == want, (r, want)
assert any("splice/copy proxy" in r["label"] for r in rows)
PY
ok "ratio.csv: intervals and their answer against 1.0+-5%"
grep -q '<img src="bars.png"' "$TMP/out/index.html" || fail "index.html: no bars image"
grep -q 'href="[^"]*results/fixtures/base.json"' "$TMP/out/index.html" || fail "index.html: no link"

# The profile fixture (two chunk sizes, profiles, emulated and msg-zerocopy runs).
"$ZCBENCH" plot --out "$TMP/prof" $F/profile.json >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "plot exit (profile)"; }
for p in chunk profile core; do
	is_png "$TMP/prof/$p.png" || fail "$p.png (profile fixture)"
done
check "chunk plot with two chunk sizes" test -s "$TMP/prof/chunk.svg"
python3 - "$TMP/prof/core.csv" "$TMP/prof/profile.csv" <<'PY' || fail "core.csv / profile.csv"
import csv, math, sys
core = list(csv.DictReader(open(sys.argv[1])))
by = {r["label"]: r for r in core}
# Emulated modes drawn apart (hatched), msg-zerocopy over loopback marked.
emu = [r for r in core if "(emulated)" in r["label"]]
assert emu and all(math.isnan(float(r["native"])) and not math.isnan(float(r["emulated"])) for r in emu)
mz = by["msg-zerocopy@64k/1M"]
assert mz["mark"].startswith("kernel copied") and not math.isnan(float(mz["copied"])), mz
assert not by["proxy:splice@64k/1M"]["mark"], by["proxy:splice@64k/1M"]
# The core's time adds up to one core.
for r in core:
    parts = [float(r[k]) for k in ("user", "system", "softirq", "irq", "idle", "steal", "foreign")]
    assert abs(sum(parts) - 1) < 0.05, (r["label"], sum(parts))
# Copy costs kernel copy time per GB, splice none.
prof = {r["label"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert float(prof["proxy:copy@64k/1M"]["kernel copy"]) > 50 * max(float(prof["proxy:splice@64k/1M"]["kernel copy"]), 0.1)
PY
ok "core and profile pictures' data"
# Flame graphs: one per profiled run whose stacks are kept (proxy-copy and
# proxy-splice at 64k: runs 0 and 2), linked from the page; the others say so.
for i in 0 2; do
	check "flame-$i.svg: SVG without script" python3 -c "
import sys, xml.etree.ElementTree as ET
t = ET.parse('$TMP/prof/flame-$i.svg').getroot()
assert t.tag.endswith('svg') and not [e for e in t.iter() if e.tag.endswith('script')]
assert len([e for e in t.iter() if e.tag.endswith('rect')]) > 20"
	check "page links flame-$i.svg" grep -q "href=\"flame-$i.svg\"" "$TMP/prof/index.html"
done
check "page: profiled runs without stacks say so" grep -q 'stacks not found' "$TMP/prof/index.html"

# History of two hosts: the same paths on another host are other lines,
# never joined (a 3x faster host is not a 3x improvement).
jq '.meta.hostname = "other-host" | .meta.date = "2026-12-04T10:00:00Z"' $F/base.json >"$TMP/other.json"
"$ZCBENCH" plot --out "$TMP/two" $F/base.json "$TMP/other.json" >/dev/null 2>&1 || fail "plot exit (two hosts)"
check "history of two hosts: two lines per path" \
	test "$(grep -c '^# proxy:splice@64k/' "$TMP/two/history.csv")" -eq 2
check "history of two hosts: one point per line" python3 - "$TMP/two/history.csv" <<'PY'
import sys
blocks = open(sys.argv[1]).read().split("\n\n\n")
assert len(blocks) == 18, len(blocks)
for b in blocks:
    pts = [l for l in b.splitlines() if l and not l.startswith("#")]
    assert len(pts) == 1, b
PY
# 18 series: styles (colour, dashes, point shape) never repeat.
check "history: 18 series drawn with 18 distinct styles" python3 - "$TMP/two/history.svg" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
styles = {}
for m in re.finditer(r'<g id="gnuplot_plot_(\d+)" >(.*?)(?=<g id="gnuplot_plot_|\Z)', s, re.S):
    body = m.group(2)
    stroke = re.search(r"<path stroke='([^']*)'(?: stroke-dasharray='([^']*)')?", body)
    pt = re.search(r"#(gpPt\d+)", body)
    styles[m.group(1)] = (stroke.group(1), stroke.group(2), pt.group(1) if pt else None)
assert len(styles) == 18, len(styles)
assert len(set(styles.values())) == 18, styles
PY
# The sweep pictures (issue 21): none from files of one size; from a file
# whose copy and splice runs have three pipe sizes, sweep_pipe holds a
# splice/copy line through them (zcbench over a peer is left out) and the
# page shows it; sweep_chunk (one chunk) is not drawn.
check "no sweep pictures with one size" test ! -e "$TMP/out/sweep_pipe.png" -a ! -e "$TMP/out/sweep_chunk.png"
jq 'def at($p): [.runs[] | select(.key.topology == "proxy" and (.key.proxy == "copy" or
	.key.proxy == "splice")) | (.key.pipe_size, .options.pipe_size) |= $p];
	.meta.date = "2026-12-03T00:00:00Z" | .runs += at(65536) + at(1048576)' $F/emulated.json >"$TMP/sweep.json"
"$ZCBENCH" plot --out "$TMP/sweep" "$TMP/sweep.json" >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "plot sweep"; }
check "sweep_pipe drawn" is_png "$TMP/sweep/sweep_pipe.png"
check "sweep_pipe: a splice/copy line through 64k, 256k and 1M pipes" python3 - "$TMP/sweep/sweep_pipe.csv" <<'PY'
import sys
blocks = [b.strip().splitlines() for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
assert len(blocks) == 1, blocks
assert blocks[0][0].startswith('"splice/copy proxy at chunk 64k"'), blocks[0][0]
assert [int(l.split(",")[0]) for l in blocks[0][1:]] == [65536, 262144, 1048576], blocks[0]
PY
check "sweep_pipe: points, no line between sizes" no_lines "$TMP/sweep/sweep_pipe.svg"
check "sweep_chunk not drawn through one chunk" test ! -e "$TMP/sweep/sweep_chunk.png"
# Request/response runs vary the object size at one chunk and pipe: no
# sweep picture from them (rr_crossover is theirs), and no line there either.
"$ZCBENCH" plot --out "$TMP/rr" $F/rr.json >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "plot rr"; }
check "rr file: no sweep pictures" test ! -e "$TMP/rr/sweep_pipe.png" -a ! -e "$TMP/rr/sweep_chunk.png"
check "rr file: gnuplot warned of no empty range" bash -c "! grep -q 'empty x range' '$TMP/log'"
check "rr_crossover: points, no line between object sizes" no_lines "$TMP/rr/rr_crossover.svg"
check "the page shows sweep_pipe" grep -q 'sweep_pipe.png' "$TMP/sweep/index.html"
# Issue 32 item 6. A picture with no data is not drawn, not on the page,
# and plot says so: one results file is no history, make bench's file has
# no workers sweep and no emulated after-mode. A folder holding an older
# plot's pictures (the three files above, history and before_after drawn)
# keeps none of them.
cp -r "$TMP/out" "$TMP/one"
"$ZCBENCH" plot --out "$TMP/one" $F/bench.json >"$TMP/one.log" 2>&1 || { cat "$TMP/one.log"; fail "plot exit (one file)"; }
for p in history scale before_after; do
	check "one file: no $p picture (an older one removed)" test ! -e "$TMP/one/$p.png" -a ! -e "$TMP/one/$p.svg"
	check "one file: $p not on the page" bash -c "! grep -q '\"$p.png\"' '$TMP/one/index.html'"
	check "one file: plot says why $p was not drawn" grep -q "not drawn: $p: ." "$TMP/one.log"
	check "one file: the page says why $p was not drawn" grep -q "<li>$p: ." "$TMP/one/index.html"
done
check "one file: plot's lines fit 100 columns" \
	test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/one.log")" -le 100
# Axes from the data with a margin: sendfile reaching 49.9 (its whisker's
# cap on the frame of an axis autoscaled to 50, issue 32): the y axis of
# bars and chunk reaches 5% past the largest value drawn, whiskers included.
jq '(.runs[] | select(.name == "src-sendfile") | .samples) |= [.[0] * {gbps_per_core: 48.2},
	.[1] * {gbps_per_core: 49.1}, .[2] * {gbps_per_core: 49.9}]' $F/bench.json >"$TMP/tall.json"
"$ZCBENCH" plot --out "$TMP/tall" "$TMP/tall.json" >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "plot exit (tall)"; }
ytop() { # the largest y tick label of an SVG (gnuplot right-aligns them)
	grep -A1 'text-anchor="end">' "$1" | sed -n 's|.*<text> *\([0-9.]*\)</text>.*|\1|p' | sort -g | tail -1
}
check "bars.csv holds the 49.9 whisker" grep -q ',49.9' "$TMP/tall/bars.csv"
for p in bars chunk; do
	check "$p: y axis to $(ytop "$TMP/tall/$p.svg"), past 49.9 + 5%" \
		python3 -c "import sys; assert float(sys.argv[1]) >= 49.9 * 1.05" "$(ytop "$TMP/tall/$p.svg")"
done
check "chunk: a point per path and size, no line between sizes" no_lines "$TMP/tall/chunk.svg"
check "chunk: points drawn" grep -q '#gpPt' "$TMP/tall/chunk.svg"
# No picture has more series than distinct styles: within each frame
# (a multiplot's panels restart their numbering), no two series share a
# colour, dash and point.
distinct() {
	python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
panels, cur, last = [], {}, 0
for m in re.finditer(r'<g id="gnuplot_plot_(\d+)[a-z]*" >(.*?)(?=<g id="gnuplot_plot_|\Z)', s, re.S):
    i = int(m.group(1))
    if i <= last and i == 1:
        panels.append(cur)
        cur = {}
    last = i
    body = m.group(2)
    st = re.search(r"<path stroke='([^']*)'(?: stroke-dasharray='([^']*)')?", body)
    pt = re.search(r"#(gpPt\d+)", body)
    cur.setdefault(i, (st.groups() if st else None, pt.group(1) if pt else None))
panels.append(cur)
for p in panels:
    assert len(set(p.values())) == len(p), p
PY
}
"$ZCBENCH" plot --out "$TMP/live" $F/live.json >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "plot exit (live)"; }
check "live intervals: a panel per run" test "$(grep -c '^# t_s' "$TMP/live/intervals.csv")" -eq \
	"$(jq '[.runs[] | select([.samples[].intervals | length] | add > 0)] | length' $F/live.json)"
for p in "live/intervals" "tall/chunk" "out/history" "two/history"; do
	check "$p: every series of a frame its own style" distinct "$TMP/$p.svg"
done
# make plots installs gnuplot and the build's packages, not the other
# targets' (qemu, chromium, clang, openssh-server).
make -n -s deps-plots >"$TMP/deps" 2>&1
check "make deps-plots: gnuplot-nox" grep -q 'gnuplot-nox' "$TMP/deps"
check "make deps-plots: the build's libraries" grep -q 'libjansson-dev.*libgsl-dev' "$TMP/deps"
check "make deps-plots: no qemu, chromium, clang or openssh-server" \
	bash -c "! grep -Eq 'qemu|chromium|clang|openssh-server|bpftool' '$TMP/deps'"
# An unreadable file: exit 2, nothing half-drawn claimed.
echo '{' >"$TMP/bad.json"
"$ZCBENCH" plot --out "$TMP/out2" "$TMP/bad.json" >/dev/null 2>&1; [ $? -eq 2 ] || fail "corrupt: want 2"
# A file of scaling curves only (no run with an ok sample): the scale picture
# and the page, exit 0, no per-run picture gnuplot would refuse.
"$ZCBENCH" plot --out "$TMP/scale" $F/scale.json >"$TMP/scale.log" 2>&1
rc=$?
check "scale.json alone: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "scale.json alone: scale.png and the page" [ -s "$TMP/scale/scale.png" -a -s "$TMP/scale/index.html" ]
check "scale.json alone: the page shows scale.png" grep -q '<img src="scale.png"' "$TMP/scale/index.html"
check "scale.json alone: no bars picture" [ ! -e "$TMP/scale/bars.png" ]
# Into a folder an older plot filled: only scale's picture is left.
cp -r "$TMP/out" "$TMP/scale2"
"$ZCBENCH" plot --out "$TMP/scale2" $F/scale.json >"$TMP/scale2.log" 2>&1 || fail "plot exit (scale over out)"
check "scale.json over an older plot: scale.png alone ($(cd "$TMP/scale2" && echo *.png))" \
	test "$(cd "$TMP/scale2" && echo *.png)" = scale.png
check "scale.json over an older plot: the page shows scale.png alone" \
	test "$(grep -o '<img src="[^"]*"' "$TMP/scale2/index.html" | tr -d '\n')" = '<img src="scale.png"'
check "scale.json over an older plot: bars said not drawn" grep -q 'not drawn: bars: ' "$TMP/scale2.log"
finish
