// SPDX-License-Identifier: GPL-2.0
/*
 * Where splice starts to pay: every headline ratio of the newest file
 * of a mode over its own vs against the pipe size (at a fixed chunk) and
 * against the chunk (at a fixed pipe size), one line per ratio, so zcbench's splice/copy and
 * HAProxy's haproxy-splice/haproxy-copy are side by side (plots/sweep.gp;
 * workloads/splice-sweep.ini, make bench-sweep). A line is drawn only
 * through two sizes or more; without any, the picture is removed.
 */
#include "results/results.h"
#include "plot/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pt {
	const char *name;
	long long chunk, pipe;
	struct zc_ratio r;
};

static int cmp_x;	/* 0: by pipe size, 1: by chunk (qsort has no context) */

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;
	long long x = cmp_x ? p->chunk : p->pipe, y = cmp_x ? q->chunk : q->pipe;
	int c = strcmp(p->name, q->name);

	if (c)
		return c;
	if ((cmp_x ? p->pipe : p->chunk) != (cmp_x ? q->pipe : q->chunk))
		return (cmp_x ? p->pipe : p->chunk) < (cmp_x ? q->pipe : q->chunk) ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * One picture: by_chunk 0 draws against the pipe size (lines: a ratio at
 * one chunk), 1 against the chunk (lines: a ratio at one pipe size). 0, or
 * -1 (said).
 */
static int sweep_one(struct plot_ctx *c, struct pt *v, size_t n, int by_chunk)
{
	const char *name = by_chunk ? "sweep_chunk" : "sweep_pipe";
	char extra[256];
	int lines = 0;
	FILE *f = NULL;

	cmp_x = by_chunk;
	qsort(v, n, sizeof(*v), cmp_pt);
	for (size_t i = 0; i < n;) {
		size_t j = i, sizes = 1;
		long long fixed = by_chunk ? v[i].pipe : v[i].chunk;
		char sz[24];

		while (j < n && !strcmp(v[j].name, v[i].name) &&
		       (by_chunk ? v[j].pipe : v[j].chunk) == fixed) {
			/* Sorted by the x size: a new one wherever it changes. */
			sizes += j > i && (by_chunk ? v[j].chunk != v[j - 1].chunk :
					   v[j].pipe != v[j - 1].pipe);
			j++;
		}
		if (sizes >= 2) {
			if (!f && !(f = zc_plot_csv(c, name)))
				return -1;
			zc_an_fmt_size(fixed, sz, sizeof(sz));
			/* Each block's first row is its title (columnheader). */
			fprintf(f, "%s\"%s at %s %s\",ratio,lo,hi\n", lines ? "\n\n" : "", v[i].name,
				by_chunk ? "pipe" : "chunk", sz);
			for (size_t k = i; k < j; k++)
				fprintf(f, "%lld,%.6g,%.6g,%.6g\n", by_chunk ? v[k].chunk : v[k].pipe,
					v[k].r.value, isnan(v[k].r.lo) ? v[k].r.value : v[k].r.lo,
					isnan(v[k].r.hi) ? v[k].r.value : v[k].r.hi);
			lines++;
		}
		i = j;
	}
	if (!f) {
		zc_plot_skip(c, name, by_chunk ? "no headline ratio at two chunk sizes or more "
			     "(make bench-sweep)" : "no headline ratio at two pipe sizes or more "
			     "(make bench-sweep)");
		return 0;
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d", lines);
	return zc_plot_both(c, name, extra, c->caption) ? -1 : 0;
}

int zc_plot_sweep(struct plot_ctx *c)
{
	json_t *root = c->roots[c->latest];
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), 0, &pv), m = 0;
	struct pt *v = calloc(n ? n : 1, sizeof(*v));
	int ret = -1;

	if (!v) {
		zc_err("plot: out of memory");
		free(pv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_object_get(pv[i].run, "key");

		/* What splice is worth per program: a mode over its own vs
		 * (splice/copy, haproxy-splice/haproxy-copy), not zcbench over
		 * the real program (report and the ratio picture have those). */
		if (pv[i].peer != pv[i].mode->vs)
			continue;
		/* Request/response runs vary the object size: rr_crossover's. */
		if (!strcmp(zc_an_str(k, "traffic"), "rr"))
			continue;
		zc_an_ratio(pv[i].run, pv[i].peer_run, &v[m].r);
		if (isnan(v[m].r.value))
			continue;
		v[m].name = pv[i].name;
		v[m].chunk = pv[i].chunk;
		v[m].pipe = pv[i].pipe_size;
		m++;
	}
	if (!sweep_one(c, v, m, 0) && !sweep_one(c, v, m, 1))
		ret = 0;
	free(v);
	free(pv);
	return ret;
}
