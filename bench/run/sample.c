// SPDX-License-Identifier: GPL-2.0
/*
 * One sample of a run: start the roles through the host's transport (sink,
 * proxy, source), READY/GO, wait out warm-up, window and tail, collect each
 * role's report and blame the right role when one fails.
 */
#include "run/controller.h"
#include "run/disturbed.h"
#include "run/report_parse.h"
#include "wire/wire.h"
#include "run/watch.h"
#include "run/verify.h"
#include "run/stall.h"
#include "counters/counters.h"
#include "lib/proc.h"
#include "metrics/metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/*
 * The role's command: its options and every workload key (the run as this
 * role sees it), written from the tables by zc_role_args_argv, then wrapped
 * by the host's transport into out. argc or -E2BIG.
 */
static int role_argv(struct zc_ctl *c, const struct zc_cfg *cfg, int role,
		     const struct zc_placement *pl, const char *connect, char **out, char *store,
		     size_t storelen, int max)
{
	static struct zc_role_args ra;
	char *argv[ZC_ROLE_ARGV_MAX];
	size_t k = 0;
	int n;

	memset(&ra, 0, sizeof(ra));
	ra.role = role;
	/* A role on another machine places itself: this topology is not its. */
	ra.cpu = zc_host_remote(&c->host, role) && c->host.cpu[role] < 0 ? ZC_CPU_AUTO
									  : pl->cpu[role];
	for (int w = 0; ra.cpu != ZC_CPU_AUTO && w < pl->nworkers[role] && k + 8 < sizeof(ra.cpus); w++)
		k += snprintf(ra.cpus + k, sizeof(ra.cpus) - k, "%s%d", w ? "," : "", pl->wcpu[role][w]);
	snprintf(ra.listen, sizeof(ra.listen), "%s", c->host.address[role]);
	snprintf(ra.peer, sizeof(ra.peer), "%s", connect ? connect : "");
	if (c->host.bind_device[role])
		snprintf(ra.bind_device, sizeof(ra.bind_device), "%s", c->host.iface[role]);
	zc_cfg_for_role(cfg, role, &ra.cfg);
	/* The other roles' worker counts as placed ("auto" resolved here). */
	if (ra.cpu != ZC_CPU_AUTO && pl->nworkers[role] > 0) {
		if (role == ZC_ROLE_SOURCE && role != zc_cfg_dut(cfg))
			ra.cfg.source_workers = pl->nworkers[role];
		else if (role == ZC_ROLE_SINK)
			ra.cfg.sink_workers = pl->nworkers[role];
	}
	argv[0] = c->role_exec[role] ? (char *)c->role_exec[role] : c->host.exe[role];
	argv[1] = (char *)zc_role_names[role];
	n = zc_role_args_argv(&ra, argv + 2, ZC_ARRAY_SIZE(argv) - 3, store, storelen);
	if (n < 0)
		return n;
	argv[n + 2] = NULL;
	return zc_host_argv(&c->host, role, argv, out, max, c->quoted, sizeof(c->quoted));
}

/*
 * A role whose window lasted less than ZC_WINDOW_MIN_SHARE of the duration
 * asked: the phases end at fixed times from GO, so a role that got no CPU
 * when its window opened (a machine loaded from elsewhere) measured a sliver
 * of it, or nothing, and its figures would describe another time than its
 * peers'. True (and the reason) for the first such role.
 */
#define ZC_WINDOW_MIN_SHARE 0.5

static bool short_window(json_t *roles, double duration_s, char *reason, size_t len)
{
	const char *name;
	json_t *rj;

	json_object_foreach(roles, name, rj) {
		json_t *w = json_object_get(json_object_get(rj, "window"), "window_s");

		if (json_is_number(w) && json_number_value(w) < ZC_WINDOW_MIN_SHARE * duration_s) {
			snprintf(reason, len,
				 "the %s's window lasted %.3g s of the %g s asked: it did not run when "
				 "the window opened (a loaded machine), so it measured another time "
				 "than its peers",
				 name, json_number_value(w), duration_s);
			return true;
		}
	}
	return false;
}

/*
 * At a clean end the source sent each connection exactly what the sink
 * received (payload, the header apart): a lost or duplicated stretch, even a
 * whole pattern period that verification alone cannot see, shows here. Roles
 * that report no connections (foreign programs) are not checked. True (and
 * the reason) when a connection disagrees.
 */
static bool conn_totals(json_t *roles, json_t *sample, char *reason, size_t len)
{
	json_t *src = json_object_get(json_object_get(roles, "source"), "connections");
	json_t *snk = json_object_get(json_object_get(roles, "sink"), "connections");
	json_t *s, *k;
	size_t i, j;

	if (!json_is_array(src) || !json_is_array(snk))
		return false;
	if (json_array_size(src) != json_array_size(snk)) {
		snprintf(reason, len, "the source reports %zu connections, the sink %zu",
			 json_array_size(src), json_array_size(snk));
		return true;
	}
	json_array_foreach(src, i, s) {
		long long id = json_integer_value(json_object_get(s, "id"));
		long long sent = json_integer_value(json_object_get(s, "bytes")), got = -1;

		json_array_foreach(snk, j, k)
			if (json_integer_value(json_object_get(k, "id")) == id)
				got = json_integer_value(json_object_get(k, "bytes"));
		if (got != sent) {
			snprintf(reason, len, "connection %lld: the source sent %lld payload bytes, the "
				 "sink received %lld (%lld %s): the streams part at or before offset %lld, "
				 "bytes %s on the way", id, sent, got, llabs(sent - got),
				 got < sent ? "fewer" : "more", got < sent ? got : sent,
				 got < sent ? "lost" : "duplicated");
			return true;
		}
	}
	json_object_set_new(sample, "connections_checked", json_integer(json_array_size(src)));
	return false;
}

