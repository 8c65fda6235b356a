/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Invocations for compare: a results file is one invocation; a folder of
 * them is several invocations of one build, each a file. A side of a
 * comparison may be either (several invocations a side: the spread between
 * them is measured from the sides themselves), and so is --profile: earlier
 * invocations of one build on this host (make bench-calibrate's folder, or a
 * nightly folder of one build), from which the spread between invocations of
 * each run key and metric is measured (stats/verdict.h,
 * zc_between_measure). With one invocation a side, that spread is what a
 * change between the two must stand out from; the samples of one invocation
 * cannot show it.
 */
#ifndef ZC_CMP_BETWEEN_H
#define ZC_CMP_BETWEEN_H

#include "stats/verdict.h"

#include <jansson.h>
#include <stdbool.h>

#define ZC_PROFILE_FILES_MAX ZC_INVOCATIONS_MAX

struct zc_cmp_invs {
	const char *path;	/* as given */
	json_t *roots[ZC_PROFILE_FILES_MAX];
	size_t n;
	bool folder;		/* path is a folder (else one file) */
};

/* Read path (a folder of results files, or one file) as invocations. Every
 * file must load, each a different invocation, at least min of them. 0, or
 * -1 with why (the file named). */
int zc_cmp_invs_load(struct zc_cmp_invs *p, const char *path, size_t min, char *why, size_t len);
void zc_cmp_invs_free(struct zc_cmp_invs *p);
/* A folder's invocations as the one root compare's table reads: the first
 * file's, each of its runs holding the ok samples of that run key in every
 * invocation, its invocation id the folder's (so it pairs with no other
 * file). A new reference; NULL when out of memory. */
json_t *zc_cmp_invs_merged(const struct zc_cmp_invs *p);

/* metric of the run whose key (zc_an_key) is key in each invocation that
 * measured it: each its ok samples' mean (log scale or not) into out
 * (ZC_PROFILE_FILES_MAX at most); how many. */
size_t zc_cmp_invs_of_metric(const struct zc_cmp_invs *p, const char *key, const char *metric,
			     bool log_scale, struct zc_invocation *out);
/* The same for the headline ratio of the runs keyed num_key over den_key
 * (per round within each invocation, as compare_ratios.c takes it). */
size_t zc_cmp_invs_of_ratio(const struct zc_cmp_invs *p, const char *num_key, const char *den_key,
			    struct zc_invocation *out);
/* Their spread between invocations (a profile): true when two or more
 * measured it. */
bool zc_cmp_profile_spread(const struct zc_cmp_invs *p, const char *key, const char *metric,
			   bool log_scale, struct zc_between_spread *s);
bool zc_cmp_profile_ratio_spread(const struct zc_cmp_invs *p, const char *num_key,
				 const char *den_key, struct zc_between_spread *s);

#endif
