// SPDX-License-Identifier: GPL-2.0
/*
 * Why one path costs less, from a results file: the profile's buckets per
 * run, and per headline pair "splice saves 46% of the core per byte: kernel
 * copy -31, TCP transmit -4 ...". The saving is the Gbps-per-core ratio
 * itself (1 - den/num); the profile only splits it, so the parts always add
 * up to the headline and a profile cannot contradict the throughput figures.
 */
#include "report/breakdown.h"
#include "metrics/figures.h"
#include "lib/foreign.h"
#include "stats/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *zc_an_profile(json_t *run)
{
	json_t *p = json_object_get(run, "profile");

	return json_is_object(json_object_get(p, "buckets")) ? p : NULL;
}

double zc_an_bucket(json_t *run, enum zc_bucket b)
{
	json_t *v = json_object_get(json_object_get(zc_an_profile(run), "buckets"),
				    zc_buckets[b].key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double zc_an_sample_bucket(json_t *run, json_t *sample, enum zc_bucket b)
{
	json_t *v = json_object_get(json_object_get(json_object_get(sample, "profile"), "buckets"),
				    zc_buckets[b].key);

	return json_is_number(v) ? json_number_value(v) : zc_an_bucket(run, b);
}

void zc_export_profile_buckets(json_t *run, json_t *measures)
{
	static double v[ZC_SAMPLES_MAX];

	if (!zc_an_profile(run))
		return;
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		struct zc_summary s;
		char key[64];
		json_t *smp;
		size_t i, n = 0;

		json_array_foreach(json_object_get(run, "samples"), i, smp) {
			json_t *x = json_object_get(json_object_get(json_object_get(smp, "profile"),
								    "buckets"), zc_buckets[b].key);

			if (json_is_number(x) && n < ZC_SAMPLES_MAX)
				v[n++] = json_number_value(x);
		}
		if (!n)
			v[n++] = zc_an_bucket(run, b);	/* the run's one profile */
		zc_summarize(v, n, &s);
		snprintf(key, sizeof(key), "profile_%s_pct", zc_buckets[b].key);
		json_object_set_new(measures, key, json_pack("{s:f,s:f,s:f}", "value", s.median,
							     "lower_value", s.min, "upper_value",
							     s.max));
	}
}

bool zc_an_any_profile(json_t *runs)
{
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		if (zc_an_profile(run))
			return true;
	return false;
}

/* One sample's foreign share of the DUT core (NaN: not known). */
static double sample_foreign(json_t *smp, const char *dut, double *win_out)
{
	json_t *w = json_object_get(json_object_get(json_object_get(smp, "roles"), dut), "window");
	json_t *c = json_object_get(w, "cpustat");
	double win = json_number_value(json_object_get(w, "window_s"));
	struct zc_foreign fr;

	*win_out = win;
	if (!json_is_object(c) || !(win > 0))
		return NAN;
	zc_foreign_busy(json_number_value(json_object_get(c, "busy_s")),
			json_number_value(json_object_get(w, "rusage_user_s")) +
				json_number_value(json_object_get(w, "rusage_sys_s")),
			json_number_value(json_object_get(c, "irq_s")) +
				json_number_value(json_object_get(c, "softirq_s")),
			win, 1, ZC_FOREIGN_SHARE_MAX, &fr);
	/* A report without thread times has none of these keys: NaN. */
	return json_is_number(json_object_get(w, "rusage_user_s")) ? fr.share : NAN;
}

/*
 * Gbps per core (median) for the cost per byte: the headline's, unless
 * another process took more than ZC_FOREIGN_SHARE_MAX of the DUT's core in
 * some sample (a shared machine); then the DUT's own: its Gbps over its busy
 * cores less the foreign share, and *own is set.
 */
static double cost_gpc(json_t *run, bool *own)
{
	static double v[ZC_SAMPLES_MAX];
	const char *dut = zc_an_dut_role(run);
	json_t *smp;
	size_t i, n = 0;
	bool disturbed = false, known = true;

	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		double win, fs = sample_foreign(smp, dut, &win);

		if (strcmp(zc_an_str(smp, "status"), "ok"))
			continue;
		known &= !isnan(fs);
		disturbed |= fs > ZC_FOREIGN_SHARE_MAX;
	}
	*own = disturbed && known;
	if (!*own)
		return zc_median(v, zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX));
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		double win, fs = sample_foreign(smp, dut, &win);
		double gpc = zc_fig_per_core(json_number_value(json_object_get(smp, "dut_gbps")),
				json_number_value(json_object_get(smp, "dut_busy_cores")) - fs);

		if (!strcmp(zc_an_str(smp, "status"), "ok") && gpc > 0 && n < ZC_SAMPLES_MAX)
			v[n++] = gpc;
	}
	return zc_median(v, n);
}

