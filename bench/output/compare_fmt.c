// SPDX-License-Identifier: GPL-2.0
/* The helpers compare's layouts print with (compare.h), below the layouts
 * and their list (compare_layouts.c). */
#include "output/compare_int.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void zc_cmp_fmt_value(double x, char *out, size_t len)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(out, len, "-");
	else if (a >= 1e6)
		snprintf(out, len, "%.3e", x);
	else if (a >= 100)
		snprintf(out, len, "%.1f", x);
	else if (a >= 0.01 || a == 0)
		snprintf(out, len, "%.2f", x);
	else
		snprintf(out, len, "%.4f", x);
}

void zc_cmp_note(struct zc_cmp_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->len) {
		n->len += snprintf(n->text + n->len, sizeof(n->text) - n->len, "; ");
		if (n->len >= sizeof(n->text))
			n->len = sizeof(n->text) - 1;
	}
	va_start(ap, fmt);
	n->len += vsnprintf(n->text + n->len, sizeof(n->text) - n->len, fmt, ap);
	va_end(ap);
	if (n->len >= sizeof(n->text))
		n->len = sizeof(n->text) - 1;
}

void zc_cmp_test_line(FILE *f, const struct zc_cmp *c, const char *suffix)
{
	fprintf(f, "# intervals: Student's t on the logs of the values (percent metrics: on the "
		   "points), %g%%; ", 100 * (1 - c->alpha));
	if (c->npaired)
		fprintf(f, "of the per-round ratios where both sides were taken in rounds of one "
			   "invocation (%zu rows, 'paired')%s", c->npaired, c->nunpaired ? ", " : "");
	if (c->nunpaired)
		fprintf(f, "Welch's on the two sides (%zu rows, 'unpaired')", c->nunpaired);
	if (!c->npaired && !c->nunpaired)
		fprintf(f, "none could be made");
	fprintf(f, "; unchanged: the interval within +-%g%%%s\n", c->threshold_pct, suffix);
}

const char *zc_cmp_file_label(const struct zc_cmp *c, int idx, size_t width, char *buf,
			      size_t len)
{
	const char *path = c->paths[idx], *b = strrchr(path, '/');
	size_t l;

	b = b ? b + 1 : path;
	l = strlen(b);
	if (l > 5 && !strcmp(b + l - 5, ".json"))
		l -= 5;
	if (l <= width)
		snprintf(buf, len, "%.*s", (int)l, b);
	else if (idx)
		snprintf(buf, len, "new %d", idx);
	else
		snprintf(buf, len, "base");
	return buf;
}
