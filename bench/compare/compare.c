// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench compare BASE.json NEW.json [more.json ...]: the A/B table kernel
 * people paste into a mail, in one of the layouts of compare/compare.h (the
 * 0-day robot's lkp, mmtests' compare-kernels ...), every change with its
 * interval, and a regression gate for nightly CI with three answers: exit 0
 * (every gated figure within the threshold or better), 1 (one regressed
 * beyond it), 3 (one it cannot tell: the interval spans the threshold).
 */
#include "compare/compare_int.h"
#include "report/breakdown.h"
#include "report/report.h"
#include "lib/opt.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES ZC_COMPARE_FILES_MAX


/* A layout of the one list (compare.h), or why not with the names. */
static int check_layout(const char *v, char *why, size_t len)
{
	return zc_row_check((const void *const *)zc_compare_layouts, zc_ncompare_layouts, v, why, len);
}

struct cmp_files {
	char *paths[MAX_FILES];
	int n;
};

#define AT(field) ZC_OPT_AT(struct zc_cmp_opts, field)
static const struct zc_opt cmp_optv[] = {
	{ "layout", ZC_OPT_TEXT, "lkp", AT(layout_name), .check = check_layout, .meta = "NAME",
	  .help = "the table's layout (the layouts are listed above)" },
	{ "format", ZC_OPT_TEXT, NULL, AT(layout_name), .check = check_layout, .meta = "NAME",
	  .help = "the old spelling of --layout" },
	{ "all", ZC_OPT_BOOL, "no", AT(all),
	  .help = "every metric of each run after its gated figures (a metric whose samples equal "
		  "another's shown once), and the table when the files hold the same measurements; "
		  "default: the gated figures (see --gate) and the headline ratios" },
	{ "json", ZC_OPT_BOOL, "no", AT(json),
	  .help = "the comparison as one JSON object (results/README.md): each figure's sides, "
		  "change, interval and answer, the gate's result and exit code" },
	{ "alpha", ZC_OPT_DOUBLE, "0.05", 1e-9, 0.5, AT(alpha), .meta = "P",
	  .help = "1 - the intervals' level (0.05: 95%); each of the m gated figures' "
		  "intervals is at 1 - 2P/m, so that their one-sided answers (a regression, "
		  "within, better) are wrong together at most P of the time; as two-sided "
		  "intervals they hold together at 1 - 2P" },
	{ "metrics", ZC_OPT_TEXT, NULL, AT(metrics), .meta = "LIST",
	  .help = "only these metrics, comma list (shown, and gated unless --gate); default all" },
	{ "fail-on-regression", ZC_OPT_DOUBLE, NULL, 0, 1e9, AT(fail_pct), .meta = "PCT",
	  .help = "the gate: exit 1 if a gated figure's interval lies wholly beyond PCT percent "
		  "(percent metrics: points) the bad way, or a run has no ok sample in NEW; exit 3 "
		  "if one's interval spans PCT (can't tell); exit 0 when every one lies within "
		  "+-PCT or beyond it the good way" },
	{ "gate", ZC_OPT_TEXT, NULL, AT(gate), .meta = "LIST",
	  .help = "the metrics the gate judges, comma list; default: Gbit/s per DUT core (request/"
		  "response: transactions per core and p99), or those --metrics names" },
	{ "pass-cant-tell", ZC_OPT_BOOL, "no", AT(pass_cant_tell),
	  .help = "exit 0, not 3, when the gate cannot tell (still said on every line)" },
	{ "profile", ZC_OPT_TEXT, NULL, AT(profile), .meta = "PATH",
	  .help = "the host's noise profile: a folder of results files of earlier invocations of "
		  "one build on this host (make bench-calibrate writes one), from which each "
		  "figure's spread between invocations is measured; files from two invocations "
		  "are held to it. Without it, to a stated default of 12% (sd of an invocation's "
		  "mean), which says so" },
	{ "noise", ZC_OPT_TEXT, NULL, AT(noise), .meta = "FILE",
	  .help = "refused: a noise file of zcbench noise measures A and B inside one invocation, "
		  "not how far two invocations come apart; give --profile" },
	{ "pairing", ZC_OPT_CHOICE, "auto", AT(pairing), .choices = "auto|rep|none",
	  .help = "auto: the interval of the per-round log ratios when both sides were taken "
		  "in rounds of one invocation; rep: pair by repetition index anyway; none: never" },
};
static const struct zc_opt cmp_files_optv[] = {
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, MAX_FILES, ZC_OPT_AT(struct cmp_files, paths),
	  ZC_OPT_POS, .count_off = offsetof(struct cmp_files, n),
	  .help = "BASE.json then NEW.json [more.json ...], each a results file or a folder of "
		  "them (several invocations of one build: the spread between invocations is "
		  "measured from them); or one file holding each run key more than once (an A/A "
		  "file of zcbench noise, an A/B taken in one run): its first occurrences against "
		  "the later ones" },
};

