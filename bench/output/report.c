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
#include "output/report.h"
#include "output/breakdown.h"
#include "output/saturation.h"
#include "output/table.h"
#include "output/slices.h"
#include "results/slices.h"
#include "lib/stats.h"
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void print_ratio(FILE *f, const char *name, const char *side, json_t *num, json_t *den)
{
	struct zc_ratio r;
	json_t *k = json_object_get(num, "key");
	char chunk[24], pipe[24], ci[48] = "", mode[80], words[48];

	zc_an_ratio(num, den, &r);
	zc_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
	zc_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
	snprintf(mode, sizeof(mode), "%s/%s", zc_an_dut_mode(num), zc_an_dut_mode(den));
	/* Many connections or workers: the pair is one point of a sweep, say which. */
	if ((zc_an_int(k, "connections") ?: 1) > 1 || (zc_an_int(k, "workers") ?: 1) > 1)
		snprintf(mode + strlen(mode), sizeof(mode) - strlen(mode), ", %lld conn, %lld workers",
			 zc_an_int(k, "connections") ?: 1, zc_an_int(k, "workers") ?: 1);
	if (isnan(r.value)) {
		fprintf(f, "  %-26s %-16s %-5s %-5s %7s  %-17s %s\n", name, side, chunk, pipe, "n/a",
			"", "(a side has no successful sample)");
		return;
	}
	if (!isnan(r.lo))
		snprintf(ci, sizeof(ci), "[%.2f-%.2f]", r.lo, r.hi);
	zc_ratio_words(r.ch.ok ? zc_answer_key(r.vd.answer) : "cant_tell", r.value, words,
		       sizeof(words));
	fprintf(f, "  %-26s %-16s %-5s %-5s %6.2fx  %-13s %-22s %7.2f / %-7.2f %zu/%zu  %s%s\n",
		name, side, chunk, pipe, r.value, ci, words, r.num_gpc, r.den_gpc, r.nn, r.nd, mode,
		json_is_true(json_object_get(num, "verified")) &&
		json_is_true(json_object_get(den, "verified")) ? "" : "  UNVERIFIED");
	/* A DUT that waited for its peers: its figure is not the DUT's best. */
	zc_print_busy_pair(f, zc_an_busy_frac(num), zc_an_busy_frac(den), 0, true);
}

/* A principal ratio whose after-modes have no run in the file: say which. */
static void print_no_after(FILE *f, const struct zc_pair *p)
{
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(p->native, afters, ZC_ARRAY_SIZE(afters));
	char names[256] = "";

	for (size_t a = 0, o = 0; a < na && o < sizeof(names); a++)
		o += snprintf(names + o, sizeof(names) - o, "%s%s", a ? " or " : "", afters[a]->name);
	fprintf(f, "  %-26s %-16s (no %s run in this file)\n", p->name, "after, emulated",
		na ? names : "after-mode");
}

/* The probe's fingerprint is large (every probe and mode): print its label,
 * verdicts and scalars, and only count the bulky parts. */
static void print_fingerprint(FILE *f, json_t *root)
{
	json_t *fp = json_object_get(root, "fingerprint"), *v, *e;
	const char *k;
	char line[2048], id[512];
	size_t i;

	zc_an_fingerprint(root, line, sizeof(line), id, sizeof(id));
	if (!json_is_object(fp)) {
		fprintf(f, "  kernel fingerprint: none recorded (null: this file predates "
			   "`zcbench probe`; before/after is not known from behaviour)\n");
		return;
	}
	fprintf(f, "  kernel fingerprint: %s\n", id);
	if (zc_an_kernel_side(root))
		fprintf(f, "    this kernel behaves like the %s side (vmsplice_state)\n",
			zc_an_kernel_side(root));
	json_array_foreach(json_object_get(fp, "verdicts"), i, e)
		if (json_is_string(e))
			fprintf(f, "    - %s\n", json_string_value(e));
	json_object_foreach(fp, k, v) {
		char *s;

		if (!strcmp(k, "label") || !strcmp(k, "verdicts"))
			continue;
		if (json_is_object(v) || json_is_array(v)) {
			fprintf(f, "    %-28s (%zu entries)\n", k,
				json_is_object(v) ? json_object_size(v) : json_array_size(v));
			continue;
		}
		s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		fprintf(f, "    %-28s %s\n", k, s ? s : "?");
		free(s);
	}
}

