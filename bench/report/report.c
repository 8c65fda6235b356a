// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench report FILE...: the mission's answer. Gbps-per-core ratios
 * (splice/copy on the proxy, tee/send on the source, and the other source
 * paths) with a 95% interval over repetitions (t on the logs of the
 * per-round ratios) and its answer against 1.0+-5%, the same ratios for the
 * "after" side where the file has runs of the modes declared after_of the
 * native one (mode.h), and the kernel fingerprint that says which side this
 * kernel is on. The pairs come from the headline engine (results/headline.c).
 */
#include "results/results.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/breakdown.h"
#include "report/saturation.h"
#include "report/table.h"
#include "report/slices.h"
#include "stats/stats.h"
#include "lib/opt.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v with sig significant figures, no exponent: 25.59 -> "25.6", 0.1799 -> "0.18". */
static const char *fmt_sig(double v, int sig, char *buf, size_t len)
{
	int dec = isfinite(v) && v != 0 ? sig - 1 - (int)floor(log10(fabs(v))) : 0;

	if (!isfinite(v))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.*f", dec > 0 ? dec : 0, v);
	return buf;
}

/* A fingerprint scalar with its unit: strings bare, seconds and milliseconds
 * (the key's _s or _ms) to 3 significant figures with the unit. */
static void print_scalar(FILE *f, const char *k, json_t *v)
{
	size_t n = strlen(k);
	const char *unit = n > 3 && !strcmp(k + n - 3, "_ms") ? " ms" :
			   n > 2 && !strcmp(k + n - 2, "_s") ? " s" : "";
	char buf[64];

	if (json_is_string(v))
		fprintf(f, "    %-28s %s\n", k, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(f, "    %-28s %lld%s\n", k, (long long)json_integer_value(v), unit);
	else if (json_is_real(v))
		fprintf(f, "    %-28s %s%s\n", k, fmt_sig(json_real_value(v), 3, buf, sizeof(buf)),
			unit);
	else
		fprintf(f, "    %-28s %s\n", k, json_is_true(v) ? "true" : json_is_false(v) ? "false" :
			"null");
}

static void print_fingerprint(FILE *f, json_t *m)
{
	json_t *fp = json_object_get(m, "fingerprint"), *v;
	const char *k;
	size_t i;

	if (!json_is_object(fp)) {
		fprintf(f, "  kernel fingerprint: none recorded (null: this file predates "
			   "`zcbench probe`; before/after is not known from behaviour)\n");
		return;
	}
	fprintf(f, "  kernel fingerprint: %s\n", zc_an_str(fp, "id"));
	if (*zc_an_str(fp, "kernel_side"))
		fprintf(f, "    this kernel behaves like the %s side (vmsplice_state)\n",
			zc_an_str(fp, "kernel_side"));
	json_array_foreach(json_object_get(fp, "verdicts"), i, v)
		if (json_is_string(v))
			fprintf(f, "    - %s\n", json_string_value(v));
	json_object_foreach(json_object_get(fp, "scalars"), k, v)
		print_scalar(f, k, v);
	json_object_foreach(json_object_get(fp, "counts"), k, v)
		fprintf(f, "    %-28s %lld entries\n", k, (long long)json_integer_value(v));
}

/* Load and steal (results 1.9): the README quotes every figure with them. */
static void print_load(FILE *f, json_t *m)
{
	char line[256];

	fprintf(f, "  %s\n", zc_report_load_text(json_object_get(m, "load_avg"),
					       json_object_get(m, "steal_frac"), line, sizeof(line)));
}

/* "1.35x", "[0.67-2.72]" and the answer's words against 1.0 (the model's). */
static void ratio_cells(json_t *h, char *val, size_t vl, char *ci, size_t cl, char *words,
			size_t wl)
{
	double lo = zc_an_real(h, "lo"), hi = zc_an_real(h, "hi");

	snprintf(val, vl, "%.2fx", zc_an_real(h, "value"));
	if (isfinite(lo) && isfinite(hi))
		snprintf(ci, cl, "[%.2f-%.2f]", lo, hi);
	else
		snprintf(ci, cl, "no interval");
	snprintf(words, wl, "%s", zc_an_str(h, "answer_words"));
}

static void print_best(FILE *f, json_t *best, int width)
{
	json_t *h;
	size_t i;

	if (!json_array_size(best))
		return;
	fprintf(f, "\n  " ZC_BEST_INTRO "\n");
	json_array_foreach(best, i, h) {
		json_t *n = json_object_get(h, "numerator"), *d = json_object_get(h, "denominator");
		char ns[48], ds[48], val[24], ci[48], words[48], a[24], b[24], hw[24] = "";

		fprintf(f, "  %s%s: chunk/pipe %s vs %s (best of %lld and %lld sizes)\n",
			zc_an_str(h, "ratio"), json_is_false(json_object_get(h, "verified")) ?
			" UNVERIFIED" : "", zc_an_size_of(n, ns, sizeof(ns)),
			zc_an_size_of(d, ds, sizeof(ds)), zc_an_int(h, "numerator_sizes"),
			zc_an_int(h, "denominator_sizes"));
		if (!json_is_number(json_object_get(h, "value"))) {
			fprintf(f, "    n/a (a side has no successful sample)\n");
			continue;
		}
		ratio_cells(h, val, sizeof(val), ci, sizeof(ci), words, sizeof(words));
		if (json_is_number(json_object_get(h, "half_width_pct")))
			snprintf(hw, sizeof(hw), "+-%.0f%% ", zc_an_real(h, "half_width_pct"));
		fprintf(f, "    %s %s %s; %s vs %s Gbps/core, %s%s n=%lld\n", val, ci, words,
			fmt_sig(zc_an_real(h, "numerator_gbps_per_core"), 3, a, sizeof(a)),
			fmt_sig(zc_an_real(h, "denominator_gbps_per_core"), 3, b, sizeof(b)), hw,
			zc_an_str(h, "method"), zc_an_int(h, "n"));
		zc_print_busy_pair(f, zc_an_real(h, "numerator_busy_frac"),
				   zc_an_real(h, "denominator_busy_frac"), width, false);
	}
}

/* A ratio's group: name, side, modes and the sweep's point. */
static void group_name(json_t *h, char *buf, size_t len)
{
	int o = snprintf(buf, len, "%s (%s): %s over %s", zc_an_str(h, "ratio"), zc_an_str(h, "side"),
			 zc_an_str(h, "numerator_mode"), zc_an_str(h, "denominator_mode"));

	if ((zc_an_int(h, "connections") > 1 || zc_an_int(h, "workers") > 1) && o > 0 &&
	    (size_t)o < len)
		o += snprintf(buf + o, len - o, ", %lld conn, %lld workers",
			      zc_an_int(h, "connections"), zc_an_int(h, "workers"));
	if (*zc_an_str(h, "rr") && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - o, ", %s", zc_an_str(h, "rr"));
}

static void print_row(FILE *f, json_t *h, int width)
{
	char size[48], chunk[24], pipe[24], val[24], ci[48], words[48], a[24], b[24], nd[32];
	char gpc[56];
	long long nn = zc_an_int(h, "numerator_samples"), dn = zc_an_int(h, "denominator_samples");

	zc_an_fmt_size(zc_an_int(h, "chunk"), chunk, sizeof(chunk));
	zc_an_fmt_size(zc_an_int(h, "pipe_size"), pipe, sizeof(pipe));
	snprintf(size, sizeof(size), "%s/%s", chunk, pipe);
	if (!json_is_number(json_object_get(h, "value"))) {
		fprintf(f, "    %-10s %6s  (a side has no successful sample)\n", size, "n/a");
		return;
	}
	ratio_cells(h, val, sizeof(val), ci, sizeof(ci), words, sizeof(words));
	fmt_sig(zc_an_real(h, "numerator_gbps_per_core"), 3, a, sizeof(a));
	fmt_sig(zc_an_real(h, "denominator_gbps_per_core"), 3, b, sizeof(b));
	snprintf(gpc, sizeof(gpc), "%s / %s", a, b);
	snprintf(nd, sizeof(nd), nn == dn ? "%lld" : "%lld/%lld", nn, dn);
	fprintf(f, "    %-10s %6s  %-13s %-16s %-15s %3s%s\n", size, val, ci, words, gpc, nd,
		json_is_true(json_object_get(h, "verified")) ? "" : " *");
	/* A DUT that waited for its peers: its figure is not the DUT's best. */
	zc_print_busy_pair(f, zc_an_real(h, "numerator_busy_frac"),
			   zc_an_real(h, "denominator_busy_frac"), width, true);
}

/* Each size's ratios, grouped by ratio, side and modes (rows in file order). */
static void print_sizes(FILE *f, json_t *m, int width)
{
	json_t *rows = json_object_get(m, "headline"), *h, *g, *miss;
	bool *done = calloc(json_array_size(rows) + 1, 1), unverified;
	size_t i, j;

	if (!done)
		return;
	fprintf(f, "\n  Gbps per core ratio at each size: geometric mean of the per-round ratios "
		   "(paired) or ratio of geometric means, 95%% interval (t on the logs), against "
		   "1.0+-%g%%; n: samples of each side\n", 100 * ZC_RATIO_THRESHOLD);
	if (!json_array_size(rows))
		fprintf(f, "  (no pair of runs for a headline ratio in this file)\n");
	else
		fprintf(f, "    %-10s %6s  %-13s %-16s %-15s %3s\n", "chunk/pipe", "value",
			"95% interval", "against 1.0", "Gbps/core n/d", "n");
	json_array_foreach(rows, i, g) {
		char name[512], other[512];

		if (done[i])
			continue;
		group_name(g, name, sizeof(name));
		unverified = false;
		json_array_foreach(rows, j, h) {
			group_name(h, other, sizeof(other));
			if (j >= i && !done[j] && !strcmp(name, other))
				unverified |= !json_is_true(json_object_get(h, "verified"));
		}
		/* A sink that did not check the bytes: said in the group's heading. */
		fprintf(f, "  %s%s\n", name, unverified ? "; UNVERIFIED (a sink did not check the "
			"bytes): rows marked *" : "");
		json_array_foreach(rows, j, h) {
			group_name(h, other, sizeof(other));
			if (j < i || done[j] || strcmp(name, other))
				continue;
			done[j] = true;
			print_row(f, h, width);
		}
	}
	free(done);
	json_array_foreach(json_object_get(m, "missing_after"), i, miss) {
		char names[256] = "";
		json_t *a;

		json_array_foreach(json_object_get(miss, "after_modes"), j, a)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 j ? " or " : "", json_string_value(a));
		fprintf(f, "  %s (after, emulated): no %s run in this file\n", zc_an_str(miss, "ratio"),
			*names ? names : "after-mode");
	}
}

