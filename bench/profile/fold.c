// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks, the one format every backend ends in and every reader
 * starts from (summary, flame graph, plots): "comm-pid;outer;...;leaf COUNT"
 * per line, as Brendan Gregg's stackcollapse-perf.pl writes them with its
 * --pid option (a DUT's neighbour of the same name stays apart), kernel
 * frames marked "_[k]" as its --kernel option does. A jansson object keyed
 * by the stack text does the counting.
 */
#include "profile/profile.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int zc_stacks_init(struct zc_stacks *s)
{
	s->total = 0;
	s->counts = json_object();
	return s->counts ? 0 : -ENOMEM;
}

void zc_stacks_free(struct zc_stacks *s)
{
	json_decref(s->counts);
	s->counts = NULL;
	s->total = 0;
}

int zc_stacks_add(struct zc_stacks *s, const char *stack, uint64_t n)
{
	json_t *v = json_object_get(s->counts, stack);

	if (v) {
		json_integer_set(v, json_integer_value(v) + (json_int_t)n);
	} else if (json_object_set_new(s->counts, stack, json_integer((json_int_t)n))) {
		return -ENOMEM;
	}
	s->total += n;
	return 0;
}

int zc_stacks_read(struct zc_stacks *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		char *sp, *end;
		unsigned long long n;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		sp = strrchr(line, ' ');
		if (!len || line[0] == '#')
			continue;
		if (!sp || sp == line) {
			ret = -EPROTO;
			break;
		}
		errno = 0;
		n = strtoull(sp + 1, &end, 10);
		if (errno || *end || end == sp + 1) {
			ret = -EPROTO;
			break;
		}
		*sp = 0;
		ret = zc_stacks_add(s, line, n);
	}
	free(line);
	fclose(f);
	return ret;
}

int zc_stacks_write(const struct zc_stacks *s, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	const char *k;
	json_t *v;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -errno;
	json_object_foreach(s->counts, k, v)
		fprintf(f, "%s %" PRId64 "\n", k, (int64_t)json_integer_value(v));
	if (fclose(f))
		return -errno;
	ret = zc_write_atomic(path, buf, len);
	free(buf);
	return ret;
}

/* A frame as the folded format can carry it: no ';' (the separator), and
 * a name where perf had none ("[libc.so.6]", stackcollapse-perf's way). */
static void frame_name(char *out, size_t len, const char *sym, const char *dso, bool kernel)
{
	const char *base = strrchr(dso, '/');

	if (!*sym || !strcmp(sym, "[unknown]")) {
		base = base ? base + 1 : dso;
		if (*base == '[' || !*base)
			snprintf(out, len, "%s", *base ? base : "[unknown]");
		else
			snprintf(out, len, "[%s]", base);
	} else {
		snprintf(out, len, "%s", sym);
	}
	for (char *p = out; *p; p++)
		if (*p == ';')
			*p = ':';
	if (kernel && strlen(out) + 5 <= len)
		strcat(out, "_[k]");
}

/* One frame line "    ffffffff81badf3d _copy_to_iter ([kernel.kallsyms])". */
static int parse_frame(char *line, char *out, size_t len)
{
	char *p = line, *end, *sym, *dso = "";
	unsigned long long ip;

	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	ip = strtoull(p, &end, 16);
	if (errno || end == p || (*end != ' ' && *end))
		return -EPROTO;
	sym = end;
	while (*sym == ' ')
		sym++;
	/* The DSO is the last "(...)"; a symbol may hold parentheses itself. */
	end = sym + strlen(sym);
	while (end > sym && end[-1] == ' ')
		*--end = 0;
	if (end > sym && end[-1] == ')') {
		char *open = strrchr(sym, '(');

		if (open) {
			end[-1] = 0;
			dso = open + 1;
			*open = 0;
			for (char *q = open; q > sym && q[-1] == ' ';)
				*--q = 0;
		}
	}
	/* Kernel text lives in the upper half of the address space. */
	frame_name(out, len, sym, dso, ip >= 0x8000000000000000ULL);
	return 0;
}

/* Header "comm  PID/TID": "comm-PID" (spaces in comm made '_'), 0 or -EPROTO. */
static int parse_head(char *line, char *comm, size_t len)
{
	char *end = line + strlen(line), *sp;
	long pid;

	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = 0;
	sp = strrchr(line, ' ');
	if (!sp || !strchr(sp, '/'))
		return -EPROTO;
	pid = strtol(sp + 1, NULL, 10);
	while (sp > line && sp[-1] == ' ')
		sp--;
	*sp = 0;
	snprintf(comm, len, "%s-%ld", *line ? line : "[unknown]", pid);
	for (char *p = comm; *p; p++)
		if (*p == ';' || *p == ' ')
			*p = *p == ';' ? ':' : '_';
	return 0;
}

#define FRAMES_MAX 256
#define FRAME_LEN 256

/* The stack collected so far (leaf first) as one folded line, root first. */
static int flush(struct zc_stacks *s, const char *comm, char (*frames)[FRAME_LEN], int n)
{
	size_t cap = strlen(comm) + 1 + (size_t)n * FRAME_LEN, o;
	char *line = malloc(cap);
	int ret;

	if (!line)
		return -ENOMEM;
	o = snprintf(line, cap, "%s", comm);
	for (int i = n - 1; i >= 0; i--)
		o += snprintf(line + o, cap - o, ";%s", frames[i]);
	ret = zc_stacks_add(s, line, 1);
	free(line);
	return ret;
}

int zc_stacks_from_perf_script(struct zc_stacks *s, FILE *in)
{
	static char frames[FRAMES_MAX][FRAME_LEN];
	char comm[128] = "", *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0, ret = 0;
	bool in_sample = false, any = false;

	while (!ret && (len = getline(&line, &cap, in)) >= 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len) {
			if (in_sample)
				ret = flush(s, comm, frames, n);
			in_sample = false;
			n = 0;
			continue;
		}
		if (line[0] != ' ' && line[0] != '\t') {
			if (in_sample && (ret = flush(s, comm, frames, n)))
				break;
			/* Not a sample's head (a warning perf printed): skipped. */
			in_sample = parse_head(line, comm, sizeof(comm)) == 0;
			any |= in_sample;
			n = 0;
			continue;
		}
		if (!in_sample)
			continue;
		if (n < FRAMES_MAX && parse_frame(line, frames[n], FRAME_LEN) == 0)
			n++;
	}
	if (!ret && in_sample)
		ret = flush(s, comm, frames, n);
	free(line);
	if (!ret && ferror(in))
		ret = -EIO;
	else if (!ret && !any && s->total == 0)
		ret = -ENODATA;
	return ret;
}
