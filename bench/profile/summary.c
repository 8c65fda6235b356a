// SPDX-License-Identifier: GPL-2.0
/*
 * A profile's summary in the 0-day robot's terms: the symbols with the
 * largest self share (the leaf of a sample) and children share (anywhere in
 * its chain, each sample counted once per symbol), and the buckets
 * (buckets.c). Shares are percent of every sample of the profiled CPUs, the
 * idle loop included, as perf report shows them.
 */
#include "profile/profile.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH_MAX 512

/* LKP's name of a symbol: "perf-profile.self.cycles-pp.SYM" (kind "self" or "children"). */
static void zc_profile_lkp_name(const char *kind, const char *sym, char *out, size_t len)
{
	snprintf(out, len, "perf-profile.%s.cycles-pp.%s", kind, sym);
}

/* Split a folded stack in place: frames[0] the comm. How many frames. */
static size_t split(char *stack, char **frames, size_t max)
{
	size_t n = 0;

	for (char *p = stack; p && n < max;) {
		frames[n++] = p;
		p = strchr(p, ';');
		if (p)
			*p++ = 0;
	}
	return n;
}

static void strip_k(const char *frame, char *out, size_t len)
{
	size_t l = strlen(frame);

	snprintf(out, len, "%.*s", (int)(l > 4 && !strcmp(frame + l - 4, "_[k]") ? l - 4 : l),
		 frame);
}

/* Does the root "comm-pid" match proc: a pid (digits) or a process name? */
static bool proc_match(const char *root, const char *proc)
{
	const char *dash = strrchr(root, '-');
	size_t l = strlen(proc);

	if (proc[strspn(proc, "0123456789")] == 0)
		return dash && !strcmp(dash + 1, proc);
	return !strcmp(root, proc) || (dash && (size_t)(dash - root) == l && !strncmp(root, proc, l));
}

/* "comm-pid" without its pid. */
static void comm_of(const char *root, char *out, size_t len)
{
	const char *dash = strrchr(root, '-');
	size_t l = dash && dash[1] && !dash[1 + strspn(dash + 1, "0123456789")] ?
			   (size_t)(dash - root) : strlen(root);

	snprintf(out, len, "%.*s", (int)l, root);
}

static int add(json_t *counts, const char *sym, json_int_t n)
{
	json_t *v = json_object_get(counts, sym);

	if (v)
		return json_integer_set(v, json_integer_value(v) + n);
	return json_object_set_new(counts, sym, json_integer(n));
}

struct ranked {
	const char *sym;
	json_int_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

/* The top entries of counts as {LKP name: percent} (kind NULL: the names
 * as they are), largest first. */
static json_t *top_of(json_t *counts, const char *kind, int top, double total)
{
	size_t n = json_object_size(counts), i = 0;
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	json_t *out = json_object(), *v;
	const char *k;

	if (!r || !out) {
		free(r);
		json_decref(out);
		return NULL;
	}
	json_object_foreach(counts, k, v)
		r[i++] = (struct ranked){ k, json_integer_value(v) };
	qsort(r, n, sizeof(*r), by_count);
	for (i = 0; i < n && i < (size_t)top; i++) {
		char name[512];

		if (kind)
			zc_profile_lkp_name(kind, r[i].sym, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", r[i].sym);
		json_object_set_new(out, name, json_real(100.0 * (double)r[i].n / total));
	}
	free(r);
	return out;
}

json_t *zc_profile_summarise(const struct zc_stacks *s, int top, const char *comm)
{
	json_t *self = json_object(), *children = json_object(), *buckets = json_object();
	json_t *comms = json_object();
	json_int_t all = 0;
	json_t *out = NULL, *v;
	json_int_t per_bucket[ZC_BUCKET_NR] = { 0 }, idle = 0;
	static char *frames[DEPTH_MAX];
	const char *k;
	double total;

	if (top <= 0)
		top = ZC_PROFILE_TOP;
	if (!self || !children || !buckets || !comms)
		goto out;
	json_object_foreach(s->counts, k, v) {
		json_int_t n = json_integer_value(v);
		char *copy = strdup(k), sym[256];
		size_t nf;
		bool is_idle;
		enum zc_bucket b;

		if (!copy)
			goto out;
		nf = split(copy, frames, DEPTH_MAX);
		/* Who ran: a neighbour on the DUT's core shows here first. */
		comm_of(frames[0], sym, sizeof(sym));
		add(comms, sym, n);
		if (comm && !proc_match(frames[0], comm)) {
			free(copy);
			continue;
		}
		all += n;
		/* frames[0] is the comm: not a symbol. */
		b = zc_bucket_of((const char *const *)frames + 1, nf - 1, &is_idle);
		per_bucket[b] += n;
		idle += is_idle ? n : 0;
		if (nf > 1) {
			strip_k(frames[nf - 1], sym, sizeof(sym));
			add(self, sym, n);
		}
		/* Recursion repeats a symbol in one chain: count it once. */
		for (size_t i = 1; i < nf; i++) {
			bool dup = false;

			for (size_t j = 1; j < i && !dup; j++)
				dup = !strcmp(frames[i], frames[j]);
			if (dup)
				continue;
			strip_k(frames[i], sym, sizeof(sym));
			add(children, sym, n);
		}
		free(copy);
	}
	/* No sample: every share is 0 of 0, written as 0. */
	total = all ? (double)all : 1;
	for (int b = 0; b < ZC_BUCKET_NR; b++)
		json_object_set_new(buckets, zc_buckets[b].key,
				    json_real(100.0 * (double)per_bucket[b] / total));
	out = json_pack("{s:I,s:s?,s:f,s:o,s:o,s:o,s:O}", "samples", all, "comm", comm, "idle_pct",
			100.0 * (double)idle / total, "comms",
			top_of(comms, NULL, 8, s->total ? (double)s->total : 1), "self",
			top_of(self, "self", top, total), "children",
			top_of(children, "children", top, total), "buckets", buckets);
out:
	json_decref(self);
	json_decref(children);
	json_decref(buckets);
	json_decref(comms);
	return out;
}
