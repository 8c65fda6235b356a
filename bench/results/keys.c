// SPDX-License-Identifier: GPL-2.0
/* The one check of a key against the lists (keys.h). */
#include "results/keys.h"
#include "config/cfg.h"
#include "metrics/metrics.h"

#include <pthread.h>
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
	pthread_once(&sorted, sort_keys);
	return bsearch(&key, keys, ZC_ARRAY_SIZE(keys), sizeof(keys[0]), cmp);
}
