// SPDX-License-Identifier: GPL-2.0
/* The bare loops' calibrated handicap (handicap.h). */
#include "handicap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long the start-up calibration runs the pass (thread CPU time). */
#define CALIBRATE_NS 20000000ull

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One checksum-like pass: every 8-byte word folded in, a dependency chain
 * the compiler cannot drop or turn into a memset's worth of nothing. */
static uint32_t pass(const void *buf, size_t len, uint32_t sum)
{
	const unsigned char *p = buf;
	uint64_t s = sum, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		s = ((s << 7) | (s >> 57)) ^ (w + i);
	}
	for (; i < len; i++)
		s = ((s << 7) | (s >> 57)) ^ p[i];
	return (uint32_t)(s ^ (s >> 32));
}

int handicap_parse(int argc, char **argv, double *pct)
{
	const char *v = getenv("ZC_HANDICAP_PCT");
	char *end;

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--handicap-pct=", 15))
			v = argv[i] + 15;
	*pct = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	*pct = strtod(v, &end);
	if (errno || *end || !(*pct >= 0 && *pct < 50))
		return -EINVAL;
	return 0;
}

int handicap_init(struct handicap *h, double pct, size_t len)
{
	unsigned char *buf;
	uint64_t t0, t, bytes = 0;

	memset(h, 0, sizeof(*h));
	h->frac = pct / 100;
	if (h->frac <= 0)
		return 0;
	if (!len)
		return -EINVAL;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0x5a, len);
	/* Warm the cache and the branch predictor, then time whole passes. */
	h->sum = pass(buf, len, h->sum);
	t0 = t = thread_cpu_ns();
	while (t - t0 < CALIBRATE_NS) {
		h->sum = pass(buf, len, h->sum);
		bytes += len;
		t = thread_cpu_ns();
	}
	free(buf);
	h->pass_ns_per_byte = (double)(t - t0) / (double)bytes;
	return 0;
}

void handicap_start(struct handicap *h)
{
	h->t0_ns = thread_cpu_ns();
	h->spent_ns = h->bytes = h->pending = h->passes_bytes = 0;
}

/*
 * The passes that bring the handicap's share of the thread's CPU time since
 * handicap_start back to frac: the rest of the time (the loop's own) times
 * frac / (1 - frac), less what the passes already took. The calibration
 * only sizes the passes; the clock says what they cost.
 */
void handicap_catch_up(struct handicap *h, const void *buf, size_t n)
{
	uint64_t now = thread_cpu_ns(), own = now - h->t0_ns - h->spent_ns, want, todo;
	double debt_ns = (double)own * h->frac / (1 - h->frac) - (double)h->spent_ns;

	h->pending = 0;
	if (debt_ns <= 0 || !n)
		return;
	want = (uint64_t)(debt_ns / h->pass_ns_per_byte);
	for (todo = want; todo;) {
		size_t k = todo < n ? (size_t)todo : n;

		h->sum = pass(buf, k, h->sum);
		todo -= k;
	}
	h->passes_bytes += want;
	h->spent_ns += thread_cpu_ns() - now;
}

void handicap_json(const struct handicap *h, FILE *f)
{
	uint64_t total = thread_cpu_ns() - h->t0_ns;

	fprintf(f, "{\"requested_pct\":%.3f,\"cpu_fraction\":%.5f,\"thread_cpu_s\":%.6f,"
		"\"handicap_cpu_s\":%.6f,\"bytes\":%" PRIu64 ",\"pass_bytes\":%" PRIu64
		",\"pass_ns_per_byte\":%.5f,\"checksum\":%" PRIu32 "}",
		100 * h->frac, total ? (double)h->spent_ns / (double)total : 0.0, total / 1e9,
		h->spent_ns / 1e9, h->bytes, h->passes_bytes, h->pass_ns_per_byte, h->sum);
}
