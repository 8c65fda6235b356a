/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench-overhead's sliced way of measuring what the BPF accounting
 * costs (issue 14): inside one window, a thread on a CPU the role's workers
 * do not use detaches the programs and attaches them again, slice after
 * slice (on, off, off, on, on, off, ...: ABBA, so a steady drift favours
 * neither), and records each slice's CPU time of the measured thread and the
 * bytes it moved. Adjacent on/off slices are a few hundred milliseconds
 * apart, so the drift of a shared machine, which makes whole runs 10-30%
 * apart here, mostly cancels in their ratio. Only with ZC_BPF_TOGGLE_MS in
 * the role's environment; the window's counters then cover its "on" slices
 * only, and the role says so.
 */
#ifndef ZC_COUNTERS_TOGGLE_H
#define ZC_COUNTERS_TOGGLE_H

#include "counters/bpf.h"

#include <jansson.h>
#include <time.h>

struct zc_toggle;

/* The slice length asked for in ZC_BPF_TOGGLE_MS, in seconds; 0 when unset.
 * -1 when set but not a whole number of milliseconds in 10..10000. */
double zc_toggle_slice_s(void);

/* Start the toggling thread for set b, the measured thread's CPU clock and
 * a function that returns the bytes the measured thread has moved so far
 * (read racily from that other thread: whole 8-byte loads). avoid[0..navoid)
 * are the CPUs it must not run on. Waits for zc_toggle_window(t, true). 0 or
 * -errno, why in why. */
int zc_toggle_start(struct zc_toggle **out, struct zc_bpf *b, clockid_t clock,
		    uint64_t (*bytes)(void *arg), void *arg, const int *avoid, int navoid,
		    double slice_s, char *why, size_t whylen);
/* The window opens (on = true) or closes (false): a plain store, no syscall,
 * so the measured thread may call it at its edges. */
void zc_toggle_window(struct zc_toggle *t, bool open);
/* Join the thread (the programs attached again) and give its slices:
 * {"slice_s", "slices": [[on, seconds, cpu_s, bytes], ...], "error"}. */
json_t *zc_toggle_finish(struct zc_toggle *t);

#endif
