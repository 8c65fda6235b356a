// SPDX-License-Identifier: GPL-2.0
/*
 * Request/response pictures of the newest file (traffic = rr, issue 23):
 *
 * rr_crossover: where splice meets copy. Each headline ratio of a mode over
 * its own vs (splice/copy, haproxy-splice/haproxy-copy, whatever pairs the
 * file's runs make) against the object size, one line per program and run
 * shape (keep-alive or churn, pipe pool or none), with the headline's 95%
 * interval. At one object size every transaction moves the same bytes, so
 * the headline's ratio of Gbit/s per core is the ratio of transactions per
 * core (tps_per_core). A line is drawn through one size or more.
 *
 * rr_latency: latency against percentile on the HdrHistogram "nines" axis
 * (x = 1 / (1 - q): 90% at 10, 99% at 100 ...), a line per run and object
 * size, from the run's merged histogram (latency_merged.histogram).
 *
 * Without rr runs neither picture is drawn and an old one is removed.
 */
#include "results/results.h"
#include "plot/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NINES_MAX 1e4	/* 99.99% */

struct xpt {
	char line[256];
	long long size;
	struct zc_ratio r;
};

static bool is_rr(json_t *run)
{
	return !strcmp(zc_an_str(json_object_get(run, "key"), "traffic"), "rr");
}

static int cmp_xpt(const void *a, const void *b)
{
	const struct xpt *p = a, *q = b;
	int c = strcmp(p->line, q->line);

	return c ? c : (p->size > q->size) - (p->size < q->size);
}

static int crossover(struct plot_ctx *c, json_t *root)
{
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), 0, &pv), m = 0;
	struct xpt *v = calloc(n ? n : 1, sizeof(*v));
	char extra[64];
	int lines = 0;
	FILE *f = NULL;

	if (!v) {
		zc_err("plot: out of memory");
		free(pv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_object_get(pv[i].run, "key");
		long long pool = zc_an_int(k, "pipe_pool");
		char pp[40] = "";

		/* What splice is worth per program: a mode over its own vs. */
		if (!is_rr(pv[i].run) || pv[i].peer != pv[i].mode->vs || !zc_an_int(k, "object_size"))
			continue;
		zc_an_ratio(pv[i].run, pv[i].peer_run, &v[m].r);
		if (isnan(v[m].r.value))
			continue;
		if (pool)
			snprintf(pp, sizeof(pp), "; pipe pool %lld", pool);
		snprintf(v[m].line, sizeof(v[m].line), "%s; %s%s; %lld conn", pv[i].name,
			 json_is_true(json_object_get(k, "churn")) ? "churn" : "keep-alive", pp,
			 zc_an_int(k, "connections"));
		v[m].size = zc_an_int(k, "object_size");
		m++;
	}
	qsort(v, m, sizeof(*v), cmp_xpt);
	for (size_t i = 0; i < m; i++) {
		struct zc_ratio *r = &v[i].r;

		if (!f && !(f = zc_plot_csv(c, "rr_crossover")))
			break;
		if (!i || strcmp(v[i].line, v[i - 1].line))
			fprintf(f, "%s\"%s\",ratio,lo,hi\n", lines++ ? "\n\n" : "", v[i].line);
		fprintf(f, "%lld,%.6g,%.6g,%.6g\n", v[i].size, r->value,
			isnan(r->lo) ? r->value : r->lo, isnan(r->hi) ? r->value : r->hi);
	}
	free(v);
	free(pv);
	if (!f && m) {	/* its CSV could not be written (said) */
		zc_plot_drop(c, "rr_crossover");
		return -1;
	}
	if (!f) {
		zc_plot_skip(c, "rr_crossover", "no request/response runs (make bench-rr)");
		return 0;
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d", lines);
	return zc_plot_both(c, "rr_crossover", extra, c->caption) ? -1 : 0;
}

/* One run's merged histogram as (latency us, nines) rows, the block's title
 * first. Buckets are [value_ns, count] in rising value. How many rows. */
static int latency_block(FILE *f, json_t *run, int block)
{
	json_t *lm = json_object_get(run, "latency_merged");
	json_t *b = json_object_get(json_object_get(lm, "histogram"), "buckets"), *e;
	double total = 0, cum = 0;
	char sz[24];
	size_t i;
	int rows = 0;

	json_array_foreach(b, i, e)
		total += json_number_value(json_array_get(e, 1));
	if (total <= 0)
		return 0;
	zc_fmt_size(zc_an_int(json_object_get(run, "key"), "object_size"), sz, sizeof(sz));
	fprintf(f, "%s\"%s %s\",nines\n", block ? "\n\n" : "", zc_an_str(run, "name"), sz);
	json_array_foreach(b, i, e) {
		double us = json_number_value(json_array_get(e, 0)) / 1000;
		double q = cum / total, x = q < 1 - 1 / NINES_MAX ? 1 / (1 - q) : NINES_MAX;

		/* The step at each bucket: the fraction below it, then with it. */
		fprintf(f, "%.6g,%.6g\n", us, x);
		cum += json_number_value(json_array_get(e, 1));
		q = cum / total;
		x = q < 1 - 1 / NINES_MAX ? 1 / (1 - q) : NINES_MAX;
		fprintf(f, "%.6g,%.6g\n", us, x);
		rows += 2;
	}
	return rows;
}

static int latency(struct plot_ctx *c, json_t *root)
{
	json_t *run;
	size_t i;
	int lines = 0;
	char extra[64];
	FILE *f = NULL;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		if (!is_rr(run) || !json_object_get(run, "latency_merged"))
			continue;
		if (!f && !(f = zc_plot_csv(c, "rr_latency")))
			return -1;
		if (lines < MAX_SERIES && latency_block(f, run, lines))
			lines++;
	}
	if (!f || !lines) {
		if (f)
			fclose(f);
		zc_plot_skip(c, "rr_latency", "no request/response latency histogram (make bench-rr)");
		return 0;
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d", lines);
	return zc_plot_both(c, "rr_latency", extra, c->caption) ? -1 : 0;
}

int zc_plot_rr(struct plot_ctx *c)
{
	json_t *root = c->roots[c->latest];

	return crossover(c, root) || latency(c, root) ? -1 : 0;
}
