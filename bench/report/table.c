// SPDX-License-Identifier: GPL-2.0
/*
 * The human table of runs and the headline ratios, as run prints them. The
 * metric columns and their formats are the list's (metrics/metrics.c).
 */
#include "report/table.h"
#include "report/saturation.h"
#include "metrics/metrics.h"
#include "results/results.h"
#include "lib/term.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* present: a mask of 1 << ZC_COL_PRESENT, 1 << ZC_COL_RR (have_present_cols) */
static bool col_shown(const struct zc_metric *m, int present)
{
	return m->col.show == ZC_COL_ALWAYS ||
	       ((m->col.show == ZC_COL_PRESENT || m->col.show == ZC_COL_RR) &&
		(present & (1 << m->col.show)));
}

/* The ZC_COL_PRESENT (ZC_COL_RR) columns are shown when some run has one of them. */
static int have_present_cols(json_t *runs)
{
	size_t i;
	json_t *run;
	int mask = 0;

	json_array_foreach(runs, i, run)
		zc_for_each_metric(m)
			if ((m->col.show == ZC_COL_PRESENT || m->col.show == ZC_COL_RR) &&
			    json_object_get(json_object_get(run, "summary"), m->key))
				mask |= 1 << m->col.show;
	return mask;
}

static int col_width(const struct zc_metric *m)
{
	int w = (int)strlen(m->col.head);

	return m->col.width > w ? m->col.width : w;
}

/* The sd% beside a range column: stddev in percent of the median. */
#define SD_HEAD "sd%"
#define SD_WIDTH 7

static void print_heads(FILE *f, int present)
{
	zc_for_each_metric(m) {
		if (!col_shown(m, present))
			continue;
		fprintf(f, " %*s", col_width(m), m->col.head);
		if (m->col.range)
			fprintf(f, " %*s", SD_WIDTH, SD_HEAD);
	}
}

/* One metric's cell of a run: the scaled median ("median [min-max]" for a
 * range column), "-" where there is none. */
static void metric_cell(const struct zc_metric *m, json_t *run, char *cell, size_t len)
{
	json_t *sm = json_object_get(json_object_get(run, "summary"), m->key);
	double scale = m->col.scale ? m->col.scale : 1, v = zc_an_real(sm, "median") * scale;
	char lo[32], hi[32], mid[32];

	snprintf(cell, len, "-");
	if (!isnan(v) && m->col.range) {
		snprintf(mid, sizeof(mid), m->col.fmt, v);
		snprintf(lo, sizeof(lo), m->col.fmt, json_number_value(json_object_get(sm, "min")) * scale);
		snprintf(hi, sizeof(hi), m->col.fmt, json_number_value(json_object_get(sm, "max")) * scale);
		snprintf(cell, len, "%6s [%s-%s]", mid, lo, hi);
	} else if (!isnan(v)) {
		snprintf(cell, len, m->col.fmt, v);
	}
}

