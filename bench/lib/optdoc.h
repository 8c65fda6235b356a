/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The manual page and the bash completion, made from the option tables
 * (neper's flags_parser_dump, for roff and bash): each command is run with
 * --help while zc_opt_help_hook hands its table here, so a flag added to a
 * table is in both the next time the build makes them, and neither can
 * drift from what the parser accepts.
 */
#ifndef ZC_OPTDOC_H
#define ZC_OPTDOC_H

#include "lib/opt.h"

#include <stdio.h>

struct zc_doc_item {
	const char *name;
	const char *text;	/* one line */
};

/* A table documented once in a section of its own (the workload keys, a
 * host file's keys): a command whose group is this table refers to it. */
struct zc_doc_table {
	const char *title;	/* "in [host]", "transport = netns: ..."; NULL: none */
	const struct zc_opt *opts;
	size_t n;
	bool as_flags;		/* --key VALUE, else key = VALUE */
};

struct zc_doc {
	const char *version;
	/* The workload keys: documented once under WORKLOAD KEYS, as flags
	 * (run and the roles take them) and keys of a workload file. */
	const struct zc_opt *workload;
	size_t nworkload;
	const struct zc_doc_table *host;	/* HOST FILE KEYS */
	size_t nhost;
	const struct zc_doc_item *mode_opts;	/* MODE OPTIONS: mode, "key = default ...: help" */
	size_t nmode_opts;
	const struct zc_doc_item *cmds;	/* every subcommand and its summary */
	size_t ncmds;
	const struct zc_doc_item *modes;	/* every mode and its role and summary */
	size_t nmodes;
	/* Run command i (of cmds) with --help. */
	void (*help)(size_t i);
	/* The words row o of command c completes to, space separated, or NULL:
	 * by its type and name (choices, files, folders, nothing). A word
	 * starting with '$' is a call of the script's helpers instead
	 * ("$_zcbench_runs": the [run NAME]s of the workload file given). */
	const char *(*values)(const struct zc_cmdline *c, const struct zc_opt *o, char *buf,
			      size_t len);
};

/* zcbench.1 in man(7) macros. */
void zc_doc_man(FILE *f, const struct zc_doc *d);
/* A bash completion script: subcommands, each one's flags, choices, modes,
 * files (workload .ini, results .json) and folders. */
void zc_doc_bash(FILE *f, const struct zc_doc *d);

#endif
