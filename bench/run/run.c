// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench run: the controller. Expands the workload, places the roles,
 * starts them through the host's transport, synchronises READY/GO, collects
 * each role's JSON, derives the per-core figures, and rewrites the results
 * file atomically after every run so nothing measured is ever lost.
 */
#include "lib/zcbench.h"
#include "lib/outpath.h"
#include "config/cfg.h"
#include "counters/counters.h"
#include "transport/host.h"
#include "results/meta.h"
#include "modes/mode.h"
#include "probe/probe.h"
#include "lib/proc.h"
#include "results/results.h"
#include "run/run.h"
#include "peers/role_peer.h"
#include "run/controller.h"
#include "lib/cpu.h"
#include "lib/term.h"
#include "config/workload.h"
#include "metrics/metrics.h"
#include "report/table.h"
#include "run/schedule.h"
#include "run/tune.h"
#include "run/verify.h"
#include "run/rescue.h"
#include "report/scale.h"
#include "report/slices.h"
#include "results/slices.h"

#include <errno.h>
#include <limits.h>
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

/*
 * A run before its samples: its JSON, its placement (once, up front: every
 * sample of the run uses the same CPUs, whatever order they come in). false
 * when it cannot be placed (its status says why) and takes no sample.
 */
static bool run_prepare(struct zc_ctl *c, const struct zc_cfg *cfg, struct zc_placement *pl,
			json_t **out)
{
	int dut = zc_cfg_dut(cfg);
	json_t *run = json_object(), *samples = json_array();

	*out = run;
	json_object_set_new(run, "name", json_string(cfg->name));
	json_object_set_new(run, "key", zc_cfg_key_json(cfg));
	json_object_set_new(run, "dut", json_string(zc_role_names[dut]));
	json_object_set_new(run, "emulated", json_boolean(run_emulated(cfg)));
	/* What the sinks measured, sample by sample (run_update): none yet. */
	json_object_set_new(run, "verified", json_false());
	zc_run_peer_json(run, cfg);	/* peer modes: "peer", and why iperf3 is unverified */
	if (cfg->traffic == ZC_TRAFFIC_RR)	/* what requests and responses are held to */
		json_object_set_new(run, "rr_check", json_string(zc_cfg_rr_check(cfg) ==
						 ZC_RR_CHECK_EXACT ? "exact" : "http"));
	json_object_set_new(run, "options", zc_cfg_json(cfg));
	if (zc_run_place(c, cfg, pl, run)) {
		json_decref(samples);
		return false;
	}
	json_object_set_new(run, "status", json_string("running"));
	json_object_set_new(run, "samples", samples);
	return true;
}

/*
 * A run's status and summary from the samples it has. Disturbed samples
 * (another task on the DUT's cores) stay in the file but out of the summary
 * and the headline; the run says how many.
 */
