// SPDX-License-Identifier: GPL-2.0
/*
 * The human table of runs and the headline ratios, as run prints them. The
 * metric columns and their formats are the list's (metrics/metrics.c).
 */
#include "output/table.h"
#include "metrics/metrics.h"
#include "results/results.h"

#include <math.h>
#include <string.h>

static double med(json_t *run, const char *metric)
{
	json_t *m = json_object_get(json_object_get(json_object_get(run, "summary"), metric),
				    "median");

	return json_is_number(m) ? json_number_value(m) : NAN;
}

static bool col_shown(const struct zc_metric *m, bool present)
{
	return m->col.show == ZC_COL_ALWAYS || (m->col.show == ZC_COL_PRESENT && present);
}

/* The ZC_COL_PRESENT columns are shown when some run has one of them. */
static bool have_present_cols(json_t *runs)
{
	size_t i;
	json_t *run;

	json_array_foreach(runs, i, run)
		zc_for_each_metric(m)
			if (m->col.show == ZC_COL_PRESENT &&
			    json_object_get(json_object_get(run, "summary"), m->key))
				return true;
	return false;
}

static int col_width(const struct zc_metric *m)
{
	int w = (int)strlen(m->col.head);

	return m->col.width > w ? m->col.width : w;
}

/* The sd% beside a range column: stddev in percent of the median. */
#define SD_HEAD "sd%"
#define SD_WIDTH 7

static void print_heads(FILE *f, bool present)
{
	zc_for_each_metric(m) {
		if (!col_shown(m, present))
			continue;
		fprintf(f, " %*s", col_width(m), m->col.head);
		if (m->col.range)
			fprintf(f, " %*s", SD_WIDTH, SD_HEAD);
	}
}

/* One run's metric cells: the scaled median, "-" where there is none. */
static void print_cells(FILE *f, json_t *run, bool present)
{
	zc_for_each_metric(m) {
		json_t *sm = json_object_get(json_object_get(run, "summary"), m->key);
		double scale = m->col.scale ? m->col.scale : 1, v = med(run, m->key) * scale;
		char cell[128] = "-", lo[32], hi[32], mid[32];

		if (!col_shown(m, present))
			continue;
		if (!isnan(v) && m->col.range) {
			snprintf(mid, sizeof(mid), m->col.fmt, v);
			snprintf(lo, sizeof(lo), m->col.fmt,
				 json_number_value(json_object_get(sm, "min")) * scale);
			snprintf(hi, sizeof(hi), m->col.fmt,
				 json_number_value(json_object_get(sm, "max")) * scale);
			snprintf(cell, sizeof(cell), "%6s [%s-%s]", mid, lo, hi);
		} else if (!isnan(v)) {
			snprintf(cell, sizeof(cell), m->col.fmt, v);
		}
		fprintf(f, " %*s", col_width(m), cell);
		if (!m->col.range)
			continue;
		if (isnan(v))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.1f",
				 100 * json_number_value(json_object_get(sm, "stddev")) * scale / v);
		fprintf(f, " %*s", SD_WIDTH, cell);
	}
}

/* The run's key columns, then one column per metric of the list that has one. */
/* The run has figures: at least one ok sample. */
static bool has_ok(json_t *run)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(run, "samples"), i, s)
		if (!strcmp(zc_an_str(s, "status"), "ok"))
			return true;
	return false;
}

