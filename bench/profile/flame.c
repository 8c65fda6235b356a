// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph of folded stacks, drawn as a static SVG: one box per frame,
 * as wide as its samples, callers below callees, siblings in name order
 * (Brendan Gregg's layout). It works offline and without a script: no web
 * font, no JavaScript; the full name, samples and share of each box are in
 * its <title>, which every browser shows on hover. Boxes are coloured by
 * the bucket the frame would be in as a leaf (buckets.c), with the legend on
 * top, so copies stand out from TCP, splice and the idle loop.
 */
#include "profile/profile.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1200.0
#define PAD 10.0
#define FRAME_H 16.0
#define FONT 11.0
#define TOP 62.0
#define MIN_PX 0.1	/* narrower boxes are not drawn (their samples still count) */

struct entry {
	char **f;	/* frames, "all" first, then comm, then root .. leaf */
	int n;
	uint64_t count;
};

struct flame {
	FILE *f;
	struct entry *e;
	size_t n;
	double px;	/* pixels per sample */
	int depth;	/* deepest frame index drawn */
	uint64_t cut;	/* samples of stacks deeper than that */
	double height;
	uint64_t total;
};

static int by_frames(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	for (int i = 0; i < x->n && i < y->n; i++) {
		int c = strcmp(x->f[i], y->f[i]);

		if (c)
			return c;
	}
	return x->n - y->n;
}

static void xml(FILE *f, const char *s)
{
	zc_fputs_markup(f, s, true);
}

/* The bucket's colour, lightened a little by the name so neighbours differ. */
static void colour_of(const char *frame, int depth, char *out, size_t len)
{
	const char *fr[1] = { frame };
	bool idle;
	unsigned int h = 2166136261u, rgb;
	enum zc_bucket b = depth < 2 ? ZC_BUCKET_OTHER : zc_bucket_of(fr, 1, &idle);
	double mix;

	for (const char *p = frame; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	mix = (h % 100) / 400.0;	/* 0 .. 25% toward white */
	rgb = (unsigned int)strtoul(zc_buckets[b].colour + 1, NULL, 16);
	snprintf(out, len, "#%02x%02x%02x",
		 (unsigned)((rgb >> 16 & 255) + (255 - (rgb >> 16 & 255)) * mix),
		 (unsigned)((rgb >> 8 & 255) + (255 - (rgb >> 8 & 255)) * mix),
		 (unsigned)((rgb & 255) + (255 - (rgb & 255)) * mix));
}

static void box(struct flame *fl, const char *name, int depth, double x, uint64_t count)
{
	double w = (double)count * fl->px, y = fl->height - PAD - (depth + 1) * FRAME_H;
	size_t fit = (size_t)(w / (FONT * 0.6)), l = strlen(name);
	char col[16];

	colour_of(name, depth, col, sizeof(col));
	fprintf(fl->f, "<g><title>");
	xml(fl->f, name);
	fprintf(fl->f, " (%llu samples, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		       "height=\"%.1f\" fill=\"%s\" rx=\"2\"/>", (unsigned long long)count,
		100.0 * (double)count / (double)fl->total, x, y, w, FRAME_H - 1, col);
	if (fit >= 3) {
		char text[512];

		if (l > fit)
			snprintf(text, sizeof(text), "%.*s..", (int)(fit - 2), name);
		else
			snprintf(text, sizeof(text), "%s", name);
		fprintf(fl->f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
		xml(fl->f, text);
		fprintf(fl->f, "</text>");
	}
	fprintf(fl->f, "</g>\n");
}

/* Entries [lo, hi) share frames [0, depth): draw their frames at depth. */
static void draw(struct flame *fl, size_t lo, size_t hi, int depth, double x)
{
	size_t i = lo;

	while (i < hi) {
		size_t j = i;
		uint64_t sum = 0;

		if (fl->e[i].n <= depth) {
			x += (double)fl->e[i].count * fl->px;	/* ends below: its self part */
			i++;
			continue;
		}
		while (j < hi && fl->e[j].n > depth && !strcmp(fl->e[j].f[depth], fl->e[i].f[depth]))
			sum += fl->e[j++].count;
		if ((double)sum * fl->px >= MIN_PX && depth <= fl->depth) {
			box(fl, fl->e[i].f[depth], depth, x, sum);
			draw(fl, i, j, depth + 1, x);
		}
		x += (double)sum * fl->px;
		i = j;
	}
}

static int by_depth(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;

	return x->n - y->n;
}

/* The depth to draw: a few deep stacks (a compiler's recursion on the same
 * core) would make the picture mostly empty; frames past the depth that
 * covers 99% of the samples are cut, and the heading says so. */
static void depth_drawn(struct flame *fl)
{
	const struct entry **v = calloc(fl->n + 1, sizeof(*v));
	uint64_t seen = 0;

	if (!v)
		return;	/* draw everything */
	for (size_t i = 0; i < fl->n; i++)
		v[i] = &fl->e[i];
	qsort(v, fl->n, sizeof(*v), by_depth);
	for (size_t i = 0; i < fl->n; i++) {
		seen += v[i]->count;
		if ((double)seen >= 0.99 * (double)fl->total) {
			fl->depth = v[i]->n - 1;
			break;
		}
	}
	for (size_t i = 0; i < fl->n; i++)
		if (v[i]->n - 1 > fl->depth)
			fl->cut += v[i]->count;
	free(v);
}

static void legend(struct flame *fl, const char *title)
{
	double x = PAD;

	fprintf(fl->f, "<text x=\"%.1f\" y=\"20\" font-size=\"15\" font-weight=\"bold\">Flame graph: ",
		PAD);
	xml(fl->f, title);
	fprintf(fl->f, "</text>\n<text x=\"%.1f\" y=\"36\" fill=\"#444\">box width = share of "
		       "samples; callers below callees; hover a box for its name and share; "
		       "colour = bucket as a leaf", PAD);
	if (fl->cut)
		fprintf(fl->f, "; frames deeper than %d cut (in %.1f%% of samples)", fl->depth - 1,
			100.0 * (double)fl->cut / (double)fl->total);
	fprintf(fl->f, ":</text>\n");
	for (int b = 0; b < ZC_BUCKET_NR; b++) {
		fprintf(fl->f, "<rect x=\"%.1f\" y=\"43\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			       "<text x=\"%.1f\" y=\"53\">%s</text>\n", x, zc_buckets[b].colour,
			x + 15, zc_buckets[b].label);
		x += 22 + 6.2 * (double)strlen(zc_buckets[b].label);
	}
}

int zc_flamegraph_write(const struct zc_stacks *s, const char *title, FILE *f)
{
	struct flame fl = { .f = f, .total = s->total };
	const char *k;
	json_t *v;
	size_t i = 0;
	int ret = 0;

	fl.e = calloc(json_object_size(s->counts) + 1, sizeof(*fl.e));
	if (!fl.e)
		return -ENOMEM;
	json_object_foreach(s->counts, k, v) {
		char *copy = strdup(k);
		int n = 2;

		if (!copy) {
			ret = -ENOMEM;
			goto out;
		}
		for (const char *p = copy; *p; p++)
			n += *p == ';';
		fl.e[i].f = calloc((size_t)n, sizeof(char *));
		if (!fl.e[i].f) {
			free(copy);
			ret = -ENOMEM;
			goto out;
		}
		fl.e[i].f[0] = "all";
		fl.e[i].n = 1;
		for (char *p = copy; p; fl.e[i].n++) {
			fl.e[i].f[fl.e[i].n] = p;
			p = strchr(p, ';');
			if (p)
				*p++ = 0;
		}
		fl.e[i].count = (uint64_t)json_integer_value(v);
		if (fl.e[i].n - 1 > fl.depth)
			fl.depth = fl.e[i].n - 1;
		i++;
		fl.n = i;
	}
	qsort(fl.e, fl.n, sizeof(*fl.e), by_frames);
	depth_drawn(&fl);
	fl.px = fl.total ? (WIDTH - 2 * PAD) / (double)fl.total : 0;
	fl.height = TOP + (fl.depth + 1) * FRAME_H + 2 * PAD;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		   "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"%.0f\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		WIDTH, fl.height, WIDTH, fl.height, FONT);
	legend(&fl, title);
	if (fl.total)
		draw(&fl, 0, fl.n, 0, PAD);
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">no samples</text>\n", PAD, TOP + 20);
	fprintf(f, "</svg>\n");
	ret = ferror(f) ? -EIO : 0;
out:
	for (size_t j = 0; j < json_object_size(s->counts) && fl.e; j++) {
		if (fl.e[j].f)
			free(fl.e[j].f[1]);	/* the strdup'd line */
		free(fl.e[j].f);
	}
	free(fl.e);
	return ret;
}

int zc_flamegraph_file(const struct zc_stacks *s, const char *title, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -errno;
	ret = zc_flamegraph_write(s, title, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = zc_write_atomic(path, buf, len);
	free(buf);
	return ret;
}
