// SPDX-License-Identifier: GPL-2.0
#include "lib/foreign.h"

#include <errno.h>
#include <math.h>

int zc_foreign_busy(double core_busy_s, double dut_threads_s, double irq_softirq_s,
		    double window_s, int ncpus, double threshold, struct zc_foreign *f)
{
	double cap_s;

	*f = (struct zc_foreign){ .busy_s = NAN, .share = NAN, .disturbed = false };
	if (!(window_s > 0) || !isfinite(window_s) || ncpus < 1 ||
	    !(threshold >= 0 && threshold <= 1))
		return -EDOM;
	if (isnan(core_busy_s) || isnan(dut_threads_s) || isnan(irq_softirq_s))
		return -ENODATA;
	if (!(core_busy_s >= 0 && dut_threads_s >= 0 && irq_softirq_s >= 0) ||
	    !isfinite(core_busy_s + dut_threads_s + irq_softirq_s))
		return -EDOM;
	cap_s = window_s * ncpus;
	f->busy_s = fmin(fmax(core_busy_s - dut_threads_s - irq_softirq_s, 0), cap_s);
	f->share = f->busy_s / cap_s;
	f->disturbed = f->share > threshold;
	return 0;
}
