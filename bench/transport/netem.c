// SPDX-License-Identifier: GPL-2.0
/*
 * netem values (netns.c's netem_delay and netem_loss) checked as the host
 * file is read: what tc and the iptables fallback will be given is a plain
 * decimal number, finite and in range, so a bad one (nan%, 1e9s) is refused
 * with file:line before any namespace is built, never by tc mid-setup.
 */
#include "transport/netem_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s[0..n) is a plain decimal number: digits, at most one '.', one digit at
 * least (no sign, exponent, hex, inf or nan that strtod would take). */
static bool plain_decimal(const char *s, size_t n)
{
	size_t digits = 0, dots = 0;

	for (size_t i = 0; i < n; i++) {
		digits += s[i] >= '0' && s[i] <= '9';
		dots += s[i] == '.';
	}
	return n && digits + dots == n && digits && dots <= 1;
}

/* A netem loss as both paths take it (tc netem, the iptables fallback): a
 * plain decimal percentage 0..100, "%" optional as in tc. 0, or -EINVAL. */
int zc_netem_pct(const char *v, double *pct)
{
	size_t n = strcspn(v, "%");

	if ((v[n] && strcmp(v + n, "%")) || !plain_decimal(v, n))
		return -EINVAL;
	*pct = strtod(v, NULL);
	return *pct <= 100 ? 0 : -EINVAL;
}

int zc_netem_check_loss(const char *v, char *why, size_t len)
{
	double pct;

	if (!zc_netem_pct(v, &pct))
		return 0;
	snprintf(why, len, "'%s' is not a loss percentage in 0..100%% (like 1%% or 0.5%%)", v);
	return -EINVAL;
}

/* The longest netem delay taken: a run waits for its roles' TCP handshakes
 * and warm-up through it, and tc's 32-bit tick field ends near 274 s. */
#define NETEM_DELAY_MAX_S 60

/* A netem delay as tc reads one TIME: a plain decimal number with tc's unit
 * (none: microseconds), 0..NETEM_DELAY_MAX_S. */
int zc_netem_check_delay(const char *v, char *why, size_t len)
{
	static const struct { const char *unit; double s; } units[] = {
		{ "", 1e-6 }, { "us", 1e-6 }, { "usec", 1e-6 }, { "usecs", 1e-6 },
		{ "ms", 1e-3 }, { "msec", 1e-3 }, { "msecs", 1e-3 },
		{ "s", 1 }, { "sec", 1 }, { "secs", 1 },
	};
	size_t n = strspn(v, "0123456789.");

	for (size_t i = 0; i < ZC_ARRAY_SIZE(units) && plain_decimal(v, n); i++)
		if (!strcmp(v + n, units[i].unit) &&
		    strtod(v, NULL) * units[i].s <= NETEM_DELAY_MAX_S)
			return 0;
	snprintf(why, len, "'%s' is not a delay in 0..%ds (a number and us, ms or s, like 2ms)",
		 v, NETEM_DELAY_MAX_S);
	return -EINVAL;
}
