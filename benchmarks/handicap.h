/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A calibrated handicap for the bare loops (bare_proxy.c, bare_source.c):
 * extra work on the bytes they move, a checksum pass over the buffer, sized
 * so that it takes a given share of the loop thread's own CPU time. The gate's
 * power is measured with it (make bench-gate): a loop that spends 5% of its
 * CPU on the handicap moves about 5% fewer bytes per CPU second.
 *
 * At start-up the pass is timed on the thread's CPU clock (ns per byte).
 * Every HANDICAP_BATCH bytes the loop calls handicap_bytes(), which reads the
 * thread's CPU clock (CLOCK_THREAD_CPUTIME_ID: user and system time, the
 * loop's syscalls included) and runs as many passes as bring the handicap's
 * share back to the target; the passes are timed on the same clock, so what
 * the handicap cost is measured, not assumed. Three clock reads per batch
 * and none with no handicap: the unhandicapped loop stays the bare loop.
 */
#ifndef BARE_HANDICAP_H
#define BARE_HANDICAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HANDICAP_BATCH (1u << 20)	/* bytes between two catch-ups */

struct handicap {
	double frac;		/* wanted share of the thread's CPU time, 0: none */
	double pass_ns_per_byte;	/* the pass's calibrated cost */
	uint64_t t0_ns;		/* the thread's CPU clock at handicap_start() */
	uint64_t spent_ns;	/* CPU time inside the passes since then */
	uint64_t bytes;		/* bytes handed over since then */
	uint64_t pending;	/* bytes since the last catch-up */
	uint64_t passes_bytes;	/* bytes the passes read */
	uint32_t sum;		/* the passes' checksum: printed, so no pass is optimised out */
};

/*
 * The share from --handicap-pct=P in argv, else from ZC_HANDICAP_PCT (how a
 * program started by zcbench run --exec-ROLE gets it: the controller writes
 * the role's argv); 0 when neither. 0, or -EINVAL (not a number in [0, 50)).
 */
int handicap_parse(int argc, char **argv, double *pct);
/* Calibrate the pass over a buffer of len bytes. 0, or -errno. */
int handicap_init(struct handicap *h, double pct, size_t len);
/* Zero point: the thread's CPU clock when the loop starts (after GO). */
void handicap_start(struct handicap *h);
/* n bytes moved through buf; every HANDICAP_BATCH bytes, the catch-up. */
static inline void handicap_bytes(struct handicap *h, const void *buf, size_t n)
{
	void handicap_catch_up(struct handicap *h, const void *buf, size_t n);

	if (h->frac <= 0)
		return;
	h->bytes += n;
	h->pending += n;
	if (h->pending >= HANDICAP_BATCH)
		handicap_catch_up(h, buf, n);
}
/*
 * The report's "handicap" member, one JSON object without a newline:
 * requested_pct, cpu_fraction (the passes' share of the thread's CPU time
 * since handicap_start, measured), thread_cpu_s, handicap_cpu_s, bytes,
 * pass_ns_per_byte (the calibration), checksum.
 */
void handicap_json(const struct handicap *h, FILE *f);

#endif
