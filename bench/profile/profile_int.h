/* SPDX-License-Identifier: GPL-2.0 */
/* Inside profile/: the two backends and the symbol tables the sampler needs. */
#ifndef ZC_PROFILE_INT_H
#define ZC_PROFILE_INT_H

#include "profile/profile.h"

#include <sys/types.h>

/* "1,3,5" for perf -C. */
void zc_profile_cpulist(const int *cpus, int n, char *out, size_t len);
/* Keep pid (0: the calling thread) off cpus when another CPU is online: 0/-errno. */
int zc_profile_keep_off(pid_t pid, const int *cpus, int n);
/* Why CPU-wide sampling failed with errno err, in words. */
void zc_profile_why(int err, const char *what, char *why, size_t len);

/* ---- perf record, driven through its control FIFO (perf_tool.c) ---- */

struct zc_perf_tool {
	pid_t pid;
	int ctl_fd, ack_fd;
	char dir[4096 - 64];
	char data[4096];	/* DIR/perf.data */
};

bool zc_perf_tool_usable(char *version, size_t len);	/* `perf --version` runs */
/* perf record of cpus with events off, ready for "enable": 0/-errno. */
int zc_perf_tool_open(struct zc_perf_tool *t, const int *cpus, int n, int freq_hz,
		      const char *event, const char *dir, char *why, size_t len);
int zc_perf_tool_ctl(struct zc_perf_tool *t, const char *cmd);	/* waits for the ack: 0/-errno */
/* Ends perf record, folds `perf script` into out: 0/-errno. */
int zc_perf_tool_close(struct zc_perf_tool *t, struct zc_stacks *out, char *why, size_t len);

/* ---- our own sampler: perf_event_open rings, a reader thread (sampler.c) ---- */

struct zc_sampler;
int zc_sampler_open(struct zc_sampler **out, const int *cpus, int n, int freq_hz, bool hw,
		    char *why, size_t len);					/* 0/-errno */
int zc_sampler_enable(struct zc_sampler *s, bool on);				/* 0/-errno */
/* Stops the thread, moves what it folded into out, frees s: 0/-errno. lost:
 * records the kernel dropped (ring full). */
int zc_sampler_close(struct zc_sampler *s, struct zc_stacks *out, uint64_t *lost);

/* ---- symbols (symbols.c) ---- */

struct zc_ksym {
	uint64_t addr;
	const char *name;
};
struct zc_ksyms {
	struct zc_ksym *v;
	size_t n;
	char *text;	/* /proc/kallsyms, names point into it */
};
/* /proc/kallsyms sorted: 0, -EPERM when the addresses are hidden (kptr_restrict), -errno. */
int zc_ksyms_load(struct zc_ksyms *k);
const char *zc_ksyms_find(const struct zc_ksyms *k, uint64_t addr);	/* NULL: none */
void zc_ksyms_free(struct zc_ksyms *k);

struct zc_usyms;	/* one process's maps and ELF symbols (elfutils' libdwfl) */
struct zc_usyms *zc_usyms_open(pid_t pid);	/* NULL: gone, or no maps (a kernel thread) */
/* Symbol at ip into out ("[libc.so.6]" when only the file is known): 0, -ENOENT. */
int zc_usyms_find(struct zc_usyms *u, uint64_t ip, char *out, size_t len);
void zc_usyms_close(struct zc_usyms *u);

#endif
