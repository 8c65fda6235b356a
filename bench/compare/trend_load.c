// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench trend's nights and series (trend.h): results files (or folders of
 * them) read in time order, copies and foreign files left out and said, and
 * one series per run key, host and gated metric, and per headline ratio.
 */
#include "compare/trend.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int zc_trend_expand(char **paths, int npaths, char **out, int max, char *why, size_t len)
{
	int n = 0;

	for (int i = 0; i < npaths; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;
		int first = n;

		if (stat(paths[i], &st)) {
			snprintf(why, len, "%s: %s", paths[i], strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (n == max)
				goto many;
			out[n++] = strdup(paths[i]);
			continue;
		}
		if (!(d = opendir(paths[i]))) {
			snprintf(why, len, "%s: %s", paths[i], strerror(errno));
			return -1;
		}
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);

			if (l < 6 || strcmp(e->d_name + l - 5, ".json") || e->d_name[0] == '.')
				continue;
			if (n == max) {
				closedir(d);
				goto many;
			}
			if (asprintf(&out[n], "%s/%s", paths[i], e->d_name) < 0)
				out[n] = NULL;
			n++;
		}
		closedir(d);
		qsort(out + first, n - first, sizeof(*out), by_name);
	}
	return n;
many:
	snprintf(why, len, "more than %d results files: give fewer (the newest)", max);
	return -1;
}

/* Append a line (or, sep "; ", an item) to a note string that grows: every
 * reason kept, never cut. -ENOMEM. */
static int note(char **notes, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int note(char **notes, const char *sep, const char *fmt, ...)
{
	char *item = NULL, *all = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&item, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	n = asprintf(&all, "%s%s%s", *notes ? *notes : "", *notes ? sep : "", item);
	free(item);
	if (n < 0)
		return -ENOMEM;
	free(*notes);
	*notes = all;
	return 0;
}

/* A file left out: its name as shown (escaped) and why. -ENOMEM. */
static int left_out(struct zc_trend *t, const char *file, const char *why)
{
	struct zc_left_out *g = realloc(t->left, (t->nleft + 1) * sizeof(*g));

	if (!g)
		return -ENOMEM;
	t->left = g;
	g[t->nleft] = (struct zc_left_out){ zc_escape(file), zc_escape(why) };
	if (!g[t->nleft].file || !g[t->nleft].why) {
		free(g[t->nleft].file);
		free(g[t->nleft].why);
		return -ENOMEM;
	}
	t->nleft++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct zc_night *x = a, *y = b;

	if (x->epoch != y->epoch)
		return (x->epoch > y->epoch) - (x->epoch < y->epoch);
	return strcmp(x->path, y->path);
}

static void night_fields(struct zc_night *nt)
{
	json_t *meta = json_object_get(nt->root, "meta"), *wl = json_object_get(nt->root, "workload");
	json_t *git = json_object_get(meta, "git");
	char line[64];

	nt->epoch = zc_an_epoch(nt->root);
	snprintf(nt->date, sizeof(nt->date), "%s", zc_an_date(nt->root));
	snprintf(nt->sha, sizeof(nt->sha), "%s%s", zc_an_str(git, "sha"),
		 json_is_true(json_object_get(git, "dirty")) ? "+dirty" : "");
	snprintf(nt->kernel, sizeof(nt->kernel), "%s", zc_an_kernel(nt->root));
	zc_an_fingerprint(nt->root, line, sizeof(line), nt->fp, sizeof(nt->fp));
	snprintf(nt->machine, sizeof(nt->machine), "%s, %lld CPUs", zc_an_str(meta, "cpu_model"),
		 zc_an_int(meta, "online_cpus"));
	snprintf(nt->workload, sizeof(nt->workload), "%s (%s)", zc_an_str(wl, "name"),
		 zc_an_str(wl, "file"));
}

/* The same invocation read twice (a copy of a file): its id, else its
 * date, host and sha. */
static bool same_invocation(const struct zc_night *a, const struct zc_night *b)
{
	const char *ia = zc_an_str(a->root, "invocation"), *ib = zc_an_str(b->root, "invocation");

	if (*ia || *ib)
		return !strcmp(ia, ib);
	return !strcmp(a->date, b->date) && !strcmp(a->sha, b->sha) &&
	       !strcmp(zc_an_hostname(a->root), zc_an_hostname(b->root));
}

static struct zc_series *series_of(struct zc_trend *t, const char *key, const char *metric,
				   enum zc_better better)
{
	struct zc_series *s;

	for (size_t i = 0; i < t->nseries; i++)
		if (!strcmp(t->series[i].key, key) && !strcmp(t->series[i].metric, metric))
			return &t->series[i];
	if (t->nseries == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 32;
		struct zc_series *g = realloc(t->series, cap * sizeof(*g));

		if (!g)
			return NULL;
		t->series = g;
		t->cap = cap;
	}
	s = &t->series[t->nseries];
	*s = (struct zc_series){ .metric = metric, .better = better, .last_left = -1 };
	s->v = malloc(ZC_TREND_NIGHTS_MAX * sizeof(*s->v));
	s->night = malloc(ZC_TREND_NIGHTS_MAX * sizeof(*s->night));
	if (!s->v || !s->night) {
		free(s->v);
		free(s->night);
		return NULL;
	}
	snprintf(s->key, sizeof(s->key), "%s", key);
	t->nseries++;
	return s;
}

/* The night's value of a run's metric: the geometric mean of its ok
 * samples (NaN: none, or a value <= 0). */
static double night_value(json_t *run, const char *metric)
{
	static double v[ZC_SAMPLES_MAX];
	size_t n = zc_an_values(run, metric, v, ZC_SAMPLES_MAX);
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return NAN;
		s += log(v[i]);
	}
	return n ? exp(s / (double)n) : NAN;
}

