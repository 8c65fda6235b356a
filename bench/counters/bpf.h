/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF accounting program (bpf/acct.bpf.c) as counters.c sees it:
 * loaded, attached and read by counters_bpf.c.
 */
#ifndef ZC_COUNTERS_BPF_H
#define ZC_COUNTERS_BPF_H

#include "lib/zcbench.h"

#include <linux/types.h>

#include "counters/bpf/acct.h"

struct zc_bpf;

/* The accounting programs, in counters_bpf.c's attach order. */
#define ZC_BPF_NPROGS 9
extern const char *const zc_bpf_prog_names[ZC_BPF_NPROGS];

/* Load/attach the accounting program; 0 or -errno, why in
 * why. zc_bpf_acct() points at the live counters (mmapped .bss), having
 * brought the kernel's softirq figures up to date from the calling thread
 * (one bpf() call, not counted); optional tracepoints that would not attach
 * are listed in missing. */
int zc_bpf_open(struct zc_bpf **out, uint32_t tid, int cpu, char *why, size_t whylen,
		char *copy_iter_why, size_t cilen, char *missing, size_t mlen);
const struct zc_acct *zc_bpf_acct(const struct zc_bpf *b);
/* Why syscalls are not timed (sys_enter left out for its cost), "" if timed;
 * why softirq time is the kernel's tick-sampled figure (acct.softirq_tick_ns)
 * rather than timed softirq by softirq, "" if timed. */
const char *zc_bpf_sys_time_why(const struct zc_bpf *b);
const char *zc_bpf_softirq_why(const struct zc_bpf *b);
/* Run count and time of each program (zc_bpf_prog_names order); with
 * ZC_BPF_STATS=1 the time is net of the stats' own clock reads; 0/-errno. */
int zc_bpf_prog_stats(const struct zc_bpf *b, uint64_t *runs, uint64_t *ns);
/* Detach every attached program (on = false), or attach again what was
 * detached (on = true), from any thread: make bench-overhead's sliced way
 * (counters/toggle.c). 0 or -errno (a program that would not attach again). */
int zc_bpf_attach(struct zc_bpf *b, bool on);
/* Turn on the kernel's BPF run-time stats while the fd is open; fd/-errno. */
int zc_bpf_enable_stats(void);
void zc_bpf_close(struct zc_bpf *b);

#endif
