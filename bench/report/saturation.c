// SPDX-License-Identifier: GPL-2.0
/* A DUT below ZC_SATURATED_FRAC busy, said with a way to load it (saturation.h). */
#include "report/saturation.h"
#include "stats/stats.h"
#include "lib/term.h"
#include "metrics/metrics.h"
#include "results/results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* CPUs the run's roles were placed on, each once. */
static size_t cpus_used(json_t *pl)
{
	bool seen[4096] = { false };
	size_t n = 0;

	for (int r = 0; r < ZC_ROLE_NR; r++) {
		json_t *c;
		size_t i;

		json_array_foreach(json_object_get(json_object_get(pl, zc_role_names[r]), "cpus"), i, c) {
			json_int_t cpu = json_integer_value(c);

			if (cpu >= 0 && cpu < (json_int_t)ZC_ARRAY_SIZE(seen) && !seen[cpu]) {
				seen[cpu] = true;
				n++;
			}
		}
	}
	return n;
}

bool zc_run_unsaturated(json_t *run, bool advice, char *buf, size_t len)
{
	double frac = zc_an_busy_frac(run);
	json_t *pl = json_object_get(run, "placement"), *k = json_object_get(run, "key");
	/* The DUT waits for what feeds it: the source, or for a source DUT the sink. */
	const char *feeder = strcmp(zc_an_dut_role(run), "source") ? "source" : "sink";
	long long usable = zc_an_int(pl, "usable_cpus"), conns = zc_an_int(k, "connections") ?: 1;
	long long fw = zc_an_int(json_object_get(pl, feeder), "workers") ?: 1;
	size_t used = cpus_used(pl);
	int n;

	buf[0] = 0;
	if (!(frac < ZC_SATURATED_FRAC))
		return false;
	n = snprintf(buf, len, "DUT not saturated: %.2f", frac);
	if (!advice || n < 0 || (size_t)n >= len)
		return true;
	if (usable > 0 && (long long)used < usable)
		snprintf(buf + n, len - n, " (load it: %s_workers = %lld, or connections = %lld; "
			 "%lld of %lld usable CPUs are free)", feeder, fw + usable - (long long)used,
			 conns * 2, usable - (long long)used, usable);
	else
		snprintf(buf + n, len - n, " (no free CPU here for more %s workers; connections = "
			 "%lld may load it, a machine with more cores will)", feeder, conns * 2);
	return true;
}

void zc_print_busy_pair(FILE *f, double bn, double bd, int width, bool only_unsaturated)
{
	bool un = bn < ZC_SATURATED_FRAC, ud = bd < ZC_SATURATED_FRAC;
	char line[256], a[16] = "?", b[16] = "?";

	if ((isnan(bn) && isnan(bd)) || (only_unsaturated && !un && !ud))
		return;
	if (!isnan(bn))
		snprintf(a, sizeof(a), "%.2f", bn);
	if (!isnan(bd))
		snprintf(b, sizeof(b), "%.2f", bd);
	snprintf(line, sizeof(line), "    DUT busy %s / %s of a core%s%s", a, b,
		 un || ud ? ": NOT SATURATED " : "",
		 un && ud ? "(both sides)" : un ? "(numerator)" : ud ? "(denominator)" : "");
	zc_put_fitted(f, line, width, 6);
}
