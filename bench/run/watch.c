// SPDX-License-Identifier: GPL-2.0
/*
 * The controller watching each sample (watch.h): ticks every interval over
 * the window, the window's profile switched on and off at its edges, the
 * progress line and the JSON event stream. Everything here runs on the
 * controller's core, kept off the DUT's (zc_run_avoid_cpus).
 *
 * A sample's intervals partition its window exactly: the outer boundaries
 * are the roles' own window edges (their per-connection byte counts at
 * SIGALRM, read from the shared mapping after the sample), the inner ones
 * the controller's reads at its ticks. So they add up to the window's
 * bytes; times and busy time are the controller's (/proc/stat of the DUT's
 * CPUs at each tick), a few milliseconds off the roles' edges.
 */
#include "run/watch.h"
#include "run/controller.h"
#include "modes/mode.h"
#include "metrics/figures.h"
#include "results/results.h"
#include "lib/proc.h"
#include "lib/zcbench.h"
#include "profile/profile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct tick {
	double t;			/* zc_now(); the outer ones become the planned edges */
	double t_read;			/* when /proc/stat was read */
	uint64_t bytes[2];		/* sink, DUT: every connection's so far */
	bool bytes_ok[2];
	double busy_s;			/* the DUT's CPUs' busy seconds so far (/proc/stat) */
	bool busy_ok;
};

struct zc_watch {
	struct zc_watch_opts o;
	FILE *stream;			/* the events (the real stdout) */
	int saved_stdout;
	bool show, tty;			/* progress line; on a terminal (\r) */
	char line[512];			/* the current progress line */
	double t0;
	char resdir[PATH_MAX - 512], profroot[PATH_MAX - 448];
	bool event_said;
	/* the sample being taken */
	bool armed;
	const struct zc_cfg *cfg;
	const struct zc_placement *pl;
	int dut, rep;
	bool dut_local;			/* its /proc/stat is ours */
	char livepath[ZC_ROLE_NR][PATH_MAX];
	struct zc_live_map map[ZC_ROLE_NR];
	struct tick *ticks;
	size_t nticks, maxticks;
	double t_open, t_close;		/* the window's planned edges */
	struct zc_profile *prof;
	char profdir[PATH_MAX], rundir[PATH_MAX - 64], pid[24], prof_why[1024];
	json_t *profile;		/* the last sample's, until sample_done */
};

