// SPDX-License-Identifier: GPL-2.0
/* Noise files from A/A results (noise.h). */
#include "compare/noise.h"
#include "stats/gate.h"
#include "metrics/metrics.h"
#include "results/results.h"

#include <math.h>
#include <string.h>

/* The B run of A run a: same key, aa_side "b". */
static json_t *side_b(json_t *runs, json_t *a)
{
	char ka[512], kb[512];
	json_t *r;
	size_t i;

	zc_an_key(a, ka, sizeof(ka));
	json_array_foreach(runs, i, r) {
		if (strcmp(zc_an_str(r, "aa_side"), "b"))
			continue;
		zc_an_key(r, kb, sizeof(kb));
		if (!strcmp(ka, kb))
			return r;
	}
	return NULL;
}

static json_t *run_floors(json_t *a, json_t *b)
{
	static double va[ZC_SAMPLES_MAX], vb[ZC_SAMPLES_MAX];
	json_t *metrics = json_object();
	size_t pairs = 0;
	char key[512];

	zc_for_each_summary_metric(m) {
		size_t na = zc_an_values_by_rep(a, m->key, va, ZC_SAMPLES_MAX);
		size_t nb = zc_an_values_by_rep(b, m->key, vb, ZC_SAMPLES_MAX);
		double floor_rel;
		size_t used;

		if (zc_noise_floor_aa(va, vb, na > nb ? na : nb, ZC_BOOT_ROUNDS, ZC_BOOT_SEED,
				      ZC_NOISE_QUANTILE, &floor_rel, &used))
			continue;	/* no pair of positive values: no floor */
		pairs = used > pairs ? used : pairs;
		json_object_set_new(metrics, m->key, json_pack("{s:f,s:f,s:I}", "floor_rel", floor_rel,
							       "floor_pct", 100 * floor_rel,
							       "pairs", (json_int_t)used));
	}
	const char *name = zc_an_str(a, "name");
	size_t l = strlen(name);

	zc_an_key(a, key, sizeof(key));
	/* "proxy-copy:a" is the A side of the workload's proxy-copy. */
	return json_pack("{s:s,s:s%,s:I,s:o}", "key", key, "name", name,
			 l > 2 && !strcmp(name + l - 2, ":a") ? l - 2 : l, "pairs",
			 (json_int_t)pairs, "metrics", metrics);
}

/* Each headline ratio of side A against the same ratio of side B (the
 * rows are taken). */
static json_t *ratio_spreads(json_t *headline)
{
	json_t *out = json_array(), *h, *g;
	size_t i, j;

	json_array_foreach(headline, i, h) {
		if (strcmp(zc_an_str(h, "aa_side"), "a"))
			continue;
		json_array_foreach(headline, j, g) {
			json_t *va = json_object_get(h, "value"), *vb = json_object_get(g, "value");
			double a, b;

			if (strcmp(zc_an_str(g, "aa_side"), "b") ||
			    strcmp(zc_an_str(g, "ratio"), zc_an_str(h, "ratio")) ||
			    zc_an_int(g, "chunk") != zc_an_int(h, "chunk") ||
			    zc_an_int(g, "pipe_size") != zc_an_int(h, "pipe_size") ||
			    zc_an_int(g, "connections") != zc_an_int(h, "connections") ||
			    zc_an_int(g, "workers") != zc_an_int(h, "workers"))
				continue;
			a = json_is_number(va) ? json_number_value(va) : NAN;
			b = json_is_number(vb) ? json_number_value(vb) : NAN;
			/* 0: a size neither side passes on, null as in report --json */
			json_array_append_new(out, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
				"ratio", zc_an_str(h, "ratio"), "chunk", zc_an_int(h, "chunk") ?
				json_integer(zc_an_int(h, "chunk")) : json_null(), "pipe_size",
				zc_an_int(h, "pipe_size") ? json_integer(zc_an_int(h, "pipe_size")) : json_null(),
				"a", zc_an_num(a), "b", zc_an_num(b),
				"spread_pct", isfinite(a) && isfinite(b) && a ? json_real(100 * (b / a - 1))
								     : json_null(),
				"a_half_width_pct", json_copy(json_object_get(h, "half_width_pct")),
				"b_half_width_pct", json_copy(json_object_get(g, "half_width_pct"))));
			break;
		}
	}
	json_decref(headline);
	return out;
}

