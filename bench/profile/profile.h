/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the device under test's cores spend the window: a sampling profile
 * of some CPUs, started and stopped at the window edges by a process on
 * another CPU (the controller), with kernel and user call chains.
 *
 * Backends: `perf record` (Debian's linux-perf) when it runs here, started
 * ahead of the window with its events disabled and switched on and off
 * through its control FIFO, so the edges cost a write and an ack; else our
 * own perf_event_open sampler (one ring per CPU, read by a thread of ours).
 * The event is the PMU's cycles where there is a PMU, else the software
 * cpu-clock event (a VM without a virtual PMU), and the summary says which.
 *
 * Wiring at a sample's window edges is four calls:
 *
 *   zc_profile_open(&p, &opts, why, len);    before GO: perf started, events off
 *   zc_profile_start(p);                     opening edge
 *   zc_profile_stop(p);                      closing edge
 *   json = zc_profile_close(p, why, len);    after the roles: fold, summarise, free
 *
 * What comes out is one folded-stacks file (Brendan Gregg's format, the
 * common currency of every backend), a flame graph SVG, and a summary in the
 * 0-day robot's names: perf-profile.self.cycles-pp.SYMBOL (share of the
 * samples with SYMBOL as the leaf) and perf-profile.children.cycles-pp.SYMBOL
 * (share with SYMBOL anywhere in the chain), in percent of every sample of
 * the profiled CPUs (idle included), plus the buckets below. LKP says
 * "cycles" whatever event it used; so do we, and "event" says the truth.
 */
#ifndef ZC_PROFILE_H
#define ZC_PROFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZC_PROFILE_CPUS_MAX 64
#define ZC_PROFILE_FREQ_HZ 999	/* perf's default; off the 1000 Hz tick */
#define ZC_PROFILE_TOP 25	/* symbols kept by self and by children share */

enum zc_profile_backend { ZC_PROFILE_AUTO, ZC_PROFILE_PERF, ZC_PROFILE_SAMPLER };

struct zc_profile_opts {
	int cpus[ZC_PROFILE_CPUS_MAX];
	int ncpus;
	const char *outdir;		/* made if missing: perf.data, stacks.folded, flamegraph.svg */
	int frequency_hz;		/* 0: ZC_PROFILE_FREQ_HZ */
	enum zc_profile_backend backend;
	int top;			/* 0: ZC_PROFILE_TOP */
	const char *comm;		/* summarise only this process name or pid (NULL: all) */
};

struct zc_profile;

/* Ready to sample opts->cpus with events off; call from a CPU not in them.
 * 0 or -errno (why says it: not permitted, no perf and no perf_event_open). */
int zc_profile_open(struct zc_profile **out, const struct zc_profile_opts *opts, char *why,
		    size_t len);
int zc_profile_start(struct zc_profile *p);	/* events on: 0 or -errno */
int zc_profile_stop(struct zc_profile *p);	/* events off: 0 or -errno */
/* Ends sampling, writes outdir/stacks.folded and outdir/flamegraph.svg, frees
 * p. The summary (zc_profile_summarise plus backend, event, cpus, window and
 * file paths), or NULL with why. */
json_t *zc_profile_close(struct zc_profile *p, char *why, size_t len);

/* The cycles event where the CPU has a PMU, else cpu-clock; note says why.
 * true when the hardware event opens on cpu. */
bool zc_profile_hw_event(int cpu, char *note, size_t len);

/* ---- folded stacks: "comm-pid;outermost;...;leaf COUNT", kernel frames "SYM_[k]" ---- */

struct zc_stacks {
	json_t *counts;		/* stack text -> integer samples */
	uint64_t total;
};

int zc_stacks_init(struct zc_stacks *s);				/* 0/-ENOMEM */
int zc_stacks_add(struct zc_stacks *s, const char *stack, uint64_t n);	/* 0/-ENOMEM */
int zc_stacks_read(struct zc_stacks *s, const char *path);		/* adds: 0/-errno */
int zc_stacks_write(const struct zc_stacks *s, const char *path);	/* atomic: 0/-errno */
void zc_stacks_free(struct zc_stacks *s);
/* `perf script -F comm,pid,tid,ip,sym,dso` output into s: 0/-errno (-EPROTO: not that shape). */
int zc_stacks_from_perf_script(struct zc_stacks *s, FILE *in);

/* ---- buckets: a few groups of a core's time a kernel developer reads ---- */

enum zc_bucket {
	ZC_BUCKET_USER_COPY,
	ZC_BUCKET_KERNEL_COPY,
	ZC_BUCKET_TCP_TX,
	ZC_BUCKET_TCP_RX,
	ZC_BUCKET_SOFTIRQ,
	ZC_BUCKET_SYSCALL,
	ZC_BUCKET_PIPE_SPLICE,
	ZC_BUCKET_SCHED_IDLE,
	ZC_BUCKET_OTHER,
	ZC_BUCKET_NR
};

struct zc_bucket_info {
	const char *key;	/* JSON key: "kernel_copy" */
	const char *label;	/* "kernel copy" */
	const char *colour;	/* "#2f5fbf": the flame graph's and the plots' */
	const char *abbr;	/* "k-copy": a narrow column's title */
	const char *what;	/* one line for docs and --help */
};
extern const struct zc_bucket_info zc_buckets[ZC_BUCKET_NR];

/* The bucket of one sample's stack, frames root first (comm excluded),
 * kernel frames carrying the "_[k]" suffix; *idle set when its leaf is the
 * idle loop (part of ZC_BUCKET_SCHED_IDLE). */
enum zc_bucket zc_bucket_of(const char *const *frames, size_t n, bool *idle);

/* The summary of s: {"samples", "comm", "idle_pct", "comms": {comm: pct},
 * "self": {LKP name: pct}, "children": {LKP name: pct}, "buckets": {key:
 * pct}}, top symbols by share (0: ZC_PROFILE_TOP), largest first. comm:
 * only the samples of that process name, or of that pid when all digits
 * (NULL: all; "comms" always shares of all, by name). NULL when out of
 * memory. */
json_t *zc_profile_summarise(const struct zc_stacks *s, int top, const char *comm);

/* ---- flame graph: a static SVG (no script, no web font), tooltips by <title> ---- */

/* 0/-errno; title goes in the heading. */
int zc_flamegraph_write(const struct zc_stacks *s, const char *title, FILE *f);
int zc_flamegraph_file(const struct zc_stacks *s, const char *title, const char *path);

int zc_cmd_profile(int argc, char **argv);

#endif
