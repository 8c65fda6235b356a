// SPDX-License-Identifier: GPL-2.0
/* The alternate key against the run it is set in (cfg.h). */
#include "config/cfg.h"
#include "modes/mode.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

int zc_cfg_alternate_check(const struct zc_cfg *cfg, char *err, size_t errlen)
{
	/* zc_cfg_dut's answer, without a call back into cfg.c (no circle). */
	int dut = cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
	const struct zc_mode *a = zc_mode_find(dut, cfg->mode[dut]), *b;
	const char *why;
	double slices;

	if (!cfg->alternate[0])
		return 0;
	b = zc_mode_find(dut, cfg->alternate);
	if (!b) {
		snprintf(err, errlen, "key 'alternate': '%s' is not a %s mode (the DUT's role in "
			 "this run; zcbench list shows them)", cfg->alternate, zc_role_names[dut]);
		return -EINVAL;
	}
	for (int i = 0; i < 2; i++) {
		const struct zc_mode *m = i ? b : a;

		if (!m)
			continue;	/* an unknown mode is said by its own key */
		if ((why = zc_mode_alternate_why(m))) {
			snprintf(err, errlen, "key 'alternate': %s mode '%s' cannot take turns with "
				 "another on the same connections: %s", zc_role_names[dut], m->name, why);
			return -EINVAL;
		}
		if ((why = zc_conns_unsupported(m, (size_t)cfg->connections))) {
			snprintf(err, errlen, "key 'alternate': %s mode '%s' cannot serve the run's "
				 "%ld connections: %s", zc_role_names[dut], m->name, cfg->connections,
				 why);
			return -EINVAL;
		}
	}
	if (a && ((a->flags ^ b->flags) & ZC_MODE_STATIC_CHUNK)) {
		snprintf(err, errlen, "key 'alternate': %s re-sends one chunk (its stream's period is "
			 "the chunk) and %s does not: the sink could not verify one stream of both",
			 (a->flags & ZC_MODE_STATIC_CHUNK) ? a->name : b->name,
			 (a->flags & ZC_MODE_STATIC_CHUNK) ? b->name : a->name);
		return -EINVAL;
	}
	if ((b->flags & ZC_MODE_PAGE_CHUNK) && cfg->chunk % (uint64_t)sysconf(_SC_PAGESIZE)) {
		snprintf(err, errlen, "key 'alternate': %s mode '%s' needs a chunk that is a multiple "
			 "of the page size (%ld), got %llu", zc_role_names[dut], b->name,
			 sysconf(_SC_PAGESIZE), (unsigned long long)cfg->chunk);
		return -EINVAL;
	}
	slices = cfg->duration_s * 1000 / cfg->slice_ms;
	if (fabs(slices - round(slices)) > 1e-6 || round(slices) > ZC_SLICES_MAX) {
		snprintf(err, errlen, "key 'alternate': duration %g s must be a whole number of "
			 "slices of slice_ms = %ld (so every role's window is as long), at most %d",
			 cfg->duration_s, cfg->slice_ms, ZC_SLICES_MAX);
		return -EINVAL;
	}
	if (cfg->duration_s * 1000 < 4 * cfg->slice_ms) {
		snprintf(err, errlen, "key 'alternate': duration %g s holds fewer than four slices "
			 "of slice_ms = %ld (one ABBA round)", cfg->duration_s, cfg->slice_ms);
		return -EINVAL;
	}
	return 0;
}