static void emit(struct zc_watch *w, json_t *ev)
{
	if (w->stream && ev) {
		json_object_set_new(ev, "t_s", json_real(round((zc_now() - w->t0) * 1e3) / 1e3));
		json_dumpf(ev, w->stream, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
		fputc('\n', w->stream);
		fflush(w->stream);
	}
	json_decref(ev);
}

static void show(struct zc_watch *w, const char *text)
{
	if (!w->show)
		return;
	if (w->tty)
		fprintf(stderr, "\r\033[K%s", text);
	else if (text[0])
		fprintf(stderr, "%s\n", text);
	fflush(stderr);
}

int zc_watch_init(struct zc_ctl *c, const struct zc_watch_opts *o)
{
	struct zc_watch *w = calloc(1, sizeof(*w));
	int fd;

	if (!w)
		return -ENOMEM;
	w->o = *o;
	if (w->o.interval_s > 0 && w->o.interval_s < 0.05) {
		/* /proc/stat counts 10 ms ticks: shorter intervals would be noise. */
		zc_warn("--interval %g: 0.05 s used (the shortest that /proc/stat can tell)",
			w->o.interval_s);
		w->o.interval_s = 0.05;
	}
	w->t0 = zc_now();
	w->saved_stdout = -1;
	w->tty = isatty(2);
	w->show = o->progress == ZC_PROGRESS_ALWAYS || (o->progress == ZC_PROGRESS_AUTO && w->tty);
	if (o->json_stream) {
		/* The events own stdout; the tables and anything a child prints go to stderr. */
		fflush(stdout);
		fd = dup(1);
		if (fd < 0 || !(w->stream = fdopen(fd, "w")) || dup2(2, 1) < 0) {
			int err = errno;

			if (fd >= 0 && !w->stream)
				close(fd);
			free(w);
			return -err;
		}
		w->saved_stdout = dup(fd);
	}
	zc_live_reap_stale();
	c->watch = w;
	return 0;
}

void zc_watch_start(struct zc_ctl *c, size_t planned)
{
	struct zc_watch *w = c->watch;
	json_t *names = json_array(), *run, *root = c->root;
	const char *slash;
	size_t i;

	if (!w)
		return;
	slash = strrchr(c->path, '/');
	snprintf(w->resdir, sizeof(w->resdir), "%.*s", slash ? (int)(slash - c->path) : 1,
		 slash ? c->path : ".");
	/* results/X.json's profiles in results/X.profile/ */
	snprintf(w->profroot, sizeof(w->profroot), "%.*s.profile", (int)strlen(c->path) - 5, c->path);
	json_array_foreach(json_object_get(root, "runs"), i, run)
		json_array_append(names, json_object_get(run, "name"));
	emit(w, json_pack("{s:s,s:s,s:O,s:O,s:o,s:I,s:f,s:b,s:O}", "event", "start", "results",
			  c->path, "workload", json_object_get(json_object_get(root, "workload"), "file"),
			  "host", json_object_get(json_object_get(root, "host"), "name"), "runs", names,
			  "samples_planned", (json_int_t)planned, "interval_s", w->o.interval_s,
			  "profile", w->o.profile, "invocation", json_object_get(root, "invocation")));
}

void zc_watch_progress(struct zc_ctl *c, const char *fmt, ...)
{
	struct zc_watch *w = c->watch;
	va_list ap;

	if (!w)
		return;
	va_start(ap, fmt);
	vsnprintf(w->line, sizeof(w->line), fmt, ap);
	va_end(ap);
	show(w, w->line);
}

void zc_watch_role_env(struct zc_ctl *c, int role)
{
	struct zc_watch *w = c->watch;

	unsetenv(ZC_LIVE_ENV);
	if (!w || w->o.interval_s <= 0 || zc_host_remote(&c->host, role) || c->role_exec[role])
		return;
	if (zc_live_create(role, w->livepath[role], sizeof(w->livepath[role]))) {
		w->livepath[role][0] = 0;
		return;
	}
	setenv(ZC_LIVE_ENV, w->livepath[role], 1);
}

/* "proxy-copy-65536-1048576" (the run's key as a folder name). */
static void run_folder(const struct zc_cfg *cfg, char *out, size_t len)
{
	snprintf(out, len, "%s-%llu-%llu-c%lld-w%lld", cfg->name, (unsigned long long)cfg->chunk,
		 (unsigned long long)cfg->pipe_size, (long long)cfg->connections,
		 (long long)cfg->workers);
	for (char *p = out; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
}

void zc_watch_prepare(struct zc_ctl *c, const struct zc_cfg *cfg, const struct zc_placement *pl,
		      int dut, pid_t dut_pid, int rep)
{
	struct zc_watch *w = c->watch;
	const struct zc_mode *dm;
	char folder[300], note[512];
	int ret;

	if (!w)
		return;
	unsetenv(ZC_LIVE_ENV);
	w->armed = true;
	w->cfg = cfg;
	w->pl = pl;
	w->dut = dut;
	w->rep = rep;
	w->dut_local = !zc_host_remote(&c->host, dut);
	w->nticks = 0;
	/* Both sides have it mapped now (the role before READY): the name can
	 * go, so a killed controller leaves nothing in /dev/shm. */
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (w->livepath[r][0] && !zc_live_open(&w->map[r], w->livepath[r]))
			unlink(w->livepath[r]);
	if (w->o.interval_s > 0) {
		size_t need = (size_t)(cfg->duration_s / w->o.interval_s) + 4;

		if (need > w->maxticks) {
			struct tick *t = realloc(w->ticks, need * sizeof(*t));

			if (t) {
				w->ticks = t;
				w->maxticks = need;
			}
		}
	}
	if (!w->o.profile)
		return;
	w->prof_why[0] = 0;
	if (zc_host_remote(&c->host, dut) || c->role_exec[dut]) {
		snprintf(w->prof_why, sizeof(w->prof_why), "the DUT is %s: not profiled",
			 c->role_exec[dut] ? "a foreign program (--exec)" : "on another machine");
		return;
	}
	if (!w->event_said && w->pl->nworkers[dut] > 0) {
		/* Once: which event, and why when it is not the PMU's cycles. */
		zc_profile_hw_event(pl->wcpu[dut][0], note, sizeof(note));
		fprintf(stderr, "profile: the DUT's CPUs over each window, event %s\n", note);
		w->event_said = true;
	}
	run_folder(cfg, folder, sizeof(folder));
	snprintf(w->rundir, sizeof(w->rundir), "%s/%s", w->profroot, folder);
	snprintf(w->profdir, sizeof(w->profdir), "%s/rep%d", w->rundir, rep);
	/* A peer mode's DUT is its program (haproxy), the role's child: its
	 * samples carry the program's name, the role only waits. */
	dm = zc_mode_find(dut, cfg->mode[dut]);
	if (dm && (dm->flags & ZC_MODE_PEER))
		snprintf(w->pid, sizeof(w->pid), "%s", dm->program);
	else
		snprintf(w->pid, sizeof(w->pid), "%d", (int)dut_pid);
	ret = zc_run_profile_open(&w->prof, w->profdir, pl, dut, w->pid, w->o.profile_backend,
				  w->prof_why, sizeof(w->prof_why));
	if (ret) {
		w->prof = NULL;
		zc_warn("profile: %s", w->prof_why);
	}
}

static void tick(struct zc_watch *w, struct tick *t)
{
	const int role[2] = { ZC_ROLE_SINK, w->dut };

	t->t = t->t_read = zc_now();
	for (int i = 0; i < 2; i++) {
		if (!w->map[role[i]].base && w->livepath[role[i]][0])
			zc_live_open(&w->map[role[i]], w->livepath[role[i]]);
		t->bytes_ok[i] = zc_live_bytes(&w->map[role[i]], &t->bytes[i]) == 0;
	}
	t->busy_s = 0;
	t->busy_ok = w->dut_local && w->pl->nworkers[w->dut] > 0;
	for (int k = 0; t->busy_ok && k < w->pl->nworkers[w->dut]; k++) {
		struct zc_cpustat cs;
		int cpu = w->pl->wcpu[w->dut][k];

		if (zc_has_cpu(w->pl->wcpu[w->dut], k, cpu))
			continue;	/* a CPU two workers share counts once */
		t->busy_ok = zc_cpustat_read(cpu, &cs) == 0;
		t->busy_s += zc_cpustat_busy(&cs);
	}
}

/* One interval's figures from boundaries a and b. */
static json_t *interval_json(const struct tick *a, const struct tick *b, double t_open, int i)
{
	double dur = b->t - a->t, sink = (double)(b->bytes[0] - a->bytes[0]);
	double dut = (double)(b->bytes[1] - a->bytes[1]), busy = b->busy_s - a->busy_s;
	json_t *o = json_pack("{s:i,s:f,s:f}", "i", i, "t_s", b->t - t_open, "dur_s", dur);

	if (dur <= 0)
		return o;
	if (a->bytes_ok[0] && b->bytes_ok[0]) {
		json_object_set_new(o, "sink_bytes", json_integer((json_int_t)(sink)));
		json_object_set_new(o, "gbps", json_real(zc_fig_gbps(sink, dur)));
	}
	if (a->bytes_ok[1] && b->bytes_ok[1])
		json_object_set_new(o, "dut_bytes", json_integer((json_int_t)dut));
	/* Busy time over the span of its own reads; bytes over the interval's. */
	if (a->busy_ok && b->busy_ok && b->t_read > a->t_read) {
		double cores = zc_fig_busy_cores(busy, b->t_read - a->t_read);
		double gpc = zc_fig_per_core(zc_fig_gbps(dut, dur), cores);

		json_object_set_new(o, "dut_busy_s", json_real(busy));
		json_object_set_new(o, "dut_busy_cores", json_real(cores));
		if (a->bytes_ok[1] && b->bytes_ok[1] && isfinite(gpc))
			json_object_set_new(o, "gbps_per_core", json_real(gpc));
	}
	return o;
}

int zc_watch_window(struct zc_ctl *c, struct zc_child **live, int n, double t_close)
{
	struct zc_watch *w = c->watch;
	double t_open, next;
	int ret;

	if (!w || !w->armed)
		return zc_children_wait(live, n, t_close);
	/* The planned edge: the roles' timers, not this loaded controller's wake-up. */
	t_open = t_close - w->cfg->duration_s;
	w->t_open = t_open;
	w->t_close = t_close;
	if (w->prof && zc_profile_start(w->prof))
		zc_warn("profile: cannot switch the events on at the window's opening edge");
	if (w->o.interval_s <= 0 || !w->maxticks)
		goto wait;
	tick(w, &w->ticks[w->nticks++]);
	for (;;) {
		json_t *iv;

		/* A stretch shorter than a quarter interval joins the last one. */
		next = t_open + (double)w->nticks * w->o.interval_s;
		if (next > t_close - w->o.interval_s / 4 || w->nticks + 1 >= w->maxticks)
			break;
		ret = zc_children_wait(live, n, next);
		if (ret != -ETIMEDOUT)
			goto out;
		tick(w, &w->ticks[w->nticks++]);
		iv = interval_json(&w->ticks[w->nticks - 2], &w->ticks[w->nticks - 1], t_open,
				   (int)w->nticks - 2);
		if (w->show) {
			char text[700];

			snprintf(text, sizeof(text), "%s %4.1f s: %.2f Gbit/s, %.2f DUT cores", w->line,
				 w->ticks[w->nticks - 1].t - t_open,
				 json_real_value(json_object_get(iv, "gbps")),
				 json_real_value(json_object_get(iv, "dut_busy_cores")));
			show(w, text);
		}
		if (w->stream) {
			/* Live: the final intervals end at the roles' own edges. */
			json_t *ev = json_pack("{s:s,s:s,s:i,s:b}", "event", "interval", "run",
					       w->cfg->name, "rep", w->rep, "preliminary", 1);

			json_object_update(ev, iv);
			emit(w, ev);
		}
		json_decref(iv);
	}
wait:
	ret = zc_children_wait(live, n, t_close);
	if (ret == -ETIMEDOUT && w->maxticks && w->o.interval_s > 0)
		tick(w, &w->ticks[w->nticks++]);
out:
	if (w->prof)
		zc_profile_stop(w->prof);
	return ret;
}

/*
 * The sample's intervals: the ticks, the first and last replaced by the
 * roles' edges (bytes), inner ones clamped between them (a role's edge a
 * little after the controller's first tick must not make a negative one).
 */
static json_t *intervals(struct zc_watch *w)
{
	const int role[2] = { ZC_ROLE_SINK, w->dut };
	json_t *out = json_array();
	struct tick *t = w->ticks;
	size_t n = w->nticks;

	for (int i = 0; i < 2; i++) {
		uint64_t lo, hi;

		if (zc_live_edge(&w->map[role[i]], 0, &lo) || zc_live_edge(&w->map[role[i]], 1, &hi) ||
		    hi < lo) {
			for (size_t k = 0; k < n; k++)
				t[k].bytes_ok[i] = false;
			continue;
		}
		t[0].bytes[i] = lo;
		t[n - 1].bytes[i] = hi;
		for (size_t k = 1; k + 1 < n; k++)
			t[k].bytes[i] = t[k].bytes[i] < t[k - 1].bytes[i] ? t[k - 1].bytes[i] :
					t[k].bytes[i] > hi ? hi : t[k].bytes[i];
	}
	/* The outer bytes are the roles' edges: so are the outer times (planned). */
	t[0].t = w->t_open;
	if (t[n - 1].t > w->t_close)
		t[n - 1].t = w->t_close;
	for (size_t k = 1; k < n; k++)
		json_array_append_new(out, interval_json(&t[k - 1], &t[k], w->t_open, (int)k - 1));
	return out;
}

void zc_watch_finish(struct zc_ctl *c, json_t *sample)
{
	struct zc_watch *w = c->watch;
	bool ok;

	if (!w)
		return;
	unsetenv(ZC_LIVE_ENV);
	ok = !strcmp(json_string_value(json_object_get(sample, "status")) ?: "", "ok");
	if (w->armed && ok && w->nticks >= 2)
		json_object_set_new(sample, "intervals", intervals(w));
	if (w->armed && w->prof) {
		json_t *p = zc_run_profile_close(w->prof, w->resdir, w->prof_why, sizeof(w->prof_why));

		w->prof = NULL;
		if (p)
			json_object_set_new(sample, "profile", p);
		else
			zc_warn("profile: %s", w->prof_why);
	}
	if (w->armed && w->o.profile && !json_object_get(sample, "profile") && w->prof_why[0])
		json_object_set_new(sample, "profile_error", json_string(w->prof_why));
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		zc_live_close(&w->map[r]);
		if (w->livepath[r][0])
			unlink(w->livepath[r]);
		w->livepath[r][0] = 0;
	}
	w->armed = false;
}

void zc_watch_sample_done(struct zc_ctl *c, json_t *run, json_t *sample)
{
	struct zc_watch *w = c->watch;

	if (!w)
		return;
	if (json_object_get(sample, "profile") && w->rundir[0])
		zc_run_profile_merge(run, sample, w->resdir, w->rundir);
	if (!w->stream)
		return;
	emit(w, json_pack("{s:s,s:O,s:O,s:O,s:O,s:o,s:o,s:o,s:I}", "event", "sample",
			  "run", json_object_get(run, "name"), "rep", json_object_get(sample, "rep"),
			  "status", json_object_get(sample, "status"),
			  "reason", json_object_get(sample, "reason") ?: json_null(),
			  "gbps", zc_wire_num(zc_an_real(sample, "gbps")),
			  "gbps_per_core", zc_wire_num(zc_an_real(sample, "gbps_per_core")),
			  "dut_busy_cores", zc_wire_num(zc_an_real(sample, "dut_busy_cores")),
			  "intervals", (json_int_t)json_array_size(json_object_get(sample, "intervals"))));
}

void zc_watch_end(struct zc_ctl *c, const char *status, int exit_code)
{
	struct zc_watch *w = c->watch;
	json_t *run;
	size_t i;

	if (!w)
		return;
	json_array_foreach(json_object_get(c->root, "runs"), i, run) {
		json_t *sum = json_object_get(run, "summary"), *p = json_object_get(run, "profile");

		if (!w->stream)
			break;
		emit(w, json_pack("{s:s,s:O,s:O,s:O,s:I,s:o,s:o,s:o,s:O?}", "event", "run",
				  "run", json_object_get(run, "name"), "key", json_object_get(run, "key"),
				  "status", json_object_get(run, "status"),
				  "samples", (json_int_t)json_array_size(json_object_get(run, "samples")),
				  "gbps", zc_wire_num(zc_an_real(json_object_get(sum, "gbps"), "median")),
				  "gbps_per_core", zc_wire_num(zc_an_real(json_object_get(sum, "gbps_per_core"), "median")),
				  "dut_busy_cores", zc_wire_num(zc_an_real(json_object_get(sum, "dut_busy_cores"), "median")),
				  "profile_buckets", json_object_get(p, "buckets")));
	}
	emit(w, json_pack("{s:s,s:s,s:s,s:i}", "event", "end", "status", status, "results", c->path,
			  "exit", exit_code));
	if (w->stream) {
		fflush(stdout);
		if (w->saved_stdout >= 0) {
			dup2(w->saved_stdout, 1);
			close(w->saved_stdout);
		}
		fclose(w->stream);
	}
	free(w->ticks);
	free(w);
	c->watch = NULL;
}
