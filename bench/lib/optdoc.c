// SPDX-License-Identifier: GPL-2.0
/* The manual page and the bash completion from the option tables (optdoc.h). */
#include "lib/optdoc.h"
#include "lib/zcbench.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Text for roff: backslashes and hyphens escaped, a control character at a
 * line's start defused. */
static void roff(FILE *f, const char *s)
{
	for (bool bol = true; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

/* An about text: prose filled, indented lines (lists of layouts,
 * formats, patterns) kept as they are. */
static void roff_about(FILE *f, const char *about)
{
	bool verbatim = false;

	while (about && *about) {
		const char *nl = strchrnul(about, '\n');
		char line[1024];
		bool indented = *about == ' ';

		snprintf(line, sizeof(line), "%.*s", (int)(nl - about), about);
		if (indented != verbatim)
			fputs(indented ? ".nf\n" : ".fi\n", f);
		verbatim = indented;
		roff(f, line);
		fputc('\n', f);
		about = *nl ? nl + 1 : nl;
	}
	if (verbatim)
		fputs(".fi\n", f);
}

static void man_command(const struct zc_cmdline *c, void *user)
{
	FILE *f = user;

	fputs(".PP\n.B \"", f);
	{
		char *syn = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&syn, &len);

		if (m) {
			zc_opt_synopsis(m, c);
			fclose(m);
			for (char *p = syn; *p; p++)
				if (*p == '"')
					*p = '\'';
			roff(f, syn);
			free(syn);
		}
	}
	fputs("\"\n.br\n", f);
	roff_about(f, c->about);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].title) {
			fputs(".PP\n.I \"", f);
			roff(f, c->groups[g].title);
			fputs("\"\n", f);
		}
		for (size_t i = 0; i < c->groups[g].n; i++) {
			char left[96], text[2048];

			zc_opt_row_text(&c->groups[g].opts[i], true, left, sizeof(left), text,
					sizeof(text));
			fputs(".TP\n.B ", f);
			roff(f, left);
			fputc('\n', f);
			roff(f, text);
			fputc('\n', f);
		}
	}
}

/* A list of names, each with its text under it (.TP). */
static void man_items(FILE *f, const struct zc_doc_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs(".TP\n.B ", f);
		roff(f, v[i].name);
		fputc('\n', f);
		roff(f, v[i].text);
		fputc('\n', f);
	}
}

void zc_doc_man(FILE *f, const struct zc_doc *d)
{
	struct zc_opt_help_hook saved = zc_opt_help_hook;

	fprintf(f, ".\\\" Made by `zcbench man` from the option tables: edit those, not this.\n"
		   ".TH ZCBENCH 1 \"\" \"zcbench %s\" \"zcbench manual\"\n.nh\n.ad l\n", d->version);
	fputs(".SH NAME\nzcbench \\- what Linux zero\\-copy data paths are really worth, per core\n"
	      ".SH SYNOPSIS\n.B zcbench\n.I COMMAND\n[\\fIOPTION\\fR ...] [\\fIARGUMENT\\fR ...]\n"
	      ".br\n.B zcbench\n.I COMMAND\n.B \\-\\-help\n"
	      ".SH DESCRIPTION\nzcbench runs a source, a proxy and a sink, each pinned to its own "
	      "core, over a chosen data path (a \\fImode\\fR: send, splice, vmsplice, tee, sendfile, "
	      "io_uring ...), checks every byte the sink receives, and reports Gbit/s and Gbit/s per "
	      "busy core of the device under test, with the ratios between paths and their "
	      "intervals. Results go to a JSON file that the other commands read back.\n"
	      ".PP\nEvery command reads its flags from one table: \\fB\\-\\-KEY=VALUE\\fR and "
	      "\\fB\\-\\-KEY VALUE\\fR both work, a yes/no flag is \\fB\\-\\-KEY\\fR or "
	      "\\fB\\-\\-no\\-KEY\\fR, a bad flag is refused with \\(lqcommand line: \\-\\-KEY: "
	      "why\\(rq and exit 2. Every workload key is also a flag of \\fBrun\\fR.\n"
	      ".SH COMMANDS\n", f);
	man_items(f, d->cmds, d->ncmds);
	fputs(".SH OPTIONS\n", f);
	zc_opt_help_hook = (struct zc_opt_help_hook){ man_command, f };
	for (size_t i = 0; i < d->ncmds; i++) {
		fputs(".SS ", f);
		roff(f, d->cmds[i].name);
		fputc('\n', f);
		d->help(i);
	}
	zc_opt_help_hook = saved;
	fputs(".SH MODES\nThe data paths, for the workload keys \\fBsource\\fR, \\fBproxy\\fR and "
	      "\\fBsink\\fR (\\fBzcbench list\\fR says which are unavailable here, and why):\n", f);
	man_items(f, d->modes, d->nmodes);
	fputs(".SH EXIT STATUS\n0 success; 1 a run failed (or compare's gate found a regression); "
	      "2 bad input (the message names file:line and key, or the flag); 130 interrupted.\n"
	      ".SH FILES\n.TP\n.I workloads/*.ini\nthe runs and their keys (\\fBzcbench keys\\fR)\n"
	      ".TP\n.I hosts/*.ini\nwhere the roles run: loopback, network namespaces, ssh\n"
	      ".TP\n.I results/DATE\\-HOST\\-KERNEL.json\nthe results of a run, rewritten after "
	      "every sample\n.TP\n.I plots/*.gp\nthe gnuplot scripts of \\fBzcbench plot\\fR\n"
	      ".SH SEE ALSO\n.BR perf (1),\n.BR splice (2),\n.BR vmsplice (2),\n.BR tee (2),\n"
	      ".BR sendfile (2),\n.BR io_uring (7)\n", f);
}

