// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench size FILE --target 100G: how many cores of the device under test
 * carry the target, per mode and per declared pair (a mode and its vs:
 * splice against copy on the proxy, tee, vmsplice, sendfile ... against send
 * on the source), and what the difference means in cores.
 *
 * From a curve's points (Gbit/s against the DUT's busy cores, one per
 * workers value): the Gbit/s per core is interpolated linearly in Gbit/s
 * between the two measured points around the target (below the first point:
 * the first point's), and cores = target / that rate. Past the largest point
 * the largest point's Gbit/s per core is held, which is its measured scaling
 * efficiency held for every further core: the figure is labelled
 * extrapolated, and it is optimistic when efficiency keeps falling. The
 * interval uses the repetitions' least and greatest Gbit/s per core at each
 * point in the same way.
 */
#include "report/scale.h"
#include "results/results.h"
#include "modes/mode.h"
#include "lib/opt.h"
#include "lib/term.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const double zc_sizing_targets[3] = { 10, 40, 100 };

int zc_parse_rate(const char *s, double *gbps)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "", 1 }, { "g", 1 }, { "gb", 1 }, { "gbit", 1 }, { "gbps", 1 }, { "gbit/s", 1 },
		{ "m", 1e-3 }, { "mbit", 1e-3 }, { "mbps", 1e-3 }, { "mbit/s", 1e-3 },
		{ "t", 1e3 }, { "tbit", 1e3 }, { "tbps", 1e3 }, { "tbit/s", 1e3 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].unit)) {
			*gbps = v * units[i].scale;
			return 0;
		}
	return -EINVAL;
}

static double pt_rate(const struct zc_curve_pt *p, int which)
{
	return which == 0 ? p->gpc : which == 1 ? p->gpc_min : p->gpc_max;
}

/* Gbit/s per core at target T (which: 0 median, 1 least, 2 greatest). */
static double rate_at(const struct zc_curve *c, double t, int which, bool *extrap)
{
	const struct zc_curve_pt *p = c->pt;

	*extrap = false;
	if (t <= p[0].gbps)
		return pt_rate(&p[0], which);
	/* The first segment whose Gbit/s reach the target (a curve that falls
	 * back later does not lower the answer). */
	for (int i = 1; i < c->npts; i++)
		if (p[i - 1].gbps <= t && t <= p[i].gbps) {
			double f = p[i].gbps > p[i - 1].gbps ? (t - p[i - 1].gbps) /
				   (p[i].gbps - p[i - 1].gbps) : 1;

			return pt_rate(&p[i - 1], which) + f * (pt_rate(&p[i], which) -
								pt_rate(&p[i - 1], which));
		}
	*extrap = true;
	return pt_rate(&p[c->npts - 1], which);
}

void zc_curve_size(const struct zc_curve *c, double t, struct zc_size *out)
{
	bool x;
	double r;

	out->cores = out->lo = out->hi = NAN;
	out->extrapolated = false;
	if (!c->npts)
		return;
	r = rate_at(c, t, 0, &out->extrapolated);
	out->cores = r > 0 ? t / r : NAN;
	r = rate_at(c, t, 2, &x);
	out->lo = r > 0 ? t / r : NAN;
	r = rate_at(c, t, 1, &x);
	out->hi = r > 0 ? t / r : NAN;
}

/* The curve of m's vs with everything else of c's key equal, or NULL. */
static const struct zc_curve *vs_curve(const struct zc_curve *c, const struct zc_curve *all, int n,
				       const struct zc_mode **m_out)
{
	int role = zc_role_from_name(c->role);
	const struct zc_mode *m = role >= 0 ? zc_mode_find(role, c->mode) : NULL;

	*m_out = m;
	if (!m || !m->vs)
		return NULL;
	for (int i = 0; i < n; i++) {
		const struct zc_curve *d = &all[i];
		bool same = !strcmp(d->host, c->host) && !strcmp(d->topology, c->topology) &&
			    !strcmp(d->role, c->role) && !strcmp(d->mode, m->vs->name) &&
			    d->chunk == c->chunk && d->pipe_size == c->pipe_size &&
			    d->connections == c->connections && d->npts;

		for (int r = 0; r < ZC_ROLE_NR && same; r++)
			same = r == role || !strcmp(d->modes[r], c->modes[r]);
		if (same)
			return d;
	}
	return NULL;
}