static void report_file(FILE *out, const char *path, json_t *root, int width)
{
	json_t *m = zc_report_model(path, root), *slices = json_object_get(m, "headline_slices");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		f = out;
		width = 0;
	}
	fprintf(f, "%s\n  host %s, kernel %s, %s\n  status %s%s%s%s\n", path, zc_an_str(m, "host"),
		zc_an_str(m, "kernel"), zc_an_str(m, "date"), zc_an_str(m, "status"),
		*zc_an_str(m, "status_reason") ? " (" : "", zc_an_str(m, "status_reason"),
		*zc_an_str(m, "status_reason") ? ")" : "");
	print_load(f, m);
	print_fingerprint(f, m);
	print_best(f, json_object_get(m, "headline_best"), width);
	print_sizes(f, m, width);
	if (slices)
		fprintf(f, "\n  ");
	zc_print_slices_headline(f, slices);
	if (json_object_get(root, "schedule")) {
		fprintf(f, "\n");
		zc_print_schedule(f, json_object_get(root, "schedule"));
		zc_print_position(f, root);
	}
	zc_report_breakdown(f, root, width);
	fprintf(f, "\n");
	json_decref(m);
	if (f == out)
		return;
	fclose(f);
	/* Tables are laid out to fit; prose is broken at spaces to the width. */
	zc_put_fitted(out, text, width, 6);
	free(text);
}

