// SPDX-License-Identifier: GPL-2.0
/* The helpers compare's layouts print with (compare.h), below the layouts
 * and their list (compare_layouts.c). */
#include "compare/compare_int.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
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

void zc_cmp_put_fitted(FILE *f, const struct zc_cmp *c, const char *text, int hang)
{
	zc_put_hanging(f, text, c->width, hang);
}

void zc_cmp_test_line(FILE *f, const struct zc_cmp *c, const char *suffix)
{
	char line[1024];
	size_t n = 0;

	n += snprintf(line + n, sizeof(line) - n, "# intervals: Student's t on the logs of the "
		      "values (percent metrics: on the points), %g%%; ", 100 * (1 - c->alpha));
	if (c->npaired)
		n += snprintf(line + n, sizeof(line) - n, "of the per-round ratios where both sides "
			      "were taken in rounds of one invocation (%zu rows, 'paired')%s",
			      c->npaired, c->nunpaired ? ", " : "");
	if (c->ninvocations && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "on the invocations' means, the spread "
			      "between invocations as each row says (%zu rows, 'unpaired')%s",
			      c->ninvocations, c->nunpaired > c->ninvocations ? ", " : "");
	if (c->nunpaired > c->ninvocations && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "Welch's on the two sides (%zu rows, "
			      "'unpaired')", c->nunpaired - c->ninvocations);
	if (!c->npaired && !c->nunpaired && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "none could be made");
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; unchanged: the interval within +-%g%%%s",
			 c->threshold_pct, suffix);
	zc_cmp_put_fitted(f, c, line, 2);
}

void zc_cmp_verdict_text(const struct zc_cmp_verdict *v, char *buf, size_t len)
{
	size_t l;

	if (v->identical && !v->ch.ok) {
		snprintf(buf, len, "unchanged: the same %zu sample%s on both sides", v->ch.n,
			 v->ch.n == 1 ? "" : "s");
		return;
	}
	zc_verdict_fmt(&v->ch, &v->vd, buf, len);
	/* What it could have seen: a pass says how large a change it would
	 * have caught (can't tell says so itself). */
	l = strlen(buf);
	if (v->vd.answer != ZC_ANSWER_CANT_TELL && !v->points && isfinite(v->vd.can_see_down) &&
	    l + 40 < len)
		snprintf(buf + l, len - l, ", could see -%.0f%%/+%.0f%%", 100 * v->vd.can_see_down,
			 100 * v->vd.can_see_up);
}

void zc_cmp_verdict_note(const struct zc_cmp_verdict *v, struct zc_cmp_notes *n)
{
	char vs[320];

	zc_cmp_verdict_text(v, vs, sizeof(vs));
	zc_cmp_note(n, "%s%s%s%s", vs, v->ch.ok ? (v->paired ? ", paired" : ", unpaired") : "",
		    v->robot ? ", medians outside ranges" : "",
		    v->regression ? ": REGRESSION" : "");
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
