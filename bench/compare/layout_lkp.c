// SPDX-License-Identifier: GPL-2.0
/*
 * compare --format lkp: the 0-day robot's table, base mean ±stddev%,
 * %change, new mean ±stddev%, one block per run, and the change's interval
 * with its answer and the robot's own rule (medians outside each other's
 * min..max) in the notes.
 */
#include "compare/compare.h"
#include "lib/term.h"

#include <math.h>
#include <string.h>

/* The notes' indent under a row: past the base's column. */
#define NOTES_AT 18

/* lkp prints "± 3%" only where there is spread worth a percent. */
static void fmt_sd(const struct zc_cmp_side *s, char *out, size_t len)
{
	double pct = s->s.mean != 0 ? 100 * s->s.stddev / fabs(s->s.mean) : NAN;

	if (s->n < 2 || !isfinite(pct) || pct < 0.5)
		snprintf(out, len, "%5s", "");
	else
		snprintf(out, len, "±%3.0f%%", pct);
}

static void head(FILE *f, const struct zc_cmp *c)
{
	char lab[64];

	zc_cmp_test_line(f, c, "; robot: medians outside each other's min..max");
	fprintf(f, "\n");
	fprintf(f, "%16s", zc_cmp_file_label(c, 0, 16, lab, sizeof(lab)));
	for (int i = 1; i < c->nfiles; i++)
		fprintf(f, " %27s", zc_cmp_file_label(c, i, 27, lab, sizeof(lab)));
	fprintf(f, "\n----------------");
	for (int i = 1; i < c->nfiles; i++)
		fprintf(f, " ---------------------------");
	fprintf(f, "\n         %%stddev");
	for (int i = 1; i < c->nfiles; i++)
		fprintf(f, "     %%change         %%stddev");
	fprintf(f, "\n             \\  ");
	for (int i = 1; i < c->nfiles; i++)
		fprintf(f, "        |                \\  ");
	fprintf(f, "\n");
}

static void run_head(FILE *f, const struct zc_cmp *c, const char *key, const char *name)
{
	char line[1024];

	snprintf(line, sizeof(line), "\n%16s  # %s (%s)", "", key, name);
	zc_cmp_put_fitted(f, c, line, 2);
}

static void row_base(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const char *full, const struct zc_cmp_side *base)
{
	char bv[32], bsd[16];

	(void)c, (void)m, (void)full;
	zc_cmp_fmt_value(base->s.mean, bv, sizeof(bv));
	fmt_sd(base, bsd, sizeof(bsd));
	fprintf(f, "%10s %5s", bv, bsd);
}

static void row_cell(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
		     const struct zc_cmp_side *base, const struct zc_cmp_side *other,
		     const struct zc_cmp_verdict *v, struct zc_cmp_notes *notes)
{
	char nv[32], nsd[16], ch[32], ps[96];

	(void)base, (void)c;
	if (!v) {
		fprintf(f, " %27s", "(missing)");
		return;
	}
	zc_cmp_fmt_value(other->s.mean, nv, sizeof(nv));
	fmt_sd(other, nsd, sizeof(nsd));
	if (!isfinite(v->change))
		snprintf(ch, sizeof(ch), "-");
	else if (zc_metric_is_pct(m))
		snprintf(ch, sizeof(ch), "%+.1f", v->change);
	else
		snprintf(ch, sizeof(ch), "%+.1f%%", v->change);
	fprintf(f, " %10s %10s %5s", ch, nv, nsd);
	zc_cmp_fmt_p(v, ps, sizeof(ps));
	/* A gated figure: its answer as the gate reads it; the others: the
	 * interval and its answer at +-T; the robot's own rule beside them. */
	if (v->headline) {
		zc_cmp_verdict_note(v, notes);
		return;
	}
	zc_cmp_note(notes, "%s%s%s%s", ps, v->tested ? ", " : "",
		    v->tested ? zc_answer_name(v->vd.answer) : "",
		    v->robot ? ", medians outside ranges" : "");
}

/* The name after the numbers when it fits, else on a line of its own; the
 * notes under it. */
static void row_end(FILE *f, const struct zc_cmp *c, const char *full,
		    const struct zc_cmp_notes *notes)
{
	int at = 16 + 28 * (c->nfiles - 1), room = c->width - NOTES_AT;
	char line[600];

	/* Counted as bytes (each cell's '±' is two), as a byte-counting
	 * reader of the text (awk in the C locale) measures it. */
	if (at + 2 + (int)strlen(full) + c->nfiles <= c->width) {
		fprintf(f, "  %s\n", full);
	} else {
		char cut[600];

		zc_elide(cut, sizeof(cut), full, room > 8 ? room : 8);
		fprintf(f, "\n%*s%s\n", NOTES_AT, "", cut);
	}
	if (!notes->len)
		return;
	snprintf(line, sizeof(line), "%*s%s", NOTES_AT, "", notes->text);
	zc_cmp_put_fitted(f, c, line, 2);
}

const struct zc_compare_layout zc_layout_lkp = {
	.name = "lkp",
	.help = "0-day robot table: base mean ±stddev%, %change, new mean ±stddev%",
	.head = head,
	.run_head = run_head,
	.row_base = row_base,
	.row_cell = row_cell,
	.row_end = row_end,
};
