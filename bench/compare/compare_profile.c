// SPDX-License-Identifier: GPL-2.0
/*
 * compare's profile lines, as the 0-day robot prints them under the
 * throughput lines of a report: perf-profile.children.cycles-pp.SYMBOL and
 * perf-profile.self.cycles-pp.SYMBOL, the share of the DUT core's samples
 * in percent on each side and the change in points, then the buckets as
 * profile-bucket.NAME; a symbol line only where its share moved by half a
 * point or more (the buckets always). They go through the layout's own row functions, so
 * lkp and mmtests print them in their shape. A side's values are its
 * repetitions' profiles when each was profiled (samples[].profile), else the
 * run's (one value); a symbol outside a side's top list counts as 0 there.
 * Profile lines are never gated: a share moves when any other share does.
 */
#include "compare/compare_int.h"
#include "report/breakdown.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SHARE_PCT 1.0	/* lines below this share on every side are left out */
#define MIN_CHANGE_PTS 0.5	/* symbol lines that moved less on every side are left out */
#define MAX_LINES 20		/* per kind, largest base share first */

/* The values of one profile line of one run, into side. */
static void values(json_t *run, const char *group, const char *key, struct zc_cmp_side *side)
{
	json_t *smp, *p = zc_an_profile(run);
	size_t i;

	side->run = run;
	side->n = 0;
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *sp = json_object_get(smp, "profile"), *v;

		if (!json_is_object(json_object_get(sp, group)) || side->n == ZC_SAMPLES_MAX)
			continue;
		v = json_object_get(json_object_get(sp, group), key);
		side->v[side->n++] = json_is_number(v) ? json_number_value(v) : 0;
	}
	if (!side->n && p) {
		json_t *v = json_object_get(json_object_get(p, group), key);

		side->v[side->n++] = json_is_number(v) ? json_number_value(v) : 0;
	}
	zc_summarize(side->v, side->n, &side->s);
}

struct line {
	const char *group, *key;
	double base, top;
};

static int by_base(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void verdict(const struct zc_cmp *c, const struct zc_cmp_side *b,
		    const struct zc_cmp_side *n, struct zc_cmp_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->change = n->s.mean - b->s.mean;	/* points: the shares are percent */
	v->tested = !zc_mann_whitney(b->v, b->n, n->v, n->n, &v->t);
	v->t.kind = ZC_TEST_MWU;
	v->significant = v->tested && v->t.p < c->alpha;
	v->robot = b->n && n->n && (n->s.median < b->s.min || n->s.median > b->s.max) &&
		   (b->s.median < n->s.min || b->s.median > n->s.max);
}

/* The lines of one group ("children", "self", "buckets") worth printing. */
static size_t collect(json_t *const *runs, int nfiles, const char *group, struct line *out,
		      size_t max)
{
	json_t *seen = json_object();
	size_t n = 0;

	for (int fi = 0; fi < nfiles; fi++) {
		const char *k;
		json_t *v;

		json_object_foreach(json_object_get(zc_an_profile(runs[fi]), group), k, v) {
			if (json_object_get(seen, k) || n == max)
				continue;
			json_object_set_new(seen, k, json_true());
			out[n++] = (struct line){ group, k, 0, 0 };
		}
	}
	for (size_t i = 0; i < n; i++) {
		for (int fi = 0; fi < nfiles; fi++) {
			json_t *v = json_object_get(json_object_get(zc_an_profile(runs[fi]), group),
						    out[i].key);
			double x = json_is_number(v) ? json_number_value(v) : 0;

			if (fi == 0)
				out[i].base = x;
			out[i].top = fmax(out[i].top, x);
		}
	}
	json_decref(seen);
	qsort(out, n, sizeof(*out), by_base);
	return n;
}

int zc_cmp_profile_rows(FILE *f, const struct zc_cmp *c, json_t *const *runs, const char *name)
{
	static const char *const groups[] = { "buckets", "children", "self" };
	static struct zc_cmp_side sides[ZC_COMPARE_FILES_MAX];
	static struct line lines[512];
	int rows = 0, profiled = 0;

	for (int fi = 0; fi < c->nfiles; fi++)
		profiled += runs[fi] && zc_an_profile(runs[fi]);
	if (!runs[0] || !zc_an_profile(runs[0]) || profiled < 2)
		return 0;
	for (size_t g = 0; g < ZC_ARRAY_SIZE(groups); g++) {
		size_t n = collect(runs, c->nfiles, groups[g], lines, ZC_ARRAY_SIZE(lines)), shown = 0;

		for (size_t i = 0; i < n && shown < MAX_LINES; i++) {
			struct zc_metric m = { .key = lines[i].key, .unit = "%",
					       .better = ZC_BETTER_NEITHER };
			struct zc_cmp_notes notes = { "", 0 };
			char full[600], key[400];
			bool moved = false;

			if (lines[i].top < MIN_SHARE_PCT)
				continue;
			/* Buckets get a name in the same dotted style. */
			if (!strcmp(groups[g], "buckets"))
				snprintf(key, sizeof(key), "profile-bucket.%s", lines[i].key);
			else
				snprintf(key, sizeof(key), "%s", lines[i].key);
			m.key = key;
			snprintf(full, sizeof(full), "%s.%s", name, key);
			/* Every side's values first: a symbol line is shown only when
			 * its share moved (the robot's way); buckets always. */
			for (int fi = 0; fi < c->nfiles; fi++) {
				memset(&sides[fi], 0, sizeof(sides[fi]));
				if (runs[fi] && zc_an_profile(runs[fi]))
					values(runs[fi], groups[g], lines[i].key, &sides[fi]);
				if (fi && sides[fi].n &&
				    fabs(sides[fi].s.mean - sides[0].s.mean) >= MIN_CHANGE_PTS)
					moved = true;
			}
			if (!moved && g)
				continue;
			c->layout->row_base(f, c, &m, full, &sides[0]);
			for (int fi = 1; fi < c->nfiles; fi++) {
				struct zc_cmp_verdict v;

				if (!sides[fi].n) {
					c->layout->row_cell(f, c, &m, &sides[0], &sides[fi], NULL, &notes);
					continue;
				}
				verdict(c, &sides[0], &sides[fi], &v);
				c->layout->row_cell(f, c, &m, &sides[0], &sides[fi], &v, &notes);
			}
			c->layout->row_end(f, c, full, &notes);
			shown++;
			rows++;
		}
	}
	return rows;
}
