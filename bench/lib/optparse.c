// SPDX-License-Identifier: GPL-2.0
/* Command lines from option tables: --help, usage and the one argv parser (opt.h). */
#include "lib/opt.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool bounded(const struct zc_opt *o)
{
	return o->min != 0 || o->max != 0;
}

static void meta(const struct zc_opt *o, char *buf, size_t len)
{
	static const char *const by_type[] = {
		[ZC_OPT_SIZE] = "SIZE", [ZC_OPT_DOUBLE] = "NUM", [ZC_OPT_LONG] = "N",
		[ZC_OPT_INT] = "N", [ZC_OPT_BOOL] = "yes|no", [ZC_OPT_STR] = "TEXT",
		[ZC_OPT_TEXT] = "TEXT", [ZC_OPT_TEXTS] = "TEXT", [ZC_OPT_CHOICE] = "",
		[ZC_OPT_CUSTOM] = "VALUE",
	};
	const char *m = o->meta ? o->meta : o->type == ZC_OPT_CHOICE ? o->choices : by_type[o->type];
	int k = snprintf(buf, len, "%s", m);

	for (const char *p = o->names; p && *p && k > 0 && (size_t)k < len;) {
		const char *eq = strchrnul(p, '='), *end = strchrnul(p, ',');

		k += snprintf(buf + k, len - k, "|%.*s", (int)(eq - p), p);
		p = *end ? end + 1 : end;
	}
	if ((o->flags & ZC_OPT_LIST) && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - k, "[,%s...]", m);
}

static void bound_text(const struct zc_opt *o, double v, char *buf, size_t len)
{
	if (o->type == ZC_OPT_SIZE)
		zc_fmt_size((long long)v, buf, len);
	else
		snprintf(buf, len, o->type == ZC_OPT_DOUBLE ? "%g" : "%.0f", v);
}

void zc_opt_row_text(const struct zc_opt *o, bool as_flags, char *left, size_t leftlen,
		     char *text, size_t textlen)
{
	char m[96], def[128] = "", lo[32], hi[32];
	bool pos = o->flags & ZC_OPT_POS;
	const char *sep = " (";
	size_t k;

	meta(o, m, sizeof(m));
	if (pos)
		snprintf(left, leftlen, "%s%s", o->flags & ZC_OPT_REST ? "-- " : "", o->key);
	else if (as_flags && o->type == ZC_OPT_BOOL)
		snprintf(left, leftlen, "--%s%s", o->def && strcmp(o->def, "no") ? "[no-]" : "", o->key);
	else
		snprintf(left, leftlen, as_flags ? "--%s %s" : "%s = %s", o->key, m);
	/* Flags are spelled with dashes (the '_' spelling is still read, opt.c's
	 * key_eq); keys in files keep theirs. */
	for (char *c = left + 2; as_flags && !pos && *c && *c != ' '; c++)
		if (*c == '_')
			*c = '-';
#define ADD(...) (k += (k < textlen ? (size_t)snprintf(text + k, textlen - k, __VA_ARGS__) : 0))
	k = 0;
	text[0] = 0;
	ADD("%s", o->help);
	snprintf(def, sizeof(def), "%s", o->def ? o->def : "");
	if (o->type == ZC_OPT_BOOL && as_flags)
		def[0] = 0;	/* --flag / --no-flag says it */
	if (o->flags & ZC_OPT_REQ) {
		ADD("%srequired", sep);
		sep = "; ";
	} else if (def[0]) {
		ADD("%sdefault %s", sep, def);
		sep = "; ";
	}
	if (o->type == ZC_OPT_TEXTS && !pos) {
		ADD("%srepeatable", sep);
		sep = "; ";
	}
	if (bounded(o) && o->type != ZC_OPT_TEXTS) {
		bound_text(o, o->min, lo, sizeof(lo));
		bound_text(o, o->max, hi, sizeof(hi));
		ADD("%s%s..%s", sep, lo, hi);
		sep = "; ";
	}
	if (o->multiple) {
		zc_fmt_size((long long)o->multiple, lo, sizeof(lo));
		ADD("%sa multiple of %s", sep, lo);
		sep = "; ";
	}
	ADD("%s", sep[0] == ';' ? ")" : "");
#undef ADD
}