/* One run's metric cells, each range column with its sd%. */
static void print_cells(FILE *f, json_t *run, int present)
{
	zc_for_each_metric(m) {
		json_t *sm = json_object_get(json_object_get(run, "summary"), m->key);
		double scale = m->col.scale ? m->col.scale : 1, v = zc_an_real(sm, "median") * scale;
		char cell[128];

		if (!col_shown(m, present))
			continue;
		metric_cell(m, run, cell, sizeof(cell));
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

/* Connections and workers get a column once some run has more than one. */
static bool many_conns(json_t *runs)
{
	size_t i;
	json_t *run;
	bool many = false;

	json_array_foreach(runs, i, run)
		many |= zc_an_int(json_object_get(run, "key"), "connections") > 1 ||
			zc_an_int(json_object_get(run, "key"), "workers") > 1;
	return many;
}

/* "send>copy>recv"; a run whose DUT took turns with another mode (alternate)
 * shows both, "send>copy|splice>recv": its whole-window figures mix them.
 * Request/response: "rr 64k>splice pool churn" (object size, proxy mode, a
 * pipe pool, a connection per request). */
static void run_path(json_t *run, char *path, size_t len)
{
	static const char *const roles[] = { "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key");
	const char *alt = zc_an_str(json_object_get(run, "options"), "alternate");
	bool proxy = !strcmp(zc_an_str(k, "topology"), "proxy");
	FILE *m;

	if (!strcmp(zc_an_str(k, "traffic"), "rr")) {
		char sz[24];

		zc_fmt_size(zc_an_int(k, "object_size"), sz, sizeof(sz));
		snprintf(path, len, "rr %s%s%s%s%s", zc_an_str(k, "object_sizes_file")[0] ? "file" : sz,
			 proxy ? ">" : "", proxy ? zc_an_str(k, "proxy") : "",
			 zc_an_int(k, "pipe_pool") ? " pool" : "",
			 json_is_true(json_object_get(k, "churn")) ? " churn" : "");
		return;
	}
	m = fmemopen(path, len, "w");
	path[0] = 0;
	if (!m)
		return;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(roles); i++) {
		if (i == 1 && !proxy)
			continue;
		fprintf(m, "%s%s", i ? ">" : "", zc_an_str(k, roles[i]));
		if (*alt && !strcmp(roles[i], zc_an_dut_role(run)))
			fprintf(m, "|%s", alt);
	}
	fputc(0, m);
	fclose(m);
	path[len - 1] = 0;
}

static void run_conns(json_t *k, char *cw, size_t len)
{
	snprintf(cw, len, "%lld/%lld", zc_an_int(k, "connections") ?: 1, zc_an_int(k, "workers") ?: 1);
}

/* "ok peer emulated unverified (2 disturbed left out)"; brief (the narrow
 * table, whose footer says they are left out): "(2 disturbed)". */
static void run_status(json_t *run, char *st, size_t len, bool brief)
{
	int k;

	/* Unverified where there are figures (a run without an ok sample has none). */
	k = snprintf(st, len, "%s%s%s%s", zc_an_str(run, "status"),
		     json_object_get(run, "peer") ? " peer" : "",
		     json_is_true(json_object_get(run, "emulated")) ? " emulated" : "",
		     json_is_false(json_object_get(run, "verified")) && has_ok(run) ? " unverified" : "");
	if (zc_an_int(run, "disturbed_left_out") && k > 0 && (size_t)k < len)
		snprintf(st + k, len - k, brief ? " (%lld disturbed)" : " (%lld disturbed left out)",
			 zc_an_int(run, "disturbed_left_out"));
}

/* Every column: the run's key columns, one per metric of the list that has one. */
static void print_wide(FILE *f, json_t *runs)
{
	size_t i;
	json_t *run;
	int present = have_present_cols(runs);
	bool many = many_conns(runs);

	fprintf(f, "%-22s %-6s %-26s %6s %5s", "run", "topo", "source>proxy>sink", "chunk", "pipe");
	if (many)
		fprintf(f, " %9s", "conn/wkrs");
	print_heads(f, present);
	fprintf(f, "  %s\n", "status");
	json_array_foreach(runs, i, run) {
		json_t *k = json_object_get(run, "key");
		char path[96], chunk[24], pipe[24], st[160], note[320];

		run_path(run, path, sizeof(path));
		zc_an_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
		zc_an_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
		fprintf(f, "%-22.22s %-6s %-26.26s %6s %5s", zc_an_str(run, "name"),
			zc_an_str(k, "topology"), path, chunk, pipe);
		if (many) {
			char cw[32];

			run_conns(k, cw, sizeof(cw));
			fprintf(f, " %9s", cw);
		}
		print_cells(f, run, present);
		run_status(run, st, sizeof(st), false);
		fprintf(f, "  %s\n", st);
		if (json_is_string(json_object_get(run, "reason")))
			fprintf(f, "%-22s   reason: %s\n", "", zc_an_str(run, "reason"));
		if (zc_run_unsaturated(run, true, note, sizeof(note)))
			fprintf(f, "%-22s   note: %s\n", "", note);
	}
}

/*
 * The narrow table: run, path, chunk (connections/workers when some run has
 * more than one), the metrics the list marks narrow, status. Each column as
 * wide as its widest cell; while the row is wider than width, the widest of
 * the text columns (run, path, status) gives a character, down to a floor,
 * and its cells are cut with the mark. Numbers are never cut. Before any
 * cut, a column that holds one value in every row (chunk, conn/wkrs: a
 * request/response sweep differs by object size only) leaves the table for
 * a line above it ("every run: chunk 64k, conn/wkrs 8/1").
 */
#define NCOL_MAX 16
#define CELL_LEN 96

struct ncol {
	const char *head;
	int w, floor;	/* floor 0: never cut */
	bool right, same;	/* same: may leave for the line above when one value */
	bool hidden;
};

static void put_row(FILE *f, const struct ncol *col, int ncol, char cells[][CELL_LEN], int width)
{
	char line[NCOL_MAX * (CELL_LEN + 8)], fit[sizeof(line)];
	FILE *m = fmemopen(line, sizeof(line), "w");

	if (!m)
		return;
	for (int c = 0; c < ncol; c++) {
		if (col[c].hidden)
			continue;
		fputs(!c ? "" : c == ncol - 1 ? "  " : " ", m);
		if (c == ncol - 1)
			fputs(cells[c], m);
		else
			zc_put_cell(m, cells[c], col[c].w, col[c].right);
	}
	fputc(0, m);
	fclose(m);
	/* Floors wider than a very narrow terminal: still one line. */
	zc_elide(fit, sizeof(fit), line, width);
	fprintf(f, "%s\n", fit);
}

/* Hide each "same" column whose rows (1..nruns) all hold one value and
 * print them on one line; whether one went. */
static bool move_same_cols(FILE *f, struct ncol *col, int ncol, char (*cells)[NCOL_MAX][CELL_LEN],
			   size_t nruns)
{
	bool any = false;

	for (int c = 0; c < ncol && nruns > 1; c++) {
		bool one = col[c].same;

		for (size_t i = 2; one && i <= nruns; i++)
			one = !strcmp(cells[i][c], cells[1][c]);
		if (!one)
			continue;
		fprintf(f, "%s%s %s", any ? ", " : "every run: ", col[c].head, cells[1][c]);
		col[c].hidden = any = true;
	}
	if (any)
		fputc('\n', f);
	return any;
}

static void print_narrow(FILE *f, json_t *runs, int width)
{
	struct ncol col[NCOL_MAX];
	const struct zc_metric *met[NCOL_MAX];
	size_t nruns = json_array_size(runs), i;
	char (*cells)[NCOL_MAX][CELL_LEN] = calloc(nruns + 1, sizeof(*cells));
	int ncol = 0, nmet = 0, total, c_run, c_path, c_status, present = have_present_cols(runs);
	bool many = many_conns(runs);
	json_t *run;

	if (!cells)
		return;
	c_run = ncol;
	col[ncol++] = (struct ncol){ .head = "run", .floor = 8 };
	c_path = ncol;
	col[ncol++] = (struct ncol){ .head = "path", .floor = 8 };
	col[ncol++] = (struct ncol){ .head = "chunk", .right = true, .same = true };
	if (many)
		col[ncol++] = (struct ncol){ .head = "conn/wkrs", .right = true, .same = true };
	zc_for_each_metric(m)
		if (m->col.narrow && ncol < NCOL_MAX - 1 && (m->col.show == ZC_COL_ALWAYS ||
		    (m->col.show == ZC_COL_RR && col_shown(m, present)))) {
			met[nmet++] = m;
			col[ncol++] = (struct ncol){ .head = m->col.head, .right = true };
		}
	c_status = ncol;
	/* "ok (12 disturbed)" whole before run and path give more */
	col[ncol++] = (struct ncol){ .head = "status", .floor = 17 };
	json_array_foreach(runs, i, run) {
		json_t *k = json_object_get(run, "key");
		char (*cell)[CELL_LEN] = cells[i + 1];
		int c = 0;

		snprintf(cell[c++], CELL_LEN, "%s", zc_an_str(run, "name"));
		run_path(run, cell[c++], CELL_LEN);
		zc_an_fmt_size(zc_an_int(k, "chunk"), cell[c++], CELL_LEN);
		if (many)
			run_conns(k, cell[c++], CELL_LEN);
		for (int j = 0; j < nmet; j++)
			metric_cell(met[j], run, cell[c++], CELL_LEN);
		run_status(run, cell[c++], CELL_LEN, true);
	}
	for (int c = 0; c < ncol; c++) {
		snprintf(cells[0][c], CELL_LEN, "%s", col[c].head);
		for (i = 0; i <= nruns; i++)
			if (zc_text_cols(cells[i][c]) > col[c].w)
				col[c].w = zc_text_cols(cells[i][c]);
	}
	for (bool moved = false;;) {
		int widest = -1, cand[] = { c_run, c_path, c_status };

		total = 0;	/* the spaces between, two before status */
		for (int c = 0; c < ncol; c++)
			total += col[c].hidden ? 0 : col[c].w + 1;
		if (total <= width)
			break;
		if (!moved) {	/* one-value columns go above before a cell is cut */
			moved = true;
			if (move_same_cols(f, col, ncol, cells, nruns))
				continue;
		}
		for (size_t j = 0; j < ZC_ARRAY_SIZE(cand); j++)
			if (col[cand[j]].w > col[cand[j]].floor &&
			    (widest < 0 || col[cand[j]].w > col[widest].w))
				widest = cand[j];
		if (widest < 0)
			break;
		col[widest].w--;
	}
	/* The status is last: cut to its column, not padded. */
	for (i = 0; i <= nruns; i++)
		zc_elide(cells[i][c_status], CELL_LEN, cells[i][c_status], col[c_status].w);
	put_row(f, col, ncol, cells[0], width);
	json_array_foreach(runs, i, run) {
		char reason[1024];
		const char *r = zc_an_str(run, "reason");

		put_row(f, col, ncol, cells[i + 1], width);
		if (zc_run_unsaturated(run, true, reason, sizeof(reason) - 8)) {
			memmove(reason + 8, reason, strlen(reason) + 1);
			memcpy(reason, "  note: ", 8);
			zc_put_fitted(f, reason, width, 4);
		}
		if (!json_is_string(json_object_get(run, "reason")))
			continue;
		/* One line per part ("proxy: ...; sink: ..."), so a part that
		 * fits stays whole for whoever greps the log for it. */
		for (bool first = true; *r; first = false) {
			const char *end = strstr(r, "; ");
			int len = end ? (int)(end - r) : (int)strlen(r);

			snprintf(reason, sizeof(reason), "%s%.*s", first ? "  reason: " : "    ", len, r);
			zc_put_fitted(f, reason, width, 4);
			r += len + (end ? 2 : 0);
		}
	}
	free(cells);
}

void zc_print_table(FILE *f, json_t *runs, int width)
{
	if (width > 0)
		print_narrow(f, runs, width);
	else
		print_wide(f, runs);
}

/* "1.87x [1.80-1.93] +-3.5%" and what the interval says; brief: without the
 * two Gbps per core (the narrow table above has them) and "paired" (the
 * header says a ratio is paired unless it says unpaired), so the line fits
 * 100 columns with the half-width. */
static void print_ratio(FILE *f, json_t *h, bool brief)
{
	json_t *lo = json_object_get(h, "lo"), *hi = json_object_get(h, "hi");
	json_t *hw = json_object_get(h, "half_width_pct");
	double v = json_number_value(json_object_get(h, "value"));
	char ci[48] = "", how[160] = "", hws[24] = "";

	if (json_is_number(hw))
		snprintf(hws, sizeof(hws), json_number_value(hw) < 9.95 ? "+-%.1f%% " : "+-%.0f%% ",
			 json_number_value(hw));
	if (json_is_number(lo) && json_is_number(hi)) {
		double l = json_number_value(lo), u = json_number_value(hi);
		const char *m = zc_an_str(h, "method");
		char words[48];

		snprintf(ci, sizeof(ci), "[%.2f-%.2f]", l, u);
		snprintf(how, sizeof(how), "%s%s%sn=%lld, %s", hws,
			 brief && !strcmp(m, "paired") ? "" : m,
			 brief && !strcmp(m, "paired") ? "" : " ", zc_an_int(h, "n"),
			 zc_ratio_words(zc_an_str(h, "answer"), v, words, sizeof(words)));
	} else if (json_object_get(h, "method")) {
		snprintf(how, sizeof(how), "%s n=%lld: too few repetitions for an interval",
			 zc_an_str(h, "method"), zc_an_int(h, "n"));
		if (brief)
			snprintf(how, sizeof(how), "%s n=%lld, no interval", zc_an_str(h, "method"),
				 zc_an_int(h, "n"));
	}
	if (zc_an_int(h, "disturbed_left_out"))
		snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s%lld disturbed left out",
			 how[0] ? ", " : "", zc_an_int(h, "disturbed_left_out"));
	if (brief) {
		fprintf(f, "%6.2fx %-13s %s\n", v, ci, how);
		return;
	}
	fprintf(f, "%6.2fx %-13s (%.2f vs %.2f Gbps/core%s%s)\n", v, ci,
		json_number_value(json_object_get(h, "numerator_gbps_per_core")),
		json_number_value(json_object_get(h, "denominator_gbps_per_core")),
		how[0] ? "; " : "", how);
}

