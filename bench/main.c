// SPDX-License-Identifier: GPL-2.0
/* zcbench: what Linux zero-copy data paths are really worth. */
#include "lib/zcbench.h"
#include "lib/optdoc.h"
#include "lib/term.h"
#include "config/cfg.h"
#include "guest/guest.h"
#include "commands.h"
#include "modes/mode.h"
#include "probe/probe.h"
#include "profile/profile.h"
#include "wire/wire.h"
#include "run/run.h"
#include "compare/compare.h"
#include "export/export.h"
#include "report/report.h"
#include "report/scale.h"
#include "compare/trend.h"
#include "transport/host.h"

#include <stdlib.h>
#include <string.h>

int zc_cmd_list(int argc, char **argv);
int zc_cmd_keys(int argc, char **argv);
int zc_cmd_man(int argc, char **argv);
int zc_cmd_completion(int argc, char **argv);

struct zc_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

#define ZC_CMD_ROW(name, fn, summary) { name, fn, summary },
static const struct zc_command commands[] = { ZC_COMMANDS(ZC_CMD_ROW) };
#undef ZC_CMD_ROW

/* What fn prints, as a string (free it). */
static char *printed(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		zc_die("out of memory");
	fn(m, arg);
	if (fclose(m))
		zc_die("out of memory");
	return buf;
}

/* What fn prints, fitted to the terminal (zc_opt_put_text). */
static void put_fitted(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *buf = printed(fn, arg);

	zc_opt_put_text(stdout, buf);
	free(buf);
}

static int put_json(json_t *j)
{
	int rc = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ? ZC_EXIT_FAIL : 0;

	json_decref(j);
	printf("\n");
	return rc;
}

/* zcbench list fitted to the terminal: a mode's own line is cut (with ~)
 * rather than wrapped, so that "unavailable: why" stays right under it
 * (scripts read it with grep -A1); the lines under it wrap. The whole
 * summary: list --json, or the man page's MODES. */
static void list_fitted(void)
{
	char *buf = NULL, *line, *nl;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int width = zc_term_width(1);

	if (!m)
		zc_die("out of memory");
	zc_modes_list(m, true);
	fclose(m);
	for (line = buf; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		if (!*line) {
			printf("\n");
		} else if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
			char cut[1024];

			zc_elide(cut, sizeof(cut), line, width);
			printf("%s\n", cut);
		} else {
			zc_opt_put_text(stdout, line);
		}
	}
	free(buf);
}

