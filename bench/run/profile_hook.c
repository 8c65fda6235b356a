// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench run --profile: each sample's window profiled (the profile
 * library, profile.h, started and stopped by the controller at the window
 * edges from its own core), and each run's profile merged from its samples'
 * stacks, the one report, compare, plot and export read.
 *
 * The summaries count the DUT's own process only (its pid in a sample; in
 * the merged stacks its pids become one root, "dut"), as a kernel developer
 * reads the DUT's cost; the folded stacks keep every process that ran on
 * the CPUs, and the flame graphs show them all.
 */
#include "run/watch.h"
#include "run/controller.h"
#include "profile/profile.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int zc_run_profile_open(struct zc_profile **p, const char *dir, const struct zc_placement *pl,
			int dut, const char *pid, int backend, char *why, size_t len)
{
	struct zc_profile_opts o = { .outdir = dir, .backend = (enum zc_profile_backend)backend,
				     .comm = pid };

	/* Every worker's CPU of the DUT, once each. */
	for (int w = 0; w < pl->nworkers[dut] && o.ncpus < ZC_PROFILE_CPUS_MAX; w++)
		if (!zc_has_cpu(o.cpus, o.ncpus, pl->wcpu[dut][w]) && pl->wcpu[dut][w] >= 0)
			o.cpus[o.ncpus++] = pl->wcpu[dut][w];
	if (!o.ncpus) {
		snprintf(why, len, "the DUT has no CPU of its own to profile (cpu = auto?)");
		return -EINVAL;
	}
	return zc_profile_open(p, &o, why, len);
}

/* path relative to dir when it lies under it. */
static void relative(json_t *o, const char *key, const char *dir)
{
	const char *v = json_string_value(json_object_get(o, key));
	size_t n = strlen(dir);

	if (v && !strncmp(v, dir, n) && v[n] == '/')
		json_object_set_new(o, key, json_string(v + n + 1));
}

json_t *zc_run_profile_close(struct zc_profile *p, const char *resdir, char *why, size_t len)
{
	json_t *sum = zc_profile_close(p, why, len);

	if (sum) {
		relative(sum, "data", resdir);
		relative(sum, "folded", resdir);
		relative(sum, "flamegraph", resdir);
	}
	return sum;
}

/* Add the folded stacks of one sample's profile to s, its DUT's root (by
 * pid, or by name for a peer's program) as "dut": 0 or -errno. */
static int add_sample(struct zc_stacks *s, json_t *prof, const char *resdir)
{
	const char *folded = json_string_value(json_object_get(prof, "folded"));
	const char *pid = json_string_value(json_object_get(prof, "comm"));
	struct zc_stacks one;
	char path[PATH_MAX], key[8192];
	const char *k;
	json_t *v;
	int ret;

	if (!folded || !pid)
		return -ENODATA;
	snprintf(path, sizeof(path), "%s%s%s", folded[0] == '/' ? "" : resdir,
		 folded[0] == '/' ? "" : "/", folded);
	if ((ret = zc_stacks_init(&one)))
		return ret;
	if ((ret = zc_stacks_read(&one, path))) {
		zc_stacks_free(&one);
		return ret;
	}
	json_object_foreach(one.counts, k, v) {
		const char *semi = strchr(k, ';') ?: k + strlen(k);
		const char *dash = memrchr(k, '-', (size_t)(semi - k));
		size_t pl = strlen(pid);

		/* "comm-pid": the DUT by its pid, or by its name (a peer's program) */
		if (dash && (((size_t)(semi - dash - 1) == pl && !strncmp(dash + 1, pid, pl)) ||
			     ((size_t)(dash - k) == pl && !strncmp(k, pid, pl))))
			snprintf(key, sizeof(key), "dut%s", semi);
		else
			snprintf(key, sizeof(key), "%s", k);
		if ((ret = zc_stacks_add(s, key, (uint64_t)json_integer_value(v))))
			break;
	}
	zc_stacks_free(&one);
	return ret;
}

void zc_run_profile_merge(json_t *run, json_t *sample, const char *resdir, const char *dir)
{
	json_t *samples = json_object_get(run, "samples"), *all = json_array(), *s, *first = NULL;
	json_t *sum = NULL, *prof;
	struct zc_stacks st;
	char folded[PATH_MAX], svg[PATH_MAX], title[512], chunk[24] = "-";
	double window_s = 0;
	json_int_t lost = 0, nrep = 0;
	size_t i;

	if (!all || zc_stacks_init(&st)) {
		json_decref(all);
		return;
	}
	json_array_extend(all, samples);
	json_array_append(all, sample);
	json_array_foreach(all, i, s) {
		prof = json_object_get(s, "profile");
		if (!prof || strcmp(json_string_value(json_object_get(s, "status")) ?: "", "ok") ||
		    add_sample(&st, prof, resdir))
			continue;
		first = first ? first : prof;
		window_s += json_real_value(json_object_get(prof, "window_s"));
		lost += json_integer_value(json_object_get(prof, "lost"));
		nrep++;
	}
	if (!first || !st.total)
		goto out;
	snprintf(folded, sizeof(folded), "%s/stacks.folded", dir);
	snprintf(svg, sizeof(svg), "%s/flamegraph.svg", dir);
	/* A run whose DUT does not use the chunk has none in its key. */
	if (json_object_get(json_object_get(run, "key"), "chunk"))
		snprintf(chunk, sizeof(chunk), "%lld", (long long)json_integer_value(
			 json_object_get(json_object_get(run, "key"), "chunk")));
	snprintf(title, sizeof(title), "%s, chunk %s: the DUT's CPUs, %s, %lld repetitions, "
		 "%llu samples", json_string_value(json_object_get(run, "name")) ?: "run",
		 chunk,
		 json_string_value(json_object_get(first, "event")) ?: "?", (long long)nrep,
		 (unsigned long long)st.total);
	if (zc_stacks_write(&st, folded) || zc_flamegraph_file(&st, title, svg)) {
		zc_warn("profile of run %s: cannot write %s", json_string_value(json_object_get(run, "name")),
			dir);
		goto out;
	}
	/* O?: a hand-made or older sample profile may lack a key. */
	sum = json_pack("{s:O?,s:O?,s:O?,s:O?,s:O?,s:O?,s:O?,s:f,s:I,s:O?,s:s,s:s,s:I}",
			"backend", json_object_get(first, "backend"),
			"backend_note", json_object_get(first, "backend_note"),
			"event", json_object_get(first, "event"),
			"event_note", json_object_get(first, "event_note"),
			"perf_version", json_object_get(first, "perf_version"),
			"frequency_hz", json_object_get(first, "frequency_hz"),
			"cpus", json_object_get(first, "cpus"), "window_s", window_s, "lost", lost,
			"data", json_object_get(first, "data"), "folded", folded, "flamegraph", svg,
			"repetitions", nrep);
	prof = zc_profile_summarise(&st, ZC_PROFILE_TOP, "dut");
	if (!sum || !prof || json_object_update(sum, prof)) {
		json_decref(sum);
		json_decref(prof);
		goto out;
	}
	json_decref(prof);
	relative(sum, "folded", resdir);
	relative(sum, "flamegraph", resdir);
	json_object_set_new(run, "profile", sum);
out:
	zc_stacks_free(&st);
	json_decref(all);
}
