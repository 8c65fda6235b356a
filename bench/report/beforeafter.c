// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench before-after FILE... [--after FILE...]: for every path the 2026
 * patches change, Gbps per core before against after, and the change.
 *
 * "After" is the run of a mode declared after_of the native one (mode.h) in
 * the same results file (same chunk, pipe size and other roles: the headline
 * engine's before/after pairs), or, given --after, the same mode measured
 * on another kernel (a patched one: its fingerprint says so). pipebench files
 * (schema zcbench-pipebench) give the pipe-only patterns, compared on
 * calls/s and MB/s per core.
 */
#include "report/report.h"
#include "report/beforeafter.h"
#include "results/results.h"
#include "lib/opt.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static const char *fp_short(json_t *root, char *buf, size_t len)
{
	json_t *fp = json_object_get(root, "fingerprint");

	if (!json_is_object(fp)) {
		snprintf(buf, len, "no fingerprint");
		return buf;
	}
	snprintf(buf, len, "%s vmsplice:%s",
		 json_string_value(json_object_get(fp, "kernel_release")) ?: "?",
		 json_string_value(json_object_get(fp, "vmsplice_state")) ?: "?");
	return buf;
}


/* A figure, or "-" when the run has none (failed, or no such metric). */
static const char *fig(double v, const char *fmt, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, fmt, v);
	return buf;
}




/* What the rows' printer carries from row to row. */
struct tcp_print {
	int width;
	char kernel[600];	/* the last kernel line printed */
};

/* One side's line of a row: "  before  vmsplice   8.71 Gbps/core  30.5 calls/MB". */
static void side_line(const char *side, const char *mode, double gpc, double cpm)
{
	char f1[32], f2[32];

	printf("  %-6s  %-22s %7s Gbps/core %7s calls/MB\n", side, mode,
	       fig(gpc, "%.2f", f1, sizeof(f1)), fig(cpm, "%.1f", f2, sizeof(f2)));
}

/* A row as a block that fits 80 columns: the path, its chunk, what the after
 * side is and the change; each side's figures; the change's interval and
 * answer. The kernels when they differ from the row above. */
static void tcp_row(const struct zc_ba_row *r, void *user)
{
	struct tcp_print *pr = user;
	char f3[32], ch[24], fpb[96], fpa[96], vs[320], line[600], med[80] = "", how[96];
	double est;

	zc_an_fmt_size(r->chunk, ch, sizeof(ch));
	zc_verdict_fmt(&r->ch, &r->vd, vs, sizeof(vs));
	fp_short(r->before_file, fpb, sizeof(fpb));
	if (r->after_file)
		fp_short(r->after_file, fpa, sizeof(fpa));
	snprintf(line, sizeof(line), "kernel (fingerprint): %s%s%s", fpb, r->after_file ? " -> " : "",
		 r->after_file ? fpa : "");
	putchar('\n');
	if (strcmp(line, pr->kernel)) {
		snprintf(pr->kernel, sizeof(pr->kernel), "%s", line);
		zc_put_fitted(stdout, line, pr->width, 4);
	}
	/* The number beside the answer is the answer's estimate (the change of
	 * the geometric means its interval is about); the medians' change, the
	 * side lines' figures, beside it where it differs. */
	est = isfinite(r->ch.d) ? zc_change_pct(&r->ch, r->ch.d) : NAN;
	if (isfinite(est) && isfinite(r->change_pct) && fabs(est - r->change_pct) >= 0.05)
		snprintf(med, sizeof(med), " (geometric means; the medians below %+.1f%%)",
			 r->change_pct);
	snprintf(line, sizeof(line), "%s, chunk %s, after %s: %s%s", r->path, ch, r->kind,
		 fig(isfinite(est) ? est : r->change_pct, "%+.1f%%", f3, sizeof(f3)), med);
	zc_put_fitted(stdout, line, pr->width, 4);
	side_line("before", r->before_mode, r->before_gpc, r->before_calls_per_mb);
	side_line("after", r->after_mode, r->after_gpc, r->after_calls_per_mb);
	/* The change's 95% interval and its answer at +-5%: three answers. */
	zc_change_method(&r->ch, how, sizeof(how));
	snprintf(line, sizeof(line), "  %s (%s)", vs, how);
	zc_put_fitted(stdout, line, pr->width, 4);
}

static void tcp_table(json_t **files, int nfiles, json_t **after, int nafter, int width)
{
	struct tcp_print pr = { .width = width };
	char line[300];

	if (!zc_ba_tcp_rows(files, nfiles, after, nafter, tcp_row, &pr)) {
		printf("  (no real/after pairs with the same chunk and pipe size in these files)\n");
		return;
	}
	putchar('\n');
	snprintf(line, sizeof(line), "under each row: the change of Gbit/s per core with its 95%% "
		 "interval and what it says at +-%g%%: changed, unchanged, or can't tell",
		 100 * ZC_RATIO_THRESHOLD);
	zc_put_fitted(stdout, line, width, 2);
}

