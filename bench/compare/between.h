/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host's noise profile for compare --profile: earlier invocations of one
 * build on that host (a folder of results files: make bench-calibrate's, or
 * a nightly folder of one build), from which the spread between invocations
 * of each run key and metric is measured (stats/verdict.h,
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

struct zc_cmp_profile {
	const char *path;	/* as given */
	json_t *roots[ZC_PROFILE_FILES_MAX];
	size_t n;
};

/* Read path (a folder of results files, or one file) as a profile. Every
 * file must load, each a different invocation, two at least. 0, or -1 with
 * why (the file named). */
int zc_cmp_profile_load(struct zc_cmp_profile *p, const char *path, char *why, size_t len);
void zc_cmp_profile_free(struct zc_cmp_profile *p);
/* metric of the run whose key (zc_an_key) is key, over the profile's
 * invocations that measured it (each its ok samples' mean, on the log scale
 * or not): true with its spread in s when two or more did. */
bool zc_cmp_profile_spread(const struct zc_cmp_profile *p, const char *key, const char *metric,
			   bool log_scale, struct zc_between_spread *s);
/* The same for the headline ratio of the runs keyed num_key over den_key
 * (per round within each invocation, as compare_ratios.c takes it). */
bool zc_cmp_profile_ratio_spread(const struct zc_cmp_profile *p, const char *num_key,
				 const char *den_key, struct zc_between_spread *s);

#endif