static int add(struct zc_trend *t, size_t ni, const char *key, const char *metric,
	       enum zc_better better, double v, const char *why_not)
{
	struct zc_series *s = series_of(t, key, metric, better);

	if (!s)
		return -ENOMEM;
	if (isnan(v)) {
		s->last_left = (long)ni;
		return note(&s->notes, "; ", "%.10s left out (%s)", t->nights[ni].date, why_not);
	}
	s->v[s->n] = v;
	s->night[s->n++] = ni;
	return 0;
}

static int night_series(struct zc_trend *t, size_t ni)
{
	json_t *root = t->nights[ni].root, *runs = json_object_get(root, "runs"), *run;
	const char *host = zc_an_hostname(root);
	struct zc_pair *pairs = NULL;
	char id[256], key[720];
	size_t i, np;
	int ret = 0;

	json_array_foreach(runs, i, run) {
		bool ok = !strcmp(zc_an_str(run, "status"), "ok");

		zc_an_run_id(run, id, sizeof(id));
		snprintf(key, sizeof(key), "%s on %s", id, host);
		for (size_t m = 0; m < zc_nmetrics && !ret; m++) {
			const struct zc_metric *mt = &zc_metrics[m];
			double v;

			if (!mt->gate)
				continue;
			v = ok ? night_value(run, mt->key) : NAN;
			/* A stream run has no tps: not a failure, not a series. */
			if (ok && isnan(v) && !zc_an_values(run, mt->key, (double[1]){ 0 }, 1))
				continue;
			ret = add(t, ni, key, mt->key, mt->better, v,
				  ok ? "no ok sample" : zc_an_str(run, "status"));
		}
	}
	np = zc_headline_pairs(runs, 0, &pairs);
	for (i = 0; i < np && !ret; i++) {
		struct zc_ratio r;

		if (!pairs[i].run || !pairs[i].peer_run)
			continue;
		zc_an_run_id(pairs[i].run, id, sizeof(id));
		snprintf(key, sizeof(key), "%s %s on %s", pairs[i].name, id, host);
		zc_an_ratio(pairs[i].run, pairs[i].peer_run, &r);
		ret = add(t, ni, key, "ratio", ZC_BETTER_HIGHER, r.value > 0 ? r.value : NAN,
			  "a side has no ok sample");
	}
	free(pairs);
	return ret;
}

