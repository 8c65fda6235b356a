/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paired slices inside one window (run key alternate, issue 22): the DUT
 * role's workers run its mode (A) and the alternate mode (B) in turns on
 * the same connections, ABBA (zc_slice_side), each slice slice_ms long, and record per slice its bytes, the
 * workers' own CPU time (their thread CPU clocks) and the softirq and irq
 * time of their CPUs (/proc/stat, so work done in softirq still counts).
 * The window's timer cuts the slices (role_worker.c); a switch hands the
 * stream on whole (modes/alternate.c) between two slices. Private to the
 * role process.
 */
#ifndef ZC_RUN_SLICES_H
#define ZC_RUN_SLICES_H

#include "modes/mode.h"

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct role;
struct role_worker;

/*
 * The side slice k takes: 0 (A, the run's mode) or 1 (B, alternate). After
 * the first slice each turn is two slices (A B B A A B B A ...), or with
 * drop three whose first is left out (A [B] B B [A] A A [B] B B ...), so the
 * kept slices still alternate ABBA and each adjacent pair is taken once in
 * each order: a steady drift favours neither side.
 */
static inline int zc_slice_side(size_t k, bool drop)
{
	return k && ((k - 1) / (2 + drop)) % 2 == 0;
}

/* Is slice k the first after a switch (left out with drop)? */
static inline bool zc_slice_first_after_switch(size_t k, bool drop)
{
	return k && (k - 1) % (2 + drop) == 0;
}

/* One slice as one worker saw it. */
struct zc_slice_rec {
	int side;
	double t0, t1;			/* CLOCK_MONOTONIC seconds */
	uint64_t bytes, cpu_ns;		/* the worker's bytes and thread CPU time */
	uint64_t sirq_ns;		/* softirq + irq of its CPU (/proc/stat ticks) */
	uint64_t busy_ns;		/* its CPU's busy time, softirq included (ticks) */
	bool cs_ok;
};

/* A worker's second set of connections and its slices. */
struct zc_wslices {
	struct zc_conns alt;		/* the inactive side's set (same io array) */
	struct zc_io *spare;		/* per connection: the inactive side's mode state */
	int (*fl)[3][2];		/* per connection: file status flags of in_fd,
					 * out_fd before setup, after A's, after B's */
	int cur;			/* the side in w->set and the io's now */
	bool alt_setup;			/* B's setup ran (its teardown is due) */
	size_t n;
	struct zc_slice_rec *rec;	/* ZC_SLICES_MAX */
};

struct zc_slicing {
	const struct zc_mode *m[2];
	double slice_s;
	size_t nslices;
	bool drop;
	struct zc_wslices *w;		/* per worker */
};

/* The run asks for slices and this is the DUT role: r->sl allocated. 0 or -errno. */
int zc_slices_init(struct role *r, char *err, size_t errlen);
/* Around worker w's setup of the run's mode: the flags before it
 * (presetup), then B's setup on the same connections (setup). 0 or -errno. */
void zc_slices_presetup(struct role *r, struct role_worker *w);
int zc_slices_setup(struct role *r, struct role_worker *w, char *err, size_t errlen);
/*
 * Worker w's window: slice k runs its side until flags[k] (set by the
 * timer), until *window_stop. Worker 0 kicks the others after each slice.
 * 0 on stop, 1 on EOF, -errno as zc_conns_pump.
 */
int zc_slices_window(struct role *r, struct role_worker *w, volatile sig_atomic_t *flags,
		     volatile sig_atomic_t *window_stop,
		     void (*kick)(struct role *r, const struct role_worker *self));
/* After the window: back to A (flushing B) for the tail. 0 or -errno. */
int zc_slices_end(struct role *r, struct role_worker *w);
/* Before w's teardown of A: B's teardown (its mode report dropped). */
void zc_slices_teardown(struct role *r, struct role_worker *w);
/* The role report's "slices", "slice_drop" and "slice_setup". */
void zc_slices_json(struct role *r, json_t *out);
void zc_slices_free(struct role *r);

#endif