static json_t *size_json(const struct zc_size *s)
{
	return json_pack("{s:f,s:f,s:f,s:b}", "cores", s->cores, "low", s->lo, "high", s->hi,
			 "extrapolated", s->extrapolated);
}

/* Not inlined: the caller's buffer size must not reach the format checker,
 * which cannot bound %f. */
static __attribute__((noinline)) void saves_text(char *buf, size_t len, const struct zc_curve *c, const struct zc_curve *d,
		       double t, const struct zc_size *sm, const struct zc_size *sv)
{
	double saves = sv->cores - sm->cores, lo = sv->lo - sm->hi, hi = sv->hi - sm->lo;
	/* The interval in the words' sign: "costs 6.3 cores [-1.9, 6.6]", never
	 * a cost with the savings' bounds. */
	double sign = saves > -0.05 ? 1 : -1;	/* what prints as 0.0 saves nothing */

	snprintf(buf, len, "%s %s %.1f cores [%.1f, %.1f] at %g Gbit/s over %s (%s on %s, %lld "
		 "connection%s%s)", c->mode, sign > 0 ? "saves" : "costs", fabs(saves),
		 sign > 0 ? lo : -hi, sign > 0 ? hi : -lo, t, d->mode, c->role, c->host, c->connections,
		 c->connections == 1 ? "" : "s",
		 sm->extrapolated || sv->extrapolated ? "; extrapolated" : "");
}

json_t *zc_sizing_json(json_t *const *roots, int nroots, const double *targets, int ntargets)
{
	static struct zc_curve curves[256];
	int n = zc_curves(roots, nroots, curves, ZC_ARRAY_SIZE(curves));
	json_t *o = json_object(), *tj = json_array(), *cj = json_array(), *pj = json_array();

	for (int t = 0; t < ntargets; t++)
		json_array_append_new(tj, json_real(targets[t]));
	for (int i = 0; i < n; i++) {
		const struct zc_curve *c = &curves[i], *d;
		const struct zc_mode *m;
		json_t *pts = json_array(), *sizes = json_array();
		char label[300];

		zc_curve_label(c, label, sizeof(label), false);
		for (int k = 0; k < c->npts; k++)
			json_array_append_new(pts, json_pack("{s:i,s:f,s:f,s:f}", "workers",
				c->pt[k].workers, "gbps", c->pt[k].gbps, "cores", c->pt[k].cores,
				"gbps_per_core", c->pt[k].gpc));
		for (int t = 0; t < ntargets; t++) {
			struct zc_size s;
			json_t *sj;

			zc_curve_size(c, targets[t], &s);
			sj = size_json(&s);
			json_object_set_new(sj, "target_gbps", json_real(targets[t]));
			json_array_append_new(sizes, sj);
		}
		json_array_append_new(cj, json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:o,s:o}",
			"label", label, "host", c->host, "role", c->role, "mode", c->mode,
			"path", c->path, "chunk", (json_int_t)c->chunk, "pipe_size",
			(json_int_t)c->pipe_size, "connections", (json_int_t)c->connections,
			"points", pts, "sizes", sizes));
		if (!(d = vs_curve(c, curves, n, &m)))
			continue;
		for (int t = 0; t < ntargets; t++) {
			struct zc_size sm, sv;
			char text[400];

			zc_curve_size(c, targets[t], &sm);
			zc_curve_size(d, targets[t], &sv);
			saves_text(text, sizeof(text), c, d, targets[t], &sm, &sv);
			json_array_append_new(pj, json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:f,s:o,s:o,"
				"s:f,s:f,s:f,s:b,s:s}", "mode", c->mode, "vs", d->mode, "role",
				c->role, "host", c->host, "connections", (json_int_t)c->connections,
				"chunk", (json_int_t)c->chunk, "pipe_size", (json_int_t)c->pipe_size,
				"target_gbps", targets[t], "mode_cores", size_json(&sm), "vs_cores",
				size_json(&sv), "saves_cores", sv.cores - sm.cores, "saves_low",
				sv.lo - sm.hi, "saves_high", sv.hi - sm.lo, "extrapolated",
				sm.extrapolated || sv.extrapolated, "text", text));
		}
	}
	json_object_set_new(o, "targets_gbps", tj);
	json_object_set_new(o, "method", json_string(
		"cores = target / Gbit/s per core, interpolated linearly in Gbit/s between the two "
		"measured workers points around the target (below the first: the first's); past the "
		"largest point its Gbit/s per core (its scaling efficiency) is held: extrapolated. "
		"low/high: the same with the repetitions' greatest/least Gbit/s per core"));
	json_object_set_new(o, "curves", cj);
	json_object_set_new(o, "pairs", pj);
	return o;
}

