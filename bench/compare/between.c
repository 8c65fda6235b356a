// SPDX-License-Identifier: GPL-2.0
/*
 * compare's invocations (between.h): a side or a profile read from a file or
 * a folder, a folder's merged for the table, each invocation's figure of a
 * run key and metric (or a headline ratio), and a profile's spread between
 * them; and the two look-ups it shares with the comparison itself (a run by
 * its key, a ratio by round: compare_int.h), kept here, below both.
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
#include <sys/stat.h>

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

int zc_cmp_invs_load(struct zc_cmp_invs *p, const char *path, size_t min, char *why, size_t len)
{
	char *files[ZC_PROFILE_FILES_MAX], *one = (char *)path;
	int n = zc_trend_expand(&one, 1, files, ZC_PROFILE_FILES_MAX, why, len);
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->folder = !stat(path, &st) && S_ISDIR(st.st_mode);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *inv;

		if (!files[i]) {
			snprintf(why, len, "%s: %s", path, strerror(ENOMEM));
			goto fail;
		}
		/* zc_an_load says what is wrong with the file, naming it. */
		if (!(p->roots[p->n] = zc_an_load("compare", files[i]))) {
			snprintf(why, len, "%s: every file of it must be read, and %s was not", path,
				 files[i]);
			goto fail;
		}
		inv = zc_an_str(p->roots[p->n], "invocation");
		for (size_t j = 0; *inv && j < p->n; j++)
			if (!strcmp(inv, zc_an_str(p->roots[j], "invocation"))) {
				snprintf(why, len, "%s: %s is invocation %s a second time (a copy?): "
					 "its files are separate invocations", path, files[i], inv);
				p->n++;
				goto fail;
			}
		p->n++;
	}
	if (p->n < min) {
		snprintf(why, len, "%s: %zu results file%s: a spread between invocations needs %zu or "
			 "more (make bench-calibrate takes eight)", path, p->n, p->n == 1 ? "" : "s", min);
		goto fail;
	}
	for (int i = 0; i < n; i++)
		free(files[i]);
	return 0;
fail:
	for (int i = 0; i < n; i++)
		free(files[i]);
	zc_cmp_invs_free(p);
	return -1;
}

void zc_cmp_invs_free(struct zc_cmp_invs *p)
{
	for (size_t i = 0; i < p->n; i++)
		json_decref(p->roots[i]);
	p->n = 0;
}

json_t *zc_cmp_invs_merged(const struct zc_cmp_invs *p)
{
	json_t *m = p->n ? json_deep_copy(p->roots[0]) : NULL, *run;
	size_t i;
	char key[512], id[600];

	if (!m)
		return NULL;
	snprintf(id, sizeof(id), "folder %s", p->path);
	json_object_set_new(m, "invocation", json_string(id));
	json_array_foreach(json_object_get(m, "runs"), i, run) {
		json_t *all = json_object_get(run, "samples");

		zc_an_key(run, key, sizeof(key));
		for (size_t f = 1; f < p->n && json_is_array(all); f++) {
			json_t *other = zc_cmp_find_run(p->roots[f], key, 0), *smp;
			size_t j;

			json_array_foreach(json_object_get(other, "samples"), j, smp)
				json_array_append_new(all, json_deep_copy(smp));
		}
	}
	return m;
}

size_t zc_cmp_invs_of_metric(const struct zc_cmp_invs *p, const char *key, const char *metric,
			     bool log_scale, struct zc_invocation *out)
{
	static double v[ZC_SAMPLES_MAX];
	size_t k = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		json_t *run = zc_cmp_find_run(p->roots[i], key, 0);
		size_t n = run ? zc_an_values(run, metric, v, ZC_SAMPLES_MAX) : 0;

		if (n && !zc_invocation_of(v, n, log_scale, &out[k]))
			k++;
	}
	return k;
}

size_t zc_cmp_invs_of_ratio(const struct zc_cmp_invs *p, const char *num_key, const char *den_key,
			    struct zc_invocation *out)
{
	static double r[ZC_SAMPLES_MAX];
	size_t k = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		json_t *num = zc_cmp_find_run(p->roots[i], num_key, 0);
		json_t *den = zc_cmp_find_run(p->roots[i], den_key, 0);
		size_t n = num && den ? zc_cmp_ratios_by_round(num, den, r, ZC_SAMPLES_MAX) : 0;

		if (n && !zc_invocation_of(r, n, true, &out[k]))
			k++;
	}
	return k;
}

bool zc_cmp_profile_spread(const struct zc_cmp_invs *p, const char *key, const char *metric,
			   bool log_scale, struct zc_between_spread *s)
{
	static struct zc_invocation inv[ZC_PROFILE_FILES_MAX];
	size_t k = zc_cmp_invs_of_metric(p, key, metric, log_scale, inv);

	return k >= 2 && !zc_between_measure(inv, k, s);
}

bool zc_cmp_profile_ratio_spread(const struct zc_cmp_invs *p, const char *num_key,
				 const char *den_key, struct zc_between_spread *s)
{
	static struct zc_invocation inv[ZC_PROFILE_FILES_MAX];
	size_t k = zc_cmp_invs_of_ratio(p, num_key, den_key, inv);

	return k >= 2 && !zc_between_measure(inv, k, s);
}