static int bucket_cost(json_t *run, double ms_per_gb[ZC_BUCKET_NR], bool *own)
{
	json_t *p = zc_an_profile(run);
	double gpc = cost_gpc(run, own), idle, busy;

	if (!p || !(gpc > 0))
		return -ENODATA;
	idle = json_number_value(json_object_get(p, "idle_pct"));
	busy = 100 - idle;
	if (!(busy > 0))
		return -ENODATA;
	/* 8000 / gpc: core milliseconds per GB (8 Gbit) at gpc Gbit/s per core. */
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		double share = zc_an_bucket(run, b) - (b == ZC_BUCKET_SCHED_IDLE ? idle : 0);

		ms_per_gb[b] = (isnan(share) ? 0 : fmax(share, 0)) / busy * 8000 / gpc;
	}
	return 0;
}

int zc_an_bucket_cost(json_t *run, double ms_per_gb[ZC_BUCKET_NR], bool *own)
{
	bool o;

	return bucket_cost(run, ms_per_gb, own ? own : &o);
}

int zc_an_saving(json_t *num, json_t *den, struct zc_saving *s)
{
	double tn = 0, td = 0;

	bool own_n, own_d;

	if (bucket_cost(num, s->num_ms_per_gb, &own_n) || bucket_cost(den, s->den_ms_per_gb, &own_d))
		return -ENODATA;
	s->own = own_n || own_d;
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		tn += s->num_ms_per_gb[b];
		td += s->den_ms_per_gb[b];
	}
	if (!(td > 0))
		return -ENODATA;
	s->saves_pct = 100 * (td - tn) / td;
	for (int b = 0; b < ZC_BUCKET_NR; b++)
		s->delta_pts[b] = 100 * (s->num_ms_per_gb[b] - s->den_ms_per_gb[b]) / td;
	return 0;
}