/* One ratio's line: name, chunk, pipe (connections/workers), the ratio. */
static void print_headline_row(FILE *f, json_t *h, int namew, bool many, bool brief)
{
	char chunk[24], pipe[24], name[48];
	json_t *v = json_object_get(h, "value");

	zc_an_fmt_size(zc_an_int(h, "chunk"), chunk, sizeof(chunk));
	zc_an_fmt_size(zc_an_int(h, "pipe_size"), pipe, sizeof(pipe));
	snprintf(name, sizeof(name), "%s%s%s", zc_an_str(h, "ratio"),
		 *zc_an_str(h, "aa_side") ? " " : "", zc_an_str(h, "aa_side"));
	fprintf(f, "  %-*s chunk %-5s pipe %-5s ", namew, name, chunk, pipe);
	if (many) {
		char cw[32];

		/* Pairs differ only by these when a file sweeps them. */
		snprintf(cw, sizeof(cw), "%lld/%lld", zc_an_int(h, "connections") ?: 1,
			 zc_an_int(h, "workers") ?: 1);
		fprintf(f, "conn/wkrs %-9s ", cw);
	}
	if (*zc_an_str(h, "rr"))	/* request/response pairs differ by object size ... */
		fprintf(f, "%s ", zc_an_str(h, "rr") + 3);
	/* A ratio from a sink that did not check the bytes says so first. */
	if (json_is_false(json_object_get(h, "verified")))
		fprintf(f, "UNVERIFIED ");
	if (json_is_number(v))
		print_ratio(f, h, brief);
	else if (zc_an_int(h, "disturbed_left_out"))
		fprintf(f, "   n/a  (a side has no undisturbed sample: %lld disturbed left out%s)\n",
			zc_an_int(h, "disturbed_left_out"), brief ? "" : ", foreign_max = 100% keeps them");
	else
		fprintf(f, "   n/a  (a side has no successful sample)\n");
}