/* The nights in t->nights[0..nnights) loaded: time order, copies out, notes, series. */
static int finish(struct zc_trend *t, char *why, size_t len)
{
	size_t k = 0;
	bool oom = false;

	qsort(t->nights, t->nnights, sizeof(*t->nights), by_time);
	/* Copies of one invocation: the first kept, the others said and left out. */
	for (size_t i = 0; i < t->nnights; i++) {
		if (k && same_invocation(&t->nights[k - 1], &t->nights[i])) {
			if (note(&t->notes, "", "left out %s: the same invocation as %s (a copy)\n",
				 t->nights[i].path, t->nights[k - 1].path))
				oom = true;
			json_decref(t->nights[i].root);
			free((char *)t->nights[i].path);
		} else {
			t->nights[k++] = t->nights[i];
		}
	}
	t->nnights = k;
	for (size_t i = 1, same = 0; i < t->nnights; i++) {
		double d = zc_trend_days(t, i - 1, i);

		/* Files of one date are nights each (a night is a file): said once,
		 * with the first two. */
		if (!strncmp(t->nights[i - 1].date, t->nights[i].date, 10) && !same++) {
			size_t more = 0;

			for (size_t j = i + 1; j < t->nnights; j++)
				more += !strncmp(t->nights[j - 1].date, t->nights[j].date, 10);
			oom |= !!note(&t->notes, "", "two files of %.10s: %s and %s%s, each kept as a "
				      "night in time order\n", t->nights[i].date,
				      t->nights[i - 1].path, t->nights[i].path, more ? " (and "
				      "more files that share a date with the one before)" : "");
		}
		if (d > ZC_TREND_GAP_DAYS)
			oom |= !!note(&t->notes, "", "a gap of %.0f days: %.10s to %.10s\n", d,
				      t->nights[i - 1].date, t->nights[i].date);
	}
	for (size_t i = 0; i < t->nnights && !oom; i++)
		oom = !!night_series(t, i);
	if (oom) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -1;
	}
	if (!t->nnights) {
		/* Each file and why: the caller prints t->left. */
		snprintf(why, len, "no results file among them (%zu file%s, each left out: %s)",
			 t->nleft, t->nleft == 1 ? "" : "s", t->nleft ? "above" : "none given");
		return -1;
	}
	return 0;
}

/* One loaded results file as a night (root borrowed: a reference taken),
 * or left out and said when it has no date. */
static int add_night(struct zc_trend *t, json_t *root, const char *path)
{
	struct zc_night *nt = &t->nights[t->nnights];

	nt->root = json_incref(root);
	/* Shown, never opened again: escaped (zc_escape). */
	if (!(nt->path = zc_escape(path))) {
		json_decref(root);
		return -ENOMEM;
	}
	night_fields(nt);
	if (nt->epoch < 0) {
		int ret = left_out(t, path, "no meta.date (a results file's date says its night)");

		json_decref(nt->root);
		free((char *)nt->path);
		return ret;
	}
	t->nnights++;
	return 0;
}

int zc_trend_build(struct zc_trend *t, json_t *const *roots, char *const *paths, size_t n,
		   char *why, size_t len)
{
	memset(t, 0, sizeof(*t));
	t->nights = calloc(n ? n : 1, sizeof(*t->nights));
	for (size_t i = 0; t->nights && i < n; i++)
		if (add_night(t, roots[i], paths[i]))
			break;
	if (!t->nights || finish(t, why, len)) {
		if (!t->nights)
			snprintf(why, len, "%s", strerror(ENOMEM));
		zc_trend_free(t);
		return -1;
	}
	return 0;
}

