// SPDX-License-Identifier: GPL-2.0
/*
 * The pictures of why a path costs what it does (newest results file):
 *  core     per run: Gbit/s per core (every sample a point over the bar,
 *           emulated modes hatched, a "zero-copy" mode the kernel copied
 *           anyway marked), the DUT core's time stacked (user, system,
 *           softirq, irq, idle, steal, foreign), kernel-copied bytes per
 *           payload byte and syscalls per MB beside them;
 *  ratio    every headline ratio with its 95% interval against 1.0;
 *  profile  core milliseconds per GB by profile bucket, for profiled runs;
 *  flame-N  a flame graph per profiled run, from its folded stacks.
 */
#include "report/breakdown.h"
#include "plot/plot.h"
#include "stats/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The run's label on an axis: its whole key (path@chunk/pipe and what else
 * it sets), emulated. */
static void axis_label(json_t *runs, json_t *run, char *out, size_t len)
{
	char id[140];

	(void)runs;
	zc_an_run_id(run, id, sizeof(id));
	snprintf(out, len, "%s%s", id,
		 json_is_true(json_object_get(run, "emulated")) ? " (emulated)" : "");
}

static void csv_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "'" : (char[]){ *s, 0 }, f);
	fputc('"', f);
}

/* A mode that claims to save copies: it has a headline ratio (vs) and is
 * not an emulated after-mode (those copy by design and are hatched). */
static bool claims_zero_copy(json_t *run)
{
	const struct zc_mode *m = zc_mode_find_any(zc_an_dut_mode(run));

	return m && m->vs && !json_is_true(json_object_get(run, "emulated"));
}

int zc_plot_core(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	FILE *f = zc_plot_csv(c, "core"), *fs = zc_plot_csv(c, "core_samples");
	char extra[512];
	int idx = 0, copied = 0, emulated = 0, foreign = 0, core = 0, counted = 0;
	bool bpf = false;
	size_t i;

	if (!f || !fs) {
		if (f)
			fclose(f);
		if (fs)
			fclose(fs);
		return -1;
	}
	json_array_foreach(runs, i, run)
		bpf |= !isnan(zc_an_median(run, "dut_syscalls_per_mb"));
	fprintf(f, "idx,label,gbps_per_core,native,emulated,copied,mark,user,system,softirq,irq,idle,"
		   "steal,foreign,rx_copied_per_byte,tx_copied_per_byte,syscalls_per_mb\n");
	fprintf(fs, "idx,gbps_per_core\n");
	json_array_foreach(runs, i, run) {
		static double v[ZC_SAMPLES_MAX];
		size_t n = zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX);
		struct zc_core_split cs;
		double gpc = zc_median(v, n), cf = zc_an_copied_fraction(run);
		double rx = zc_an_median(run, "dut_rx_copied_per_byte");
		double tx = zc_an_median(run, "dut_tx_copied_per_byte");
		bool emu = json_is_true(json_object_get(run, "emulated"));
		char lab[160], mark[96] = "";

		if (!n)
			continue;
		axis_label(runs, run, lab, sizeof(lab));
		/* The kernel copied a zero-copy path's bytes after all: its own
		 * report says so (MSG_ZEROCOPY, SEND_ZC), or the copy counters do. */
		if (!isnan(cf) && cf >= 0.5)
			snprintf(mark, sizeof(mark), "kernel copied %.0f%%", 100 * cf);
		else if (claims_zero_copy(run) && (isnan(rx) ? 0 : rx) + (isnan(tx) ? 0 : tx) >= 0.5)
			snprintf(mark, sizeof(mark), "kernel copied %.2f B/B",
				 (isnan(rx) ? 0 : rx) + (isnan(tx) ? 0 : tx));
		else if (emu)
			snprintf(mark, sizeof(mark), "emulated");
		copied += mark[0] == 'k';
		emulated += emu;
		if (zc_an_core_split(run, &cs))
			cs = (struct zc_core_split){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
		foreign += !isnan(cs.foreign);
		core += cs.n > 0;
		counted += !isnan(rx) || !isnan(tx);
		fprintf(f, "%d,", idx);
		csv_text(f, lab);
		fprintf(f, ",%.6g,%.6g,%.6g,%.6g,", gpc, emu ? NAN : gpc, emu ? gpc : NAN,
			mark[0] == 'k' ? gpc : NAN);
		csv_text(f, mark);
		fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", cs.user, cs.system,
			cs.softirq, cs.irq, cs.idle, cs.steal, isnan(cs.foreign) ? 0 : cs.foreign, rx,
			tx, zc_an_median(run, bpf ? "dut_syscalls_per_mb" : "dut_calls_per_mb"));
		for (size_t k = 0; k < n; k++)
			fprintf(fs, "%d,%.6g\n", idx, v[k]);
		idx++;
	}
	fclose(f);
	fclose(fs);
	snprintf(extra, sizeof(extra), "samplesfile='%s/core_samples.csv'; nruns=%d; ncopied=%d; "
		 "nemulated=%d; foreignknown=%d; ncore=%d; ncounted=%d; sysname='%s'", c->outdir, idx,
		 copied, emulated, foreign > 0, core, counted,
		 bpf ? "every syscall (BPF) per MB" : "data syscalls per MB");
	return zc_plot_both(c, "core", extra, c->caption);
}