/* Each side's DUT busy fraction from a headline row (saturation.h). */
static void print_busy(FILE *f, json_t *h, int width)
{
	zc_print_busy_pair(f, zc_an_real(h, "numerator_busy_frac"),
			   zc_an_real(h, "denominator_busy_frac"), width, false);
}

void zc_print_headline(FILE *f, json_t *headline, json_t *runs, int width)
{
	json_t *h, *run;
	size_t i;
	int namew = 27;
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
		"geometric mean of the per-round ratios (paired) or ratio of the geometric "
		"means (unpaired), 95% interval (t on the logs; none below 3), +-: its half-width "
		"in % of the ratio, then what it says against 1.0+-5%" :
		"median of repetitions");
	json_array_foreach(headline, i, h)
		many |= (zc_an_int(h, "connections") ?: 1) > 1 || (zc_an_int(h, "workers") ?: 1) > 1;
	if (width > 0) {
		/* Narrow: the names as wide as the longest (A/A side included). */
		namew = 10;
		json_array_foreach(headline, i, h) {
			int n = zc_text_cols(zc_an_str(h, "ratio")) + 2;

			namew = n > namew ? n : namew;
		}
	}
	json_array_foreach(headline, i, h) {
		char line[512];
		FILE *m = width > 0 ? fmemopen(line, sizeof(line), "w") : NULL;

		if (!m) {
			print_headline_row(f, h, namew, many, false);
		} else {
			/* Narrow: the row broken at spaces past the width, never
			 * cut (the ratio and its interval come first). */
			print_headline_row(m, h, namew, many, true);
			fputc(0, m);
			fclose(m);
			zc_put_fitted(f, line, width, 6);
		}
		print_busy(f, h, width);
	}
	if (intervals)
		fprintf(f, "disturbed samples left out: %lld of %lld (of the summaries and of every "
			"ratio their run is in)\n", disturbed, nsamples);
}

