// SPDX-License-Identifier: GPL-2.0
/* The slice ratio of alternate runs (slices.h). */
#include "results/slices.h"
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* At most this many pairs per run: ZC_SLICES_MAX / 2 slices' pairs, samples many. */
#define PAIRS_MAX 65536

double zc_slice_eff(json_t *s)
{
	json_t *sirq = json_object_get(s, "softirq_ns"), *busy = json_object_get(s, "busy_ns");
	double cpu = json_number_value(json_object_get(s, "cpu_ns")), cost;

	/* busy_ns: the CPUs' busy time counts softirq once whether it ran in the
	 * worker's context (then in cpu_ns too, IRQ time accounting off) or not;
	 * cpu_ns, exact, floors it against the 10 ms ticks. Files before busy_ns:
	 * cpu_ns + softirq_ns, which counts in-context softirq twice. */
	if (busy)
		cost = json_is_number(busy) ? fmax(cpu, json_number_value(busy)) : NAN;
	else
		cost = cpu + (json_is_number(sirq) ? json_number_value(sirq) : NAN);

	if (!(cost > 0))
		return NAN;
	return json_number_value(json_object_get(s, "bytes")) / (cost / 1e9);
}

size_t zc_slice_pairs(json_t *slices, double *num, double *den, size_t max)
{
	json_t **kept = malloc((json_array_size(slices) + 1) * sizeof(*kept)), *s;
	size_t nk = 0, n = 0, i;

	if (!kept)
		return 0;
	json_array_foreach(slices, i, s)
		if (!json_is_true(json_object_get(s, "dropped")))
			kept[nk++] = s;
	for (i = 0; i + 1 < nk && n < max;) {
		const char *a = zc_an_str(kept[i], "side"), *b = zc_an_str(kept[i + 1], "side");

		if (!strcmp(a, b) || !*a || !*b) {
			i++;
			continue;
		}
		num[n] = zc_slice_eff(!strcmp(a, "B") ? kept[i] : kept[i + 1]);
		den[n] = zc_slice_eff(!strcmp(a, "B") ? kept[i + 1] : kept[i]);
		n++;
		i += 2;
	}
	free(kept);
	return n;
}

int zc_slice_ratio(json_t *run, struct zc_slice_ratio *out)
{
	const char *dut = zc_an_dut_role(run);
	double *num, *den;
	size_t n = 0, i;
	json_t *smp;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!*zc_an_str(json_object_get(run, "options"), "alternate"))
		return -ENOENT;
	num = malloc(PAIRS_MAX * sizeof(*num));
	den = malloc(PAIRS_MAX * sizeof(*den));
	if (!num || !den) {
		free(num);
		free(den);
		return -ENOMEM;
	}
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *role = json_object_get(json_object_get(smp, "roles"), dut);
		json_t *sl = json_object_get(role, "slices");
		size_t k;

		if (strcmp(zc_an_str(smp, "status"), "ok") || zc_an_disturbed(smp) ||
		    !json_is_array(sl))
			continue;
		k = zc_slice_pairs(sl, num + n, den + n, PAIRS_MAX - n);
		out->samples += k > 0;
		n += k;
		out->dropped += json_array_size(json_object_get(json_object_get(role, "slice_drop"),
								"dropped"));
	}
	ret = zc_paired_ratio_ci(num, den, n, ZC_BOOT_ROUNDS, ZC_BOOT_SEED, 0.95, &out->r);
	free(num);
	free(den);
	return ret;
}

json_t *zc_slices_headline(json_t *runs)
{
	static const char *const sizes[] = ZC_USE_KEYS;
	json_t *a = json_array(), *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		struct zc_slice_ratio sr;
		int ret = zc_slice_ratio(run, &sr);
		json_t *o;

		if (ret == -ENOENT)
			continue;
		o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:f}", "run", zc_an_str(run, "name"),
			      "a", zc_an_dut_mode(run), "b",
			      zc_an_str(json_object_get(run, "options"), "alternate"),
			      "pairs", (json_int_t)sr.r.n, "samples", (json_int_t)sr.samples,
			      "slices_dropped", (json_int_t)sr.dropped, "level", 0.95);
		/* A run of several sizes is one run per size, all of one name; a
		 * size its DUT's modes ignore is in neither its key nor here. */
		for (size_t k = 0; k < ZC_ARRAY_SIZE(sizes); k++)
			if (json_object_get(json_object_get(run, "key"), sizes[k]))
				json_object_set(o, sizes[k],
						json_object_get(json_object_get(run, "key"), sizes[k]));
		if (ret) {
			json_object_set_new(o, "ratio", json_null());
			json_object_set_new(o, "why", json_string(ret == -EDOM ?
				"no complete pair of slices (no ok sample, or no cost measured)" :
				strerror(-ret)));
		} else {
			json_object_set_new(o, "ratio", json_real(sr.r.median));
		}
		if (!ret && sr.r.n < ZC_SLICE_MIN_PAIRS) {
			/* A bootstrap over a pair or two collapses onto it: no interval. */
			json_object_set_new(o, "why", json_sprintf("%zu pair(s): too few for an "
				"interval (at least %d: a longer window or more repetitions)",
				(size_t)sr.r.n, ZC_SLICE_MIN_PAIRS));
		} else if (!ret) {
			json_object_set_new(o, "lo", json_real(sr.r.lo));
			json_object_set_new(o, "hi", json_real(sr.r.hi));
			/* What a precision target is stated in (make bench-precision). */
			json_object_set_new(o, "half_width_pct",
					    json_real((sr.r.hi - sr.r.lo) / 2 / sr.r.median * 100));
		}
		json_array_append_new(a, o);
	}
	return a;
}
