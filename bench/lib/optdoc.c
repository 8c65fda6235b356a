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

/* An about text: prose filled; an indented "NAME  text" line (lists of
 * layouts, formats, patterns) a tagged paragraph, so man wraps its text to
 * the reader's width; any other indented line kept as it is. */
static void roff_about(FILE *f, const char *about)
{
	bool verbatim = false;

	while (about && *about) {
		const char *nl = strchrnul(about, '\n');
		char line[1024];
		bool indented = *about == ' ';
		char *name, *gap = NULL;

		snprintf(line, sizeof(line), "%.*s", (int)(nl - about), about);
		name = line + strspn(line, " ");
		if (indented && *name)
			gap = strstr(name, "  ");
		if (gap && gap[strspn(gap, " ")]) {
			if (verbatim)
				fputs(".fi\n", f);
			verbatim = false;
			*gap = 0;
			fputs(".TP\n.B ", f);
			roff(f, name);
			fputc('\n', f);
			roff(f, gap + 1 + strspn(gap + 1, " "));
			fputs("\n.PP\n", f);
		} else {
			if (indented != verbatim)
				fputs(indented ? ".nf\n" : ".fi\n", f);
			verbatim = indented;
			roff(f, line);
			fputc('\n', f);
		}
		about = *nl ? nl + 1 : nl;
	}
	if (verbatim)
		fputs(".fi\n", f);
}

struct man_ctx {
	FILE *f;
	const struct zc_doc *d;
};

/* Rows as .TP items: the left column in bold, the help under it. */
static void man_rows(FILE *f, const struct zc_opt *opts, size_t n, bool as_flags)
{
	for (size_t i = 0; i < n; i++) {
		char left[96], text[2048];

		zc_opt_row_text(&opts[i], as_flags, left, sizeof(left), text, sizeof(text));
		fputs(".TP\n.B ", f);
		roff(f, left);
		fputc('\n', f);
		roff(f, text);
		fputc('\n', f);
	}
}

