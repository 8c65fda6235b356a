// SPDX-License-Identifier: GPL-2.0
/* A role's report line, read strictly (report_parse.h). */
#include "run/report_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static json_t *none(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static json_t *none(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return NULL;
}

json_t *zc_role_report_parse(const char *out, size_t len, char *why, size_t whylen)
{
	const char *line = NULL, *end;
	json_error_t je;
	json_t *rj, *w;

	/* Progress and warnings may come first: the report is the last line
	 * that starts with '{' (memchr: a NUL byte does not end the search). */
	for (const char *p = out; p && p < out + len;) {
		const char *nl = memchr(p, '\n', out + len - p);

		if (*p == '{')
			line = p;
		p = nl ? nl + 1 : NULL;
	}
	if (!line)
		return none(why, whylen, "no report (no line starting with '{')");
	end = memchr(line, '\n', out + len - line);
	if (!end)
		end = out + len;
	rj = json_loadb(line, end - line, JSON_REJECT_DUPLICATES, &je);
	if (!rj)
		return none(why, whylen, "report is not valid JSON: %s (column %d)", je.text,
			    je.column);
	w = json_object_get(rj, "window");
	if (!json_is_object(rj) || !json_is_string(json_object_get(rj, "status")) ||
	    (json_object_get(rj, "error") && !json_is_string(json_object_get(rj, "error"))) ||
	    (w && !json_is_object(w))) {
		json_decref(rj);
		return none(why, whylen, "report is not an object with a string status (and error a "
			    "string, window an object)");
	}
	return rj;
}