/* Where a help text starts, as argp puts it: past "  " and a 28 column left. */
#define HELP_COL 31

/* The terminal's width for f: stderr's for stderr, else stdout's (a
 * memstream's text is bound for stdout). */
static int width_of(FILE *f)
{
	return zc_term_width(f == stderr ? 2 : 1);
}

void zc_opt_help(FILE *f, const struct zc_opt *opts, size_t n, bool as_flags)
{
	int width = width_of(f);

	for (size_t i = 0; i < n; i++) {
		char left[96], text[2048], line[2200];

		zc_opt_row_text(&opts[i], as_flags, left, sizeof(left), text, sizeof(text));
		/* A left column past its width puts the help on a line of its own. */
		if ((int)strlen(left) > HELP_COL - 3)
			snprintf(line, sizeof(line), "  %s\n%*s%s", left, HELP_COL, "", text);
		else
			snprintf(line, sizeof(line), "  %-*s %s", HELP_COL - 3, left, text);
		zc_put_fitted(f, line, width, HELP_COL);
	}
}

void zc_opt_put_text(FILE *f, const char *text)
{
	int width = width_of(f);

	while (text && *text) {
		const char *nl = strchrnul(text, '\n'), *p = text;
		char line[4096];
		int indent = 0;
		size_t k;

		/* An indented line ("  csv   one row per sample ...") hangs under
		 * its text, past the name and the gap after it. */
		if (*p == ' ') {
			p += strspn(p, " ");
			p += strcspn(p, " \n");
			if (p[0] == ' ' && p[1] == ' ' && p < nl)
				indent = (int)(p + strspn(p, " ") - text);
			else
				indent = (int)strspn(text, " ") + 2;
		}
		k = (size_t)snprintf(line, sizeof(line), "%.*s", (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
		/* Lines indented to the hanging column continue it: one text to
		 * break again at this width. */
		while (indent && k < sizeof(line) && (int)strspn(text, " ") == indent &&
		       text[indent] && text[indent] != '\n') {
			nl = strchrnul(text, '\n');
			k += (size_t)snprintf(line + k, sizeof(line) - k, " %.*s",
					      (int)(nl - text - indent), text + indent);
			text = *nl ? nl + 1 : nl;
		}
		zc_put_fitted(f, line, width, indent);
	}
}

void zc_opt_synopsis(FILE *f, const struct zc_cmdline *c)
{
	bool any = false;

	fprintf(f, "zcbench %s", c->name);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			char m[96];

			if (o->flags & ZC_OPT_POS)
				continue;
			meta(o, m, sizeof(m));
			if (o->flags & ZC_OPT_REQ) {
				fprintf(f, " --");
				for (const char *k = o->key; *k; k++)
					fputc(*k == '_' ? '-' : *k, f);
				fprintf(f, " %s", m);
			}
			else
				any = true;
		}
	if (any)
		fprintf(f, " [--OPTION ...]");
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			bool many = o->type == ZC_OPT_TEXTS, req = (o->flags & ZC_OPT_REQ) || o->min >= 1;

			if (!(o->flags & ZC_OPT_POS))
				continue;
			fprintf(f, " %s%s%s%s%s", req ? "" : "[", o->flags & ZC_OPT_REST ? "-- " : "",
				o->key, many ? "..." : "", req ? "" : "]");
		}
}

void zc_opt_usage(FILE *f, const struct zc_cmdline *c)
{
	char *syn = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&syn, &len);

	if (m) {
		fprintf(m, "usage: ");
		zc_opt_synopsis(m, c);
		fclose(m);
		zc_put_fitted(f, syn, width_of(f), 8);
		free(syn);
	}
	zc_opt_put_text(f, c->about);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].title)
			fprintf(f, "%s\n", c->groups[g].title);
		zc_opt_help(f, c->groups[g].opts, c->groups[g].n, true);
	}
}

