#!/usr/bin/env bash
# "One file + one line" for a metric, an export format and a compare layout,
# shown on a copy of the tree (never on this one):
#  - metric: a row in bench/metrics/metrics.c, plus its derive function in
#    the same file when it is computed (dut_gbps_x2 = 2 * dut_gbps); a metric
#    read from the DUT's report is the row alone (dut_window_busy_s);
#  - export format: bench/export/fmt_tsv.c + one line in export/export.h;
#  - compare layout: bench/compare/layout_lkp2.c (lkp's, renamed) + one line
#    in compare/compare.h.
# Then it builds and checks that the metrics reach a short run's samples,
# summary and table, compare and the README's generated list, and that the
# format and the layout work and are listed by --help and the errors.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
T=$TMP/tree
mkdir -p "$T"
# The tracked tree as it is in this checkout (with uncommitted edits and new files).
git ls-files -z -c -o --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$T" ||
	fail "copy the tree"
# The BPF skeleton is machine-made and slow to redo; reuse it when built.
[ -d build/bpf ] && mkdir -p "$T/build" && cp -a build/bpf "$T/build/"

# --- the metric: one row (+ its derive function, beside the list) ---
M=$T/bench/metrics/metrics.c
grep -q '^const struct zc_metric zc_metrics\[\] = {$' "$M" || fail "metrics.c: no list to add to"
awk '
/^const struct zc_metric zc_metrics\[\] = \{$/ {
	print "static double d_dut_gbps_x2(const struct zc_derive_in *in)"
	print "{"
	print "\treturn 2 * d_dut_gbps(in);"
	print "}"
	print ""
	print
	print "\t{ .key = \"dut_gbps_x2\", .unit = \"Gbit/s\", .better = ZC_BETTER_HIGHER, .help = \"twice dut_gbps (a test)\", .derive = d_dut_gbps_x2, .how = \"2 * dut_gbps\", .col = { ZC_COL_ALWAYS, \"Gx2\", 8, \"%.3f\" } },"
	print "\t{ .key = \"dut_window_busy_s\", .unit = \"s\", .better = ZC_BETTER_LOWER, .help = \"the DUT CPU busy seconds (a test)\", .source = \"window.busy_s\" },"
	next
}
{ print }' "$M" >"$M.new" && mv "$M.new" "$M"

# --- the export format: one file + one line ---
cat >"$T/bench/export/fmt_tsv.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* A throwaway format (tests/static/add_metric_format.sh): run key, then
 * the median of every metric, tab-separated, one line per run. */
#include "export/export.h"

static int write_tsv(FILE *f, json_t *root, enum zc_export_what what)
{
	json_t *run;
	size_t i;

	(void)what;	/* medians of runs only */

	fprintf(f, "key");
	zc_for_each_summary_metric(m)
		fprintf(f, "\t%s", m->key);
	fputc('\n', f);
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		char key[512];

		zc_an_key(run, key, sizeof(key));
		fprintf(f, "%s", key);
		zc_for_each_summary_metric(m) {
			struct zc_summary s;

			if (zc_export_summary(run, m->key, &s))
				fprintf(f, "\t");
			else
				fprintf(f, "\t%.6g", s.median);
		}
		fputc('\n', f);
	}
	return 0;
}

const struct zc_export_format zc_fmt_tsv = {
	.name = "tsv",
	.help = "tab-separated medians, one line per run (a test)",
	.write = write_tsv,
};
EOF
grep -q '^	X(gab)  *\\$' "$T/bench/export/export.h" || fail "export.h: no X(gab) line to add after"
sed -i 's/^\tX(gab)  *\\$/&\n\tX(tsv) \\/' "$T/bench/export/export.h"

# --- the compare layout: one file (lkp's, renamed) + one line ---
sed -e 's/zc_layout_lkp\b/zc_layout_lkp2/' -e 's/\.name = "lkp"/.name = "lkp2"/' \
	"$T/bench/compare/layout_lkp.c" >"$T/bench/compare/layout_lkp2.c"
grep -q 'zc_layout_lkp2 = {' "$T/bench/compare/layout_lkp2.c" || fail "layout_lkp.c: no zc_layout_lkp"
sed -i 's/^\tX(mmtests)  *\\$/&\n\tX(lkp2) \\/' "$T/bench/compare/compare.h"

# Beyond the two new files, each list changed by exactly one added line.
changed() { diff "bench/$1" "$T/bench/$1" | grep -c '^[<>]'; }
check "export.h: one line added" [ "$(changed export/export.h)" -eq 1 ]
check "compare.h: one line added" [ "$(changed compare/compare.h)" -eq 1 ]

echo "building the copy (a few minutes under load) ..."
make -C "$T" -j2 OPT=-O2 bench/zcbench build/tests/test_metrics >"$TMP/build.log" 2>&1 ||
	{ tail -n 30 "$TMP/build.log"; fail "the copy with a new metric, format and layout does not build"; }