void zc_print_table(FILE *f, json_t *runs)
{
	size_t i;
	json_t *run;
	bool present = have_present_cols(runs), many = false;

	/* Connections and workers get a column once some run has more than one. */
	json_array_foreach(runs, i, run)
		many |= zc_an_int(json_object_get(run, "key"), "connections") > 1 ||
			zc_an_int(json_object_get(run, "key"), "workers") > 1;
	fprintf(f, "%-22s %-6s %-26s %6s %5s", "run", "topo", "source>proxy>sink", "chunk", "pipe");
	if (many)
		fprintf(f, " %9s", "conn/wkrs");
	print_heads(f, present);
	fprintf(f, "  %s\n", "status");
	json_array_foreach(runs, i, run) {
		json_t *k = json_object_get(run, "key");
		char path[96], chunk[24], pipe[24];

		if (!strcmp(zc_an_str(k, "topology"), "proxy"))
			snprintf(path, sizeof(path), "%s>%s>%s", zc_an_str(k, "source"), zc_an_str(k, "proxy"),
				 zc_an_str(k, "sink"));
		else
			snprintf(path, sizeof(path), "%s>%s", zc_an_str(k, "source"), zc_an_str(k, "sink"));
		zc_fmt_size(json_integer_value(json_object_get(k, "chunk")), chunk, sizeof(chunk));
		zc_fmt_size(json_integer_value(json_object_get(k, "pipe_size")), pipe, sizeof(pipe));
		fprintf(f, "%-22.22s %-6s %-26.26s %6s %5s", zc_an_str(run, "name"),
			zc_an_str(k, "topology"), path, chunk, pipe);
		if (many) {
			char cw[32];

			snprintf(cw, sizeof(cw), "%lld/%lld", zc_an_int(k, "connections") ?: 1,
				 zc_an_int(k, "workers") ?: 1);
			fprintf(f, " %9s", cw);
		}
		print_cells(f, run, present);
		/* Unverified where there are figures (a run without an ok sample has none). */
		fprintf(f, "  %s%s%s%s", zc_an_str(run, "status"),
			json_object_get(run, "peer") ? " peer" : "",
			json_is_true(json_object_get(run, "emulated")) ? " emulated" : "",
			json_is_false(json_object_get(run, "verified")) && has_ok(run) ? " unverified"
											 : "");
		if (zc_an_int(run, "disturbed_left_out"))
			fprintf(f, " (%lld disturbed left out)", zc_an_int(run, "disturbed_left_out"));
		fprintf(f, "\n");
		if (json_is_string(json_object_get(run, "reason")))
			fprintf(f, "%-22s   reason: %s\n", "", zc_an_str(run, "reason"));
	}
}

/* "1.87x [1.80-1.93]" and what the interval says. */
static void print_ratio(FILE *f, json_t *h)
{
	json_t *lo = json_object_get(h, "lo"), *hi = json_object_get(h, "hi");
	double v = json_number_value(json_object_get(h, "value"));
	char ci[48] = "", how[160] = "";

	if (json_is_number(lo) && json_is_number(hi)) {
		double l = json_number_value(lo), u = json_number_value(hi);

		snprintf(ci, sizeof(ci), "[%.2f-%.2f]", l, u);
		snprintf(how, sizeof(how), "%s n=%lld, %s", zc_an_str(h, "method"),
			 zc_an_int(h, "n"), l <= 1 && 1 <= u ? "includes 1.0" : "excludes 1.0");
	} else if (json_object_get(h, "method")) {
		snprintf(how, sizeof(how), "%s n=%lld: too few repetitions for an interval",
			 zc_an_str(h, "method"), zc_an_int(h, "n"));
	}
	if (zc_an_int(h, "disturbed_left_out"))
		snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s%lld disturbed left out",
			 how[0] ? ", " : "", zc_an_int(h, "disturbed_left_out"));
	fprintf(f, "%6.2fx %-13s (%.2f vs %.2f Gbps/core%s%s)\n", v, ci,
		json_number_value(json_object_get(h, "numerator_gbps_per_core")),
		json_number_value(json_object_get(h, "denominator_gbps_per_core")),
		how[0] ? "; " : "", how);
}

