// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench export --format NAME FILE: a results file in the shapes dashboards
 * read, one format per file of output/ (ZC_EXPORT_FORMATS in export.h). The
 * whole text is built in memory and written at once: atomically (temp file
 * + rename) with --out, so a collector never reads half a file.
 */
#include "output/export.h"
#include "output/report.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ZC_EXPORT_PTR(id) &zc_fmt_##id,
const struct zc_export_format *const zc_export_formats[] = { ZC_EXPORT_FORMATS(ZC_EXPORT_PTR) };
const size_t zc_nexport_formats = ZC_ARRAY_SIZE(zc_export_formats);

const struct zc_export_format *zc_export_format_find(const char *name)
{
	for (size_t i = 0; i < zc_nexport_formats; i++)
		if (!strcmp(zc_export_formats[i]->name, name))
			return zc_export_formats[i];
	return NULL;
}

void zc_export_format_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < zc_nexport_formats && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? sep : "", zc_export_formats[i]->name);
}

int zc_export_summary(json_t *run, const char *metric, struct zc_summary *s)
{
	static double v[ZC_SAMPLES_MAX];
	size_t n = zc_an_values(run, metric, v, ZC_SAMPLES_MAX);

	zc_summarize(v, n, s);
	return n ? 0 : -ENODATA;
}

int zc_export_json(FILE *f, json_t *doc)
{
	int ret = json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	fputc('\n', f);
	json_decref(doc);
	return ret ? -EIO : 0;
}

static int usage(FILE *f, int code)
{
	char names[256];

	zc_export_format_names(names, sizeof(names), "|");
	fprintf(f, "usage: zcbench export --format %s [--out PATH] FILE.json\n", names);
	for (size_t i = 0; i < zc_nexport_formats; i++) {
		const char *h = zc_export_formats[i]->help, *nl;

		fprintf(f, "  %-11s ", zc_export_formats[i]->name);
		for (; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%14s", (int)(nl - h), h, "");
		fprintf(f, "%s\n", h);
	}
	fprintf(f, "--out PATH writes atomically (temp file + rename); default stdout.\n");
	return code;
}

int zc_cmd_export(int argc, char **argv)
{
	const char *format = NULL, *out = NULL, *path = NULL;
	const struct zc_export_format *fmt;
	json_t *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret = 0;

	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return usage(stdout, 0);
		if (!strncmp(arg, "--format=", 9))
			format = arg + 9;
		else if (!strcmp(arg, "--format") && a + 1 < argc)
			format = argv[++a];
		else if (!strncmp(arg, "--out=", 6))
			out = arg + 6;
		else if (!strcmp(arg, "--out") && a + 1 < argc)
			out = argv[++a];
		else if (!strncmp(arg, "--", 2) || path) {
			zc_err("export: unexpected argument '%s' (zcbench export --help)", arg);
			return ZC_EXIT_USAGE;
		} else
			path = arg;
	}
	if (!format || !path) {
		zc_err("export: need --format and one results file");
		return usage(stderr, ZC_EXIT_USAGE);
	}
	fmt = zc_export_format_find(format);
	if (!fmt) {
		char names[256];

		zc_export_format_names(names, sizeof(names), ", ");
		zc_err("export: --format %s: not one of %s", format, names);
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
	ret = fmt->write(f, root);
	if (fclose(f) || ret) {
		zc_err("export: %s: %s", format, strerror(ret ? -ret : errno));
		free(buf);
		json_decref(root);
		return ZC_EXIT_FAIL;
	}
	if (out) {
		ret = zc_write_atomic(out, buf, len);
		if (ret) {
			zc_err("export: %s: %s", out, strerror(-ret));
			ret = ZC_EXIT_FAIL;
		}
	} else if (fwrite(buf, 1, len, stdout) != len) {
		ret = ZC_EXIT_FAIL;
	}
	free(buf);
	json_decref(root);
	return ret;
}