static void man_command(const struct zc_cmdline *c, void *user)
{
	struct man_ctx *x = user;
	FILE *f = x->f;

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
		/* The workload keys once, under WORKLOAD KEYS. */
		if (x->d->workload && c->groups[g].opts == x->d->workload) {
			fputs(".PP\nEvery workload key, as a flag: see \\fBWORKLOAD KEYS\\fR.\n", f);
			continue;
		}
		man_rows(f, c->groups[g].opts, c->groups[g].n, true);
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

/* The README's tour: what a new user types, in order. */
static const char *const examples[][2] = {
	{ "make bench", "install what is missing, build zcbench, this page and the completion, and "
			"run workloads/default.ini on loopback (about 2 minutes)" },
	{ "zcbench list", "every mode, its headline ratio and options, and why one is unavailable "
			  "here" },
	{ "zcbench keys", "every workload key (each also a flag of run), mode option and host "
			  "file key" },
	{ "zcbench run workloads/default.ini --duration 2s --chunk 4k,64k",
	  "measure; the results file goes to results/DATE-HOST-KERNEL.json" },
	{ "zcbench run --host hosts/netns.ini --only proxy-splice --only proxy-copy",
	  "the roles in network namespaces, two of the file's runs" },
	{ "zcbench report results/FILE.json", "headline ratios with their intervals and answers, "
					      "profile buckets, the kernel fingerprint" },
	{ "zcbench report --mail FILE.json [BASE.json]", "the same in 72 columns for a mail" },
	{ "zcbench compare BASE.json NEW.json --fail-on-regression 5%",
	  "A/B table and the gate: exit 0 within 5% or better, 1 a regression, 3 can't tell" },
	{ "zcbench noise workloads/default.ini", "A/A runs: the noise floors compare judges by" },
	{ "zcbench trend --fail-on-regression 5% nights/", "a series of nights: change points, "
								"what changed, a nightly gate" },
	{ "zcbench export --format prometheus FILE.json", "results in other tools' formats "
							    "(export --help lists them)" },
	{ "zcbench plot --out plots/out FILE.json", "pictures and the dashboard "
						      "plots/out/index.html (make plots)" },
	{ "zcbench probe", "is vmsplice/splice zero-copy on this kernel?" },
	{ "zcbench kernel-ab --base OLD --new NEW --workload W.ini",
	  "two kernels in qemu guests, run and compared" },
	{ "source <(zcbench completion bash)", "completion in this shell (make install puts it "
					       "where bash-completion finds it)" },
};

void zc_doc_man(FILE *f, const struct zc_doc *d)
{
	struct zc_opt_help_hook saved = zc_opt_help_hook;
	struct man_ctx x = { f, d };

	fprintf(f, ".\\\" Made by `zcbench man` from the option tables: edit those, not this.\n"
		   ".TH ZCBENCH 1 \"\" \"zcbench %s\" \"zcbench manual\"\n.nh\n.ad l\n", d->version);
	fputs(".SH NAME\nzcbench \\- what Linux zero\\-copy data paths are really worth, per core\n"
	      ".SH SYNOPSIS\n.B zcbench\n.I COMMAND\n[\\fIOPTION\\fR ...] [\\fIARGUMENT\\fR ...]\n"
	      ".br\n.B zcbench\n.I COMMAND\n.B \\-\\-help\n"
	      ".br\n.B zcbench help\n.I COMMAND\n"
	      ".SH DESCRIPTION\nzcbench runs a source, a proxy and a sink, each pinned to its own "
	      "core, over a chosen data path (a \\fImode\\fR: send, splice, vmsplice, tee, sendfile, "
	      "io_uring ...), checks every byte the sink receives, and reports Gbit/s and Gbit/s per "
	      "busy core of the device under test, with the ratios between paths and their "
	      "intervals. Results go to a JSON file that the other commands read back.\n"
	      ".PP\nEvery command reads its flags from one table: \\fB\\-\\-KEY=VALUE\\fR and "
	      "\\fB\\-\\-KEY VALUE\\fR both work, a yes/no flag is \\fB\\-\\-KEY\\fR or "
	      "\\fB\\-\\-no\\-KEY\\fR, a bad flag is refused with \\(lqcommand line: \\-\\-KEY: "
	      "why\\(rq and exit 2. Every workload key is also a flag of \\fBrun\\fR.\n"
	      ".PP\nFlags are spelled with dashes (\\fB\\-\\-pipe\\-size\\fR, "
	      "\\fB\\-\\-exec\\-source\\fR); the older spelling with underscores "
	      "(\\fB\\-\\-pipe_size\\fR) is still accepted. Keys in workload and host files keep "
	      "their underscores (\\fBpipe_size = 1M\\fR); a dash reads the same there.\n"
	      ".SH EXAMPLES\n", f);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(examples); i++)
		man_items(f, &(struct zc_doc_item){ examples[i][0], examples[i][1] }, 1);
	fputs(".SH COMMANDS\n", f);
	man_items(f, d->cmds, d->ncmds);
	fputs(".SH OPTIONS\n", f);
	zc_opt_help_hook = (struct zc_opt_help_hook){ man_command, &x };
	for (size_t i = 0; i < d->ncmds; i++) {
		fputs(".SS ", f);
		roff(f, d->cmds[i].name);
		fputc('\n', f);
		d->help(i);
	}
	zc_opt_help_hook = saved;
	if (d->workload) {
		fputs(".SH WORKLOAD KEYS\nEach key is a line \\fBkey = VALUE\\fR in a workload file's "
		      "[workload] section (every run) or a [run NAME] section (that run), and a flag "
		      "\\fB\\-\\-key VALUE\\fR of \\fBrun\\fR, \\fBnoise\\fR and the roles "
		      "(\\fBsource\\fR, \\fBproxy\\fR, \\fBsink\\fR). A list (4k,64k) makes one run "
		      "per value.\n", f);
		man_rows(f, d->workload, d->nworkload, true);
	}
	if (d->nmode_opts) {
		fputs(".SH MODE OPTIONS\nA mode's own options, set per run with "
		      "\\fBmode_opts = KEY=VALUE[,KEY=VALUE]\\fR (or \\fB\\-\\-mode\\-opts\\fR); "
		      "each line is the mode, then key = default (type, bounds): help.\n", f);
		man_items(f, d->mode_opts, d->nmode_opts);
	}
	if (d->nhost) {
		fputs(".SH HOST FILE KEYS\nA host file (\\fB\\-\\-host FILE\\fR, hosts/*.ini) says "
		      "where the roles run: a [host] section, and [source], [proxy], [sink] "
		      "sections for one role's values.\n", f);
		for (size_t i = 0; i < d->nhost; i++) {
			if (d->host[i].title) {
				fputs(".PP\n.I \"", f);
				roff(f, d->host[i].title);
				fputs("\"\n", f);
			}
			man_rows(f, d->host[i].opts, d->host[i].n, d->host[i].as_flags);
		}
	}
	fputs(".SH MODES\nThe data paths, for the workload keys \\fBsource\\fR, \\fBproxy\\fR and "
	      "\\fBsink\\fR (\\fBzcbench list\\fR says which are unavailable here, and why):\n", f);
	man_items(f, d->modes, d->nmodes);
	fputs(".SH UNITS\n.TP\n.B sizes\nbytes: 4096, 64k, 1M, 1G (powers of 1024)\n"
	      ".TP\n.B durations\nseconds (a flag or key whose value is S): 2, 2s, 500ms, 1.5m, 1h, "
	      "250us; a value in MS (a key ending in _ms) takes the same units, and a bare number "
	      "is milliseconds there\n"
	      ".TP\n.B percents\n5 and 5% alike (PCT)\n"
	      ".TP\n.B rates\nGbit/s (10^9 bits per second) of payload; Gbit/s per core is that over "
	      "the cores the device under test kept busy\n"
	      ".SH EXIT STATUS\n.TP\n.B 0\nsuccess (compare and trend: every gated figure within the "
	      "threshold or better)\n.TP\n.B 1\na run failed, or compare's or trend's gate found a "
	      "regression\n.TP\n.B 2\nbad usage or input: an unknown or bad flag, an unreadable or "
	      "bad file, a missing output folder (the message names file:line and key, or the "
	      "flag)\n.TP\n.B 3\ncompare's or trend's gate cannot tell (an interval spans the "
	      "threshold; \\-\\-pass\\-cant\\-tell makes it 0)\n.TP\n.B 130\ninterrupted (the "
	      "results file keeps every finished sample)\n"
	      ".SH FILES\n.TP\n.I workloads/*.ini\nthe runs and their keys (\\fBzcbench keys\\fR)\n"
	      ".TP\n.I hosts/*.ini\nwhere the roles run: loopback, network namespaces, ssh\n"
	      ".TP\n.I results/DATE\\-HOST\\-KERNEL.json\nthe results of a run, rewritten after "
	      "every sample\n.TP\n.I plots/*.gp\nthe gnuplot scripts of \\fBzcbench plot\\fR\n"
	      ".SH SEE ALSO\n.BR perf (1),\n.BR splice (2),\n.BR vmsplice (2),\n.BR tee (2),\n"
	      ".BR sendfile (2),\n.BR io_uring (7)\n", f);
}

