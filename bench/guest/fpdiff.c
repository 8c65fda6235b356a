// SPDX-License-Identifier: GPL-2.0
/* kernel-ab: the two guests' fingerprints side by side, a star on each difference. */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "results/results.h"
#include "config/workload.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Flatten a fingerprint into "a.b.c" -> compact value rows. */
static void flatten(json_t *v, const char *prefix, json_t *out)
{
	if (json_is_object(v) && json_object_size(v)) {
		const char *k;
		json_t *c;

		json_object_foreach(v, k, c) {
			char p[512];

			snprintf(p, sizeof(p), "%s%s%s", prefix, prefix[0] ? "." : "", k);
			flatten(c, p, out);
		}
		return;
	}
	if (json_is_string(v)) {
		json_object_set(out, prefix[0] ? prefix : "(value)", v);
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		json_object_set_new(out, prefix[0] ? prefix : "(value)", json_string(s ? s : "?"));
		free(s);
	}
}

/* The fingerprint of one side: results' "fingerprint" unless null, else
 * the probe JSON (its "fingerprint" key or the whole object). */
static json_t *side_fingerprint(const char *results, const char *probe, const char **from)
{
	json_t *r = results[0] ? json_load_file(results, 0, NULL) : NULL, *fp = NULL;

	if (r && (fp = json_object_get(r, "fingerprint")) && !json_is_null(fp)) {
		json_incref(fp);
		json_decref(r);
		*from = "results";
		return fp;
	}
	json_decref(r);
	r = probe[0] ? json_load_file(probe, 0, NULL) : NULL;
	if (r) {
		fp = json_object_get(r, "fingerprint");
		if (fp && !json_is_null(fp))
			json_incref(fp);
		else
			fp = json_incref(r);
		json_decref(r);
		*from = "probe";
		return fp;
	}
	*from = "none";
	return NULL;
}

/* The side by side shows verdicts; prose ("what", "detail") and timings
 * (which differ on every run) stay in the JSON. */
static bool fp_row_shown(const char *key)
{
	const char *leaf = strrchr(key, '.');
	size_t n;

	leaf = leaf ? leaf + 1 : key;
	n = strlen(leaf);
	if (!strcmp(leaf, "what") || !strcmp(leaf, "detail") || !strcmp(leaf, "role") ||
	    !strcmp(leaf, "reason"))
		return false;
	return !(n > 3 && !strcmp(leaf + n - 3, "_ms")) && !(n > 2 && !strcmp(leaf + n - 2, "_s"));
}

void zc_print_fingerprints(FILE *f, const struct zc_guest_opts *o,
			   const struct zc_guest_result *res)
{
	static const char *const side[2] = { "base", "new" };
	json_t *flat[2], *keys = json_object();
	const char *from[2], *k;
	char head[2][64];
	json_t *v;
	int diffs = 0, shown = 0;

	for (int s = 0; s < 2; s++) {
		json_t *fp = side_fingerprint(res[s].results, res[s].probe, &from[s]);

		flat[s] = json_object();
		if (fp)
			flatten(fp, "", flat[s]);
		json_object_update(keys, flat[s]);
		json_decref(fp);
	}
	fprintf(f, "kernel fingerprints (base from %s, new from %s)\n", from[0], from[1]);
	for (int s = 0; s < 2; s++) {
		const char *b = strrchr(o[s].image, '/');

		b = b ? b + 1 : o[s].image;
		snprintf(head[s], sizeof(head[s]), "%s: %s", side[s], b);
		fprintf(f, "  %-4s = %s, %s%s%s\n", side[s], o[s].image,
			res[s].release[0] ? res[s].release : "release unknown",
			o[s].append ? ", booted with " : "", o[s].append ? o[s].append : "");
	}
	fprintf(f, "  %-48s %-26.26s %-26.26s\n", "", head[0], head[1]);
	if (!json_object_size(keys))
		fprintf(f, "  (no fingerprint on either side: %s / %s)\n",
			res[0].probe_note[0] ? res[0].probe_note : "results fingerprint is null",
			res[1].probe_note[0] ? res[1].probe_note : "results fingerprint is null");
	json_object_foreach(keys, k, v) {
		const char *a = json_string_value(json_object_get(flat[0], k));
		const char *b = json_string_value(json_object_get(flat[1], k));
		bool differ = !a || !b || strcmp(a, b);

		if (!fp_row_shown(k))
			continue;
		shown++;
		diffs += differ;
		fprintf(f, "%c %-48s %-26.26s %-26.26s\n", differ ? '*' : ' ', k, a ? a : "-",
			b ? b : "-");
	}
	if (json_object_size(keys))
		fprintf(f, "%d of %d fingerprint entries differ (marked *); descriptions and "
			   "timings are in each side's fingerprint JSON\n", diffs, shown);
	json_decref(flat[0]);
	json_decref(flat[1]);
	json_decref(keys);
}