int zc_trend_load(struct zc_trend *t, char *const *files, int n, char *why, size_t len)
{
	char err[1200];
	int ret;

	memset(t, 0, sizeof(*t));
	t->nights = calloc(n ? n : 1, sizeof(*t->nights));
	if (!t->nights) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		json_t *root = files[i] ? zc_results_load(files[i], err, sizeof(err)) : NULL;

		if (!root) {
			if (!files[i] || left_out(t, files[i], err)) {
				snprintf(why, len, "%s", strerror(ENOMEM));
				return -1;
			}
			continue;
		}
		ret = add_night(t, root, files[i]);
		json_decref(root);
		if (ret) {
			snprintf(why, len, "%s", strerror(-ret));
			return -1;
		}
	}
	return finish(t, why, len) ? -1 : 0;
}

/* What differs between two nights, "kernel 6.1 -> 6.2; vmsplice=zero-copy -> vmsplice=copy". */
/* The word of the space-separated list that starts with the n bytes at w
 * (the whole word when exact), its length in *wl; NULL if none. */
static const char *word_of(const char *list, const char *w, size_t n, bool exact, size_t *wl)
{
	for (const char *p = list; *p;) {
		const char *e = strchrnul(p, ' ');

		if ((size_t)(e - p) >= n && !strncmp(p, w, n) && (!exact || (size_t)(e - p) == n)) {
			*wl = (size_t)(e - p);
			return p;
		}
		p = *e ? e + 1 : e;
	}
	return NULL;
}

void zc_trend_what_changed(const struct zc_night *a, const struct zc_night *b, char *out,
			   size_t len)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "kernel", offsetof(struct zc_night, kernel) },
		{ "zcbench", offsetof(struct zc_night, sha) },
		{ "machine", offsetof(struct zc_night, machine) },
		{ "workload", offsetof(struct zc_night, workload) },
	};

	out[0] = 0;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(fields); i++) {
		const char *x = (const char *)a + fields[i].off, *y = (const char *)b + fields[i].off;

		if (strcmp(x, y))
			zc_strcatf(out, len, "%s%s %s -> %s", *out ? "; " : "", fields[i].name, x, y);
	}
	/* The fingerprint word by word: "vmsplice=zero-copy -> vmsplice=copy". */
	if (strcmp(a->fp, b->fp)) {
		bool named = false;

		zc_strcatf(out, len, "%sfingerprint", *out ? "; " : "");
		for (const char *w = a->fp; *w;) {
			const char *e = strchrnul(w, ' '), *eq = memchr(w, '=', (size_t)(e - w)), *nw;
			size_t wlen = (size_t)(e - w), nl;

			/* Gone from b as it was, but its key is there with another value. */
			if (eq && !word_of(b->fp, w, wlen, true, &nl) &&
			    (nw = word_of(b->fp, w, (size_t)(eq - w + 1), false, &nl))) {
				zc_strcatf(out, len, " %.*s -> %.*s", (int)wlen, w, (int)nl, nw);
				named = true;
			}
			w = *e ? e + 1 : e;
		}
		if (!named)
			zc_strcatf(out, len, " %s -> %s", a->fp, b->fp);
	}
	if (!out[0])
		snprintf(out, len, "nothing this file records (kernel, fingerprint, zcbench, "
			 "machine, workload) changed");
}

double zc_trend_days(const struct zc_trend *t, size_t a, size_t b)
{
	return (double)(t->nights[b].epoch - t->nights[a].epoch) / 86400.0;
}

void zc_trend_free(struct zc_trend *t)
{
	for (size_t i = 0; i < t->nnights; i++) {
		json_decref(t->nights[i].root);
		free((char *)t->nights[i].path);
	}
	for (size_t i = 0; i < t->nseries; i++) {
		free(t->series[i].v);
		free(t->series[i].night);
		free(t->series[i].notes);
	}
	for (size_t i = 0; i < t->nleft; i++) {
		free(t->left[i].file);
		free(t->left[i].why);
	}
	free(t->nights);
	free(t->series);
	free(t->notes);
	free(t->left);
	memset(t, 0, sizeof(*t));
}