struct report_files {
	char *paths[1024];
	int n;
	bool mail, json;
};

static const struct zc_opt report_optv[] = {
	{ "mail", ZC_OPT_BOOL, "no", ZC_OPT_AT(struct report_files, mail),
	  .help = "a report to paste into a mail, at most 72 columns: kernel and fingerprint, "
		  "machine, headline ratios, the patched paths before (the second file, BASE) "
		  "and after, and the command that reproduces the runs; FILE [BASE]" },
	{ "json", ZC_OPT_BOOL, "no", ZC_OPT_AT(struct report_files, json),
	  .help = "what the text says as one JSON object on stdout: per file the host, load, "
		  "fingerprint, headline ratios (best size and each size) with intervals, n and "
		  "answers, and each run's figures (results/README.md: zcbench report --json)" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, ZC_OPT_AT(struct report_files, paths), ZC_OPT_POS,
	  .count_off = offsetof(struct report_files, n), .help = "results files" },
};

/* A file name as shown, escaped (zc_escape): it cannot act on the terminal
 * or start a line of a mail. Two at once (a mail's file and its base). */
static char shown_buf[2][1100];
#define SHOWN(path, i) zc_escape_buf((path), shown_buf[i], sizeof(shown_buf[i]))

/* report --mail FILE [BASE] */
static int report_mail(const struct report_files *files)
{
	json_t *root, *base = NULL;

	if (files->n > 2) {
		zc_err("command line: --mail takes FILE and at most one BASE (%d files given)",
		       files->n);
		return ZC_EXIT_USAGE;
	}
	if (!(root = zc_an_load("report", files->paths[0])))
		return ZC_EXIT_USAGE;
	if (files->n == 2 && !(base = zc_an_load("report", files->paths[1]))) {
		json_decref(root);
		return ZC_EXIT_USAGE;
	}
	zc_report_mail(stdout, SHOWN(files->paths[0], 0), root,
		       files->n == 2 ? SHOWN(files->paths[1], 1) : NULL, base);
	json_decref(base);
	json_decref(root);
	return 0;
}

