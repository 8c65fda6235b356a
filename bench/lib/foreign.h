/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disturbed samples: time on the DUT's cores during a window that neither the
 * DUT's threads nor the IRQ/softirq work on those cores account for. /proc/stat
 * counts another process's time on the core as busy, so without this a
 * neighbour looks like the DUT working harder. Pure arithmetic: the caller
 * reads /proc/stat, /proc/PID/task/STAR/stat and the softirq counters.
 */
#ifndef ZC_FOREIGN_H
#define ZC_FOREIGN_H

#include <stdbool.h>

/* A sample is disturbed above this share of the window (2%). */
#define ZC_FOREIGN_SHARE_MAX 0.02

struct zc_foreign {
	double busy_s;	/* foreign busy seconds, clamped to [0, window_s * ncpus]; NaN: unknown */
	double share;	/* busy_s / (window_s * ncpus), in [0, 1]; NaN: unknown */
	bool disturbed;	/* share > threshold (false when unknown) */
};

/*
 * foreign = core_busy_s - dut_threads_s - irq_softirq_s, all summed over the
 * ncpus DUT cores over one window of window_s seconds: core_busy_s from
 * /proc/stat (user+nice+system+irq+softirq, zc_cpustat_busy), dut_threads_s
 * the DUT's threads' utime+stime, irq_softirq_s the irq+softirq time on those
 * cores. The tick-based counters (USER_HZ) can make the difference slightly
 * negative or exceed the window, hence the clamping. A DUT thread's time on
 * another core is subtracted too, which can only hide a disturbance, never
 * invent one. A NaN input gives NaN busy_s and share, not disturbed, and
 * -ENODATA; 0, -EDOM (window_s <= 0, ncpus < 1, a negative or infinite input or
 * threshold outside [0, 1]; fields NaN)
 */
int zc_foreign_busy(double core_busy_s, double dut_threads_s, double irq_softirq_s,
		    double window_s, int ncpus, double threshold, struct zc_foreign *f);

#endif