/* calls per MB of a pipebench run (its medians): the call pattern. */
static double calls_per_mb(json_t *r)
{
	double c = zc_ba_med(r, "calls_per_s"), m = zc_ba_med(r, "mb_per_s");

	return m > 0 ? c / m : NAN;
}

/* One pattern's row: before r, after a (75 characters), then the calls per
 * MB and the kernels (tail) on a line under it. */
static void pipe_row(const char *name, json_t *r, json_t *a, const char *tail, int width)
{
	double cb = zc_ba_med(r, "calls_per_s"), ca = zc_ba_med(a, "calls_per_s");
	double mb = zc_ba_med(r, "mb_per_s_per_core"), ma = zc_ba_med(a, "mb_per_s_per_core");
	char f[8][32], ch[24], line[600];

	zc_an_fmt_size(json_integer_value(json_object_get(r, "chunk")), ch, sizeof(ch));
	printf("%-14s %5s %9s %9s %7s %8s %8s %7s\n", name, ch, fig(cb, "%.0f", f[0], 32),
	       fig(ca, "%.0f", f[1], 32), fig(zc_ba_change_pct(cb, ca), "%+.1f%%", f[2], 32),
	       fig(mb, "%.0f", f[3], 32), fig(ma, "%.0f", f[4], 32),
	       fig(zc_ba_change_pct(mb, ma), "%+.1f%%", f[5], 32));
	snprintf(line, sizeof(line), "  calls/MB %s -> %s; %s", fig(calls_per_mb(r), "%.2f", f[6], 32),
		 fig(calls_per_mb(a), "%.2f", f[7], 32), tail);
	zc_put_fitted(stdout, line, width, 4);
}

static void pipe_table(json_t **files, int nfiles, json_t **after, int nafter, int width)
{
	char fpb[96], fpa[96], kbuf[48], tail[300];
	int rows = 0;

	printf("%31s%s%17s%s\n", "", "calls/s", "", "MB/s per core");	/* over their columns */
	printf("%-14s %5s %9s %9s %7s %8s %8s %7s\n", "pattern", "chunk", "before", "after",
	       "change", "before", "after", "change");
	for (int f0 = 0; f0 < nfiles; f0++) {
		json_t *runs = json_object_get(files[f0], "runs"), *r, *a;
		size_t i, j;

		json_array_foreach(runs, i, r) {
			const char *name = json_string_value(json_object_get(r, "pattern")) ?: "";

			if (json_is_true(json_object_get(r, "emulated")))
				continue;
			/* The same pattern measured on another kernel (--after). */
			for (int k = 0; k < nafter; k++) {
				json_array_foreach(json_object_get(after[k], "runs"), j, a) {
					if (strcmp(json_string_value(json_object_get(a, "pattern")) ?: "", name) ||
					    json_integer_value(json_object_get(a, "chunk")) !=
						    json_integer_value(json_object_get(r, "chunk")))
						continue;
					snprintf(tail, sizeof(tail), "%s -> %s (after %s)",
						 fp_short(files[f0], fpb, sizeof(fpb)),
						 fp_short(after[k], fpa, sizeof(fpa)),
						 zc_ba_measured_kind(after[k], kbuf, sizeof(kbuf)));
					pipe_row(name, r, a, tail, width);
					rows++;
				}
			}
			if (nafter)
				continue;
			json_array_foreach(runs, j, a) {
				if (strcmp(json_string_value(json_object_get(a, "after_of")) ?: "", name) ||
				    json_integer_value(json_object_get(a, "chunk")) !=
					    json_integer_value(json_object_get(r, "chunk")))
					continue;
				snprintf(tail, sizeof(tail), "%s (after emulated)",
					 fp_short(files[f0], fpb, sizeof(fpb)));
				pipe_row(name, r, a, tail, width);
				rows++;
			}
		}
	}
	if (!rows)
		printf("  (no pattern/after pairs in these files)\n");
}

struct ba_files {
	char *paths[96];	/* results and pipebench files */
	int n;
	char *after[32];	/* --after: the same modes (or pipebench patterns) measured on a
				 * patched kernel */
	int nafter;
	bool json;
};

#define AT(field) ZC_OPT_AT(struct ba_files, field)
static const struct zc_opt ba_optv[] = {
	{ "after", ZC_OPT_TEXTS, NULL, AT(after), .count_off = offsetof(struct ba_files, nafter),
	  .meta = "PATCHED.json",
	  .help = "compare against the same mode measured on a patched kernel" },
	{ "json", ZC_OPT_BOOL, "no", AT(json),
	  .help = "print the TCP rows (each path before and after, its change, interval and "
		  "answer) as JSON (results/README.md); pipebench rows are in the text only" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, AT(paths), ZC_OPT_POS,
	  .count_off = offsetof(struct ba_files, n),
	  .help = "results files (each real mode against its emulated after-mode in the same "
		  "file) and pipebench files" },
};

