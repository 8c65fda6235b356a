/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options declared once. A table of rows (key, type, default, bounds, help,
 * and where the value lives in a struct) is all a command line, a workload
 * file, a host file or a role needs:
 *
 *   zc_opt_parse   one parser for every command's argv (--key=value,
 *                  --key value, bare --flag and --no-flag, positionals, --,
 *                  --help), with
 *                  the same messages everywhere: "command line: --key: why"
 *   zc_opt_store   one value from its text (INI files call it per key and
 *                  say file:line themselves)
 *   zc_opt_format  a value back as text (the role's argv), zc_opt_json as JSON
 *   zc_opt_help    --help and `zcbench keys`, from the same rows
 *
 * Why not popt or getopt_long: the same rows must also read INI files,
 * write results JSON and serialise the role's options; popt has no bounds,
 * sizes or INI, getopt_long only splits argv (and accepts abbreviations,
 * so a typo like --dur silently sets --duration).
 */
#ifndef ZC_OPT_H
#define ZC_OPT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum zc_opt_type {
	ZC_OPT_SIZE,	/* uint64_t: 4096, 64k, 1M, 1G */
	ZC_OPT_DOUBLE,	/* double */
	ZC_OPT_LONG,	/* long */
	ZC_OPT_INT,	/* int */
	ZC_OPT_BOOL,	/* bool, or int when size says so: yes/no on/off true/false 1/0;
			 * on a command line a bare --flag means yes */
	ZC_OPT_STR,	/* char[size], copied */
	ZC_OPT_TEXT,	/* const char *, pointing at the argv string: command lines only */
	ZC_OPT_TEXTS,	/* char *[size / sizeof(char *)] at off, int count at count_off:
			 * repeatable (or every positional left) */
	ZC_OPT_CHOICE,	/* int: index of the value in choices "a|b|c" */
	ZC_OPT_CUSTOM,	/* the row's parse and format */
};

#define ZC_OPT_LIST	0x01	/* comma list into list_off (count at count_off); the
				 * scalar at off gets the first element */
#define ZC_OPT_POS	0x02	/* positional argument; key is its name in --help */
#define ZC_OPT_REQ	0x04	/* must be given */
#define ZC_OPT_MULTI	0x08	/* TEXTS: --key A B C takes arguments up to the next --option */
#define ZC_OPT_REST	0x10	/* positional TEXTS: everything after "--" */
#define ZC_OPT_USER	0x100	/* flag bits from here up belong to the table's owner */

struct zc_opt {
	const char *key;	/* --key on a command line, key = in a file; '-' == '_' */
	enum zc_opt_type type;
	const char *def;	/* default as text, set before parsing; NULL: keep the caller's */
	double min, max;	/* numbers and list elements; TEXTS: count. 0, 0: unbounded */
	size_t off, size;	/* the value inside the table's struct */
	unsigned flags;
	const char *help;
	const char *meta;	/* the value's name in --help (FILE, DIR, S); default by type */
	const char *choices;	/* CHOICE: "a|b|c" */
	const char *plain;	/* STR/TEXT: not empty, only letters, digits and these */
	const char *what;	/* with plain: "an interface name", for "'x' is not <what>" */
	uint64_t multiple;	/* SIZE: must be a multiple of this */
	size_t list_off, list_size, count_off;	/* LIST elements; LIST and TEXTS count (int) */
	const char *names;	/* INT/LONG: named values, "auto=-1,off=0" */
	/* Optional: a further check of the text (after plain); 0 or -EINVAL, why set. */
	int (*check)(const char *v, char *why, size_t len);
	/* CUSTOM: set from text (0 or -EINVAL, why set); write as text (length). */
	int (*parse)(const struct zc_opt *o, void *base, const char *v, char *why, size_t len);
	int (*format)(const struct zc_opt *o, const void *base, char *buf, size_t len);
	long arg;		/* for parse/format: a role, ... */
};
/* A STR/TEXT row's fields for an absolute path, checked by zc_opt_abs_path. */
#define ZC_OPT_ABS_PATH .plain = "/._+-", .what = "an absolute path ([A-Za-z0-9/._+-])", \
	.check = zc_opt_abs_path, .meta = "PATH"
int zc_opt_abs_path(const char *v, char *why, size_t len);

/*
 * The one comma-list splitter (every LIST row, and every flag or key that
 * takes a list by hand): text copied into buf and cut there, items[] set.
 * Items are separated by commas; blanks around an item are dropped (and
 * separate items too, "4k 64k" as before). An empty item ("a,,b", ",a",
 * "a,") is an error, never skipped. Count (>= 1), or -EINVAL with why: an
 * empty list, an empty item (its place named), more than max items, a text
 * longer than buf.
 */
int zc_list_split(const char *text, char *buf, size_t buflen, char **items, int max, char *why,
		  size_t whylen);

/*
 * Durations and percents, as every row whose value's name (meta) is S
 * (seconds), MS (milliseconds; also a key ending in _ms) or PCT reads them:
 * "2", "2s", "500ms", "1.5m", "1h", "250us" (a bare number is the row's own
 * unit: seconds, or milliseconds on an MS row); "5" and "5%". 0 or -EINVAL.
 */
int zc_parse_duration(const char *v, double *seconds);
int zc_parse_percent(const char *v, double *pct);
/* A duration or percent row's text as the bare number it stores ("2s" ->
 * "2", "500ms" on an MS row -> "500", "5%" -> "5") in buf, *out pointing at
 * it; other rows' text is left as it is (*out = v). 0, or -EINVAL with why. */