void zc_print_headline(FILE *f, json_t *headline, json_t *runs)
{
	json_t *h, *run;
	size_t i;
	long long disturbed = 0, nsamples = 0;
	bool intervals = false, many = false;

	if (!json_array_size(headline))
		return;
	json_array_foreach(headline, i, h)
		intervals |= json_object_get(h, "lo") != NULL;
	/* Each sample once, however many ratios its run is part of. */
	json_array_foreach(runs, i, run) {
		disturbed += zc_an_int(run, "disturbed_left_out");
		nsamples += (long long)json_array_size(json_object_get(run, "samples"));
	}
	fprintf(f, "\nHeadline: Gbps per core, %s\n", intervals ?
		"median of the per-repetition ratios (paired) or ratio of the medians "
		"(unpaired), 95% bootstrap interval" : "median of repetitions");
	json_array_foreach(headline, i, h)
		many |= (zc_an_int(h, "connections") ?: 1) > 1 || (zc_an_int(h, "workers") ?: 1) > 1;
	json_array_foreach(headline, i, h) {
		char chunk[24], pipe[24], name[48];
		json_t *v = json_object_get(h, "value");

		zc_fmt_size(json_integer_value(json_object_get(h, "chunk")), chunk, sizeof(chunk));
		zc_fmt_size(json_integer_value(json_object_get(h, "pipe_size")), pipe, sizeof(pipe));
		snprintf(name, sizeof(name), "%s%s%s", zc_an_str(h, "ratio"),
			 *zc_an_str(h, "aa_side") ? " " : "", zc_an_str(h, "aa_side"));
		fprintf(f, "  %-27s chunk %-5s pipe %-5s ", name, chunk, pipe);
		if (many) {
			char cw[32];

			/* Pairs differ only by these when a file sweeps them. */
			snprintf(cw, sizeof(cw), "%lld/%lld", zc_an_int(h, "connections") ?: 1,
				 zc_an_int(h, "workers") ?: 1);
			fprintf(f, "conn/wkrs %-9s ", cw);
		}
		/* A ratio from a sink that did not check the bytes says so first. */
		if (json_is_false(json_object_get(h, "verified")))
			fprintf(f, "UNVERIFIED ");
		if (json_is_number(v))
			print_ratio(f, h);
		else if (zc_an_int(h, "disturbed_left_out"))
			fprintf(f, "   n/a  (a side has no undisturbed sample: %lld disturbed left out, "
				"foreign_max = 100%% keeps them)\n", zc_an_int(h, "disturbed_left_out"));
		else
			fprintf(f, "   n/a  (a side has no successful sample)\n");
	}
	if (intervals)
		fprintf(f, "disturbed samples left out: %lld of %lld (of the summaries and of every "
			"ratio their run is in)\n", disturbed, nsamples);
}

void zc_print_schedule(FILE *f, json_t *sched)
{
	const char *stopped = zc_an_str(sched, "stopped");

	if (!sched)
		return;
	fprintf(f, "order: %s", zc_an_str(sched, "order"));
	if (json_is_integer(json_object_get(sched, "order_seed")))
		fprintf(f, " (seed %lld)", zc_an_int(sched, "order_seed"));
	fprintf(f, ", %lld round%s, %lld samples", zc_an_int(sched, "rounds"),
		zc_an_int(sched, "rounds") == 1 ? "" : "s", zc_an_int(sched, "samples"));
	if (json_is_string(json_object_get(sched, "repetitions")))
		fprintf(f, "; repetitions = auto (target %.1f%%, at most %lld): stopped by %s%s%s",
			json_number_value(json_object_get(sched, "ci_target_pct")),
			zc_an_int(sched, "max_repetitions"), stopped,
			json_is_string(json_object_get(sched, "why")) ? ", " : "",
			zc_an_str(sched, "why"));
	else if (strcmp(stopped, "fixed"))
		fprintf(f, "; stopped: %s", stopped);
	fprintf(f, "\n");
}

void zc_print_headline_best(FILE *f, json_t *best)
{
	json_t *h;
	size_t i;

	if (!json_array_size(best))
		return;
	fprintf(f, "At each side's best size (the best median Gbps/core over the sizes run; the "
		"interval leaves the choice out):\n");
	json_array_foreach(best, i, h) {
		json_t *num = json_object_get(h, "numerator"), *den = json_object_get(h, "denominator");
		char nc[24], np[24], dc[24], dp[24], sides[160];

		zc_fmt_size(zc_an_int(num, "chunk"), nc, sizeof(nc));
		zc_fmt_size(zc_an_int(num, "pipe_size"), np, sizeof(np));
		zc_fmt_size(zc_an_int(den, "chunk"), dc, sizeof(dc));
		zc_fmt_size(zc_an_int(den, "pipe_size"), dp, sizeof(dp));
		snprintf(sides, sizeof(sides), "%s chunk %s pipe %s (best of %lld) vs %s chunk %s "
			 "pipe %s (best of %lld)",
			 zc_an_str(num, "run"), nc, np, zc_an_int(h, "numerator_sizes"),
			 zc_an_str(den, "run"), dc, dp, zc_an_int(h, "denominator_sizes"));
		fprintf(f, "  %-27s %s%s\n  %-27s ", zc_an_str(h, "ratio"),
			json_is_false(json_object_get(h, "verified")) ? "UNVERIFIED " : "", sides, "");
		if (json_is_number(json_object_get(h, "value")))
			print_ratio(f, h);
		else
			fprintf(f, "   n/a  (a side has no successful sample)\n");
	}
}