/* "3 min 10 s" or "42 s". */
static void fmt_secs(double s, char *buf, size_t len)
{
	if (s >= 60)
		snprintf(buf, len, "%d min %d s", (int)(s / 60), (int)fmod(s, 60));
	else
		snprintf(buf, len, "%.0f s", s);
}

/* repetitions = auto: each question where it stopped, in words. */
static void print_questions(FILE *f, json_t *sched)
{
	json_t *q;
	size_t i;

	json_array_foreach(json_object_get(sched, "questions"), i, q) {
		const char *ans = zc_an_str(q, "answer");
		char words[64];
		double v = json_number_value(json_object_get(q, "value"));

		if (!json_is_number(json_object_get(q, "lo"))) {
			long long dl = zc_an_int(q, "disturbed_left_out");

			fprintf(f, "  %s: can't tell: no interval (%lld complete pairs", zc_an_str(q, "question"),
				zc_an_int(q, "rounds"));
			if (dl)
				fprintf(f, "; %lld disturbed samples left out", dl);
			fprintf(f, ")\n");
			continue;
		}
		fprintf(f, "  %s: %s after %lld rounds: %.2fx [%.2f-%.2f] %s (95%% over the looks: "
			"this look's interval at %.2f%%)", zc_an_str(q, "question"),
			strcmp(ans, "cant_tell") ? "decided" : "can't tell", zc_an_int(q, "rounds"), v,
			json_number_value(json_object_get(q, "lo")),
			json_number_value(json_object_get(q, "hi")),
			zc_ratio_words(ans, v, words, sizeof(words)),
			100 * json_number_value(json_object_get(q, "level")));
		if (json_is_integer(json_object_get(q, "rounds_would_tell")))
			fprintf(f, "; about %lld more rounds would tell",
				zc_an_int(q, "rounds_would_tell") - zc_an_int(q, "rounds"));
		fprintf(f, "\n");
	}
}

