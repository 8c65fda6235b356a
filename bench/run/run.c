// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench run: the controller. Expands the workload, places the roles,
 * starts them through the host's transport, synchronises READY/GO, collects
 * each role's JSON, derives the per-core figures, and rewrites the results
 * file atomically after every run so nothing measured is ever lost.
 */
#include "lib/zcbench.h"
#include "config/cfg.h"
#include "counters/counters.h"
#include "transport/host.h"
#include "results/meta.h"
#include "modes/mode.h"
#include "probe/probe.h"
#include "lib/proc.h"
#include "results/results.h"
#include "run/run.h"
#include "run/controller.h"
#include "lib/cpu.h"
#include "config/workload.h"
#include "metrics/metrics.h"
#include "output/table.h"
#include "output/scale.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static void on_signal(int sig)
{
	(void)sig;
	zc_interrupted = 1;
}

static void progress(struct zc_ctl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(struct zc_ctl *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->tty)
		return;
	va_start(ap, fmt);
	fputs("\r\033[K", stdout);
	vfprintf(stdout, fmt, ap);
	fflush(stdout);
	va_end(ap);
}

static json_t *key_json(const struct zc_cfg *cfg)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I}", "topology", zc_topo_names[cfg->topology],
			 "source", cfg->mode[ZC_ROLE_SOURCE],
			 "proxy", cfg->topology == ZC_TOPO_PROXY ? cfg->mode[ZC_ROLE_PROXY] : "",
			 "sink", cfg->mode[ZC_ROLE_SINK], "chunk", (json_int_t)cfg->chunk,
			 "pipe_size", (json_int_t)cfg->pipe_size, "connections",
			 (json_int_t)cfg->connections, "workers", (json_int_t)cfg->workers);
}

static bool run_emulated(const struct zc_cfg *cfg)
{
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

		if (r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT)
			continue;
		if (m && (m->flags & ZC_MODE_EMULATED))
			return true;
	}
	return false;
}

static json_t *do_run(struct zc_ctl *c, const struct zc_cfg *cfg, int idx, int total)
{
	int dut = cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
	const struct zc_mode *sink = zc_mode_find(ZC_ROLE_SINK, cfg->mode[ZC_ROLE_SINK]);
	struct zc_placement pl;
	json_t *run = json_object(), *samples = json_array();
	const char *status = "ok";
	int nok = 0;

	json_object_set_new(run, "name", json_string(cfg->name));
	json_object_set_new(run, "key", key_json(cfg));
	json_object_set_new(run, "dut", json_string(zc_role_names[dut]));
	json_object_set_new(run, "emulated", json_boolean(run_emulated(cfg)));
	json_object_set_new(run, "verified", json_boolean(sink->flags & ZC_MODE_VERIFIES));
	json_object_set_new(run, "options", zc_cfg_json(cfg));
	if (zc_run_place(c, cfg, &pl, run)) {
		json_decref(samples);
		return run;
	}
	json_object_set_new(run, "samples", samples);
	for (long rep = 0; rep < cfg->repetitions && !zc_interrupted; rep++) {
		json_t *s;
		const char *st;

		progress(c, "[%d/%d] %s chunk=%llu rep %ld/%ld ...", idx + 1, total, cfg->name,
			 (unsigned long long)cfg->chunk, rep + 1, cfg->repetitions);
		s = zc_run_sample(c, cfg, (int)rep, &pl);
		json_array_append_new(samples, s);
		st = json_string_value(json_object_get(s, "status"));
		if (!strcmp(st, "ok")) {
			nok++;
			continue;
		}
		status = st;
		json_object_set_new(run, "reason", json_copy(json_object_get(s, "reason")));
		if (!strcmp(st, "unavailable") || !strcmp(st, "interrupted"))
			break;
	}
	zc_host_run_end(&c->host);
	if (!strcmp(status, "failed") && nok)
		status = "partial";
	json_object_set_new(run, "status", json_string(status));
	json_object_set_new(run, "summary", zc_run_summary(samples));
	return run;
}

