// SPDX-License-Identifier: GPL-2.0
/* The one check of a key against the lists (keys.h). */
#include "results/keys.h"
#include "config/cfg.h"
#include "metrics/metrics.h"
#include "wire/wire.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *keys[] = {
#define X(k) #k,
	ZC_KEYS(X)
#undef X
};
static pthread_once_t sorted = PTHREAD_ONCE_INIT;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void sort_keys(void)
{
	qsort(keys, ZC_ARRAY_SIZE(keys), sizeof(keys[0]), cmp);
}

bool zc_key_known(const char *key)
{
	if (zc_metric_find(key))
		return true;
	for (size_t i = 0; i < zc_nopts; i++)
		if (!strcmp(zc_opts[i].key, key))
			return true;
	for (size_t i = 0; i < ZC_WK_NR; i++)
		if (!strcmp(zc_window_keys[i], key))
			return true;
	for (size_t i = 0; i < ZC_CK_NR; i++)
		if (!strcmp(zc_cpustat_keys[i], key))
			return true;
	pthread_once(&sorted, sort_keys);
	return bsearch(&key, keys, ZC_ARRAY_SIZE(keys), sizeof(keys[0]), cmp);
}

static void unknown(const char *key, const char *what)
{
	fprintf(stderr, "zcbench: BUG: \"%s\" is %s (a typo? else add it to bench/results/keys.h)\n",
		key, what);
	abort();
}

const char *zc_key(const char *key)
{
	static int strict = -1;

	if (strict < 0)
		strict = getenv("ZC_STRICT_KEYS") && !strcmp(getenv("ZC_STRICT_KEYS"), "1");
	if (strict && !zc_key_known(key))
		unknown(key, "in no list of keys");
	return key;
}

const char *zc_metric_key(const char *key)
{
	if (!zc_metric_find(key))
		unknown(key, "no metric (metrics/metrics.c)");
	return key;
}