int zc_an_core_split(json_t *run, struct zc_core_split *cs)
{
	const char *dut = zc_an_dut_role(run);
	json_t *smp;
	size_t i;
	double sum[7] = { 0 }, fsum = 0;
	size_t nf = 0;

	memset(cs, 0, sizeof(*cs));
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *w = json_object_get(json_object_get(json_object_get(smp, "roles"), dut), "window");
		json_t *c = json_object_get(w, "cpustat");
		double win = zc_an_real(w, "window_s"), user, sys, busy, threads;
		struct zc_foreign fr;

		if (strcmp(zc_an_str(smp, "status"), "ok") || !json_is_object(c) || !(win > 0))
			continue;
		user = zc_an_real(c, "user_s") + zc_an_real(c, "nice_s");
		sys = zc_an_real(c, "system_s");
		busy = zc_an_real(c, "busy_s");
		threads = zc_an_real(w, "rusage_user_s") + zc_an_real(w, "rusage_sys_s");
		/* Another process's time on the core is busy to /proc/stat: carved
		 * out of user and system in proportion, where the DUT's thread
		 * times say how much (lib/foreign.c). */
		zc_foreign_busy(busy, threads, zc_an_real(c, "irq_s") + zc_an_real(c, "softirq_s"),
				win, 1, ZC_FOREIGN_SHARE_MAX, &fr);
		if (!isnan(fr.busy_s) && user + sys > 0) {
			double k = fmin(fr.busy_s, user + sys) / (user + sys);

			user -= user * k;
			sys -= sys * k;
			fsum += fmin(fr.busy_s, zc_an_real(c, "user_s") + zc_an_real(c, "nice_s") +
						zc_an_real(c, "system_s")) / win;
			nf++;
		}
		sum[0] += user / win;
		sum[1] += sys / win;
		sum[2] += zc_an_real(c, "softirq_s") / win;
		sum[3] += zc_an_real(c, "irq_s") / win;
		sum[4] += (zc_an_real(c, "idle_s") + zc_an_real(c, "iowait_s")) / win;
		sum[5] += zc_an_real(c, "steal_s") / win;
		cs->n++;
	}
	if (!cs->n)
		return -ENODATA;
	cs->user = sum[0] / cs->n;
	cs->system = sum[1] / cs->n;
	cs->softirq = sum[2] / cs->n;
	cs->irq = sum[3] / cs->n;
	cs->idle = sum[4] / cs->n;
	cs->steal = sum[5] / cs->n;
	cs->foreign = nf == cs->n ? fsum / cs->n : NAN;
	return 0;
}

double zc_an_copied_fraction(json_t *run)
{
	static double v[ZC_SAMPLES_MAX];
	const char *dut = zc_an_dut_role(run);
	json_t *smp;
	size_t i, n = 0;

	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *mr = json_object_get(json_object_get(json_object_get(smp, "roles"), dut),
					     "mode_report");
		double x = zc_an_real(mr, "copied_fraction");

		if (!strcmp(zc_an_str(smp, "status"), "ok") && !isnan(x) && n < ZC_SAMPLES_MAX)
			v[n++] = x;
	}
	return zc_median(v, n);
}

/* The buckets' table; columns past width go into a second block of the
 * same rows (width 0: one block). */
static void print_buckets(FILE *f, json_t *runs, int width)
{
	json_t *run, *p = NULL;
	size_t i;
	int nw = 3, ncol = ZC_BUCKET_NR + 2, per;

	json_array_foreach(runs, i, run)
		if ((p = zc_an_profile(run)))
			break;
	fprintf(f, "\n  Where the DUT core goes: profile of the window, %% of its samples (%s%s%s)\n",
		zc_an_str(p, "event"), *zc_an_str(p, "event") ? ", " : "",
		*zc_an_str(p, "comm") ? "the DUT's own process" : "every process on the core");
	if (*zc_an_str(p, "event_note"))
		fprintf(f, "  event: %s\n", zc_an_str(p, "event_note"));
	json_array_foreach(runs, i, run)
		if (zc_an_profile(run) && (int)strlen(zc_an_str(run, "name")) > nw)
			nw = (int)strlen(zc_an_str(run, "name"));
	nw = nw > 24 ? 24 : nw;
	per = width > 0 ? (width - (2 + nw + 1 + 5)) / 8 : ncol;
	per = per < 1 ? 1 : per;
	for (int c0 = 0; c0 < ncol; c0 += per) {
		int c1 = c0 + per < ncol ? c0 + per : ncol;

		fprintf(f, "%s  %-*s %-5s", c0 ? "\n" : "", nw, "run", "chunk");
		for (int c = c0; c < c1; c++)
			fprintf(f, " %7s", c < ZC_BUCKET_NR ? zc_buckets[c].abbr :
				c == ZC_BUCKET_NR ? "idle" : "samples");
		fprintf(f, "\n");
		json_array_foreach(runs, i, run) {
			char chunk[24];

			if (!(p = zc_an_profile(run)))
				continue;
			zc_an_fmt_size(zc_an_int(json_object_get(run, "key"), "chunk"), chunk, sizeof(chunk));
			fprintf(f, "  %-*.*s %-5s", nw, nw, zc_an_str(run, "name"), chunk);
			for (int c = c0; c < c1; c++)
				if (c < ZC_BUCKET_NR)
					fprintf(f, " %7.1f", zc_an_bucket(run, c));
				else if (c == ZC_BUCKET_NR)
					fprintf(f, " %7.1f", zc_an_real(p, "idle_pct"));
				else
					fprintf(f, " %7lld", zc_an_int(p, "samples"));
			fprintf(f, "\n");
		}
	}
}

