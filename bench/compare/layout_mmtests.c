// SPDX-License-Identifier: GPL-2.0
/*
 * compare --format mmtests: compare-kernels' table, Hmean for throughputs
 * and Amean otherwise, gain in percent with positive always better, and
 * *x%* where the test says the change is significant.
 */
#include "compare/compare.h"

#include <math.h>
#include <string.h>

/* One file's cell, " %10s (%7.2f%%)", and what comes before the name. */
#define CELL 22
#define LEAD 10

/* The name's column: what the terminal leaves, at most the robot's 46; 0
 * when that is under 16 (many files): the name then has a line of its own. */
static int name_width(const struct zc_cmp *c)
{
	int w = c->width - LEAD - CELL * c->nfiles;

	return w > 46 ? 46 : w < 16 ? 0 : w;
}

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
	fprintf(f, "%*s", LEAD + name_width(c), "");
	for (int i = 0; i < c->nfiles; i++)
		fprintf(f, " %*.*s", CELL - 1, CELL - 1, zc_an_kernel(c->roots[i]));
	fprintf(f, "\n%*s", LEAD + name_width(c), "");
	for (int i = 0; i < c->nfiles; i++)
		fprintf(f, " %*.*s", CELL - 1, CELL - 1,
			zc_cmp_file_label(c, i, CELL - 1, lab, sizeof(lab)));
	fprintf(f, "\n");
}

static void row_base(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const char *full, const struct zc_cmp_side *base)
{
	char bv[32];

	zc_cmp_fmt_value(central(m, base), bv, sizeof(bv));
	/* Cut, not marked: the robot's own way with long names. */
	if (!name_width(c))
		fprintf(f, "%-*s%s\n", LEAD, m->better == ZC_BETTER_HIGHER ? "Hmean" : "Amean", full);
	fprintf(f, "%-*s%-*.*s %10s (%7.2f%%)", LEAD, name_width(c) ? m->better ==
		ZC_BETTER_HIGHER ? "Hmean" : "Amean" : "", name_width(c), name_width(c), full, bv,
		0.0);
}

static void row_cell(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const struct zc_cmp_side *base, const struct zc_cmp_side *other,
		     const struct zc_cmp_verdict *v, struct zc_cmp_notes *notes)
{
	double bc, nc, gain;
	char nv[32];

	(void)c;

	if (!v) {
		fprintf(f, " %*s", CELL - 1, "(missing)");
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
		fprintf(f, " %10s (%8s)", nv, "-");
	else if (v->significant)
		fprintf(f, " %10s *%7.2f%%*", nv, gain);
	else
		fprintf(f, " %10s (%7.2f%%)", nv, gain);
	if (v->headline)
		zc_cmp_verdict_note(v, notes);
	else if (!v->tested)
		zc_cmp_note(notes, "n too small");
}

/* The notes under the row, past the statistic's column. */
static void row_end(FILE *f, const struct zc_cmp *c, const char *full,
		    const struct zc_cmp_notes *notes)
{
	char line[600];

	(void)full;
	fputc('\n', f);
	if (!notes->len)
		return;
	snprintf(line, sizeof(line), "%*s%s", LEAD, "", notes->text);
	zc_cmp_put_fitted(f, c, line, 2);
}

const struct zc_compare_layout zc_layout_mmtests = {
	.name = "mmtests",
	.help = "compare-kernels: Hmean/Amean, gain % (+ is better), *significant*",
	.head = head,
	.row_base = row_base,
	.row_cell = row_cell,
	.row_end = row_end,
};