int zc_cmd_before_after(int argc, char **argv)
{
	json_t *tcp[32], *pipes[32], *after[32], *after_pipes[32];
	int ntcp = 0, npipe = 0, nafter = 0, nafter_pipes = 0, ret, width = zc_term_width(1);
	bool tcg = false;
	static struct ba_files files;
	const struct zc_optgroup group = ZC_OPT_GROUP1(ba_optv, &files);
	const struct zc_cmdline cmdline = {
		.name = "before-after", .groups = &group, .ngroups = 1,
		.about = "Each patched path before and after: the real mode against its emulated\n"
			 "after-mode in the same file, or against the same mode measured on a patched\n"
			 "kernel (--after).\n",
	};

	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		return ret;
	ret = 0;
	for (int i = 0; i < files.n + files.nafter; i++) {
		bool is_after = i >= files.n;
		const char *path = is_after ? files.after[i - files.n] : files.paths[i];
		char err[1200];
		const char *schema = NULL;
		json_t *root = zc_json_load_input(path, ZC_RESULTS_MAX_BYTES, err, sizeof(err));

		if (!root || zc_results_check(root, path, &schema, err, sizeof(err))) {
			/* err is our copy: nothing of root is used once it is freed. */
			json_decref(root);
			zc_err("before-after: %s", err);
			ret = ZC_EXIT_USAGE;
			goto out;
		}
		if (ntcp == 32 || npipe == 32 || nafter == 32 || nafter_pipes == 32) {
			json_decref(root);
			zc_err("before-after: at most 32 files of each kind");
			ret = ZC_EXIT_USAGE;
			goto out;
		}
		zc_results_settle(root);	/* left at running by a killed controller */
		tcg = tcg || !strcmp(json_string_value(json_object_get(root, "accel")) ?: "", "tcg");
		if (!strcmp(schema, "zcbench-results") && is_after)
			after[nafter++] = root;
		else if (!strcmp(schema, "zcbench-pipebench") && is_after)
			after_pipes[nafter_pipes++] = root;
		else if (!strcmp(schema, "zcbench-results"))
			tcp[ntcp++] = root;
		else if (!is_after)
			pipes[npipe++] = root;
		else {
			json_decref(root);
			zc_err("before-after: --after %s: a pipebench file; --after takes results files",
			       path);
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	if (!ntcp && !npipe) {
		zc_err("before-after: give a results file (zcbench before-after --help)");
		ret = ZC_EXIT_USAGE;
		goto out;
	}
	if (files.json) {
		ret = zc_ba_print_json(stdout, tcp, ntcp, after, nafter) ? ZC_EXIT_FAIL : 0;
		goto out;
	}
	if (tcg)
		printf("NOTE: measured in qemu guests under TCG (software emulation, no KVM): Gbps per\n"
		       "core and calls/s say nothing about real hardware here. What counts: the\n"
		       "fingerprints (after-poll= is LTP vmsplice01's blocking case), calls per MB,\n"
		       "and the pipebench call patterns (calls/MB), which emulation does not change.\n\n");
	if (ntcp) {
		zc_put_fitted(stdout, "TCP paths: Gbps per core of the device under test and its "
			      "data syscalls per MB moved (medians)", width, 2);
		tcp_table(tcp, ntcp, after, nafter, width);
	}
	if (npipe) {
		printf("\npipe-only patterns (pipebench): median of the samples\n");
		pipe_table(pipes, npipe, after_pipes, nafter_pipes, width);
	}
	printf("\nfingerprints:\n");
	for (int i = 0; i < ntcp + npipe + nafter + nafter_pipes; i++) {
		json_t *r = i < ntcp ? tcp[i] : i < ntcp + npipe ? pipes[i - ntcp] :
			    i < ntcp + npipe + nafter ? after[i - ntcp - npipe] :
			    after_pipes[i - ntcp - npipe - nafter];
		const char *label = json_string_value(json_object_get(json_object_get(r, "fingerprint"),
									"label"));
		bool is_after = i >= ntcp + npipe;
		static char prev[1024];
		static bool prev_after;

		/* A kernel's runs and its pipebench file carry one label: once. */
		if (label && i && is_after == prev_after && !strcmp(prev, label))
			continue;
		snprintf(prev, sizeof(prev), "%s", label ?: "");
		prev_after = is_after;
		{
			char line[1100];

			snprintf(line, sizeof(line), "  %s%s", is_after ? "after: " : "",
				 label ?: "no fingerprint in this file");
			zc_put_fitted(stdout, line, width, 4);
		}
	}
out:
	for (int i = 0; i < ntcp; i++)
		json_decref(tcp[i]);
	for (int i = 0; i < npipe; i++)
		json_decref(pipes[i]);
	for (int i = 0; i < nafter; i++)
		json_decref(after[i]);
	for (int i = 0; i < nafter_pipes; i++)
		json_decref(after_pipes[i]);
	return ret;
}
