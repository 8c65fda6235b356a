/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-role counters (issue 4): perf_event_open counters on the role's
 * thread and libbpf tracepoint accounting (syscalls, softirq time, bytes the
 * kernel copied), snapshotted at the window edges only and reported under
 * the role's "counters" key. Whatever the kernel or the privileges refuse is
 * recorded as null with the reason; it never fails the run.
 */
#ifndef ZC_COUNTERS_H
#define ZC_COUNTERS_H

#include "lib/zcbench.h"

#include <jansson.h>
#include <sys/types.h>
#include <linux/types.h>

#include "counters/bpf.h"
#include "counters/syscalls.h"

/* --counters: which families to collect. */
#define ZC_CTR_PERF 0x1
#define ZC_CTR_BPF 0x2
/* "none", "perf", "bpf", "all" -> mask, or -EINVAL. */
int zc_counters_parse(const char *s);
extern const char *const zc_counters_choices; /* "none, perf, bpf, all" */

enum zc_perf_event {
	ZC_PERF_CYCLES, ZC_PERF_INSTRUCTIONS, ZC_PERF_CACHE_REFERENCES, ZC_PERF_CACHE_MISSES,
	ZC_PERF_LLC_LOAD_MISSES, ZC_PERF_BRANCH_MISSES,
	ZC_PERF_TASK_CLOCK, ZC_PERF_CONTEXT_SWITCHES, ZC_PERF_CPU_MIGRATIONS, ZC_PERF_PAGE_FAULTS,
	ZC_PERF_NR
};

struct zc_perf_snap {
	bool ok[ZC_PERF_NR];
	uint64_t value[ZC_PERF_NR], enabled_ns[ZC_PERF_NR], running_ns[ZC_PERF_NR];
};

struct zc_counters {
	int mask;			/* ZC_CTR_* requested */
	int perf_fd[ZC_PERF_NR];	/* -1: not counting, reason in perf_why */
	char perf_why[ZC_PERF_NR][256];
	char perf_event_name[ZC_PERF_NR][48];	/* libpfm4 name used instead of the generic one */
	bool perf_user_only;		/* kernel counting refused: user space only */
	struct zc_bpf *bpf;		/* NULL: not loaded, reason in bpf_why */
	char bpf_why[256];
	char copy_iter_why[128];	/* why no copy-helper kprobes, "" when attached */
	char bpf_missing[256];		/* optional tracepoints that did not attach */
	int stats_fd;			/* BPF_ENABLE_STATS while held (ZC_BPF_STATS=1) */
	bool prog_stats;		/* run-time stats on (ours or kernel.bpf_stats_enabled) */
	int cpu;
};

struct zc_counters_snap {
	struct zc_perf_snap perf;
	bool acct_ok;
	struct zc_acct acct;
	/* the programs' own run time (kernel BPF stats), when enabled */
	bool prog_ok;
	uint64_t prog_runs[ZC_BPF_NPROGS], prog_ns[ZC_BPF_NPROGS];
};

/* Open what mask asks for on the calling thread (pinned to cpu, -1: any).
 * Never fails: what cannot be had is recorded with its reason. */
void zc_counters_open(struct zc_counters *c, int mask, int cpu);
/* The same for another thread tid (a peer program's), from any thread. */
void zc_counters_open_tid(struct zc_counters *c, int mask, int cpu, pid_t tid);
/* Window edge: read every counter (perf reads + a memcpy of BPF memory);
 * closing: the window's end (the BPF copy goes first, not last). */
void zc_counters_snap(const struct zc_counters *c, struct zc_counters_snap *s, bool closing);
/* The role's "counters" object for the window [a, b] that moved bytes. */
json_t *zc_counters_json(const struct zc_counters *c, const struct zc_counters_snap *a,
			 const struct zc_counters_snap *b, uint64_t bytes, double window_s);
void zc_counters_close(struct zc_counters *c);

/* Derivations, pure (unit-tested). NAN where undefined. */
/* Counter delta scaled for multiplexing; false if either side is missing. */
bool zc_perf_delta(const struct zc_perf_snap *a, const struct zc_perf_snap *b, int ev,
		   double *out);
double zc_per_mb(double count, uint64_t bytes);		/* count per 1e6 bytes */
double zc_ratio(double num, double den);		/* num / den, den > 0 */
void zc_acct_delta(const struct zc_acct *a, const struct zc_acct *b, struct zc_acct *d);
uint64_t zc_acct_softirq_ns(const struct zc_acct *d);



#endif