Z=$T/bench/zcbench
B=results/fixtures/base.json N=results/fixtures/new.json

# The metrics: in a short run's samples (derived), summary, table and compare.
"$Z" run workloads/smoke.ini --only proxy-copy --repetitions 2 --wide --out "$TMP/res" >"$TMP/run.out" 2>&1 ||
	{ cat "$TMP/run.out"; fail "a short run with the new metric"; }
R=$(result_in "$TMP/res")
[ -n "$R" ] || fail "the run left no results file"
check "sample: dut_gbps_x2 = 2 * dut_gbps" \
	jq -e '[.runs[0].samples[] | select(.status == "ok") | (.dut_gbps_x2 - 2 * .dut_gbps) |
		(if . < 0 then -. else . end) < 1e-6] | length > 0 and all' "$R"
check "sample: dut_window_busy_s from the DUT's report" \
	jq -e '.runs[0] as $r | [$r.samples[] | select(.status == "ok") |
		.dut_window_busy_s == .roles[$r.dut].window.busy_s] | length > 0 and all' "$R"
check "summary: dut_gbps_x2 and dut_window_busy_s" \
	jq -e '.runs[0].summary | has("dut_gbps_x2") and has("dut_window_busy_s")' "$R"
check "run table: the Gx2 column" grep -Eq '^run .* Gx2 ' "$TMP/run.out"
check "run table: a proxy-copy line with a figure in it" \
	grep -Eq '^proxy-copy +proxy +send>copy>recv +64k +- +[0-9]+\.[0-9]{3} ' "$TMP/run.out"
"$Z" compare --all "$R" "$R" >"$TMP/cmp" 2>&1
check "compare: proxy-copy.dut_gbps_x2 row" grep -q 'proxy-copy\.dut_gbps_x2$' "$TMP/cmp"
check "compare: proxy-copy.dut_window_busy_s row" grep -q 'proxy-copy\.dut_window_busy_s$' "$TMP/cmp"
"$Z" export --format csv "$R" >"$TMP/csv"
check "export csv: the new metrics are columns" grep -q ',dut_gbps_x2,dut_window_busy_s,' "$TMP/csv"
"$T/build/tests/test_metrics" --markdown >"$TMP/md"
check "README list (generated): dut_gbps_x2" grep -q '^- `dut_gbps_x2` (Gbit/s, higher is better)' "$TMP/md"

# The export format: works on a fixture, listed by --help and by the error.
"$Z" export --format tsv "$B" >"$TMP/tsv"
rc=$?
check "export --format tsv: exit 0" [ "$rc" -eq 0 ]
check "export --format tsv: header + one line per run" \
	[ "$(wc -l <"$TMP/tsv")" -eq $(($(jq '.runs | length' "$B") + 1)) ]
check "export --format tsv: tab-separated, a median of gbps_per_core on every run" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gbps_per_core") c = i; n = NF; next }
		    NF != n || $c !~ /^[0-9.]+$/ { bad = 1 } END { exit bad || !c }' "$TMP/tsv"
"$Z" export --help >"$TMP/eh"
check "export --help lists the formats" grep -q '^Formats:' "$TMP/eh"
check "export --help describes tsv" grep -q '^  tsv  .*a test' "$TMP/eh"
"$Z" export --format nope "$B" >/dev/null 2>"$TMP/ee"
rc=$?
check "export --format nope: exit 2" [ "$rc" -eq 2 ]
check "export --format nope: lists the names" grep -q 'not one of csv, bmf, prometheus, gab, tsv' "$TMP/ee"

# The compare layout: works, prints what lkp prints, listed by --help and the error.
"$Z" compare --format lkp2 "$B" "$N" >"$TMP/lkp2"
rc=$?
check "compare --format lkp2: exit 0" [ "$rc" -eq 0 ]
"$Z" compare --format lkp "$B" "$N" >"$TMP/lkp"
check "compare --format lkp2: the lkp table" cmp -s "$TMP/lkp" "$TMP/lkp2"
check "compare --format lkp2: a metric line" grep -q 'proxy-splice\.gbps_per_core$' "$TMP/lkp2"
"$Z" compare --help >"$TMP/ch"
check "compare --help lists lkp2" grep -q '^Layouts:' "$TMP/ch"
check "compare --help describes lkp2" grep -Eq '^  lkp2 +[A-Za-z0-9]' "$TMP/ch"
"$Z" compare --format nope "$B" "$N" >/dev/null 2>"$TMP/ce"
rc=$?
check "compare --format nope: exit 2" [ "$rc" -eq 2 ]
check "compare --format nope: lists the names" grep -q 'not one of lkp, mmtests, lkp2' "$TMP/ce"
finish
