// SPDX-License-Identifier: GPL-2.0
/*
 * The headline: each ratio of Gbps per core between a mode and the mode it
 * is measured against, the rest of the run key equal. run, report, plot and
 * the results file's "headline" all come from here.
 */
#include "results/results.h"
#include "lib/stats.h"

#include <math.h>
#include <string.h>

const struct zc_ratio_def zc_ratio_defs[] = {
	{ "splice/copy proxy", "proxy", "proxy", "splice", "copy", true },
	{ "tee/send source", "direct", "source", "tee", "send", true },
	{ "vmsplice/send source", "direct", "source", "vmsplice", "send", false },
	{ "vmsplice-gift/send source", "direct", "source", "vmsplice-gift", "send", false },
	{ "sendfile/send source", "direct", "source", "sendfile", "send", false },
	{ "splice-file/send source", "direct", "source", "splice-file", "send", false },
	{ "msg-zerocopy/send source", "direct", "source", "msg-zerocopy", "send", false },
	{ "uring-send-zc/send source", "direct", "source", "uring-send-zc", "send", false },
	{ "uring-splice/copy proxy", "proxy", "proxy", "uring-splice", "copy", false },
};
const size_t zc_nratio_defs = ZC_ARRAY_SIZE(zc_ratio_defs);

static bool mode_matches(const char *have, const char *want, bool prefix)
{
	if (!prefix)
		return !strcmp(have, want);
	return !strncmp(have, want, strlen(want)) && strlen(have) > strlen(want);
}

json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode, bool prefix)
{
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key"), *r;
	bool direct = !strcmp(zc_an_str(k, "topology"), "direct");
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *q = json_object_get(r, "key");
		bool same = zc_an_int(q, "chunk") == zc_an_int(k, "chunk") &&
			    zc_an_int(q, "pipe_size") == zc_an_int(k, "pipe_size") &&
			    zc_an_int(q, "connections") == zc_an_int(k, "connections");

		for (size_t j = 0; j < ZC_ARRAY_SIZE(fields) && same; j++) {
			if (!strcmp(fields[j], role))
				same = mode_matches(zc_an_str(q, role), mode, prefix);
			else if (!(direct && !strcmp(fields[j], "proxy")))
				same = !strcmp(zc_an_str(q, fields[j]), zc_an_str(k, fields[j]));
		}
		if (same)
			return r;
	}
	return NULL;
}

void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX];

	r->nn = zc_an_values(num, "gbps_per_core", a, ZC_SAMPLES_MAX);
	r->nd = zc_an_values(den, "gbps_per_core", b, ZC_SAMPLES_MAX);
	r->num_gpc = zc_median(a, r->nn);
	r->den_gpc = zc_median(b, r->nd);
	r->value = r->nn && r->nd && r->den_gpc != 0 ? r->num_gpc / r->den_gpc : NAN;
	r->lo = r->hi = NAN;
	if (!isnan(r->value))
		zc_bootstrap_ratio_ci(a, r->nn, b, r->nd, ZC_BOOT_ROUNDS, ZC_BOOT_SEED, 0.95,
				      &r->lo, &r->hi);
}


static double med(json_t *run, const char *metric)
{
	json_t *m = json_object_get(json_object_get(json_object_get(run, "summary"), metric),
				    "median");

	return json_is_number(m) ? json_number_value(m) : NAN;
}

json_t *zc_headline(json_t *runs)
{
	json_t *out = json_array(), *run;
	size_t i;

	for (size_t d = 0; d < zc_nratio_defs; d++) {
		const struct zc_ratio_def *rd = &zc_ratio_defs[d];

		json_array_foreach(runs, i, run) {
			json_t *k = json_object_get(run, "key"), *den;
			double a, b;

			if (strcmp(zc_an_str(k, "topology"), rd->topology) ||
			    strcmp(zc_an_str(k, rd->role), rd->num))
				continue;
			den = zc_an_peer(runs, run, rd->role, rd->den, false);
			if (!den)
				continue;
			a = med(run, "gbps_per_core");
			b = med(den, "gbps_per_core");
			/* A side without a successful sample is null, never a 0. */
			json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:o}",
				"ratio", rd->name, "numerator", zc_an_str(run, "name"),
				"denominator", zc_an_str(den, "name"),
				"chunk", json_integer_value(json_object_get(k, "chunk")),
				"pipe_size", json_integer_value(json_object_get(k, "pipe_size")),
				"numerator_gbps_per_core", isnan(a) ? json_null() : json_real(a),
				"denominator_gbps_per_core", isnan(b) ? json_null() : json_real(b),
				"value", isnan(a) || isnan(b) || b == 0 ? json_null() : json_real(a / b)));
		}
	}
	return out;
}
