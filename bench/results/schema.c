// SPDX-License-Identifier: GPL-2.0
/* Results files on disk: the atomic writer and the checked loader. */
#include "results/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int zc_json_write_atomic(json_t *root, const char *path)
{
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	size_t n;
	int ret;

	if (!text)
		return -ENOMEM;
	n = strlen(text);
	text[n] = '\n'; /* json_dumps leaves room: the string's NUL becomes the newline */
	ret = zc_write_atomic(path, text, n + 1);
	free(text);
	return ret;
}

json_t *zc_results_load(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *v;

	if (!root) {
		snprintf(err, errlen, "%s:%d: not valid JSON: %s", path, je.line, je.text);
		return NULL;
	}
	v = json_object_get(root, "schema_version");
	if (!json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "zcbench-results") ||
	    !json_is_string(v)) {
		snprintf(err, errlen, "%s: not a zcbench results file (no schema/schema_version)",
			 path);
		json_decref(root);
		return NULL;
	}
	if (atoi(json_string_value(v)) != ZC_SCHEMA_MAJOR) {
		snprintf(err, errlen, "%s: schema version %s, this zcbench reads %d.x", path,
			 json_string_value(v), ZC_SCHEMA_MAJOR);
		json_decref(root);
		return NULL;
	}
	if (!json_is_array(json_object_get(root, "runs"))) {
		snprintf(err, errlen, "%s: key 'runs': missing or not an array", path);
		json_decref(root);
		return NULL;
	}
	return root;
}


json_t *zc_an_load(const char *cmd, const char *path)
{
	char err[1200];
	json_t *root = zc_results_load(path, err, sizeof(err));

	if (!root)
		zc_err("%s: %s", cmd, err);
	return root;
}

