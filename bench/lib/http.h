/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The minimal HTTP/1.1 of request/response runs (traffic = rr): zcbench's
 * client asks `GET /<object size> HTTP/1.1`, its server answers `200 OK`
 * with a Content-Length and the payload pattern from offset 0 as the body,
 * so the same roles can face nginx, wrk, h2load or HAProxy in HTTP mode.
 * The parsers are bounded (a head longer than ZC_HTTP_HEAD_MAX is refused)
 * and reject what they do not understand rather than guess: bare LF line
 * ends, header lines without a colon, chunked bodies, a second or a
 * malformed Content-Length. Lower layers return -errno.
 *
 * Object sizes drawn from a file (object_sizes_file): one size a line
 * ("64k", "1M", "4096"; blank lines and # comments skipped); a bad line is
 * named by file and line.
 */
#ifndef ZC_HTTP_H
#define ZC_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZC_HTTP_HEAD_MAX 8192

/* The shortest request for object (without padding), in bytes. */
size_t zc_http_request_min(uint64_t object, bool close);
/*
 * A request for object into buf: "GET /<object> HTTP/1.1", Host, Connection:
 * close when close, and an X-Pad header making it exactly want bytes (0:
 * the shortest). Its length, -ERANGE when want is too short to hold it (or
 * above ZC_HTTP_HEAD_MAX), -E2BIG when buf is.
 */
int zc_http_request(char *buf, size_t len, uint64_t object, bool close, size_t want);
/* "HTTP/1.1 200 OK" with Content-Length (and Connection: close): length or -E2BIG. */
int zc_http_response(char *buf, size_t len, uint64_t content_length, bool close);

struct zc_http_msg {
	size_t head_len;	/* bytes of the head, the blank line included */
	uint64_t object;	/* request: the size in its path */
	int status;		/* response: the status code */
	uint64_t content_length;/* response: the body's length */
	bool close;		/* Connection: close */
};
/*
 * Parse a request (or response) head at buf[0..len). 1 with *m filled, 0
 * when more bytes are needed, -EPROTO (malformed: why in err) or -E2BIG
 * (no end of head within ZC_HTTP_HEAD_MAX bytes).
 */
int zc_http_parse_request(const char *buf, size_t len, struct zc_http_msg *m, char *err,
			  size_t errlen);
int zc_http_parse_response(const char *buf, size_t len, struct zc_http_msg *m, char *err,
			   size_t errlen);

/*
 * An exact check of a head: the offset where got[0..glen) first differs
 * from want[0..wlen) (a length apart counts, unless partial and got is the
 * start of want), or -1 when it does not. The bytes from there, each side
 * escaped, into what[len] ("'Zcbench\r\n' where 'zcbench\r\n' was sent").
 */
long zc_http_diff(const char *got, size_t glen, const char *want, size_t wlen, bool partial,
		  char *what, size_t len);

/* The sizes of an object_sizes_file (malloc'd, *n of them, at least one),
 * each in 0..max. 0, or -EINVAL/-ENOENT... with "FILE:LINE: why" in err. */
int zc_sizes_file_read(const char *path, uint64_t max, uint64_t **sizes, size_t *n, char *err,
		       size_t errlen);

#endif