/* How a row's value completes, as a call of the script's helpers. */
static void bash_value(FILE *f, const struct zc_doc *d, const struct zc_cmdline *c,
		       const struct zc_opt *o)
{
	const char *name = o->meta ? o->meta : o->key, *dot = strrchr(o->key, '.');
	char buf[2048];
	const char *words = d->values ? d->values(c, o, buf, sizeof(buf)) : NULL;

	if (!dot && o->meta)
		dot = strrchr(o->meta, '.');
	if (words && words[0] == '$') {
		fputs(words + 1, f);
	} else if (words) {
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

/* A flag's name as the help spells it: with dashes. */
static void flag_name(FILE *f, const char *key)
{
	for (; *key; key++)
		fputc(*key == '_' ? '-' : *key, f);
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
			fputs(" --", f);
			flag_name(f, o->key);
			if (o->type == ZC_OPT_BOOL) {
				fputs(" --no-", f);
				flag_name(f, o->key);
			}
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
			/* both spellings: --pipe-size and the older --pipe_size */
			fputs("\t\t--", f);
			flag_name(f, o->key);
			if (strchr(o->key, '_') || strchr(o->key, '-')) {
				fputs("|--", f);
				for (const char *k = o->key; *k; k++)
					fputc(*k == '-' ? '_' : *k, f);
			}
			fputs(") ", f);
			bash_value(f, x->d, c, o);
			fputs("; return ;;\n", f);
		}
	fputs("\t\tesac\n\t\tpos=\"", f);
	if (pos)
		bash_value(f, x->d, c, pos);
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
		   "# The [run NAME]s of the workload file on the line (else default.ini).\n"
		   "_zcbench_runs() {\n"
		   "\tlocal w ini=workloads/default.ini\n"
		   "\tfor w in \"${COMP_WORDS[@]}\"; do\n"
		   "\t\tcase $w in *.ini) [ -f \"$w\" ] && ini=$w ;; esac\n"
		   "\tdone\n"
		   "\t[ -r \"$ini\" ] || return\n"
		   "\t_zcbench_words \"$(sed -n "
		   "'s/^[[:space:]]*\\[run[[:space:]]\\{1,\\}\\([^]]*\\)\\].*/\\1/p' \"$ini\")\"\n"
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
	fputs(" help'\n\t\treturn\n\tfi\n"
	      "\t# --KEY=VALUE: complete the value as after --KEY (bash splits at '=' by\n"
	      "\t# COMP_WORDBREAKS: --KEY, =, VALUE; else one word)\n"
	      "\tif [[ $cur == --*=* ]]; then\n\t\tprev=${cur%%=*}\n\t\tcur=${cur#*=}\n"
	      "\telif [ \"$cur\" = = ]; then\n\t\tcur=\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -ge 3 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n\tfi\n"
	      "\tcase ${COMP_WORDS[1]} in\n"
	      "\thelp)\n\t\t[ \"$COMP_CWORD\" -eq 2 ] && _zcbench_words '", f);
	for (size_t i = 0; i < d->ncmds; i++)
		fprintf(f, "%s%s", i ? " " : "", d->cmds[i].name);
	fputs("'\n\t\treturn ;;\n", f);
	zc_opt_help_hook = (struct zc_opt_help_hook){ bash_command, &x };
	for (size_t i = 0; i < d->ncmds; i++) {
		fprintf(f, "\t%s)\n", d->cmds[i].name);
		d->help(i);
	}
	zc_opt_help_hook = saved;
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n\t\t_zcbench_words \"$flags\"\n\telse\n\t\teval \"$pos\"\n\tfi\n"
	      "}\n"
	      "# zcbench once installed; bench/zcbench as README runs it from a clone.\n"
	      "complete -F _zcbench zcbench bench/zcbench ./bench/zcbench\n", f);
}