struct size_args {
	const char *paths[256];
	int npaths;
	const char *target;
	bool json;
};

#define AT(field) ZC_OPT_AT(struct size_args, field)
static const struct zc_opt size_opts[] = {
	{ "target", ZC_OPT_TEXT, "100G", AT(target), .meta = "RATE[,RATE]",
	  .help = "traffic to carry: 100G, 40g, 10000M, 1.5T (Gbit/s), or requests/s at an "
		  "object size from request/response runs: 100k/s@64k, 2M/s@1k; several with "
		  "commas" },
	{ "json", ZC_OPT_BOOL, "no", AT(json), .help = "print the answer as JSON (as in a results "
	  "file's \"sizing\")" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, AT(paths), ZC_OPT_POS,
	  .count_off = offsetof(struct size_args, npaths), .help = "results files" },
};

static void fmt_size(char *buf, size_t len, json_t *s)
{
	double v = json_real_value(json_object_get(s, "cores"));

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]%s", v,
			 json_real_value(json_object_get(s, "low")),
			 json_real_value(json_object_get(s, "high")),
			 json_is_true(json_object_get(s, "extrapolated")) ? "*" : "");
}

/* A cell of the sizing table: "12.50 [11.76, 13.33]*" */
#define SIZE_CELL 23
#define SIZE_HEAD "DUT mode, connections, chunk, host"

/* A label on a line of its own, cut to the width (no trailing blanks). */
static void own_line(FILE *f, const char *label, int width)
{
	char cut[300];

	zc_elide(cut, sizeof(cut), label, width - 2);
	fprintf(f, "  %s\n  ", cut);
}

/* The labels' column is as wide as its longest label; when the terminal has
 * no room for it beside the figures, each label is on a line of its own
 * above its figures. */
static void print_sizing(FILE *f, json_t *o, int width)
{
	json_t *targets = json_object_get(o, "targets_gbps"), *c, *t, *p;
	int nt = (int)json_array_size(targets), room = width - 2 - nt * (SIZE_CELL + 1);
	int lw = zc_text_cols(SIZE_HEAD);
	bool alone;
	size_t i, k;

	json_array_foreach(json_object_get(o, "curves"), i, c) {
		int w = zc_text_cols(json_string_value(json_object_get(c, "label")) ?: "");

		lw = w > lw ? w : lw;
	}
	alone = lw > room;
	zc_put_fitted(f, "sizing: cores of the device under test to carry the target (busy cores; "
		      "[range over repetitions]; * extrapolated past the largest measured point)",
		      width, 2);
	fputc('\n', f);
	if (alone) {
		own_line(f, SIZE_HEAD, width);
		lw = 0;
	} else {
		fputs("  ", f);
		zc_put_cell(f, SIZE_HEAD, lw, 0);
	}
	json_array_foreach(targets, k, t) {
		char head[32];

		snprintf(head, sizeof(head), "%g Gbit/s", json_real_value(t));
		fprintf(f, "%s%*s", lw || k ? " " : "", SIZE_CELL, head);
	}
	fprintf(f, "\n");
	json_array_foreach(json_object_get(o, "curves"), i, c) {
		json_t *s;

		if (alone) {
			own_line(f, json_string_value(json_object_get(c, "label")) ?: "", width);
		} else {
			fputs("  ", f);
			zc_put_cell(f, json_string_value(json_object_get(c, "label")) ?: "", lw, 0);
		}
		json_array_foreach(json_object_get(c, "sizes"), k, s) {
			char buf[64];

			fmt_size(buf, sizeof(buf), s);
			fprintf(f, "%s%*s", lw || k ? " " : "", SIZE_CELL, buf);
		}
		fprintf(f, "\n");
	}
	if (!json_array_size(json_object_get(o, "curves")))
		fprintf(f, "  (no ok runs in these files)\n");
	if (json_array_size(json_object_get(o, "pairs")))
		fprintf(f, "\nwhat the difference means:\n");
	json_array_foreach(json_object_get(o, "pairs"), i, p) {
		char line[600];

		snprintf(line, sizeof(line), "  %s", json_string_value(json_object_get(p, "text")));
		zc_put_fitted(f, line, width, 4);
	}
	{
		char line[1200];

		snprintf(line, sizeof(line), "\nmethod: %s",
			 json_string_value(json_object_get(o, "method")));
		zc_put_fitted(f, line, width, 2);
	}
}

