// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench export --format NAME FILE: a results file in the shapes dashboards
 * read, one format per file of export/ (ZC_EXPORT_FORMATS in export.h). The
 * whole text is built in memory and written at once: atomically (temp file
 * + rename) with --out, so a collector never reads half a file.
 */
#include "export/export.h"
#include "report/report.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define ZC_EXPORT_PTR(id) &zc_fmt_##id,
const struct zc_export_format *const zc_export_formats[] = { ZC_EXPORT_FORMATS(ZC_EXPORT_PTR) };
const size_t zc_nexport_formats = ZC_ARRAY_SIZE(zc_export_formats);

/* name: the struct's first member (zc_row_find). */
const struct zc_export_format *zc_export_format_find(const char *name)
{
	return zc_row_find((const void *const *)zc_export_formats, zc_nexport_formats, name);
}

void zc_export_format_names(char *buf, size_t len, const char *sep)
{
	zc_row_names((const void *const *)zc_export_formats, zc_nexport_formats, buf, len, sep);
}

struct export_args {
	const char *format, *out, *path;
	int what;	/* enum zc_export_what: the choices in its order */
};

static int check_format(const char *v, char *why, size_t len)
{
	return zc_row_check((const void *const *)zc_export_formats, zc_nexport_formats, v, why, len);
}

#define AT(field) ZC_OPT_AT(struct export_args, field)
static const struct zc_opt export_optv[] = {
	{ "format", ZC_OPT_TEXT, NULL, AT(format), ZC_OPT_REQ, .check = check_format,
	  .meta = "NAME", .help = "the output format (the formats are listed above)" },
	{ "what", ZC_OPT_CHOICE, "all", AT(what), .choices = "all|runs|headlines",
	  .help = "all: every part the format holds (csv: the samples); runs: each run's "
		  "figures; headlines: the headline ratios (report's: value, 95% interval, n, "
		  "answer against 1.0, each side's DUT busy)" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "PATH",
	  .help = "write there atomically (temp file + rename): a regular file or a new one, "
		  "never a device, FIFO or folder; - or none: standard output" },
	{ "FILE.json", ZC_OPT_TEXT, NULL, AT(path), ZC_OPT_POS | ZC_OPT_REQ,
	  .help = "a results file" },
};

int zc_cmd_export(int argc, char **argv)
{
	static char about[4096];
	struct export_args a = { 0 };
	const struct zc_optgroup group = ZC_OPT_GROUP1(export_optv, &a);
	const struct zc_cmdline cmdline = { .name = "export", .groups = &group, .ngroups = 1,
					    .about = about };
	const struct zc_export_format *fmt;
	char target[PATH_MAX], why[PATH_MAX + 200];
	int kind = ZC_OUT_STDOUT;
	const char *format, *out, *path;
	json_t *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret, n;

	/* The formats and their help come from the one list (export.h); each
	 * "  name  text" line hangs under its text when --help wraps it. */
	n = snprintf(about, sizeof(about), "Formats:\n");
	for (size_t i = 0; i < zc_nexport_formats && n > 0 && (size_t)n < sizeof(about); i++)
		n += snprintf(about + n, sizeof(about) - n, "  %-11s %s\n",
			      zc_export_formats[i]->name, zc_export_formats[i]->help);
	ret = zc_opt_main(&cmdline, argc, argv);
	if (ret >= 0)
		return ret;
	format = a.format;
	out = a.out;
	path = a.path;
	fmt = zc_export_format_find(format);
	/* Where it goes is checked before anything is read: exit 2, nothing written. */
	if (out && (kind = zc_out_file(out, true, target, sizeof(target), why, sizeof(why))) < 0) {
		zc_err("export: --out %s %s", out, why);
		return ZC_EXIT_USAGE;
	}
	if (out && kind == ZC_OUT_FILE &&
	    zc_out_not_input(target, (char *const[]){ (char *)path }, 1, why, sizeof(why))) {
		zc_err("export: --out %s %s", out, why);
		return ZC_EXIT_USAGE;
	}
	root = zc_an_load("export", path);
	if (!root)
		return ZC_EXIT_USAGE;
	/* Build the whole text in memory: written at once, atomically. */
	f = open_memstream(&buf, &len);
	if (!f) {
		zc_err("export: open_memstream: %s", strerror(errno));
		json_decref(root);
		return ZC_EXIT_FAIL;
	}
	ret = fmt->write(f, root, (enum zc_export_what)a.what);
	if (fclose(f) || ret) {
		zc_err("export: %s: %s", format, strerror(ret ? -ret : errno));
		free(buf);
		json_decref(root);
		return ZC_EXIT_FAIL;
	}
	if (out && kind == ZC_OUT_FILE) {
		ret = zc_write_atomic(target, buf, len);
		if (ret) {
			/* The output path's fault, as when it is refused first: exit 2. */
			zc_err("export: --out %s: %s", target, strerror(-ret));
			ret = ZC_EXIT_USAGE;
		}
	} else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		zc_err("export: standard output: %s", strerror(errno));
		ret = ZC_EXIT_FAIL;
	}
	free(buf);
	json_decref(root);
	return ret;
}