struct zc_opt_help_hook zc_opt_help_hook;

struct parse {
	const struct zc_cmdline *c;
	bool *seen;		/* per row of every group, in order */
	char *err;
	size_t errlen;
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
	int k = snprintf(p->err, p->errlen, "command line: ");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err + k, p->errlen - k, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Row number (over every group) of o. */
static size_t row_index(const struct zc_cmdline *c, const struct zc_optgroup *gr,
			const struct zc_opt *o)
{
	size_t idx = 0;

	for (const struct zc_optgroup *g = c->groups; g != gr; g++)
		idx += g->n;
	return idx + (size_t)(o - gr->opts);
}

static int set(struct parse *p, const struct zc_optgroup *g, const struct zc_opt *o,
	       const char *name, const char *v)
{
	char why[512];

	if (zc_opt_store(o, g->base, v, why, sizeof(why)) ||
	    (g->seen && g->seen(g->user, o, v, why, sizeof(why))))
		return fail(p, "%s: %s", name, why);
	p->seen[row_index(p->c, g, o)] = true;
	return 0;
}

/* The next positional row that takes v: after "--" the REST row, else the
 * first positional not yet given (a TEXTS row takes every one left). */
static int positional(struct parse *p, const char *v, bool rest)
{
	const struct zc_cmdline *c = p->c;
	bool has_rest = false;

	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++)
			has_rest |= !!(c->groups[g].opts[i].flags & ZC_OPT_REST);
	rest &= has_rest;	/* without a REST row, "--" only ends the options */
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];

			if (!(o->flags & ZC_OPT_POS) || rest != !!(o->flags & ZC_OPT_REST) ||
			    (o->type != ZC_OPT_TEXTS && p->seen[row_index(c, &c->groups[g], o)]))
				continue;
			return set(p, &c->groups[g], o, o->key, v);
		}
	return fail(p, "unexpected argument '%s' (zcbench %s --help)", v, c->name);
}

static int check_given(struct parse *p)
{
	const struct zc_cmdline *c = p->c;
	const struct zc_opt *missing[16];
	char list[512] = "";
	int nmiss = 0;
	size_t k = 0;

	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			bool pos = o->flags & ZC_OPT_POS;

			if (o->type == ZC_OPT_TEXTS && o->min >= 1) {
				int n = *(int *)((char *)c->groups[g].base + o->count_off);

				if (n < o->min)
					return fail(p, "%s%s: %d given, at least %.0f needed",
						    pos ? "" : "--", o->key, n, o->min);
			}
			if ((o->flags & ZC_OPT_REQ) && !p->seen[row_index(c, &c->groups[g], o)] &&
			    nmiss < (int)ZC_ARRAY_SIZE(missing))
				missing[nmiss++] = o;
		}
	if (!nmiss)
		return 0;
	/* "--a is", "--a and --b are", "--a, --b and --c are" */
	for (int i = 0; i < nmiss && k < sizeof(list); i++)
		k += snprintf(list + k, sizeof(list) - k, "%s%s%s",
			      !i ? "" : i == nmiss - 1 ? " and " : ", ",
			      missing[i]->flags & ZC_OPT_POS ? "" : "--", missing[i]->key);
	return fail(p, "%s %s required", list, nmiss > 1 ? "are" : "is");
}

/* The row for --key over every group, with its group. */
static const struct zc_opt *find(const struct zc_cmdline *c, const char *key,
				 const struct zc_optgroup **gr)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct zc_opt *o = zc_opt_lookup(c->groups[g].opts, c->groups[g].n, key);

		if (o) {
			*gr = &c->groups[g];
			return o;
		}
	}
	return NULL;
}