int zc_opt_unit_text(const struct zc_opt *o, const char *v, char *buf, size_t buflen,
		     const char **out, char *why, size_t len);

/* Where a row's value lives: .off and .size of field in struct type. */
#define ZC_OPT_AT(type, field) \
	.off = offsetof(type, field), .size = sizeof(((type *)0)->field)
/* LIST rows: the element array and its int count. */
#define ZC_OPT_LIST_AT(type, array, count) \
	.list_off = offsetof(type, array), .list_size = sizeof(((type *)0)->array), \
	.count_off = offsetof(type, count)

/* The row named key ('-' and '_' alike; positionals never match), or NULL. */
const struct zc_opt *zc_opt_lookup(const struct zc_opt *opts, size_t n, const char *key);
/* Set row o of the struct at base from text v: 0, or -EINVAL with why (the
 * caller says where: file:line or command line). TEXT keeps the pointer. */
int zc_opt_store(const struct zc_opt *o, void *base, const char *v, char *why, size_t len);
/* Every row with a def gets it; the built-in defaults are checked by tests,
 * a bad one dies here naming the key. */
void zc_opt_defaults(const struct zc_opt *opts, size_t n, void *base);
/* The value as zc_opt_store reads it back (exactly, for numbers); "" for
 * none. Length, or -E2BIG. */
int zc_opt_format(const struct zc_opt *o, const void *base, char *buf, size_t len);
/* The value as JSON: numbers, strings, booleans; null for no value. */
json_t *zc_opt_json(const struct zc_opt *o, const void *base);
/*
 * "--key=value" for every row (positionals and TEXTS skipped), '_' written
 * as '-': a command line the same table parses back. Texts go into store;
 * count of argv entries, or -E2BIG.
 */
int zc_opt_argv(const struct zc_opt *opts, size_t n, const void *base, char **argv, int max,
		char *store, size_t storelen);

/* A row described as JSON (zcbench keys --json, schema in results/README.md):
 * key, flag (dash spelling), type, list, required, default (text), unit
 * ("bytes", "s", "ms", "%" or null), min/max (null: unbounded), choices,
 * help. */
json_t *zc_opt_row_json(const struct zc_opt *o);

/* --help: one line per row, its value's name, help, default and bounds.
 * as_flags: "--key VALUE" (command lines; a yes/no row is --key, or
 * --no-key when it defaults to yes), else "key = VALUE" (files). */
void zc_opt_help(FILE *f, const struct zc_opt *opts, size_t n, bool as_flags);

/* Text a person reads (a command's about, a list's lines) fitted to f's
 * terminal width: prose broken at spaces, an indented line ("  name   text")
 * hanging under its text. */
void zc_opt_put_text(FILE *f, const char *text);

/* A command line is one or more tables, each filling its own struct. */
struct zc_optgroup {
	const struct zc_opt *opts;
	size_t n;
	void *base;
	const char *title;	/* heading in --help; NULL: none */
	/* Optional: told of every value the command line set in this group
	 * (after it was stored). 0, or -EINVAL with why. */
	int (*seen)(void *user, const struct zc_opt *o, const char *v, char *why, size_t len);
	void *user;
};

/* A command's one table (an array, not a pointer) filling *basep. */
#define ZC_OPT_GROUP1(optv, basep) { .opts = (optv), .n = ZC_ARRAY_SIZE(optv), .base = (basep) }

struct zc_cmdline {
	const char *name;	/* "compare": usage line and "zcbench compare --help" */
	const char *about;	/* what the command does, printed under the usage line */
	const struct zc_optgroup *groups;
	size_t ngroups;
	const char *hint;	/* added to the unknown-option message, or NULL */
};

#define ZC_OPT_HELP 1
/*
 * Parse argv[1..argc) (argv[0] is the command): defaults first, then each
 * argument in order. 0; ZC_OPT_HELP when -h/--help printed the help on
 * stdout; -EINVAL with "command line: --key: why" in err.
 */
int zc_opt_parse(const struct zc_cmdline *c, int argc, char **argv, char *err, size_t errlen);
/* At a command's entry: parse, print the error. -1 to go on, or the exit
 * code to return (0 after --help, 2 on a bad command line). */
int zc_opt_main(const struct zc_cmdline *c, int argc, char **argv);
/* The whole --help of c on f. */
void zc_opt_usage(FILE *f, const struct zc_cmdline *c);
/* Its first line without "usage: " or a newline: "zcbench NAME --req X [--OPTION ...] [POS]". */
void zc_opt_synopsis(FILE *f, const struct zc_cmdline *c);
/* One row as --help shows it: the left column ("--key VALUE", "--[no-]key",
 * "key = VALUE", a positional's name) and the help with default, bounds. */
void zc_opt_row_text(const struct zc_opt *o, bool as_flags, char *left, size_t leftlen,
		     char *text, size_t textlen);
/*
 * When fn is set, -h/--help hands the command's table to it instead of
 * printing it (zc_opt_parse still returns ZC_OPT_HELP, so the command does
 * nothing else): the man page and the completion script are made from the
 * very tables each command parses with (lib/optdoc.h).
 */
struct zc_opt_help_hook {
	void (*fn)(const struct zc_cmdline *c, void *user);
	void *user;
};
extern struct zc_opt_help_hook zc_opt_help_hook;

#endif