/* report --json FILE...: {"schema": "zcbench-report", "files": [MODEL...]};
 * an unreadable file is left out, named on stderr, and the exit is 2. */
static int report_json(const struct report_files *files)
{
	json_t *out = json_pack("{s:s,s:s,s:[]}", "schema", "zcbench-report", "schema_version",
				"1.0", "files");
	int ret = 0;

	for (int a = 0; a < files->n; a++) {
		json_t *root = zc_an_load("report", files->paths[a]);

		if (!root) {
			ret = ZC_EXIT_USAGE;
			continue;
		}
		json_array_append_new(json_object_get(out, "files"),
				      zc_report_model(SHOWN(files->paths[a], 0), root));
		json_decref(root);
	}
	if (json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) || puts("") < 0)
		ret = ret ?: ZC_EXIT_FAIL;
	json_decref(out);
	return ret;
}

int zc_cmd_report(int argc, char **argv)
{
	static struct report_files files;
	const struct zc_optgroup group = ZC_OPT_GROUP1(report_optv, &files);
	const struct zc_cmdline cmdline = {
		.name = "report", .groups = &group, .ngroups = 1,
		.about = "Headline Gbps-per-core ratios with 95% intervals and what each says\n"
			 "against 1.0+-5% (above, below, within, can't tell), for this kernel\n"
			 "and for the emulated \"after\" modes of each (zcbench list: after-modes),\n"
			 "and the kernel fingerprint. For profiled runs: where the DUT core goes\n"
			 "(buckets) and what each headline path saves per byte, bucket by bucket.\n"
			 "--mail FILE [BASE]: the same for a mail, BASE the results before;\n"
			 "--json: the same as JSON for a program.\n"
			 "Exit 2 on an unreadable file.\n",
	};
	int ret = zc_opt_main(&cmdline, argc, argv);

	if (ret >= 0)
		return ret;
	if (files.mail && files.json) {
		zc_err("command line: --mail and --json are two forms of one report: take one");
		return ZC_EXIT_USAGE;
	}
	if (files.mail)
		return report_mail(&files);
	if (files.json)
		return report_json(&files);
	ret = 0;
	for (int a = 0; a < files.n; a++) {
		json_t *root = zc_an_load("report", files.paths[a]);

		if (!root) {
			ret = ZC_EXIT_USAGE;
			continue;
		}
		report_file(stdout, SHOWN(files.paths[a], 0), root, zc_term_width(1));
		json_decref(root);
	}
	return ret;
}
