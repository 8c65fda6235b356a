// SPDX-License-Identifier: GPL-2.0
/*
 * compare --profile (between.h): the spread between a host's earlier
 * invocations of one build, per run key and metric, and per headline ratio;
 * and the two look-ups it shares with the comparison itself (a run by its
 * key, a ratio by round: compare_int.h), kept here, below both.
 */
#include "compare/between.h"
#include "compare/compare_int.h"
#include "compare/trend.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *zc_cmp_find_run(json_t *root, const char *key, int occ)
{
	json_t *run;
	size_t i;
	char k[512];

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		zc_an_key(run, k, sizeof(k));
		if (!strcmp(k, key) && !occ--)
			return run;
	}
	return NULL;
}

size_t zc_cmp_ratios_by_round(json_t *num, json_t *den, double *r, size_t max)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX];
	size_t na = zc_an_values_by_rep(num, "gbps_per_core", a, ZC_SAMPLES_MAX);
	size_t nb = zc_an_values_by_rep(den, "gbps_per_core", b, ZC_SAMPLES_MAX);
	size_t n = na > nb ? na : nb;

	n = n < max ? n : max;
	for (size_t i = 0; i < n; i++)
		r[i] = a[i] > 0 && b[i] > 0 ? a[i] / b[i] : NAN;
	return n;
}

int zc_cmp_profile_load(struct zc_cmp_profile *p, const char *path, char *why, size_t len)
{
	char *files[ZC_PROFILE_FILES_MAX], *one = (char *)path;
	int n = zc_trend_expand(&one, 1, files, ZC_PROFILE_FILES_MAX, why, len);

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *inv;

		if (!files[i]) {
			snprintf(why, len, "%s: %s", path, strerror(ENOMEM));
			goto fail;
		}
		/* zc_an_load says what is wrong with the file, naming it. */
		if (!(p->roots[p->n] = zc_an_load("compare --profile", files[i]))) {
			snprintf(why, len, "%s: every file of a profile must be read, and %s was not",
				 path, files[i]);
			goto fail;
		}
		inv = zc_an_str(p->roots[p->n], "invocation");
		for (size_t j = 0; *inv && j < p->n; j++)
			if (!strcmp(inv, zc_an_str(p->roots[j], "invocation"))) {
				snprintf(why, len, "%s: %s is invocation %s a second time (a copy?): "
					 "a profile's files are separate invocations", path, files[i],
					 inv);
				p->n++;
				goto fail;
			}
		p->n++;
	}
	if (p->n < 2) {
		snprintf(why, len, "%s: %zu results file%s: a spread between invocations needs two or "
			 "more (make bench-calibrate takes eight)", path, p->n, p->n == 1 ? "" : "s");
		goto fail;
	}
	for (int i = 0; i < n; i++)
		free(files[i]);
	return 0;
fail:
	for (int i = 0; i < n; i++)
		free(files[i]);
	zc_cmp_profile_free(p);
	return -1;
}

void zc_cmp_profile_free(struct zc_cmp_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		json_decref(p->roots[i]);
	p->n = 0;
}

static bool measure(struct zc_invocation *inv, size_t k, struct zc_between_spread *s)
{
	return k >= 2 && !zc_between_measure(inv, k, s);
}

bool zc_cmp_profile_spread(const struct zc_cmp_profile *p, const char *key, const char *metric,
			   bool log_scale, struct zc_between_spread *s)
{
	static struct zc_invocation inv[ZC_PROFILE_FILES_MAX];
	static double v[ZC_SAMPLES_MAX];
	size_t k = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		json_t *run = zc_cmp_find_run(p->roots[i], key, 0);
		size_t n = run ? zc_an_values(run, metric, v, ZC_SAMPLES_MAX) : 0;

		if (n && !zc_invocation_of(v, n, log_scale, &inv[k]))
			k++;
	}
	return measure(inv, k, s);
}

bool zc_cmp_profile_ratio_spread(const struct zc_cmp_profile *p, const char *num_key,
				 const char *den_key, struct zc_between_spread *s)
{
	static struct zc_invocation inv[ZC_PROFILE_FILES_MAX];
	static double r[ZC_SAMPLES_MAX];
	size_t k = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		json_t *num = zc_cmp_find_run(p->roots[i], num_key, 0);
		json_t *den = zc_cmp_find_run(p->roots[i], den_key, 0);
		size_t n = num && den ? zc_cmp_ratios_by_round(num, den, r, ZC_SAMPLES_MAX) : 0;

		if (n && !zc_invocation_of(r, n, true, &inv[k]))
			k++;
	}
	return measure(inv, k, s);
}
