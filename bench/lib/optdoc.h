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

struct zc_doc {
	const char *version;
	const struct zc_doc_item *cmds;	/* every subcommand and its summary */
	size_t ncmds;
	const struct zc_doc_item *modes;	/* every mode and its role and summary */
	size_t nmodes;
	/* Run command i (of cmds) with --help. */
	void (*help)(size_t i);
	/* The words a row's value completes to, space separated, or NULL: by
	 * its type and name (choices, files, folders, nothing). */
	const char *(*values)(const struct zc_opt *o, char *buf, size_t len);
};

/* zcbench.1 in man(7) macros. */
void zc_doc_man(FILE *f, const struct zc_doc *d);
/* A bash completion script: subcommands, each one's flags, choices, modes,
 * files (workload .ini, results .json) and folders. */
void zc_doc_bash(FILE *f, const struct zc_doc *d);

#endif
