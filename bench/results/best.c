// SPDX-License-Identifier: GPL-2.0
/*
 * Each headline ratio at each side's best size: what splice is worth to a
 * user who tunes both sides (splice's best pipe and chunk against copy's
 * best buffer), since the answer at one size can be 2x off either way
 * (issue 21: copy gains 2x from 64 KiB to 1 MiB chunks, splice little). For
 * each headline pair kind (numerator mode over its vs, the other roles,
 * connections, workers and options equal), the numerator's run with the
 * best median Gbps per core over every chunk and pipe size in the file,
 * over the denominator's best. Only where either side was run at more
 * than one size. The interval is zc_an_ratio's for the two runs chosen
 * (paired by round when taken in rounds); it does not account for the
 * choice itself (picking the best of several by their medians favours
 * the noisy high ones a little), which the table says.
 */
#include "results/results.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a and b differ at most in chunk and pipe size (and in role's mode, when
 * role is given: the DUT's, whose mode the caller checks). */
static bool same_but_sizes(json_t *a, json_t *b, const char *role)
{
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *ka = json_object_get(a, "key"), *kb = json_object_get(b, "key");

	for (size_t j = 0; j < ZC_ARRAY_SIZE(fields); j++)
		if ((!role || strcmp(fields[j], role)) &&
		    strcmp(zc_an_str(ka, fields[j]), zc_an_str(kb, fields[j])))
			return false;
	return zc_an_int(ka, "connections") == zc_an_int(kb, "connections") &&
	       (zc_an_int(ka, "workers") ?: 1) == (zc_an_int(kb, "workers") ?: 1) &&
	       !strcmp(zc_an_str(a, "aa_side"), zc_an_str(b, "aa_side")) &&
	       !strcmp(zc_an_str(json_object_get(a, "options"), "mode_opts"),
		       zc_an_str(json_object_get(b, "options"), "mode_opts"));
}

/* The best run of role's mode like ref but for its sizes; *sizes: how many
 * sizes it was run at. NULL when none has an ok sample. */
static json_t *best_like(json_t *runs, json_t *ref, const char *role, const char *mode,
			 size_t *sizes)
{
	json_t *r, *best = NULL;
	double best_v = -1;
	size_t i;

	*sizes = 0;
	json_array_foreach(runs, i, r) {
		double v;

		if (strcmp(zc_an_str(json_object_get(r, "key"), role), mode) ||
		    strcmp(zc_an_dut_role(r), role) || !same_but_sizes(r, ref, role))
			continue;
		(*sizes)++;
		v = zc_an_median(r, "gbps_per_core");
		if (!isnan(v) && v > best_v) {
			best_v = v;
			best = r;
		}
	}
	return best;
}

/* A side's run and sizes; a size its mode m does not pass on is null. */
static json_t *size_json(json_t *run, const struct zc_mode *m)
{
	json_t *k = json_object_get(run, "key");
	unsigned uses = zc_mode_uses(m, zc_an_str(json_object_get(run, "options"), "mode_opts"));

	return json_pack("{s:s,s:o,s:o}", "run", zc_an_str(run, "name"), "chunk",
			 uses & ZC_USE_chunk ? json_integer(zc_an_int(k, "chunk")) : json_null(),
			 "pipe_size", uses & ZC_USE_pipe_size ?
			 json_integer(zc_an_int(k, "pipe_size")) : json_null());
}

json_t *zc_headline_best(json_t *runs)
{
	json_t *out = json_array(), *seen = json_object();
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(runs, 0, &pv);

	for (size_t i = 0; i < n; i++) {
		size_t ns, nd;
		json_t *num = best_like(runs, pv[i].run, pv[i].role, pv[i].mode->name, &ns);
		json_t *den = best_like(runs, pv[i].peer_run, pv[i].role, pv[i].peer->name, &nd);
		struct zc_ratio r;
		char id[512];
		json_t *row;

		if (!num || !den || (ns < 2 && nd < 2))
			continue;
		/* One row per pair of best runs, however many sizes led there. */
		snprintf(id, sizeof(id), "%s|%p|%p", pv[i].name, (void *)num, (void *)den);
		if (json_object_get(seen, id))
			continue;
		json_object_set_new(seen, id, json_true());
		zc_an_ratio(num, den, &r);
		row = json_pack("{s:s,s:o,s:o,s:I,s:I,s:o,s:o,s:o}", "ratio", pv[i].name,
				"numerator", size_json(num, pv[i].mode),
				"denominator", size_json(den, pv[i].peer),
				"numerator_sizes", (json_int_t)ns, "denominator_sizes", (json_int_t)nd,
				"numerator_gbps_per_core", zc_an_num(r.num_gpc),
				"denominator_gbps_per_core", zc_an_num(r.den_gpc),
				"value", zc_an_num(r.value));
		/* As the headline: its interval keys, answer and busy fractions. */
		zc_an_ratio_json(row, num, den, &r);
		json_object_set_new(row, "verified", json_boolean(
			json_is_true(json_object_get(num, "verified")) &&
			json_is_true(json_object_get(den, "verified"))));
		json_array_append_new(out, row);
	}
	free(pv);
	json_decref(seen);
	return out;
}

size_t zc_headline_questions(json_t *runs, bool all, struct zc_question *out, size_t max)
{
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(runs, 0, &pv), k = 0, fair = 0;

	/* Each side at its best size: the fair question. */
	for (size_t i = 0; i < n && k < max; i++) {
		size_t ns, nd;
		json_t *num = best_like(runs, pv[i].run, pv[i].role, pv[i].mode->name, &ns);
		json_t *den = best_like(runs, pv[i].peer_run, pv[i].role, pv[i].peer->name, &nd);
		bool dup = false;

		if (!num || !den || (ns < 2 && nd < 2))
			continue;
		for (size_t j = 0; j < k && !dup; j++)
			dup = out[j].num == num && out[j].den == den;
		if (dup)
			continue;
		out[k].num = num;
		out[k].den = den;
		snprintf(out[k].name, sizeof(out[k].name), "%.224s at the best sizes", pv[i].name);
		k++;
	}
	fair = k;
	/* Every ratio at its size: asked for, or no side ran at two sizes. */
	for (size_t i = 0; i < n && k < max && (all || !fair); i++) {
		bool dup = false;

		for (size_t j = 0; j < k && !dup; j++)
			dup = out[j].num == pv[i].run && out[j].den == pv[i].peer_run;
		if (dup || !pv[i].run || !pv[i].peer_run)
			continue;
		out[k].num = pv[i].run;
		out[k].den = pv[i].peer_run;
		snprintf(out[k].name, sizeof(out[k].name), "%s", pv[i].name);
		k++;
	}
	free(pv);
	return k;
}