/* How a row's value completes, as a call of the script's helpers. */
static void bash_value(FILE *f, const struct zc_doc *d, const struct zc_opt *o)
{
	const char *name = o->meta ? o->meta : o->key, *dot = strrchr(o->key, '.');
	char buf[2048];
	const char *words = d->values ? d->values(o, buf, sizeof(buf)) : NULL;

	if (!dot && o->meta)
		dot = strrchr(o->meta, '.');
	if (words) {
		fprintf(f, "_zcbench_words '%s'", words);
	} else if (o->type == ZC_OPT_CHOICE) {
		fputs("_zcbench_words '", f);
		for (const char *p = o->choices; *p; p++)
			fputc(*p == '|' ? ' ' : *p, f);
		fputc('\'', f);
	} else if (dot && isalpha((unsigned char)dot[1])) {
		fputs("_zcbench_files '", f);
		for (const char *p = dot; *p && (isalnum((unsigned char)*p) || *p == '.'); p++)
			fputc(*p, f);
		fputc('\'', f);
	} else if (!strcmp(name, "DIR")) {
		fputs("_zcbench_dirs", f);
	} else if (strstr(name, "FILE") || !strcmp(name, "PATH") || !strcmp(name, "BZIMAGE") ||
		   !strcmp(name, "PROGRAM")) {
		fputs("_zcbench_files ''", f);
	} else {
		fputs(":", f);	/* a number, a name: nothing to offer */
	}
}

struct bash_ctx {
	FILE *f;
	const struct zc_doc *d;
};

static void bash_command(const struct zc_cmdline *c, void *user)
{
	struct bash_ctx *x = user;
	FILE *f = x->f;
	const struct zc_opt *pos = NULL;

	fputs("\t\tflags='", f);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];

			if (o->flags & ZC_OPT_POS)
				continue;
			fprintf(f, " --%s", o->key);
			if (o->type == ZC_OPT_BOOL)
				fprintf(f, " --no-%s", o->key);
		}
	fputs(" --help'\n\t\tcase $prev in\n", f);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];

			if (o->flags & ZC_OPT_POS) {
				if (!pos && !(o->flags & ZC_OPT_REST))
					pos = o;
				continue;
			}
			if (o->type == ZC_OPT_BOOL)
				continue;
			fprintf(f, "\t\t--%s) ", o->key);
			bash_value(f, x->d, o);
			fputs("; return ;;\n", f);
		}
	fputs("\t\tesac\n\t\tpos=\"", f);
	if (pos)
		bash_value(f, x->d, pos);
	else
		fputs(":", f);
	fputs("\" ;;\n", f);
}

void zc_doc_bash(FILE *f, const struct zc_doc *d)
{
	struct zc_opt_help_hook saved = zc_opt_help_hook;
	struct bash_ctx x = { f, d };

	fprintf(f, "# bash completion for zcbench %s\n"
		   "# Made by `zcbench completion bash` from the option tables: edit those, not this.\n"
		   "_zcbench_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n"
		   "_zcbench_files() {\n"
		   "\tlocal IFS=$'\\n'\n"
		   "\tcompopt -o filenames 2>/dev/null\n"
		   "\tif [ -n \"$1\" ]; then\n"
		   "\t\tCOMPREPLY=($(compgen -f -X \"!*$1\" -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
		   "\telse\n"
		   "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		   "\tfi\n"
		   "}\n"
		   "_zcbench_dirs() {\n"
		   "\tlocal IFS=$'\\n'\n"
		   "\tcompopt -o filenames 2>/dev/null\n"
		   "\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
		   "}\n"
		   "_zcbench() {\n"
		   "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} flags pos\n"
		   "\tCOMPREPLY=()\n"
		   "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		   "\t\t_zcbench_words '", d->version);
	for (size_t i = 0; i < d->ncmds; i++)
		fprintf(f, "%s%s", i ? " " : "", d->cmds[i].name);
	fputs("'\n\t\treturn\n\tfi\n"
	      "\t# --KEY=VALUE: complete the value as after --KEY (bash splits at '=' by\n"
	      "\t# COMP_WORDBREAKS: --KEY, =, VALUE; else one word)\n"
	      "\tif [[ $cur == --*=* ]]; then\n\t\tprev=${cur%%=*}\n\t\tcur=${cur#*=}\n"
	      "\telif [ \"$cur\" = = ]; then\n\t\tcur=\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -ge 3 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n\tfi\n"
	      "\tcase ${COMP_WORDS[1]} in\n", f);
	zc_opt_help_hook = (struct zc_opt_help_hook){ bash_command, &x };
	for (size_t i = 0; i < d->ncmds; i++) {
		fprintf(f, "\t%s)\n", d->cmds[i].name);
		d->help(i);
	}
	zc_opt_help_hook = saved;
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n\t\t_zcbench_words \"$flags\"\n\telse\n\t\teval \"$pos\"\n\tfi\n"
	      "}\ncomplete -F _zcbench zcbench\n", f);
}
