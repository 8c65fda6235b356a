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

#include <stdbool.h>
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

/*
 * Many connections. Connection c of n starts its stream at pattern position
 * shift(c) = c * period / n: stream offset o of connection c carries the
 * pattern byte at (o + shift(c)) mod period, so connections crossed by a
 * proxy (or a byte of one delivered on another) fail verification. A mode
 * that re-sends one static chunk (tee: period = chunk) cannot start a chunk
 * elsewhere: its shift is 0, so a mix-up between two of its connections is
 * undetectable, and harmless at the byte level (they carry the same bytes).
 */
uint64_t zc_pattern_shift(uint32_t conn, uint32_t nconn, uint64_t period, bool static_chunk);

/*
 * The connection header: the first ZC_CONN_HDR_LEN bytes the source writes on
 * every connection, before any payload and outside every window. A proxy
 * forwards it as ordinary bytes (it need not read it); the sink reads it to
 * learn which connection it accepted, whatever order accepts happen in.
 *   0..3  magic "ZCBC"   4..5 version (1)   6..7 flags (0)
 *   8..11 connection id  12..15 connections in the run  (little-endian)
 */
#define ZC_CONN_HDR_LEN 16
#define ZC_CONN_HDR_VERSION 1
void zc_conn_hdr_encode(uint8_t hdr[ZC_CONN_HDR_LEN], uint32_t conn, uint32_t nconn);
/* 0, or -EPROTO (not a zcbench header, another version, flags other than
 * 0, conn >= nconn): every byte but the id's and the count's must be what
 * zc_conn_hdr_encode writes. The caller checks the count is its run's and
 * each id comes once; then any byte changed on the way fails. */
int zc_conn_hdr_decode(const uint8_t hdr[ZC_CONN_HDR_LEN], uint32_t *conn, uint32_t *nconn);

#endif
