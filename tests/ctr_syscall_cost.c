// SPDX-License-Identifier: GPL-2.0
/*
 * What the BPF accounting adds to one syscall, measured where the noise of
 * a shared machine cannot hide it: a tight loop of getppid() (the cheapest
 * syscall), best of several trials, with no programs, with the role's own
 * (tid matches: the full accounting path) and with the own plus two other
 * roles' (their filters fail: what every syscall on the host pays).
 * Prints "CONFIG ns_per_syscall added_ns" lines; make bench-overhead uses it.
 */
#include "counters/counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double per_call_ns(long n, int trials)
{
	double best = 1e18;

	for (int t = 0; t < trials; t++) {
		double t0 = now_ns();

		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		double dt = (now_ns() - t0) / n;

		if (dt < best)
			best = dt;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	struct zc_bpf *b[3] = { 0 };
	char why[256], ci[128], miss[256];
	uint32_t tid = (uint32_t)gettid();
	double base, own, all3;

	if (n <= 0)
		n = 200000;
	base = per_call_ns(n, 7);
	if (zc_bpf_open(&b[0], tid, -1, why, sizeof(why), ci, sizeof(ci), miss, sizeof(miss))) {
		printf("skip: %s\n", why);
		return 77;
	}
	own = per_call_ns(n, 7);
	for (int i = 1; i < 3; i++)
		if (zc_bpf_open(&b[i], tid + 1000000 + i, -1, why, sizeof(why), ci, sizeof(ci), miss,
				sizeof(miss))) {
			printf("skip: %s\n", why);
			return 77;
		}
	all3 = per_call_ns(n, 7);
	printf("none %.1f 0\n", base);
	printf("own %.1f %.1f\n", own, own - base);
	printf("own+2 %.1f %.1f\n", all3, all3 - base);
	for (int i = 0; i < 3; i++)
		zc_bpf_close(b[i]);
	return 0;
}