json_t *zc_noise_build(json_t *root, const char *results_path, char *err, size_t errlen)
{
	json_t *runs = json_object_get(root, "runs"), *out, *floors = json_array(), *r;
	json_t *sched = json_object_get(root, "schedule");
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *b;

		if (strcmp(zc_an_str(r, "aa_side"), "a") || !(b = side_b(runs, r)))
			continue;
		json_array_append_new(floors, run_floors(r, b));
	}
	if (!json_array_size(floors)) {
		snprintf(err, errlen, "%s: no A/A pair of runs (aa_side a and b)", results_path);
		json_decref(floors);
		return NULL;
	}
	out = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:f,s:I,s:I}", "schema", ZC_NOISE_SCHEMA,
			"schema_version", ZC_NOISE_VERSION, "results", results_path,
			"workload", zc_an_str(json_object_get(root, "workload"), "name"),
			"host", zc_an_hostname(root), "kernel", zc_an_kernel(root),
			"date", zc_an_date(root), "quantile", ZC_NOISE_QUANTILE,
			"bootstrap_rounds", (json_int_t)ZC_BOOT_ROUNDS, "seed", (json_int_t)ZC_BOOT_SEED);
	json_object_set_new(out, "order", json_string(*zc_an_str(sched, "order") ?
						       zc_an_str(sched, "order") : "unknown"));
	json_object_set_new(out, "rounds", json_integer(zc_an_int(sched, "rounds")));
	json_object_set_new(out, "runs", floors);
	json_object_set_new(out, "ratios", ratio_spreads(zc_headline_rows(root, 0, NULL)));
	return out;
}

static void pct_cell(char *buf, size_t len, json_t *v)
{
	if (json_is_number(v))
		snprintf(buf, len, "%.1f%%", json_number_value(v));
	else
		snprintf(buf, len, "-");
}

void zc_noise_print(FILE *f, json_t *noise)
{
	json_t *r;
	size_t i;

	fprintf(f, "\nNoise floor (A/A, %s order, %lld rounds): the %.0f%% quantile of |log| of "
		"the bootstrapped median paired A/B ratio\n", zc_an_str(noise, "order"),
		zc_an_int(noise, "rounds"), 100 * ZC_NOISE_QUANTILE);
	fprintf(f, "  %-22s %7s %9s %9s %9s\n", "run", "pairs", "Gbps/core", "Gbps", "DUTcores");
	json_array_foreach(json_object_get(noise, "runs"), i, r) {
		json_t *m = json_object_get(r, "metrics");
		char a[16], b[16], c[16];

		pct_cell(a, sizeof(a), json_object_get(json_object_get(m, "gbps_per_core"), "floor_pct"));
		pct_cell(b, sizeof(b), json_object_get(json_object_get(m, "gbps"), "floor_pct"));
		pct_cell(c, sizeof(c), json_object_get(json_object_get(m, "dut_busy_cores"), "floor_pct"));
		fprintf(f, "  %-22.22s %7lld %9s %9s %9s\n", zc_an_str(r, "name"), zc_an_int(r, "pairs"),
			a, b, c);
	}
	if (!json_array_size(json_object_get(noise, "ratios")))
		return;
	fprintf(f, "\nHeadline ratios, A against B (same build, same rounds): the spread is B/A - 1\n");
	fprintf(f, "  %-27s %-5s %-5s %8s %8s %8s %11s\n", "ratio", "chunk", "pipe", "A", "B",
		"spread", "half-width");
	json_array_foreach(json_object_get(noise, "ratios"), i, r) {
		char chunk[24], pipe[24], a[16], b[16], s[16], hw[32];
		json_t *va = json_object_get(r, "a"), *vb = json_object_get(r, "b");

		zc_an_fmt_size(zc_an_int(r, "chunk"), chunk, sizeof(chunk));
		zc_an_fmt_size(zc_an_int(r, "pipe_size"), pipe, sizeof(pipe));
		snprintf(a, sizeof(a), json_is_number(va) ? "%.3fx" : "-", json_number_value(va));
		snprintf(b, sizeof(b), json_is_number(vb) ? "%.3fx" : "-", json_number_value(vb));
		if (json_is_number(json_object_get(r, "spread_pct")))
			snprintf(s, sizeof(s), "%+.1f%%", json_number_value(json_object_get(r, "spread_pct")));
		else
			snprintf(s, sizeof(s), "-");
		snprintf(hw, sizeof(hw), "%.1f/%.1f%%",
			 json_number_value(json_object_get(r, "a_half_width_pct")),
			 json_number_value(json_object_get(r, "b_half_width_pct")));
		fprintf(f, "  %-27s %-5s %-5s %8s %8s %8s %11s\n", zc_an_str(r, "ratio"), chunk, pipe,
			a, b, s, hw);
	}
}