static int results_path(struct zc_ctl *c, json_t *meta) /* 0 or -errno */
{
	char date[32], kern[128];
	time_t now = time(NULL);

	strftime(date, sizeof(date), "%Y%m%dT%H%M%S", localtime(&now));
	snprintf(kern, sizeof(kern), "%s",
		 json_string_value(json_object_get(json_object_get(meta, "kernel"), "release")));
	for (char *p = kern; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	snprintf(c->path, sizeof(c->path), "%s/%s-%s-%s.json", c->outdir, date, c->host.name, kern);
	/* Two runs started in the same second on one host must not share a
	 * file: claim the name with O_EXCL (the atomic rename replaces it). */
	for (int i = 2;; i++) {
		int fd = open(c->path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST || i > 999)
			return -errno;
		snprintf(c->path, sizeof(c->path), "%s/%s-%s-%s-%d.json", c->outdir, date,
			 c->host.name, kern, i);
	}
}

static int save(struct zc_ctl *c, const char *status)
{
	int ret;

	json_object_set_new(c->root, "status", json_string(status));
	json_object_set_new(c->root, "headline", zc_headline(json_object_get(c->root, "runs")));
	json_object_set_new(c->root, "sizing", zc_sizing_json(&c->root, 1, zc_sizing_targets, 3));
	ret = zc_json_write_atomic(c->root, c->path);
	if (ret)
		zc_err("writing %s: %s", c->path, strerror(-ret));
	return ret;
}

#define AT(field) ZC_OPT_AT(struct zc_run_args, field)
#define EXEC(role, name) { "exec-" name, ZC_OPT_TEXT, NULL, AT(exec[role]), .meta = "PROGRAM", \
	.help = "start PROGRAM as the " name " (same protocol), e.g. a bare loop" }

static const struct zc_opt run_opts[] = {
	{ "WORKLOAD.ini", ZC_OPT_TEXT, "workloads/default.ini", AT(workload), ZC_OPT_POS,
	  .help = "the runs and their keys (workloads/)" },
	{ "host", ZC_OPT_TEXT, NULL, AT(host), .meta = "FILE",
	  .help = "where the roles run (default: every role here over 127.0.0.1)" },
	{ "out", ZC_OPT_TEXT, "results", AT(out), .meta = "DIR", .help = "results folder" },
	{ "only", ZC_OPT_TEXTS, NULL, AT(only), .count_off = offsetof(struct zc_run_args, nonly),
	  .meta = "NAME", .help = "run only the [run NAME] sections given" },
	EXEC(ZC_ROLE_SOURCE, "source"),
	EXEC(ZC_ROLE_PROXY, "proxy"),
	EXEC(ZC_ROLE_SINK, "sink"),
};

/* A workload key on the command line overrides every run. */
static int override(void *user, const struct zc_opt *o, const char *v, char *why, size_t len)
{
	char msg[512];

	if (!zc_override_add(user, o->key, v, msg, sizeof(msg)))
		return 0;
	/* The value was checked already: only the count can fail. */
	snprintf(why, len, "more than %d workload flags", ZC_KV_MAX);
	return -EINVAL;
}

int zc_run_parse(int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		 char *err, size_t errlen)
{
	static struct zc_cfg scratch;	/* checks each flag's value */
	const struct zc_optgroup groups[] = {
		{ .opts = run_opts, .n = ZC_ARRAY_SIZE(run_opts), .base = a },
		{ .opts = zc_opts, .n = zc_nopts, .base = &scratch,
		  .title = "workload keys, settable as flags (override every run):",
		  .seen = override, .user = ov },
	};
	const struct zc_cmdline cmd = {
		.name = "run",
		.about = "Expand the workload, start the roles through the host's transport, measure,\n"
			 "and rewrite results/DATE-HOST-KERNEL.json after every run.\n"
			 "Exit: 0 all runs ok, 1 a run failed, 2 bad input, 130 interrupted.\n",
		.groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
	};

	memset(a, 0, sizeof(*a));
	memset(ov, 0, sizeof(*ov));
	zc_cfg_defaults(&scratch);
	return zc_opt_parse(&cmd, argc, argv, err, errlen);
}

