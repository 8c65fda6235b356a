/* SPDX-License-Identifier: GPL-2.0 */
/* Private to bench/peers/. */
#ifndef ZC_PEER_INT_H
#define ZC_PEER_INT_H

#include "peers/peer.h"

/* p->reason = "NAME WHAT (exit code 1); LOG ends: LAST LINES" */
void zc_peer_fail_reason(struct zc_peer *p, const char *what);

/* Text appended with printf formats into buf[0..len) (text.c). */
struct zc_text {
	char *buf;
	size_t len, used;
	bool full;			/* something did not fit: -ENOSPC */
};
void zc_text_add(struct zc_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* argv[*n] = flag, argv[*n + 1] = v printed with fmt ("%llu") as its own
 * string at *pos (*left bytes left there): false when full. */
bool zc_text_arg(char *argv[], int *n, char **pos, size_t *left, const char *flag,
		 const char *fmt, unsigned long long v);

/* What HTTP load generators print (http.c). "1.52GB", "40.23KB", "512B":
 * bytes (units of 1024, as wrk and h2load print them); "38us", "42.94ms",
 * "1.2s", "2m": microseconds. The number's end in *end. 0 or -EINVAL. */
int zc_peer_parse_bytes(const char *s, double *bytes, const char **end);
int zc_peer_parse_time_us(const char *s, double *us, const char **end);

#endif
