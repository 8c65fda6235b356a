/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The derived figures, computed here and nowhere else: a sample's metrics
 * (metrics.c), a role's workers (the role's report) and the controller's
 * live intervals (watch) all call these, so Gbit/s, busy cores, Gbit/s per
 * core, busy fraction and service demand mean one formula everywhere.
 * Each returns NAN when its denominator is not positive; a caller that
 * prints 0 or null there says so itself.
 */
#ifndef ZC_METRICS_FIGURES_H
#define ZC_METRICS_FIGURES_H

#include <math.h>

/* Bits per second / 1e9 from bytes moved over secs. */
static inline double zc_fig_gbps(double bytes, double secs)
{
	return secs > 0 ? bytes * 8 / secs / 1e9 : NAN;
}

/* Busy cores: busy CPU seconds (/proc/stat, softirq included) per second. */
static inline double zc_fig_busy_cores(double busy_s, double secs)
{
	return secs > 0 ? busy_s / secs : NAN;
}

/* Gbit/s per busy core. */
static inline double zc_fig_per_core(double gbps, double cores)
{
	return cores > 0 ? gbps / cores : NAN;
}

/* How busy ncpu CPUs were, 0..1. */
static inline double zc_fig_busy_frac(double busy_s, double secs, double ncpu)
{
	return secs > 0 && ncpu > 0 ? busy_s / secs / ncpu : NAN;
}

/* netperf's service demand: busy microseconds per KiB moved. */
static inline double zc_fig_service_demand(double busy_s, double bytes)
{
	return bytes > 0 ? busy_s * 1e6 / (bytes / 1024) : NAN;
}

#endif
