// SPDX-License-Identifier: GPL-2.0
#include "lib/pattern.h"

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