int zc_opt_parse(const struct zc_cmdline *c, int argc, char **argv, char *err, size_t errlen)
{
	struct parse p = { .c = c, .err = err, .errlen = errlen };
	size_t rows = 0;
	bool rest = false;
	int ret = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		zc_opt_defaults(c->groups[g].opts, c->groups[g].n, c->groups[g].base);
		rows += c->groups[g].n;
	}
	/* Arguments reach the results file (JSON strings are UTF-8): a byte that
	 * is not would vanish there, so it is refused here. */
	for (int i = 1; i < argc; i++) {
		long bad_at = zc_utf8_bad(argv[i], strlen(argv[i]));

		if (bad_at >= 0)
			return fail(&p, "argument %d is not UTF-8 (byte 0x%02x at offset %ld)", i,
				    (unsigned char)argv[i][bad_at], bad_at);
	}
	p.seen = calloc(rows + 1, sizeof(bool));
	if (!p.seen)
		return fail(&p, "out of memory");
	for (int i = 1; i < argc && !ret; i++) {
		const char *a = argv[i], *v, *eq;
		const struct zc_optgroup *g;
		const struct zc_opt *o;
		char key[64], name[80];

		if (!rest && !strcmp(a, "--")) {
			rest = true;
			continue;
		}
		if (!rest && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			if (zc_opt_help_hook.fn)
				zc_opt_help_hook.fn(c, zc_opt_help_hook.user);
			else
				zc_opt_usage(stdout, c);
			ret = ZC_OPT_HELP;
			break;
		}
		if (rest || a[0] != '-' || !a[1]) {
			ret = positional(&p, a, rest);
			continue;
		}
		if (a[1] != '-') {
			ret = fail(&p, "%s: unknown option (zcbench %s --help lists them)", a, c->name);
			break;
		}
		eq = strchr(a, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - a - 2 : (long)strlen(a + 2)), a + 2);
		snprintf(name, sizeof(name), "--%s", key);
		o = find(c, key, &g);
		v = NULL;
		/* --no-KEY: a yes/no option set to no */
		if (!o && !eq && (!strncmp(key, "no-", 3) || !strncmp(key, "no_", 3))) {
			o = find(c, key + 3, &g);
			if (o && o->type == ZC_OPT_BOOL)
				v = "no";
			else
				o = NULL;
		}
		if (!o) {
			ret = fail(&p, "%s: unknown option (zcbench %s --help lists them%s%s)", name,
				   c->name, c->hint ? "; " : "", c->hint ? c->hint : "");
			break;
		}
		if (v)
			;
		else if (eq)
			v = eq + 1;
		else if (o->type == ZC_OPT_BOOL)
			v = "yes";
		else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2))
			v = argv[++i];
		else if (i + 1 < argc && argv[i + 1][2]) {
			/* "--host --out DIR": a forgotten value, not a host named --out */
			ret = fail(&p, "%s: needs a value (%s is an option; %s=%s if that is the value)",
				   name, argv[i + 1], name, argv[i + 1]);
			break;
		} else if (i + 1 < argc)
			v = argv[++i];	/* "--" itself as a value */
		else {
			ret = fail(&p, "%s: needs a value", name);
			break;
		}
		ret = set(&p, g, o, name, v);
		/* --patches A B C: the values up to the next option */
		while (!ret && !eq && (o->flags & ZC_OPT_MULTI) && i + 1 < argc &&
		       strncmp(argv[i + 1], "--", 2))
			ret = set(&p, g, o, name, argv[++i]);
	}
	if (!ret)
		ret = check_given(&p);
	free(p.seen);
	return ret;
}

int zc_opt_main(const struct zc_cmdline *c, int argc, char **argv)
{
	char err[1024];
	int ret = zc_opt_parse(c, argc, argv, err, sizeof(err));

	if (ret == ZC_OPT_HELP)
		return ZC_EXIT_OK;
	if (ret) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	return -1;
}
