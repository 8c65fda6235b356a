// SPDX-License-Identifier: GPL-2.0
/*
 * compare --json: the comparison a program reads, one object (results/
 * README.md, "JSON output of zcbench compare --json"): the files, every
 * figure compare judged with both sides, its change, interval and answer,
 * the runs not compared, and the gate's result with the exit code.
 */
#include "compare/compare_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define SCHEMA_VERSION "1.0"

static json_t *side(const struct zc_summary *s)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->n,
			 "mean", zc_an_num(s->n ? s->mean : NAN), "median", zc_an_num(s->n ? s->median : NAN),
			 "stddev", zc_an_num(s->n > 1 ? s->stddev : NAN), "min", zc_an_num(s->n ? s->min : NAN),
			 "max", zc_an_num(s->n ? s->max : NAN));
}

static const char *better_word(enum zc_better b)
{
	return b == ZC_BETTER_HIGHER ? "higher" : b == ZC_BETTER_LOWER ? "lower" : "neither";
}

static json_t *figure(const struct zc_cmp_cell_v *cl)
{
	const struct zc_cmp_verdict *v = &cl->v;
	json_t *o, *iv = json_null();
	double lo, hi, scale = v->points ? 1 : 100;
	bool ratio = !strcmp(cl->m->key, "ratio");

	if (v->ch.ok) {
		zc_cmp_bounds(v, &lo, &hi);
		iv = json_pack("{s:o, s:o, s:f, s:b, s:o, s:o}", "lo", zc_an_num(lo), "hi",
			       zc_an_num(hi), "level", v->ch.level, "paired", v->paired, "between",
			       v->ch.invocations ? json_string(zc_between_name(v->ch.between)) :
			       json_null(), "df", zc_an_num(v->ch.df));
	}
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:b}",
		      "kind", ratio ? "headline_ratio" : "metric", "run_key", cl->key,
		      "run", cl->name, "metric", cl->m->key, "unit", cl->m->unit,
		      "better", better_word(cl->m->better), "file", cl->path,
		      "gated", cl->gated, "headline", v->headline);
	json_object_set_new(o, "base", side(&cl->sb));
	json_object_set_new(o, "new", side(&cl->sn));
	json_object_set_new(o, "change", zc_an_num(v->change));
	json_object_set_new(o, "change_unit", json_string(v->points ? "points" : "percent"));
	json_object_set_new(o, "interval", iv);
	json_object_set_new(o, "answer", json_string(zc_answer_key(v->vd.answer)));
	json_object_set_new(o, "direction", json_string(v->direction > 0 ? "better" :
							v->direction < 0 ? "worse" : "none"));
	json_object_set_new(o, "regression", json_boolean(v->regression));
	json_object_set_new(o, "threshold", zc_an_num(v->points ? v->vd.threshold :
						  100 * v->vd.threshold));
	json_object_set_new(o, "could_see_down", zc_an_num(v->ch.ok ? scale * v->vd.can_see_down : NAN));
	json_object_set_new(o, "could_see_up", zc_an_num(v->ch.ok ? scale * v->vd.can_see_up : NAN));
	return o;
}

static json_t *gate(const struct zc_cmp_json *j)
{
	const struct zc_cmp *c = j->c;
	const struct zc_cmp_tally *t = j->tally;
	const char *word;
	int code;

	if (isnan(c->fail_pct))
		return json_null();
	code = zc_cmp_gate_result(c, t, j->lost, j->empty_sides, j->pass_cant_tell, &word);
	return json_pack("{s:f, s:I, s:f, s:i, s:i, s:i, s:i, s:o, s:i, s:i, s:s, s:i}",
			 "threshold_pct", c->fail_pct, "figures", (json_int_t)c->gated,
			 "level", 1 - 2 * c->alpha / (double)(c->gated ? c->gated : 1),
			 "regressions", t->regressions, "within", t->within, "better", t->better,
			 "cant_tell", t->cant_tell, "could_see_down",
			 zc_an_num(t->cant_tell ? t->could_see : NAN), "runs_lost", j->lost,
			 "files_with_nothing_compared", j->empty_sides, "result", word,
			 "exit_code", code);
}

int zc_cmp_json_write(FILE *f, const struct zc_cmp_json *j)
{
	const struct zc_cmp *c = j->c;
	json_t *root, *files = json_array(), *figs = json_array();
	int r;

	for (int i = 0; i < c->nfiles; i++)
		json_array_append_new(files, json_pack("{s:s, s:s, s:s, s:s, s:s}", "path",
						       c->paths[i], "role", i ? "new" : "base",
						       "kernel", zc_an_kernel(c->roots[i]), "host",
						       zc_an_hostname(c->roots[i]), "date",
						       zc_an_date(c->roots[i])));
	for (size_t i = 0; i < j->n; i++)
		json_array_append_new(figs, figure(&j->cells[i]));
	root = json_pack("{s:s, s:s, s:o, s:b, s:f, s:f, s:b, s:o, s:O, s:o, s:i}",
			 "schema", "zcbench-compare", "schema_version", SCHEMA_VERSION,
			 "files", files, "same_measurements", j->same, "alpha", c->alpha,
			 "threshold_pct", c->threshold_pct, "all", j->all, "figures", figs,
			 "runs_not_compared", j->unmatched, "gate", gate(j),
			 "exit_code", j->exit_code);
	if (!root)
		return -ENOMEM;
	r = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	fputc('\n', f);
	json_decref(root);
	return r ? -EIO : 0;
}
