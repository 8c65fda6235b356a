// SPDX-License-Identifier: GPL-2.0
#include "lib/pattern.h"

#include <errno.h>
#include <string.h>

/* splitmix64: cheap, well mixed, and the same on every host. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void zc_pattern_fill(uint8_t *buf, size_t len, uint64_t seed)
{
	uint64_t key = mix(seed);

	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = mix(key ^ (i / 8));
		size_t n = len - i < 8 ? len - i : 8;

		/* Little-endian byte order whatever the host, so hosts agree. */
		for (size_t b = 0; b < n; b++)
			buf[i + b] = (uint8_t)(w >> (8 * b));
	}
}

uint64_t zc_pattern_check(const uint8_t *ref, uint64_t period, uint64_t off,
			  const uint8_t *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		uint64_t p = (off + done) % period;
		size_t n = period - p;

		if (n > len - done)
			n = len - done;
		if (memcmp(ref + p, data + done, n)) {
			for (size_t i = 0; i < n; i++)
				if (ref[p + i] != data[done + i])
					return off + done + i;
		}
		done += n;
	}
	return UINT64_MAX;
}

uint64_t zc_pattern_shift(uint32_t conn, uint32_t nconn, uint64_t period, bool static_chunk)
{
	if (static_chunk || nconn <= 1 || !period)
		return 0;
	/* period <= 2^30 and conn < 2^32: the product fits in 64 bits. */
	return (uint64_t)conn * period / nconn % period;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void zc_conn_hdr_encode(uint8_t hdr[ZC_CONN_HDR_LEN], uint32_t conn, uint32_t nconn)
{
	memcpy(hdr, "ZCBC", 4);
	hdr[4] = ZC_CONN_HDR_VERSION;
	hdr[5] = 0;
	hdr[6] = hdr[7] = 0;
	put32(hdr + 8, conn);
	put32(hdr + 12, nconn);
}

int zc_conn_hdr_decode(const uint8_t hdr[ZC_CONN_HDR_LEN], uint32_t *conn, uint32_t *nconn)
{
	uint8_t sent[ZC_CONN_HDR_LEN];

	*conn = get32(hdr + 8);
	*nconn = get32(hdr + 12);
	/* Checked whole: what a source would have sent for these numbers, byte
	 * for byte (magic, version, flags too), so no byte passes unchecked. */
	zc_conn_hdr_encode(sent, *conn, *nconn);
	if (memcmp(hdr, sent, sizeof(sent)))
		return -EPROTO;
	return *conn < *nconn ? 0 : -EPROTO;
}
