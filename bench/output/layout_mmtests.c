// SPDX-License-Identifier: GPL-2.0
/*
 * compare --format mmtests: compare-kernels' table, Hmean for throughputs
 * and Amean otherwise, gain in percent with positive always better, and
 * *x%* where the test says the change is significant.
 */
#include "output/compare.h"

#include <math.h>

/* The statistic shown: the harmonic mean for throughputs. */
static double central(const struct zc_metric *m, const struct zc_cmp_side *s)
{
	return m->better == ZC_BETTER_HIGHER ? zc_hmean(s->v, s->n) : s->s.mean;
}

static void head(FILE *f, const struct zc_cmp *c)
{
	char lab[64];

	zc_cmp_test_line(f, c, "");
	fprintf(f, "# gain %%: positive is better (mmtests' convention), *x%%* significant\n");
	fprintf(f, "\n");
	fprintf(f, "%-56s", "");
	for (int i = 0; i < c->nfiles; i++)
		fprintf(f, " %22.22s", zc_an_kernel(c->roots[i]));
	fprintf(f, "\n%-56s", "");
	for (int i = 0; i < c->nfiles; i++)
		fprintf(f, " %22.22s", zc_cmp_file_label(c, i, 22, lab, sizeof(lab)));
	fprintf(f, "\n");
}

static void row_base(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const char *full, const struct zc_cmp_side *base)
{
	char bv[32];

	(void)c;
	zc_cmp_fmt_value(central(m, base), bv, sizeof(bv));
	fprintf(f, "%-9s %-46.46s %12s (%7.2f%%)", m->better == ZC_BETTER_HIGHER ? "Hmean" : "Amean",
		full, bv, 0.0);
}

static void row_cell(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const struct zc_cmp_side *base, const struct zc_cmp_side *other,
		     const struct zc_cmp_verdict *v, struct zc_cmp_notes *notes)
{
	double bc, nc, gain;
	char nv[32];

	if (!v) {
		fprintf(f, " %22s", "(missing)");
		return;
	}
	/* The gain of the statistic shown, not of the means the test judged. */
	bc = central(m, base);
	nc = central(m, other);
	gain = zc_metric_is_pct(m) ? nc - bc : bc != 0 ? 100 * (nc - bc) / fabs(bc) : NAN;
	if (m->better == ZC_BETTER_LOWER)
		gain = -gain;
	zc_cmp_fmt_value(nc, nv, sizeof(nv));
	if (!isfinite(gain))
		fprintf(f, " %12s (%8s)", nv, "-");
	else if (v->significant)
		fprintf(f, " %12s *%7.2f%%*", nv, gain);
	else
		fprintf(f, " %12s (%7.2f%%)", nv, gain);
	if (!v->tested)
		zc_cmp_note(notes, "n too small");
	zc_cmp_gate_note(c, v, notes);
}

static void row_end(FILE *f, const char *full, const struct zc_cmp_notes *notes)
{
	(void)full;
	fprintf(f, "%s%s\n", notes->len ? "  " : "", notes->text);
}

const struct zc_compare_layout zc_layout_mmtests = {
	.name = "mmtests",
	.help = "compare-kernels: Hmean/Amean, gain % (positive = better), *significant*",
	.head = head,
	.row_base = row_base,
	.row_cell = row_cell,
	.row_end = row_end,
};