static void run_update(json_t *run, long planned, bool closed, bool final)
{
	json_t *samples = json_object_get(run, "samples"), *s, *lat;
	const char *status = "ok";
	size_t i, nok = 0, n = json_array_size(samples);

	json_object_del(run, "reason");
	json_array_foreach(samples, i, s) {
		const char *st = json_string_value(json_object_get(s, "status"));

		if (!strcmp(st, "ok")) {
			nok++;
			continue;
		}
		status = st;
		json_object_set_new(run, "reason", json_copy(json_object_get(s, "reason")));
	}
	if (!strcmp(status, "failed") && nok)
		status = "partial";
	if (!strcmp(status, "ok") && !closed && (long)n < planned) {
		status = final ? "interrupted" : "running";
		if (final)
			json_object_set_new(run, "reason", json_sprintf("interrupted by a signal after "
									"%zu of %ld samples", n, planned));
	}
	json_object_set_new(run, "status", json_string(status));
	json_object_set_new(run, "disturbed_left_out", json_integer((json_int_t)zc_an_disturbed_count(run)));
	json_object_set_new(run, "summary", zc_run_summary(samples));
	/* request/response: every sample's requests in one histogram */
	json_object_del(run, "latency_merged");
	if ((lat = zc_run_latency(samples)))
		json_object_set_new(run, "latency_merged", lat);
	zc_run_verified(run);
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
	/* A name that does not fit is refused, never cut (it would lose .json). */
	if ((size_t)snprintf(c->path, sizeof(c->path), "%s/%s-%s-%s-999.json", c->outdir, date,
			     c->host.name, kern) >= sizeof(c->path))
		return -ENAMETOOLONG;
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

	/* No headline: every reader computes it from the runs (results/headline.c). */
	json_object_set_new(c->root, "status", json_string(status));
	json_object_set_new(c->root, "sizing", zc_sizing_json(&c->root, 1, zc_sizing_targets, 3));
	ret = zc_json_write_atomic(c->root, c->path);
	if (ret)
		zc_err("writing %s: %s", c->path, strerror(-ret));
	zc_results_written(c, ret);
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
	{ "profile", ZC_OPT_BOOL, "no", AT(watch.profile),
	  .help = "sample the DUT's CPUs over each window with call chains (perf, else our "
		  "perf_event_open sampler; cpu-clock without a PMU): each sample's and run's profile" },
	{ "profile-backend", ZC_OPT_CHOICE, "auto", AT(watch.profile_backend),
	  .choices = "auto|perf|perf_event_open", .help = "who samples for --profile" },
	{ "interval", ZC_OPT_DOUBLE, "1", 0, 3600, AT(watch.interval_s), .meta = "S",
	  .help = "the sink's and DUT's bytes and the DUT's busy time every S seconds of the "
		  "window, read from the controller's core (a sample's intervals); 0: none" },
	{ "progress", ZC_OPT_CHOICE, "auto", AT(watch.progress), .choices = "auto|always|never",
	  .help = "progress line on stderr: on a terminal only, always (a line each, for CI "
		  "logs), never" },
	{ "wide", ZC_OPT_BOOL, "no", AT(wide),
	  .help = "the whole run table (topology, pipe, us/KB, the counters, sd%) and the "
		  "headline's Gbps per core; default: the columns that fit the terminal "
		  "(COLUMNS, else its width, else 100), rows cut rather than wrapped" },
	{ "json-stream", ZC_OPT_BOOL, "no", AT(watch.json_stream),
	  .help = "one JSON event per line on stdout (start, interval, sample, run, end); "
		  "the tables go to stderr" },
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

int zc_run_parse_as(const char *name, const char *about, const struct zc_optgroup *extra,
		    int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		    char *err, size_t errlen)
{
	static struct zc_cfg scratch;	/* checks each flag's value */
	struct zc_optgroup groups[3];
	size_t ng = 0;
	struct zc_cmdline cmd = {
		.name = name,
		.about = about,
		.groups = groups,
	};

	if (extra)
		groups[ng++] = *extra;
	groups[ng++] = (struct zc_optgroup){ .opts = run_opts, .n = ZC_ARRAY_SIZE(run_opts), .base = a };
	groups[ng++] = (struct zc_optgroup){ .opts = zc_opts, .n = zc_nopts, .base = &scratch,
		.title = "workload keys, settable as flags (override every run):",
		.seen = override, .user = ov };
	cmd.ngroups = ng;
	memset(a, 0, sizeof(*a));
	memset(ov, 0, sizeof(*ov));
	zc_cfg_defaults(&scratch);
	return zc_opt_parse(&cmd, argc, argv, err, errlen);
}

int zc_run_parse(int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		 char *err, size_t errlen)
{
	return zc_run_parse_as("run",
			       "Expand the workload, start the roles through the host's transport, measure,\n"
			       "and rewrite results/DATE-HOST-KERNEL.json after every sample.\n"
			       "Exit: 0 all runs ok, 1 a run failed, 2 bad input, 130 interrupted.\n",
			       NULL, argc, argv, a, ov, err, errlen);
}

/* The table, the headline, the order and the fingerprint. Not --wide: the
 * narrow table and every line under it fitted to the terminal (rows cut,
 * prose broken at spaces), so none wraps. */
static void print_tables(json_t *root, bool wide)
{
	json_t *runs = json_object_get(root, "runs"), *best = zc_headline_best(runs);
	json_t *rows = zc_headline_rows(root, 0, NULL), *slices = zc_slices_headline(runs);
	int width = wide ? 0 : zc_term_width(1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = wide ? NULL : open_memstream(&text, &len);

	if (!f) {
		f = stdout;
		width = 0;
	}
	zc_print_table(f, runs, width);
	/* The fair question first: each side at its best size, then each size. */
	zc_print_headline_best(f, best, width);
	zc_print_headline(f, rows, runs, width);
	zc_print_slices_headline(f, slices);
	zc_print_schedule(f, json_object_get(root, "schedule"));
	zc_print_position(f, root);
	zc_fingerprint_print_brief(f, json_object_get(root, "fingerprint"));
	json_decref(best);
	json_decref(rows);
	json_decref(slices);
	if (f == stdout)
		return;
	fclose(f);
	zc_put_fitted(stdout, text, width, 2);
	free(text);
}

/* The run set: every run taken, in the workload's order (A/A: each twice). */
struct set {
	struct zc_ctl *c;
	struct zc_cfg cfg[2 * ZC_RUNS_MAX];
	struct zc_placement pl[2 * ZC_RUNS_MAX];
	struct zc_sched_run sr[2 * ZC_RUNS_MAX];
	bool placed[2 * ZC_RUNS_MAX];
	size_t n;
	size_t done;		/* samples taken, for the progress line */
	size_t total;		/* samples planned (auto: at the maximum) */
	struct zc_sched sched;
};

static json_t *take_sample(void *user, size_t i, long rep, long round, long nrounds)
{
	struct set *st = user;
	struct zc_ctl *c = st->c;
	const struct zc_cfg *cfg = &st->cfg[i];
	int dut = zc_cfg_dut(cfg);
	json_t *place = json_object_get(st->sr[i].run, "placement"), *s;

	zc_watch_progress(c, "[round %ld/%ld, %zu/%zu] %s chunk=%llu rep %ld ...", round + 1,
			  nrounds, st->done + 1, st->total, cfg->name, (unsigned long long)cfg->chunk,
			  rep + 1);
	if (!zc_host_remote(&c->host, dut))
		zc_run_avoid_cpus(c, &st->pl[i], dut);
	/* IRQ pinning, RPS steering ...: what the host does for this placement,
	 * around each sample since the runs take turns. */
	zc_host_run_begin(&c->host, dut, &st->pl[i], place);
	s = zc_run_sample(c, cfg, (int)rep, &st->pl[i]);
	zc_host_run_end(&c->host);
	zc_watch_sample_done(c, st->sr[i].run, s);
	st->done++;
	return s;
}

static void after_sample(void *user)
{
	struct set *st = user;

	for (size_t i = 0; i < st->n; i++)
		if (st->placed[i])
			run_update(st->sr[i].run, LONG_MAX, st->sr[i].closed, false);
	json_object_set_new(st->c->root, "schedule", zc_sched_json(&st->sched));
	save(st->c, "running");
}

/* The DUT CPUs of the placed runs on this host, once each: what tune touches. */
static int dut_cpus(const struct set *st, int *cpus, int max)
{
	int n = 0;

	for (size_t i = 0; i < st->n; i++) {
		const struct zc_cfg *cfg = &st->cfg[i];
		int dut = zc_cfg_dut(cfg);

		if (st->placed[i] && !zc_host_remote(&st->c->host, dut) &&
		    !zc_has_cpu(cpus, n, st->pl[i].cpu[dut]) && n < max)
			cpus[n++] = st->pl[i].cpu[dut];
	}
	return n;
}

/* Record the machine state; tune = on: apply it to the DUT CPUs. */
static void machine_state(struct set *st, struct zc_tune *tune)
{
	int cpus[64], n = dut_cpus(st, cpus, 64);

	json_object_set_new(st->c->root, "machine_state",
			    zc_tune_run_set(tune, cpus, n, st->cfg[0].tune));
}

int zc_run_exec(const struct zc_run_args *a, struct zc_section *ov, int argc, char **argv,
		char *path_out, size_t path_len)
{
	static struct zc_workload w;
	static struct set st;
	static struct zc_tune tune;
	struct zc_meta_edge edge = { 0 };
	struct zc_ctl c = { 0 };
	const char *wpath = a->workload, *hpath = a->host;
	int ret, failed = 0, nonly = a->nonly;
	const char *const *only = a->only;
	char err[1024];
	json_t *cmd, *runs;
	struct sigaction sa = { .sa_handler = on_signal };

	c.outdir = a->out;
	for (int r = 0; r < ZC_ROLE_NR; r++)
		c.role_exec[r] = a->exec[r];
	if (zc_workload_load(wpath, ov, &w, err, sizeof(err))) {
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
	memset(&st, 0, sizeof(st));
	st.c = &c;
	for (int i = 0; i < w.nruns; i++) {
		bool take = !nonly;

		for (int k = 0; k < nonly; k++)
			take |= !strcmp(w.runs[i].name, only[k]);
		for (int side = 0; take && side < (a->aa ? 2 : 1); side++) {
			st.cfg[st.n] = w.runs[i];
			if (a->aa)
				snprintf(st.cfg[st.n].name, sizeof(st.cfg[0].name), "%.61s:%c",
					 w.runs[i].name, side ? 'b' : 'a');
			st.n++;
		}
	}
	if (!st.n) {
		zc_err("%s: no run to take", wpath);
		return ZC_EXIT_USAGE;
	}
	if (zc_sched_keys_agree(st.cfg, st.n, w.path, err, sizeof(err))) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	if (a->aa && st.cfg[0].order == ZC_ORDER_SEQUENTIAL) {
		zc_err("noise: order = sequential would take every repetition of A before B's: an "
		       "A/A needs order = interleaved or random");
		return ZC_EXIT_USAGE;
	}
	if (zc_out_dir(c.outdir, err, sizeof(err))) {
		zc_err("--out %s %s", c.outdir, err);
		return ZC_EXIT_USAGE;
	}
	/* Signals first: Ctrl-C during setup must still reach the teardown. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* What a killed controller left tuned goes back before anything is read. */
	zc_tune_init(&tune);
	zc_tune_reap_stale(&tune, NULL);
	if (c.host.transport->setup && c.host.transport->setup(&c.host, err, sizeof(err))) {
		zc_err("%s", err);
		if (c.host.transport->teardown)
			c.host.transport->teardown(&c.host);
		return zc_interrupted ? ZC_EXIT_INTR : ZC_EXIT_FAIL;
	}
	c.tty = isatty(1);
	if ((ret = zc_watch_init(&c, &a->watch)))
		zc_warn("--progress/--json-stream: %s", strerror(-ret));
	c.affinity_ok = sched_getaffinity(0, sizeof(c.affinity), &c.affinity) == 0;

	cmd = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	c.root = json_object();
	json_object_set_new(c.root, "schema", json_string("zcbench-results"));
	json_object_set_new(c.root, "schema_version",
			    json_sprintf("%d.%d", ZC_SCHEMA_MAJOR, ZC_SCHEMA_MINOR));
	json_object_set_new(c.root, "invocation", zc_sched_invocation_id());
	json_object_set_new(c.root, "command", cmd);
	json_object_set_new(c.root, "workload",
			    json_pack("{s:s,s:s,s:s}", "file", wpath, "name", w.name,
				      "description", w.description));
	json_object_set_new(c.root, "host", zc_host_json(&c.host));
	json_object_set_new(c.root, "meta", zc_meta_collect());
	/* Who writes the file: readers tell a live run from a killed one (alive.c). */
	json_object_set_new(c.root, "controller", zc_controller_json());
	json_object_set_new(c.root, "fingerprint", zc_fingerprint_collect());
	runs = json_array();
	json_object_set_new(c.root, "runs", runs);
	/* Placement of every run up front: the runs take turns afterwards. */
	for (size_t i = 0; i < st.n; i++) {
		json_t *run;

		st.placed[i] = run_prepare(&c, &st.cfg[i], &st.pl[i], &run);
		if (a->aa)
			json_object_set_new(run, "aa_side", json_string(i % 2 ? "b" : "a"));
		json_array_append_new(runs, run);
		st.sr[i] = (struct zc_sched_run){ .run = run, .reps = st.cfg[i].repetitions,
						  .closed = !st.placed[i] };
		if (st.placed[i])
			st.total += st.cfg[i].repetitions == ZC_REPS_AUTO ? (size_t)st.cfg[i].max_repetitions
									  : (size_t)st.cfg[i].repetitions;
		else
			failed += strcmp(zc_an_str(run, "status"), "unavailable") != 0;
	}
	st.sched = (struct zc_sched){
		.order = (enum zc_order)st.cfg[0].order, .seed = (unsigned long)st.cfg[0].order_seed,
		.autoreps = st.cfg[0].repetitions == ZC_REPS_AUTO,
		.ci_target_rel = st.cfg[0].ci_target_pct / 100, .max_reps = st.cfg[0].max_repetitions,
		.budget_s = st.cfg[0].budget_s, .decide = st.cfg[0].decide,
		.threshold = ZC_RATIO_THRESHOLD,
		/* auto: a round's worth until decided; none with a count given. */
		.retake = st.cfg[0].retake_disturbed != ZC_RETAKE_AUTO ? st.cfg[0].retake_disturbed :
			  st.cfg[0].repetitions == ZC_REPS_AUTO ? -1 : 0,
		.runs = st.sr, .nruns = st.n, .all = runs, .sample = take_sample,
		.after = after_sample, .user = &st,
	};
	json_object_set_new(c.root, "schedule", zc_sched_json(&st.sched));
	machine_state(&st, &tune);
	ret = results_path(&c, json_object_get(c.root, "meta"));
	if (ret)
		zc_err("%s: cannot create a results file: %s", c.outdir, strerror(-ret));
	if (ret || save(&c, "running")) {
		/* The name claimed but nothing written: no empty file left behind. */
		if (!ret)
			unlink(c.path);
		zc_watch_end(&c, "failed", ZC_EXIT_FAIL);
		zc_tune_restore(&tune);
		if (c.host.transport->teardown)
			c.host.transport->teardown(&c.host);
		json_decref(c.root);
		return ZC_EXIT_FAIL;
	}
	zc_watch_start(&c, st.total);
	zc_meta_edge(json_object_get(c.root, "meta"), &edge, false);	/* load and steal (1.9) */
	ret = zc_sched_go(&st.sched);
	zc_meta_edge(json_object_get(c.root, "meta"), &edge, true);
	if (ret)
		zc_err("the run order: %s", strerror(-ret));
	zc_tune_restore(&tune);
	for (size_t i = 0; i < st.n; i++) {
		if (!st.placed[i])
			continue;
		/* auto: a run sits out the rounds no open question needs. */
		run_update(st.sr[i].run, st.sched.autoreps ? st.sr[i].taken : st.cfg[i].repetitions,
			   st.sr[i].closed, true);
		failed += strcmp(zc_an_str(st.sr[i].run, "status"), "ok") &&
			  strcmp(zc_an_str(st.sr[i].run, "status"), "unavailable");
	}
	json_object_set_new(c.root, "schedule", zc_sched_json(&st.sched));
	zc_sched_done(&st.sched);
	zc_watch_progress(&c, "%s", "");
	ret = save(&c, zc_interrupted ? "interrupted" : "complete") || ret;
	if (c.host.transport->teardown)
		c.host.transport->teardown(&c.host);
	if (c.affinity_ok)
		sched_setaffinity(0, sizeof(c.affinity), &c.affinity);
	print_tables(c.root, a->wide);
	zc_results_final_line(&c, zc_interrupted);
	if (path_out)
		snprintf(path_out, path_len, "%s", c.path);
	ret = zc_interrupted ? ZC_EXIT_INTR : ret || failed ? ZC_EXIT_FAIL : 0;
	zc_watch_end(&c, zc_interrupted ? "interrupted" : "complete", ret);
	json_decref(c.root);
	return ret;
}

int zc_cmd_run(int argc, char **argv)
{
	static struct zc_section ov;
	struct zc_run_args a;
	char err[1024];
	int ret = zc_run_parse(argc, argv, &a, &ov, err, sizeof(err));

	if (ret == ZC_OPT_HELP)
		return ZC_EXIT_OK;
	if (ret) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	return zc_run_exec(&a, &ov, argc, argv, NULL, 0);
}