static void report_file(FILE *f, const char *path, json_t *root)
{
	json_t *runs = json_object_get(root, "runs");
	const char *side = zc_an_kernel_side(root);
	const char *native = !side ? "this kernel" :
			     !strcmp(side, "after") ? "after, measured" : "before, measured";
	struct zc_pair *pv;
	json_t *slices, *best;
	size_t n;
	int printed = 0;

	fprintf(f, "%s\n  host %s, kernel %s, %s, status %s%s%s%s\n", path, zc_an_hostname(root),
		zc_an_kernel(root), zc_an_date(root), zc_an_str(root, "status"),
		*zc_an_str(root, "status_reason") ? " (" : "", zc_an_str(root, "status_reason"),
		*zc_an_str(root, "status_reason") ? ")" : "");
	print_fingerprint(f, root);
	/* The fair question first: each side at its best size among those run. */
	best = zc_headline_best(runs);
	zc_print_headline_best(f, best, 0);
	json_decref(best);
	fprintf(f, "\n  Gbps per core ratio at each size: geometric mean of the per-round ratios (paired) or "
		   "ratio of geometric means, 95%% interval (t on the logs), against 1.0+-%g%%\n",
		100 * ZC_RATIO_THRESHOLD);
	fprintf(f, "  %-26s %-16s %-5s %-5s %7s  %-13s %-22s %-17s %-4s %s\n", "ratio", "side",
		"chunk", "pipe", "value", "95% interval", "against 1.0", "Gbps/core num/den", "n",
		"modes");
	n = zc_headline_pairs(runs, ZC_PAIRS_AFTER | ZC_PAIRS_UNPAIRED, &pv);
	for (size_t i = 0; i < n; i++) {
		const struct zc_pair *p = &pv[i];

		if (p->kind == ZC_PAIR_HEADLINE) {
			print_ratio(f, p->name, native, p->run, p->peer_run);
			printed++;
		} else if (p->run) {
			print_ratio(f, p->name, "after, emulated", p->run, p->peer_run);
		} else {
			print_no_after(f, p);
		}
	}
	free(pv);
	if (!printed)
		fprintf(f, "  (no pair of runs for a headline ratio in this file)\n");
	slices = zc_slices_headline(runs);
	if (json_array_size(slices))
		fprintf(f, "\n  ");
	zc_print_slices_headline(f, slices);
	json_decref(slices);
	zc_report_breakdown(f, root);
	fprintf(f, "\n");
}

struct report_files {
	char *paths[1024];
	int n;
	bool mail;
};

static const struct zc_opt report_optv[] = {
	{ "mail", ZC_OPT_BOOL, "no", ZC_OPT_AT(struct report_files, mail),
	  .help = "a report to paste into a mail, at most 72 columns: kernel and fingerprint, "
		  "machine, headline ratios, the patched paths before (the second file, BASE) "
		  "and after, and the command that reproduces the runs; FILE [BASE]" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, ZC_OPT_AT(struct report_files, paths), ZC_OPT_POS,
	  .count_off = offsetof(struct report_files, n), .help = "results files" },
};

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
	zc_report_mail(stdout, files->paths[0], root, files->n == 2 ? files->paths[1] : NULL, base);
	json_decref(base);
	json_decref(root);
	return 0;
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
			 "--mail FILE [BASE]: the same for a mail, BASE the results before.\n"
			 "Exit 2 on an unreadable file.\n",
	};
	int ret = zc_opt_main(&cmdline, argc, argv);

	if (ret >= 0)
		return ret;
	if (files.mail)
		return report_mail(&files);
	ret = 0;
	for (int a = 0; a < files.n; a++) {
		json_t *root = zc_an_load("report", files.paths[a]);

		if (!root) {
			ret = ZC_EXIT_USAGE;
			continue;
		}
		report_file(stdout, files.paths[a], root);
		json_decref(root);
	}
	return ret;
}