int zc_cmd_run(int argc, char **argv)
{
	static struct zc_workload w;
	static struct zc_section ov;
	struct zc_run_args a;
	struct zc_ctl c = { 0 };
	const char *wpath, *hpath;
	int nruns = 0, ret, failed = 0, nonly;
	const char *const *only = a.only;
	char err[1024];
	json_t *cmd, *runs;
	struct sigaction sa = { .sa_handler = on_signal };

	ret = zc_run_parse(argc, argv, &a, &ov, err, sizeof(err));
	if (ret == ZC_OPT_HELP)
		return ZC_EXIT_OK;
	if (ret) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	wpath = a.workload;
	hpath = a.host;
	c.outdir = a.out;
	nonly = a.nonly;
	for (int r = 0; r < ZC_ROLE_NR; r++)
		c.role_exec[r] = a.exec[r];
	if (zc_workload_load(wpath, &ov, &w, err, sizeof(err))) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	if (zc_host_load(hpath, &c.host, err, sizeof(err))) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < nonly; i++) {
		bool found = false;

		for (int r = 0; r < w.nruns; r++)
			found |= !strcmp(w.runs[r].name, only[i]);
		if (!found) {
			zc_err("command line: --only %s: %s has no [run %s]", only[i], wpath, only[i]);
			return ZC_EXIT_USAGE;
		}
	}
	if (mkdir(c.outdir, 0755) && errno != EEXIST) {
		zc_err("--out %s: %s", c.outdir, strerror(errno));
		return ZC_EXIT_USAGE;
	}
	/* Signals first: Ctrl-C during setup must still reach the teardown. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (c.host.transport->setup && c.host.transport->setup(&c.host, err, sizeof(err))) {
		zc_err("%s", err);
		if (c.host.transport->teardown)
			c.host.transport->teardown(&c.host);
		return zc_interrupted ? ZC_EXIT_INTR : ZC_EXIT_FAIL;
	}
	c.tty = isatty(1);
	c.affinity_ok = sched_getaffinity(0, sizeof(c.affinity), &c.affinity) == 0;

	cmd = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	c.root = json_object();
	json_object_set_new(c.root, "schema", json_string("zcbench-results"));
	{
		char v[16];

		snprintf(v, sizeof(v), "%d.%d", ZC_SCHEMA_MAJOR, ZC_SCHEMA_MINOR);
		json_object_set_new(c.root, "schema_version", json_string(v));
	}
	json_object_set_new(c.root, "command", cmd);
	json_object_set_new(c.root, "workload",
			    json_pack("{s:s,s:s,s:s}", "file", wpath, "name", w.name,
				      "description", w.description));
	json_object_set_new(c.root, "host", zc_host_json(&c.host));
	json_object_set_new(c.root, "meta", zc_meta_collect());
	json_object_set_new(c.root, "fingerprint", zc_fingerprint_collect());
	runs = json_array();
	json_object_set_new(c.root, "runs", runs);
	ret = results_path(&c, json_object_get(c.root, "meta"));
	if (ret)
		zc_err("%s: cannot create a results file: %s", c.outdir, strerror(-ret));
	if (ret || save(&c, "running")) {
		if (c.host.transport->teardown)
			c.host.transport->teardown(&c.host);
		json_decref(c.root);
		return ZC_EXIT_FAIL;
	}

	for (int i = 0; i < w.nruns; i++) {
		bool take = !nonly;

		for (int k = 0; k < nonly; k++)
			take |= !strcmp(w.runs[i].name, only[k]);
		if (take)
			nruns++;
	}
	for (int i = 0, done = 0; i < w.nruns && !zc_interrupted; i++) {
		bool take = !nonly;
		json_t *run;

		for (int k = 0; k < nonly; k++)
			take |= !strcmp(w.runs[i].name, only[k]);
		if (!take)
			continue;
		run = do_run(&c, &w.runs[i], done++, nruns);
		if (strcmp(json_string_value(json_object_get(run, "status")), "ok") &&
		    strcmp(json_string_value(json_object_get(run, "status")), "unavailable"))
			failed++;
		json_array_append_new(runs, run);
		save(&c, "running");
	}
	progress(&c, "%s", "");
	if (c.tty)
		fputs("\r\033[K", stdout);
	ret = save(&c, zc_interrupted ? "interrupted" : "complete");
	if (c.host.transport->teardown)
		c.host.transport->teardown(&c.host);
	if (c.affinity_ok)
		sched_setaffinity(0, sizeof(c.affinity), &c.affinity);
	zc_print_table(stdout, runs);
	zc_print_headline(stdout, json_object_get(c.root, "headline"));
	zc_fingerprint_print_brief(stdout, json_object_get(c.root, "fingerprint"));
	printf("\nresults: %s%s\n", c.path, zc_interrupted ? " (interrupted)" : "");
	json_decref(c.root);
	if (zc_interrupted)
		return ZC_EXIT_INTR;
	return ret || failed ? ZC_EXIT_FAIL : 0;
}