/* Every item of --FLAG's comma list a metric, or an error naming it. */
static bool metric_list_ok(const char *flag, const char *list)
{
	char buf[1024], *it[128], why[512];
	int n = list ? zc_list_split(list, buf, sizeof(buf), it, (int)ZC_ARRAY_SIZE(it), why,
				     sizeof(why)) : 0;

	if (n < 0)
		zc_err("compare: --%s: %s", flag, why);
	for (int i = 0; i < n; i++)
		/* "headline": the headline ratios (compare_ratios.c). */
		if (!zc_metric_find(it[i]) && strcmp(it[i], "headline")) {
			zc_err("compare: --%s: unknown metric '%s' (or 'headline' for the headline "
			       "ratios)", flag, it[i]);
			return false;
		}
	return n >= 0;
}

int zc_cmd_compare(int argc, char **argv)
{
	struct zc_cmp_opts o = { .fail_pct = NAN };	/* no gate unless asked */
	static struct cmp_files files;
	static char about[2048];
	static struct zc_cmp_walk w;
	char *paths[MAX_FILES];
	static char shown[MAX_FILES + 1][1100];
	json_t *roots[MAX_FILES] = { 0 }, *keys = json_array(), *seen = json_object(), *run;
	int nfiles = 0, ret = ZC_EXIT_OK;
	bool one_file = false;
	size_t nrun;
	size_t i;
	FILE *f = stdout;
	char *scratch = NULL;	/* --json: the text goes here, unread */
	size_t scratch_len = 0;
	const struct zc_optgroup groups[] = {
		{ .opts = cmp_optv, .n = ZC_ARRAY_SIZE(cmp_optv), .base = &o },
		{ .opts = cmp_files_optv, .n = ZC_ARRAY_SIZE(cmp_files_optv), .base = &files },
	};
	const struct zc_cmdline cmdline = {
		.name = "compare", .groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
		.about = about,
	};

	memset(&w, 0, sizeof(w));
	w.unmatched = json_array();
	zc_cmp_about(about, sizeof(about));
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		goto out;
	ret = ZC_EXIT_OK;
	nfiles = files.n;
	memcpy(paths, files.paths, sizeof(paths));
	o.layout = zc_compare_layout_find(o.layout_name);
	if (!metric_list_ok("metrics", o.metrics) || !metric_list_ok("gate", o.gate)) {
		ret = ZC_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < nfiles; i++) {
		struct stat st;
		char err[1200];

		/* A folder is a side of several invocations of one build. */
		if (!stat(paths[i], &st) && S_ISDIR(st.st_mode)) {
			if (zc_cmp_invs_load(&w.inv[i], paths[i], 1, err, sizeof(err))) {
				zc_err("compare: %s", err);
				ret = ZC_EXIT_USAGE;
				goto out;
			}
			if (!(roots[i] = zc_cmp_invs_merged(&w.inv[i]))) {
				zc_err("compare: out of memory");
				ret = ZC_EXIT_FAIL;
				goto out;
			}
			continue;
		}
		if (!(roots[i] = zc_an_load("compare", paths[i]))) {
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	if (o.noise) {
		zc_err("compare: --noise %s: a noise file measures A and B inside one invocation, "
		       "not how far two invocations of one build come apart, which is what a "
		       "comparison of two files must stand out from: give --profile PATH (a folder "
		       "of earlier invocations' results files: make bench-calibrate)", o.noise);
		ret = ZC_EXIT_USAGE;
		goto out;
	}
	if (o.profile) {
		char err[1200];

		if (zc_cmp_invs_load(&w.profile, o.profile, 2, err, sizeof(err))) {
			zc_err("compare: --profile: %s", err);
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	/* From here on the paths are shown, never opened: escaped (zc_escape), so
	 * that a file name cannot act on the terminal or start a line. */
	for (int i = 0; i < nfiles; i++)
		paths[i] = (char *)zc_escape_buf(paths[i], shown[i], sizeof(shown[i]));
	if (o.profile)
		o.profile = zc_escape_buf(o.profile, shown[MAX_FILES], sizeof(shown[MAX_FILES]));
	/* Every key, in the order the files list them, base first. */
	for (int fi = 0; fi < nfiles; fi++)
		json_array_foreach(json_object_get(roots[fi], "runs"), i, run) {
			char k[512];

			zc_an_key(run, k, sizeof(k));
			if (json_object_get(seen, k))
				continue;
			json_object_set_new(seen, k, json_true());
			json_array_append_new(keys, json_string(k));
		}
	w.keys = keys;
	if (nfiles == 1) {
		const char *path = paths[0];

		one_file = true;
		nfiles = zc_cmp_sides_of_one(&w, roots[0], path, paths, roots);
		if (!nfiles) {
			zc_err("compare: %s: no run key occurs twice in it, so one file has nothing to "
			       "compare (zcbench noise writes such a file); give BASE.json NEW.json",
			       path);
			nfiles = 1;
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	w.o = &o;
	w.sel = (struct zc_cmp_sel){ .metrics = o.metrics, .gate = o.gate, .all = o.all };
	w.c = (struct zc_cmp){ .layout = o.layout, .alpha = o.alpha, .nfiles = nfiles,
			       .paths = paths, .roots = roots, .fail_pct = o.fail_pct,
			       .threshold_pct = isnan(o.fail_pct) ? ZC_CMP_THRESHOLD_PCT : o.fail_pct,
			       .profile_path = o.profile, .profile_n = w.profile.n, .inv = w.inv,
			       .width = zc_term_width(STDOUT_FILENO) };
	if (o.json && !(f = open_memstream(&scratch, &scratch_len))) {
		zc_err("compare: %s", strerror(errno));
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	zc_cmp_walk(&w, f, false);
	nrun = w.ncells;
	if (!one_file)
		zc_cmp_add_ratio_cells(&w);
	zc_cmp_gate_family(w.cells, w.ncells, w.c.gated, o.alpha, o.fail_pct, &w.tally);
	zc_cmp_report(&w, f, nrun);
	if (!isnan(o.fail_pct))
		ret = zc_cmp_gate_summary(f, &w.c, w.cells, w.ncells, &w.tally, w.lost, w.empty_sides,
					  o.pass_cant_tell);
	if (o.json) {
		struct zc_cmp_json j = {
			.c = &w.c, .cells = w.cells, .n = w.ncells, .tally = &w.tally, .all = o.all,
			.same = !w.differs, .pass_cant_tell = o.pass_cant_tell, .lost = w.lost,
			.empty_sides = w.empty_sides, .exit_code = ret, .unmatched = w.unmatched,
		};

		fclose(f);
		f = stdout;
		if (zc_cmp_json_write(stdout, &j)) {
			zc_err("compare: writing JSON: %s", strerror(errno));
			ret = ZC_EXIT_FAIL;
		}
	}
	if (w.oom) {
		zc_err("compare: out of memory");
		ret = ZC_EXIT_FAIL;
	}
out:
	for (int i = 0; i < nfiles; i++)
		json_decref(roots[i]);
	zc_cmp_invs_free(&w.profile);
	for (int i = 0; i < MAX_FILES; i++)
		zc_cmp_invs_free(&w.inv[i]);
	free(w.cells);
	free(w.ratio_sides);
	json_decref(keys);
	json_decref(seen);
	json_decref(w.unmatched);
	free(scratch);
	return ret;
}
