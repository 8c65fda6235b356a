/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_REPORT_PARSE_H
#define ZC_REPORT_PARSE_H

#include <jansson.h>
#include <stddef.h>

/*
 * The report a role printed on stdout (out[0..len), anything it wrote, NUL
 * bytes included): its last line that starts with '{', which must be that
 * one line, a JSON object (strict: UTF-8, no NUL, no duplicate keys) with a
 * string "status" and, where present, "error" a string and "window" an
 * object. The object (the caller owns it), or NULL with why (why may be
 * NULL): the role's report is then lost.
 */
json_t *zc_role_report_parse(const char *out, size_t len, char *why, size_t whylen);

#endif