int zc_cmd_list(int argc, char **argv)
{
	struct { bool json, names; } a;
	const struct zc_opt opts[] = {
		{ "json", ZC_OPT_BOOL, "no", ZC_OPT_AT(typeof(a), json),
		  .help = "every mode as JSON (results/README.md has the schema)" },
		{ "names", ZC_OPT_BOOL, "no", ZC_OPT_AT(typeof(a), names),
		  .help = "the mode names only, one a line (what the completion offers)" },
	};
	const struct zc_optgroup groups[] = { ZC_OPT_GROUP1(opts, &a) };
	const struct zc_cmdline cmd = {
		.name = "list",
		.about = "Every mode by role, with why one is unavailable on this kernel or build.\n",
		.groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	if (a.json)
		return put_json(json_pack("{s:s,s:s,s:o}", "schema", "zcbench-list", "schema_version",
					"1.0", "modes", zc_modes_json(true)));
	if (a.names) {
		for (size_t i = 0; i < zc_nmodes; i++)
			printf("%s\n", zc_modes[i]->name);
		return 0;
	}
	list_fitted();
	return 0;
}

static void mode_opts_help(FILE *f, void *arg)
{
	(void)arg;
	zc_mode_opts_help(f);
}

static void host_keys_help(FILE *f, void *arg)
{
	(void)arg;
	zc_host_keys_help(f);
}

static json_t *keys_json(void)
{
	json_t *w = json_array(), *m = json_array();

	for (size_t i = 0; i < zc_nopts; i++) {
		json_t *j = zc_opt_row_json(&zc_opts[i]);

		json_object_set_new(j, "sections", json_pack("[s,s]", "workload", "run NAME"));
		json_array_append_new(w, j);
	}
	for (size_t i = 0; i < zc_nmodes; i++)
		for (const struct zc_mode_opt *o = zc_modes[i]->opts; o && o->key; o++) {
			json_t *j = zc_mode_opt_json(o);

			json_object_set_new(j, "mode", json_string(zc_modes[i]->name));
			json_array_append_new(m, j);
		}
	return json_pack("{s:s,s:s,s:o,s:o,s:o}", "schema", "zcbench-keys", "schema_version", "1.0",
			 "workload_keys", w, "mode_options", m,
			 "host_keys", zc_host_keys_json());
}

int zc_cmd_keys(int argc, char **argv)
{
	struct { bool json; } a;
	const struct zc_opt opts[] = {
		{ "json", ZC_OPT_BOOL, "no", ZC_OPT_AT(typeof(a), json),
		  .help = "every key as JSON (results/README.md has the schema)" },
	};
	const struct zc_optgroup groups[] = { ZC_OPT_GROUP1(opts, &a) };
	const struct zc_cmdline cmd = {
		.name = "keys",
		.about = "Every workload key (also a zcbench run flag), mode option and host file key,\n"
			 "with default, bounds and help.\n",
		.groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	if (a.json)
		return put_json(keys_json());
	zc_opt_put_text(stdout, "workload keys ([workload] and [run NAME] sections; "
				"zcbench run --KEY=VALUE; durations in s take 2s, 500ms, 1m; "
				"percents take 5 or 5%):\n");
	zc_opt_help(stdout, zc_opts, zc_nopts, true);
	put_fitted(mode_opts_help, NULL);
	printf("\n");
	put_fitted(host_keys_help, NULL);
	return 0;
}

/* --- the manual page and the completion, from the tables (lib/optdoc.h) --- */

static void command_help(size_t i)
{
	char prog[] = "zcbench", name[32], help[] = "--help";
	char *argv[] = { prog, name, help, NULL };

	snprintf(name, sizeof(name), "%s", commands[i].name);
	/* Roles see their own name in argv[1], as in main. */
	if (commands[i].fn == zc_role_main)
		zc_role_main(3, argv);
	else
		commands[i].fn(2, argv + 1);
}

/* What a value completes to, beyond a row's choices and files: a mode flag
 * (--source, --proxy, --sink, a role's --mode) the modes of its role, or
 * every mode; export's formats and compare's layouts; run's --only the runs
 * of the workload file (a helper of the script). */
static const char *complete_values(const struct zc_cmdline *c, const struct zc_opt *o, char *buf,
				   size_t len)
{
	int role = zc_role_from_name(o->key);
	size_t k = 0;

	buf[0] = 0;
	if (!strcmp(o->key, "only") && (!strcmp(c->name, "run") || !strcmp(c->name, "noise")))
		return "$_zcbench_runs";
	if (!strcmp(c->name, "export") && !strcmp(o->key, "format")) {
		for (size_t i = 0; i < zc_nexport_formats && k < len; i++)
			k += snprintf(buf + k, len - k, "%s%s", k ? " " : "", zc_export_formats[i]->name);
		return buf;
	}
	if (!strcmp(c->name, "compare") && (!strcmp(o->key, "format") || !strcmp(o->key, "layout"))) {
		for (size_t i = 0; i < zc_ncompare_layouts && k < len; i++)
			k += snprintf(buf + k, len - k, "%s%s", k ? " " : "",
				      zc_compare_layouts[i]->name);
		return buf;
	}
	if (!o->meta || strcmp(o->meta, "MODE"))
		return NULL;
	buf[0] = 0;
	for (size_t i = 0; i < zc_nmodes && k < len; i++)
		if (role < 0 || zc_modes[i]->role == (enum zc_role)role)
			k += snprintf(buf + k, len - k, "%s%s", k ? " " : "", zc_modes[i]->name);
	return buf;
}

/* The host file keys as the man page's tables: per transport (every host
 * file's first), the rows of each place they may be in. */
static struct zc_doc_table *host_tables(size_t *ntab, char (**titles)[160])
{
	static const struct { unsigned flags; const char *where; } where[] = {
		{ ZC_HOST_KEY, "in [host]" },
		{ ZC_HOST_KEY | ZC_ROLE_KEY, "in [host] (every role) or [source], [proxy], [sink]" },
		{ ZC_ROLE_KEY, "in [source], [proxy], [sink]" },
	};
	struct zc_doc_table *t = NULL;
	const char *tr, *sum;
	size_t n, k = 0;
	const struct zc_opt *opts;

	for (size_t i = 0; !zc_host_key_table(i, &opts, &n, &tr, &sum); i++) {
		for (size_t w = 0; w < ZC_ARRAY_SIZE(where); w++) {
			struct zc_opt *rows = calloc(n ? n : 1, sizeof(*rows));
			size_t m = 0;

			if (!rows)
				zc_die("out of memory");

			for (size_t r = 0; r < n; r++)
				if ((opts[r].flags & (ZC_HOST_KEY | ZC_ROLE_KEY)) == where[w].flags)
					rows[m++] = opts[r];
			if (!m) {
				free(rows);
				continue;
			}
			t = realloc(t, (k + 1) * sizeof(*t));
			*titles = realloc(*titles, (k + 1) * sizeof(**titles));
			if (!t || !*titles)
				zc_die("out of memory");
			if (tr)
				snprintf((*titles)[k], sizeof((*titles)[k]), "transport = %s (%s), %s",
					 tr, sum, where[w].where);
			else
				snprintf((*titles)[k], sizeof((*titles)[k]), "every host file, %s",
					 where[w].where);
			t[k] = (struct zc_doc_table){ NULL, rows, m, false };
			k++;
		}
	}
	for (size_t i = 0; i < k; i++)
		t[i].title = (*titles)[i];
	*ntab = k;
	return t;
}

static void print_mode_opt(FILE *f, void *o)
{
	zc_mode_opt_print(f, o);
}

/* Every mode option as a line "key = default (type, bounds): help" under its mode. */
static struct zc_doc_item *mode_opt_items(size_t *n, char ***texts)
{
	struct zc_doc_item *v = NULL;
	size_t k = 0;

	for (size_t i = 0; i < zc_nmodes; i++)
		for (const struct zc_mode_opt *o = zc_modes[i]->opts; o && o->key; o++) {
			char *buf = printed(print_mode_opt, (void *)o);

			buf[strcspn(buf, "\n")] = 0;
			v = realloc(v, (k + 1) * sizeof(*v));
			*texts = realloc(*texts, (k + 1) * sizeof(**texts));
			if (!v || !*texts)
				zc_die("out of memory");
			(*texts)[k] = buf;
			v[k++] = (struct zc_doc_item){ zc_modes[i]->name, buf };
		}
	*n = k;
	return v;
}

static void doc(bool man)
{
	struct zc_doc_item cmds[ZC_ARRAY_SIZE(commands)], *modes;
	char (*mode_text)[400] = calloc(zc_nmodes, sizeof(*mode_text)), (*titles)[160] = NULL;
	char **opt_texts = NULL;
	struct zc_doc d = {
		.version = ZC_VERSION, .cmds = cmds, .ncmds = ZC_ARRAY_SIZE(commands),
		.nmodes = zc_nmodes, .help = command_help, .values = complete_values,
		.workload = zc_opts, .nworkload = zc_nopts,
	};
	struct zc_doc_table *host = host_tables(&d.nhost, &titles);
	struct zc_doc_item *mopts = mode_opt_items(&d.nmode_opts, &opt_texts);

	d.host = host;
	d.mode_opts = mopts;
	modes = calloc(zc_nmodes, sizeof(*modes));
	if (!modes || !mode_text)
		zc_die("out of memory");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(commands); i++)
		cmds[i] = (struct zc_doc_item){ commands[i].name, commands[i].summary };
	for (size_t i = 0; i < zc_nmodes; i++) {
		char unused[160];

		snprintf(mode_text[i], sizeof(mode_text[i]), "%s: %s%s%s",
			 zc_role_names[zc_modes[i]->role], zc_modes[i]->summary,
			 *zc_mode_unused(zc_modes[i], unused, sizeof(unused)) ? "; " : "", unused);
		modes[i] = (struct zc_doc_item){ zc_modes[i]->name, mode_text[i] };
	}
	d.modes = modes;
	if (man)
		zc_doc_man(stdout, &d);
	else
		zc_doc_bash(stdout, &d);
	for (size_t i = 0; i < d.nhost; i++)
		free((void *)host[i].opts);
	for (size_t i = 0; i < d.nmode_opts; i++)
		free(opt_texts[i]);
	free(opt_texts);
	free(mopts);
	free(host);
	free(titles);
	free(modes);
	free(mode_text);
}

int zc_cmd_man(int argc, char **argv)
{
	const struct zc_cmdline cmd = {
		.name = "man",
		.about = "The manual page in man(7) roff, made from every command's option table and\n"
			 "the mode list (make builds build/zcbench.1 with it): zcbench man | man -l -\n",
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	doc(true);
	return 0;
}

int zc_cmd_completion(int argc, char **argv)
{
	struct { int shell; } a;
	const struct zc_opt opts[] = {
		{ "SHELL", ZC_OPT_CHOICE, NULL, ZC_OPT_AT(typeof(a), shell), ZC_OPT_POS | ZC_OPT_REQ,
		  .choices = "bash", .help = "the shell the script is for" },
	};
	const struct zc_optgroup groups[] = { { .opts = opts, .n = ZC_ARRAY_SIZE(opts), .base = &a } };
	const struct zc_cmdline cmd = {
		.name = "completion",
		.about = "A completion script for subcommands, flags, choices, modes and workload and\n"
			 "results files, made from the same tables (make builds\n"
			 "build/zcbench.bash-completion): source <(zcbench completion bash)\n",
		.groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	doc(false);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "zcbench %s (%s%s): measure Linux zero-copy data paths\n\n"
		   "usage: zcbench COMMAND [ARGS]\n\n", ZC_VERSION, ZC_GIT_SHA,
		ZC_GIT_DIRTY ? "-dirty" : "");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nzcbench COMMAND --help (or zcbench help COMMAND) for a command's options.\n");
}

int main(int argc, char **argv)
{
	/* zcbench help CMD is zcbench CMD --help. */
	if (argc > 3 && !strcmp(argv[1], "help")) {
		zc_err("command line: help takes one command (zcbench help COMMAND)");
		return ZC_EXIT_USAGE;
	}
	if (argc == 3 && !strcmp(argv[1], "help")) {
		char help[] = "--help";
		char *hargv[] = { argv[0], argv[2], help, NULL };

		return main(3, hargv);
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? ZC_EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("zcbench %s %s%s\n", ZC_VERSION, ZC_GIT_SHA, ZC_GIT_DIRTY ? "-dirty" : "");
		return 0;
	}
	for (size_t i = 0; i < ZC_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* Roles see their own name in argv[1]; commands get argv from it. */
		if (commands[i].fn == zc_role_main)
			return zc_role_main(argc, argv);
		return commands[i].fn(argc - 1, argv + 1);
	}
	zc_err("unknown command '%s' (zcbench --help lists them)", argv[1]);
	return ZC_EXIT_USAGE;
}