/* The request/response targets: each needs an rr run of its object size in
 * the files (else a clear error and usage's exit). 0 or ZC_EXIT_USAGE. */
static int size_rr(json_t *const *roots, int nroots, const double *rps, const long long *osize,
		   int nr, bool json, bool alone)
{
	json_t *all = json_array();
	int rc = 0;

	for (int i = 0; i < nr && !rc; i++) {
		json_t *a = zc_sizing_rr_json(roots, nroots, rps[i], osize[i]);
		char sz[24];

		zc_fmt_size(osize[i], sz, sizeof(sz));
		if (!json_array_size(a)) {
			zc_err("size: --target %g/s@%s: no request/response run with object_size %s "
			       "and an ok sample in these files", rps[i], sz, sz);
			rc = ZC_EXIT_USAGE;
		} else if (!json) {
			zc_print_sizing_rr(stdout, a, rps[i], osize[i]);
		}
		json_array_extend(all, a);
		json_decref(a);
	}
	if (!rc && json && alone) {
		char *s = json_dumps(all, JSON_INDENT(2) | JSON_REAL_PRECISION(6));

		if (s)
			printf("{\n\"rr\": %s\n}\n", s);
		free(s);
	}
	json_decref(all);
	return rc;
}

int zc_cmd_size(int argc, char **argv)
{
	struct size_args a = { 0 };
	const struct zc_optgroup g = ZC_OPT_GROUP1(size_opts, &a);
	const struct zc_cmdline cmd = {
		.name = "size", .groups = &g, .ngroups = 1,
		.about = "Cores of the device under test needed to carry a target rate, per mode and per\n"
			 "declared pair (splice against copy, tee/vmsplice/sendfile against send), from\n"
			 "the measured scaling curves (zcbench scale); past the largest measured point\n"
			 "extrapolated and labelled so.\n",
	};
	double targets[16], rps[16];
	long long osize[16];
	int nt = 0, nr = 0, rc = zc_opt_main(&cmd, argc, argv);
	char buf[256], *items[32], why[512], *tok;
	json_t *roots[256], *o;
	int nitems;

	if (rc >= 0)
		return rc;
	rc = 0;
	if ((nitems = zc_list_split(a.target, buf, sizeof(buf), items, (int)ZC_ARRAY_SIZE(items),
				    why, sizeof(why))) < 0) {
		zc_err("command line: --target: %s", why);
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < nitems; i++) {
		tok = items[i];
		if (strchr(tok, '@')) {
			int e = nr == (int)ZC_ARRAY_SIZE(rps) ? -EINVAL :
				zc_parse_rr_target(tok, &rps[nr], &osize[nr]);

			if (e) {
				zc_err("command line: --target: '%s' is not %s", tok, e == -ERANGE ?
				       "a rate up to 1e12 requests/s" : "requests/s at an object "
				       "size like 100k/s@64k (size 1 byte to 1T)");
				return ZC_EXIT_USAGE;
			}
			nr++;
			continue;
		}
		if (nt == (int)ZC_ARRAY_SIZE(targets) || zc_parse_rate(tok, &targets[nt])) {
			zc_err("command line: --target: '%s' is not a rate like 100G, 40g, 10000M", tok);
			return ZC_EXIT_USAGE;
		}
		nt++;
	}
	for (int i = 0; i < a.npaths; i++)
		if (!(roots[i] = zc_an_load("size", a.paths[i]))) {
			for (int j = 0; j < i; j++)
				json_decref(roots[j]);
			return ZC_EXIT_USAGE;
		}
	if (nr) {
		rc = size_rr(roots, a.npaths, rps, osize, nr, a.json, !nt);
		if (rc || !nt)
			goto out;
	}
	o = zc_sizing_json(roots, a.npaths, targets, nt);
	if (a.json) {
		char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(6));

		if (s)
			printf("%s\n", s);
		free(s);
	} else {
		print_sizing(stdout, o, zc_term_width(1));
	}
	json_decref(o);
out:
	for (int i = 0; i < a.npaths; i++)
		json_decref(roots[i]);
	return rc;
}