void zc_print_schedule(FILE *f, json_t *sched)
{
	const char *stopped = zc_an_str(sched, "stopped");
	char took[32];

	if (!sched)
		return;
	fprintf(f, "order: %s", zc_an_str(sched, "order"));
	if (json_is_integer(json_object_get(sched, "order_seed")))
		fprintf(f, " (seed %lld)", zc_an_int(sched, "order_seed"));
	fprintf(f, ", %lld round%s, %lld samples", zc_an_int(sched, "rounds"),
		zc_an_int(sched, "rounds") == 1 ? "" : "s", zc_an_int(sched, "samples"));
	if (zc_an_int(sched, "retaken"))
		fprintf(f, " (%lld disturbed taken again)", zc_an_int(sched, "retaken"));
	fmt_secs(json_number_value(json_object_get(sched, "elapsed_s")), took, sizeof(took));
	if (json_is_string(json_object_get(sched, "repetitions")) &&
	    json_is_array(json_object_get(sched, "questions"))) {
		fprintf(f, "\nuntil decided at +-%.0f%% (decide = %s, at most %lld rounds",
			json_number_value(json_object_get(sched, "threshold_pct")),
			zc_an_str(sched, "decide"), zc_an_int(sched, "max_repetitions"));
		if (json_is_number(json_object_get(sched, "budget_s")))
			fprintf(f, ", budget %.0f s", json_number_value(json_object_get(sched, "budget_s")));
		fprintf(f, "): %s after %lld rounds, %s (%s)\n",
			!strcmp(stopped, "decided") ? "decided" : "stopped undecided",
			zc_an_int(sched, "rounds"), took,
			!strcmp(stopped, "decided") ? "every question answered" :
			!strcmp(stopped, "budget") ? "the budget ended" :
			!strcmp(stopped, "maximum") ? "max_repetitions reached" : stopped);
		print_questions(f, sched);
		if (!json_array_size(json_object_get(sched, "questions")) &&
		    json_is_string(json_object_get(sched, "why")))
			fprintf(f, "  no headline ratio: each run's half-width against %.1f%%: %s\n",
				json_number_value(json_object_get(sched, "ci_target_pct")),
				zc_an_str(sched, "why"));
		return;
	}
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

void zc_print_position(FILE *f, json_t *root)
{
	json_t *pe = zc_position_effect(root), *p;
	size_t i;

	if (!pe)
		return;
	fprintf(f, "position effect (%s order, %lld samples in %lld rounds, after run and round; "
		"residual sd %.1f%%):", zc_an_str(pe, "order"), zc_an_int(pe, "samples"),
		zc_an_int(pe, "rounds"), json_number_value(json_object_get(pe, "residual_sd_pct")));
	json_array_foreach(json_object_get(pe, "places"), i, p)
		fprintf(f, "%s place %lld %+.1f%% +-%.1f", i ? "," : "", zc_an_int(p, "place"),
			json_number_value(json_object_get(p, "effect_pct")),
			json_number_value(json_object_get(p, "se_pct")));
	fprintf(f, "\n");
	json_decref(pe);
}

void zc_print_headline_best(FILE *f, json_t *best, int width)
{
	json_t *h;
	size_t i;

	if (!json_array_size(best))
		return;
	fprintf(f, "\n" ZC_BEST_INTRO "\n");
	json_array_foreach(best, i, h) {
		json_t *num = json_object_get(h, "numerator"), *den = json_object_get(h, "denominator");
		char ns[48], ds[48];

		/* chunk/pipe of each side's best run, of how many sizes */
		fprintf(f, "  %-27s %schunk/pipe %s vs %s (best of %lld and %lld sizes)\n  %-27s ",
			zc_an_str(h, "ratio"),
			json_is_false(json_object_get(h, "verified")) ? "UNVERIFIED " : "",
			zc_an_size_of(num, ns, sizeof(ns)), zc_an_size_of(den, ds, sizeof(ds)),
			zc_an_int(h, "numerator_sizes"), zc_an_int(h, "denominator_sizes"), "");
		if (json_is_number(json_object_get(h, "value")))
			print_ratio(f, h, false);
		else
			fprintf(f, "   n/a  (a side has no successful sample)\n");
		print_busy(f, h, width);
	}
}
