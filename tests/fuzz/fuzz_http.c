// SPDX-License-Identifier: GPL-2.0
/*
 * The head checker of request/response runs (lib/http.c): the input as a
 * request head and as a response head, each parsed, then held byte for byte
 * against the one zcbench writes for what it asked (rr_check = exact), its
 * difference escaped for the message.
 */
#include "fuzz.h"
#include "lib/http.h"
#include "lib/zcbench.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char err[256], want[ZC_HTTP_HEAD_MAX + 1], what[300];
	struct zc_http_msg m;
	int n;

	if (zc_http_parse_request(buf, size, &m, err, sizeof(err)) == 1) {
		if (m.head_len > size)
			abort();
		n = zc_http_request(want, sizeof(want), m.object == UINT64_MAX ? 65536 : m.object,
				    m.close, 0);
		if (n > 0)
			zc_http_diff(buf, m.head_len, want, (size_t)n, false, what, sizeof(what));
	}
	if (zc_http_parse_response(buf, size, &m, err, sizeof(err)) == 1) {
		if (m.head_len > size)
			abort();
		n = zc_http_response(want, sizeof(want), m.content_length, m.close);
		if (n > 0)
			zc_http_diff(buf, m.head_len, want, (size_t)n, true, what, sizeof(what));
	}
	return 0;
}