/* One repetition: a new set of role processes and connections. */
json_t *zc_run_sample(struct zc_ctl *c, const struct zc_cfg *cfg, int rep,
			  const struct zc_placement *pl)
{
	static struct zc_child kids[ZC_ROLE_NR];
	struct zc_child *live[ZC_ROLE_NR];
	int order[] = { ZC_ROLE_SINK, ZC_ROLE_PROXY, ZC_ROLE_SOURCE }, nlive = 0;
	bool spawned[ZC_ROLE_NR] = { 0 };
	int dut = zc_cfg_dut(cfg);
	json_t *sample = json_object(), *roles = json_object();
	char connect[300] = "", reason[1024] = "";
	double deadline, t_go;
	static struct zc_cpu_edge e0, e1;
	static struct zc_task_edge t0, t1;	/* every task's CPU time: disturbed.c */
	pid_t role_pid[ZC_ROLE_NR] = { 0 };
	bool ctl_ok = false;
	const char *status = "ok";
	int ret = 0;

	json_object_set_new(sample, "rep", json_integer(rep));
	for (size_t i = 0; i < ZC_ARRAY_SIZE(order); i++) {
		int r = order[i], port;
		char *argv[ZC_ROLE_ARGV_MAX], store[8192];

		if (r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT)
			continue;
		ret = role_argv(c, cfg, r, pl, connect[0] ? connect : NULL, argv, store,
				sizeof(store), ZC_ROLE_ARGV_MAX);
		zc_watch_role_env(c, r);
		if (!ret || ret < 0 || (ret = zc_child_spawn(&kids[r], argv))) {
			snprintf(reason, sizeof(reason), "%s: cannot start: %s", zc_role_names[r],
				 strerror(ret ? -ret : E2BIG));
			goto out;
		}
		spawned[r] = true;
		live[nlive++] = &kids[r];
		ret = zc_child_ready(&kids[r], zc_now() + 10 + cfg->timeout_s, ZC_READY, &port);
		if (ret) {
			/* A role that cannot start says why in its report, kept in its buffer. */
			if (ret == -EINTR || (ret == -EPROTO && kids[r].buf[0] == '{'))
				goto out;
			snprintf(reason, sizeof(reason), "%s: did not get ready (%s)", zc_role_names[r],
				 ret == -ETIMEDOUT ? "timed out" : ret == -EPIPE ? "exited" : "bad line");
			if (ret == -ETIMEDOUT)
				zc_roles_stopped(kids, spawned, ZC_ROLE_NR, reason, sizeof(reason));
			goto out;
		}
		if (r != ZC_ROLE_SOURCE)
			snprintf(connect, sizeof(connect), "%s:%d", c->host.address[r], port);
	}
	zc_watch_prepare(c, cfg, pl, dut, kids[dut].pid, rep);
	/*
	 * Roles on this host share CLOCK_MONOTONIC: GO carries the moment it was
	 * sent, and each role starts its warm-up from it rather than from when
	 * it got to read the line, so a role scheduled late on a loaded machine
	 * still closes its window with the others. A remote role gets plain GO.
	 */
	t_go = zc_now();
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		char go[48];

		if (!spawned[r])
			continue;
		if (zc_host_remote(&c->host, r))
			snprintf(go, sizeof(go), ZC_GO "\n");
		else
			snprintf(go, sizeof(go), ZC_GO_AT "\n", t_go);
		zc_child_send(&kids[r], go);
	}
	/*
	 * The controller also reads the DUT CPU's /proc/stat at the window
	 * edges (from its own core): a cross-check of the role's figure, and
	 * the only figure for a foreign program started with --exec-ROLE.
	 */
	ret = zc_children_wait(live, nlive, t_go + cfg->warmup_s);
	if (ret == -ETIMEDOUT) {
		/* A DUT on another machine: this /proc/stat is not its. */
		ctl_ok = !zc_host_remote(&c->host, dut) && zc_cpu_edge_read(&e0) == 0 &&
			 zc_tasks_read(&t0) == 0;
		ret = zc_watch_window(c, live, nlive, t_go + cfg->warmup_s + cfg->duration_s);
		if (ret == -ETIMEDOUT) {
			ctl_ok &= zc_cpu_edge_read(&e1) == 0 && zc_tasks_read(&t1) == 0;
			deadline = t_go + cfg->warmup_s + cfg->duration_s + cfg->tail_s + cfg->timeout_s;
			ret = zc_children_wait(live, nlive, deadline);
		} else {
			ctl_ok = false;
		}
	}
	for (int r = 0; r < ZC_ROLE_NR; r++)
		role_pid[r] = spawned[r] ? kids[r].pid : 0;
	if (ctl_ok)
		zc_cpu_edges_json(sample, &e0, &e1, c, pl, dut, cfg->duration_s);
	zc_disturbed_json(sample, ctl_ok ? &e0 : NULL, &e1, ctl_ok ? &t0 : NULL, &t1, role_pid, pl,
			  dut, cfg->duration_s, cfg->foreign_max_pct / 100);
	if (ret == -ETIMEDOUT) {
		snprintf(reason, sizeof(reason), "timed out %.0f s after the window (" ZC_STALLED ")",
			 cfg->timeout_s);
		zc_roles_stopped(kids, spawned, ZC_ROLE_NR, reason, sizeof(reason));
	}
	if (ret == 1) {
		/*
		 * One role failed. Its peers usually fail because of it, but the
		 * first to report is not always the cause (a remote role killed
		 * under ssh is noticed after its local peer's reset): give them a
		 * moment to finish and say why before they are killed.
		 */
		double grace = zc_now() + 1.5;

		for (int i = 0; i < nlive; i++)
			zc_child_drain(live[i], grace);
	}
