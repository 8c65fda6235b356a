/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deterministic payload keyed by stream offset.
 *
 * The byte at stream offset o is a function of (seed, o mod period). A period
 * is what lets one static buffer (vmsplice, tee) be sent again and again and
 * still verify: the sink compares what arrives with the pattern at that
 * offset, whatever path carried it.
 */
#ifndef ZC_PATTERN_H
#define ZC_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* Fill buf[0..len) with the pattern for stream offsets [0, len). */
void zc_pattern_fill(uint8_t *buf, size_t len, uint64_t seed);

/*
 * Compare data (len bytes at stream offset off) with one period of the
 * pattern held in ref[0..period). Returns the stream offset of the first
 * mismatching byte, or UINT64_MAX when everything matches.
 */
uint64_t zc_pattern_check(const uint8_t *ref, uint64_t period, uint64_t off,
			  const uint8_t *data, size_t len);

#endif