int zc_plot_ratio(struct plot_ctx *c)
{
	json_t *root = c->roots[c->latest];
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), ZC_PAIRS_AFTER, &pv);
	FILE *f = zc_plot_csv(c, "ratio");
	char extra[128];
	int rows = 0;

	if (!f) {
		free(pv);
		return -1;
	}
	/* n and how busy each side's DUT was beside each ratio: a ratio of
	 * two runs is read with both (an idle DUT's Gbit/s per core waited). */
	fprintf(f, "idx,label,ratio,lo,hi,verdict,n_num,n_den,busy_num,busy_den\n");
	for (size_t i = n; i-- > 0;) {	/* gnuplot draws bottom up: the first row on top */
		struct zc_ratio r;
		char lab[320], sz[24], pz[24];
		int verdict;

		zc_an_ratio(pv[i].run, pv[i].peer_run, &r);
		if (isnan(r.value))
			continue;
		/* chunk/pipe: pairs that differ by the pipe alone are two rows. */
		zc_an_fmt_size(pv[i].chunk, sz, sizeof(sz));
		zc_an_fmt_size(pv[i].pipe_size, pz, sizeof(pz));
		snprintf(lab, sizeof(lab), "%s %s/%s%s", pv[i].name, sz, pz,
			 pv[i].kind == ZC_PAIR_AFTER ? " after (emulated)" : "");
		/* Against 1.0+-5%: 1 above, -1 below, 0 about 1, 2 can't tell. */
		verdict = !r.ch.ok || r.vd.answer == ZC_ANSWER_CANT_TELL ? 2 :
			  r.vd.answer == ZC_ANSWER_UNCHANGED ? 0 : r.value > 1 ? 1 : -1;
		fprintf(f, "%d,", rows++);
		csv_text(f, lab);
		fprintf(f, ",%.6g,%.6g,%.6g,%d,%zu,%zu,%.6g,%.6g\n", r.value,
			isnan(r.lo) ? r.value : r.lo, isnan(r.hi) ? r.value : r.hi, verdict, r.nn,
			r.nd, zc_an_busy_frac(pv[i].run), zc_an_busy_frac(pv[i].peer_run));
	}
	fclose(f);
	free(pv);
	snprintf(extra, sizeof(extra), "nrows=%d", rows);
	return zc_plot_both(c, "ratio", extra, c->caption);
}

/* Core ms per GB by bucket, profiled runs only; not drawn without one. */
int zc_plot_profile(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	char extra[1024], colours[300] = "";
	int rows = 0;
	size_t i;
	FILE *f;

	if (!zc_an_any_profile(runs)) {
		zc_plot_skip(c, "profile", "no profiled run (zcbench run --profile)");
		return 0;
	}
	f = zc_plot_csv(c, "profile");
	if (!f)
		return -1;
	fprintf(f, "idx,label");
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		fprintf(f, ",%s", zc_buckets[b].label);
		snprintf(colours + strlen(colours), sizeof(colours) - strlen(colours), "%s%s",
			 b ? " " : "", zc_buckets[b].colour);
	}
	fprintf(f, "\n");
	json_array_foreach(runs, i, run) {
		double ms[ZC_BUCKET_NR];
		char lab[160];

		if (zc_an_bucket_cost(run, ms, NULL))
			continue;
		axis_label(runs, run, lab, sizeof(lab));
		fprintf(f, "%d,", rows++);
		csv_text(f, lab);
		for (int b = 0; b < ZC_BUCKET_NR; b++)
			fprintf(f, ",%.6g", ms[b]);
		fprintf(f, "\n");
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nrows=%d; nbuckets=%d; bucketcolours='%s'", rows, ZC_BUCKET_NR,
		 colours);
	return zc_plot_both(c, "profile", extra, c->caption);
}

/* The folded stacks of a run's profile: its path as written, else beside
 * the results file (a fixture, a copied results folder). NULL: not found. */
static const char *folded_path(struct plot_ctx *c, json_t *run, char *out, size_t len)
{
	const char *p = zc_an_str(zc_an_profile(run), "folded"), *file = c->paths[c->latest];
	const char *slash = strrchr(file, '/');

	if (!*p)
		return NULL;
	if (*p != '/' && slash) {
		snprintf(out, len, "%.*s/%s", (int)(slash - file), file, p);
		if (!access(out, R_OK))
			return out;
	}
	snprintf(out, len, "%s", p);
	return access(out, R_OK) ? NULL : out;
}

int zc_plot_flames(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		struct zc_stacks st;
		char path[PATH_MAX], svg[PATH_MAX], title[400], lab[160];
		int ret;

		if (!zc_an_profile(run))
			continue;
		snprintf(svg, sizeof(svg), "%s/flame-%zu.svg", c->outdir, i);
		zc_out_remove(svg);
		if (!folded_path(c, run, path, sizeof(path)) || zc_stacks_init(&st))
			continue;	/* the page says the stacks were not found */
		ret = zc_stacks_read(&st, path);
		axis_label(runs, run, lab, sizeof(lab));
		snprintf(title, sizeof(title), "%s (%s), %s", lab, zc_an_str(run, "name"),
			 zc_an_str(zc_an_profile(run), "event"));
		if (!ret)
			ret = zc_flamegraph_file(&st, title, svg);
		zc_stacks_free(&st);
		if (ret) {
			zc_err("plot: flame graph of %s: %s: %s", zc_an_str(run, "name"), path,
			       strerror(-ret));
			return -1;
		}
	}
	return 0;
}