out:
	if (zc_interrupted) {
		status = "interrupted";
		snprintf(reason, sizeof(reason), "interrupted by a signal");
	}
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (spawned[r] && !kids[r].eof)
			zc_child_kill(&kids[r]);
	/*
	 * Blame in order of likely cause: a role that died without a report
	 * (killed from outside, crashed), then roles that reported an error
	 * (often the peers of the first), never the ones the controller killed.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < ZC_ROLE_NR; r++) {
			json_t *rj;
			char desc[128];
			const char *e, *st;
			size_t n = strlen(reason);

			if (!spawned[r])
				continue;
			if (pass == 0) {
				/* Drain what the role still wrote, then parse its report. */
				zc_child_drain(&kids[r], zc_now() + 1);
				zc_child_reap(&kids[r]);
				rj = zc_role_report_parse(kids[r].buf, kids[r].len, NULL, 0);
				zc_child_describe(&kids[r], desc, sizeof(desc));
				if (zc_host_explain_exit(&c->host, r, kids[r].status))
					snprintf(desc, sizeof(desc), "%s",
						 zc_host_explain_exit(&c->host, r, kids[r].status));
				if (!rj && c->role_exec[r] && WIFEXITED(kids[r].status) &&
				    !WEXITSTATUS(kids[r].status))
					rj = json_pack("{s:s,s:s}", "status", "ok", "foreign",
						       c->role_exec[r]);
				if (!rj)
					rj = json_pack("{s:s}", "status", "lost");
				json_object_set_new(rj, "exit", json_string(desc));
				json_object_set_new(roles, zc_role_names[r], rj);
			}
			rj = json_object_get(roles, zc_role_names[r]);
			st = json_string_value(json_object_get(rj, "status")) ?: "lost";
			e = json_string_value(json_object_get(rj, "error"));
			if (!strcmp(st, "ok") || (pass == 0) != !strcmp(st, "lost"))
				continue;
			if (!strcmp(st, "unavailable"))
				status = "unavailable";
			else if (!strcmp(status, "ok"))
				status = "failed";
			if (kids[r].killed && !e)
				continue;
			snprintf(reason + n, sizeof(reason) - n, "%s%s: %s", n ? "; " : "",
				 zc_role_names[r],
				 e ? e : json_string_value(json_object_get(rj, "exit")));
		}
	}
	/* Failed with every failing role killed by us: say how each ended, so a
	 * failed sample never goes without a reason. */
	if (!reason[0] && strcmp(status, "ok")) {
		for (int r = 0; r < ZC_ROLE_NR; r++) {
			size_t n = strlen(reason);
			json_t *rj = json_object_get(roles, zc_role_names[r]);

			if (spawned[r])
				snprintf(reason + n, sizeof(reason) - n, "%s%s: %s",
					 n ? "; " : "no role said why: ", zc_role_names[r],
					 json_string_value(json_object_get(rj, "exit")) ?: "?");
		}
	}
	if (!reason[0] && !strcmp(status, "ok") && conn_totals(roles, sample, reason, sizeof(reason)))
		status = "failed";
	if (!reason[0] && !strcmp(status, "ok") && cfg->duration_s > 0 &&
	    short_window(roles, cfg->duration_s, reason, sizeof(reason)))
		status = "failed";
	if (reason[0] && !strcmp(status, "ok"))
		status = "failed";
	if (!strcmp(status, "ok"))
		zc_sample_verified(sample, roles);
	json_object_set_new(sample, "status", json_string(status));
	json_object_set_new(sample, "reason", reason[0] ? json_string(reason) : json_null());
	json_object_set_new(sample, "roles", roles);
	if (!strcmp(status, "ok"))
		zc_sample_derive(sample, dut, cfg->duration_s);
	zc_watch_finish(c, sample);
	return sample;
}
