// SPDX-License-Identifier: GPL-2.0
/*
 * Which metrics compare shows of a run: the gated figures first (what
 * --fail-on-regression judges), the rest with --all (or named by
 * --metrics), and a metric once: one whose samples equal those of another
 * shown metric on every side (dut_busy_frac beside dut_busy_cores on one
 * core, conn_gbps_min beside gbps on one connection) is left out, and so
 * are the per-connection figures of a run of one connection.
 */
#include "compare/compare_int.h"
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <math.h>
#include <string.h>

bool zc_cmp_list_has(const char *list, const char *key)
{
	char buf[1024], *it[128], why[256];
	int n = list ? zc_list_split(list, buf, sizeof(buf), it, (int)ZC_ARRAY_SIZE(it), why,
				     sizeof(why)) : 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(it[i], key))
			return true;
	return false;
}

/* Asked for: every summarised metric unless --metrics; sample-only ones
 * (window_agreement ...) only when --metrics names them. */
static bool wanted(const struct zc_cmp_sel *s, const struct zc_metric *m)
{
	if (m->sample_only)
		return s->metrics && zc_cmp_list_has(s->metrics, m->key);
	return !s->metrics || zc_cmp_list_has(s->metrics, m->key);
}

bool zc_cmp_headline(const struct zc_cmp_sel *s, const struct zc_metric *m)
{
	if (m->better == ZC_BETTER_NEITHER)
		return false;
	if (s->gate)
		return zc_cmp_list_has(s->gate, m->key);
	return s->metrics ? zc_cmp_list_has(s->metrics, m->key) : m->gate;
}

/* a and b hold the same samples in every file that has the run. */
static bool same_values(json_t *const *runs, int nfiles, const char *a, const char *b)
{
	static double va[ZC_SAMPLES_MAX], vb[ZC_SAMPLES_MAX];
	bool any = false;

	for (int fi = 0; fi < nfiles; fi++) {
		size_t na, nb;

		if (!runs[fi])
			continue;
		na = zc_an_values(runs[fi], a, va, ZC_SAMPLES_MAX);
		nb = zc_an_values(runs[fi], b, vb, ZC_SAMPLES_MAX);
		if (na != nb)
			return false;
		for (size_t i = 0; i < na; i++)
			if (!(fabs(va[i] - vb[i]) <= 1e-9 * fabs(va[i])))
				return false;
		any |= na > 0;
	}
	return any;
}

/* Another metric shown before m in the run holds m's samples. */
static bool duplicate(const struct zc_cmp_sel *s, const struct zc_metric *m, json_t *const *runs,
		      int nfiles)
{
	json_t *key = json_object_get(runs[0], "key");

	if (!strncmp(m->key, "conn_", 5) && zc_an_int(key, "connections") == 1)
		return true;
	zc_for_each_metric(t) {
		if (t == m || !wanted(s, t) || t->sample_only)
			continue;
		/* Shown before m: a gated figure, or an earlier row of the list. */
		if ((zc_cmp_headline(s, t) || t < m) && same_values(runs, nfiles, t->key, m->key))
			return true;
	}
	return false;
}

bool zc_cmp_shown(const struct zc_cmp_sel *s, const struct zc_metric *m, int pass,
		  json_t *const *runs, int nfiles)
{
	if (!wanted(s, m))
		return false;
	if (zc_cmp_headline(s, m))
		return pass == 0;
	if (pass == 0 || (!s->all && !s->metrics))
		return false;
	return s->metrics || !duplicate(s, m, runs, nfiles);
}