/* Another process on the DUT's core makes every per-core figure look worse,
 * and this split with it: say so when the reports show one. */
static void print_foreign(FILE *f, json_t *runs)
{
	struct zc_core_split cs;
	double worst = 0;
	const char *name = NULL;
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		if (zc_an_profile(run) && !zc_an_core_split(run, &cs) && cs.foreign > worst) {
			worst = cs.foreign;
			name = zc_an_str(run, "name");
		}
	if (worst > ZC_FOREIGN_SHARE_MAX)
		fprintf(f, "  note: up to %.0f%% of the DUT core went to other processes (run %s: "
			   "/proc/stat busy minus the DUT's own and irq time): the headline's Gbps per "
			   "core counts that time; the savings below do not\n", 100 * worst, name);
}

struct part {
	double pts;
	int b;
};

static int by_size(const void *a, const void *b)
{
	double x = fabs(((const struct part *)a)->pts), y = fabs(((const struct part *)b)->pts);

	return (x < y) - (x > y);
}

/* "splice saves 46% of the core per byte over copy: kernel copy -31, ..." */
static void print_saving(FILE *f, const struct zc_pair *p)
{
	struct zc_saving s;
	struct part parts[ZC_BUCKET_NR];
	char chunk[24];
	int shown = 0;

	if (zc_an_saving(p->run, p->peer_run, &s))
		return;
	zc_an_fmt_size(p->chunk, chunk, sizeof(chunk));
	fprintf(f, "  %s%s %s: %s %s %.0f%% of the core per byte over %s:", p->name,
		p->kind == ZC_PAIR_AFTER ? " (after, emulated)" : "", chunk, p->mode->name, s.saves_pct >= 0 ? "saves" : "costs", fabs(s.saves_pct),
		p->peer->name);
	for (int b = 0; b < ZC_BUCKET_NR; b++)
		parts[b] = (struct part){ s.delta_pts[b], b };
	qsort(parts, ZC_BUCKET_NR, sizeof(*parts), by_size);
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		if (fabs(parts[b].pts) < 0.5)
			continue;
		fprintf(f, "%s %s %+.0f", shown++ ? "," : "", zc_buckets[parts[b].b].label,
			parts[b].pts);
	}
	fprintf(f, "%s%s\n", shown ? "" : " no bucket moved by half a point",
		s.own ? " (the DUT's own time: another process's share of the core taken out)" : "");
}

void zc_report_breakdown(FILE *f, json_t *root, int width)
{
	json_t *runs = json_object_get(root, "runs");
	struct zc_pair *pv;
	size_t n;
	bool head = false;

	if (!zc_an_any_profile(runs))
		return;
	print_buckets(f, runs, width);
	print_foreign(f, runs);
	n = zc_headline_pairs(runs, ZC_PAIRS_AFTER, &pv);
	for (size_t i = 0; i < n; i++) {
		struct zc_saving s;

		if (!pv[i].run || zc_an_saving(pv[i].run, pv[i].peer_run, &s))
			continue;
		if (!head)
			fprintf(f, "\n  What each path saves per byte (points of the baseline's core "
				   "time per byte, by bucket; they add up to the saving, 1 - den/num of "
				   "Gbps per core):\n");
		head = true;
		print_saving(f, &pv[i]);
	}
	free(pv);
}
