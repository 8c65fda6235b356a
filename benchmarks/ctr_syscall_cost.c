// SPDX-License-Identifier: GPL-2.0
/*
 * What the BPF accounting adds to one syscall, measured where the noise of
 * a shared machine cannot hide it: a tight loop of getppid() (the cheapest
 * syscall), the best of many short trials, the configurations taking turns
 * round after round so that a burst of load elsewhere hits them all alike.
 *
 *   none       no programs
 *   own        the role's programs (tid matches: the full accounting path)
 *   other      a set filtered on another thread: what every syscall of the
 *              host pays per loaded set, i.e. the tracepoint dispatch itself
 *   own+2      own plus two other sets (counters_roles = all)
 *   own_detail own with the costly detail (ZC_BPF_DETAIL=1): per-syscall
 *              time, i.e. a sys_enter run and two clock reads per syscall
 *   empty_sys_exit     an empty program on raw_syscalls:sys_exit
 *   empty_task_rename  an empty program on task:task_rename, the loop being
 *              prctl(PR_SET_NAME) (against none_prctl): what a run costs
 *              on a tracepoint outside the syscall path (the softirq, skb
 *              and TCP ones), before its first instruction
 *
 * The loop runs pinned to one CPU, the one the sets watch for softirqs, as a
 * role's thread does.
 *
 * Then, with the kernel's BPF run-time stats on, the raw mean run time of
 * the own and the other set's sys_exit: the other's is almost only the two
 * clock reads the stats add around every run (with ZC_BPF_STATS=1 a role
 * takes them off with a twin set, counters_bpf.c; not here).
 *
 * Prints "CONFIG ns_per_syscall added_ns" and "stats PROGRAM mean_ns" lines
 * for make bench-overhead. Exit 77 where BPF cannot load.
 */
#include "counters/counters.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { C_NONE, C_OWN, C_OTHER, C_OWN2, C_DETAIL, C_EMPTY_SYS, C_NONE_PRCTL, C_EMPTY_TP, C_N };
static const char *const conf_name[C_N] = {
	"none", "own", "other", "own+2", "own_detail", "empty_sys_exit", "none_prctl",
	"empty_task_rename",
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double per_call_ns(long n, int trials, bool prctl_loop)
{
	double best = 1e18;

	for (int t = 0; t < trials; t++) {
		double t0 = now_ns();

		for (long i = 0; i < n; i++)
			if (prctl_loop)
				prctl(PR_SET_NAME, "ctr_syscall_cost");
			else
				syscall(SYS_getppid);
		double dt = (now_ns() - t0) / n;

		if (dt < best)
			best = dt;
	}
	return best;
}

static char why[256];
static int cpu = -1;

/* Load the sets configuration c asks for into b[3]; 0 or -errno. */
static int open_conf(int c, struct zc_bpf **b)
{
	uint32_t tid = (uint32_t)gettid();
	char ci[128], miss[256];
	int err = 0;

	b[0] = b[1] = b[2] = NULL;
	if (c == C_DETAIL)
		setenv("ZC_BPF_DETAIL", "1", 1);
	if (c == C_OWN || c == C_OWN2 || c == C_DETAIL)
		err = zc_bpf_open(&b[0], tid, cpu, why, sizeof(why), ci, sizeof(ci), miss, sizeof(miss));
	unsetenv("ZC_BPF_DETAIL");
	/* the other roles' sets watch the other CPUs */
	for (int i = 1; !err && i < (c == C_OWN2 ? 3 : c == C_OTHER ? 2 : 1); i++)
		err = zc_bpf_open(&b[i], tid + 1000000 + i, cpu + i, why, sizeof(why), ci, sizeof(ci),
				  miss, sizeof(miss));
	return err;
}

static void close_conf(struct zc_bpf **b)
{
	for (int i = 0; i < 3; i++)
		zc_bpf_close(b[i]);
}

/* "return 0" as a raw tracepoint program attached to tp; the link fd, or
 * -errno. */
static int attach_empty(const char *tp)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "zc_empty", "GPL", ret0, 2, NULL);
	int link;

	if (prog < 0)
		return -errno;
	link = bpf_raw_tracepoint_open(tp, prog);
	link = link < 0 ? -errno : link;
	close(prog); /* the link holds it */
	return link;
}

/* One configuration's loop, best of the trials. */
static double measure(int c, long n, struct zc_bpf **b)
{
	int link = -1;
	double t;

	if (c == C_EMPTY_SYS || c == C_EMPTY_TP) {
		link = attach_empty(c == C_EMPTY_SYS ? "sys_exit" : "task_rename");
		if (link < 0) {
			snprintf(why, sizeof(why), "empty raw tracepoint program: %s", strerror(-link));
			return -1;
		}
	} else if (open_conf(c, b)) {
		close_conf(b);
		return -1;
	}
	t = per_call_ns(n, 30, c == C_NONE_PRCTL || c == C_EMPTY_TP);
	if (link >= 0)
		close(link);
	else
		close_conf(b);
	return t;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000;
	int rounds = argc > 2 ? atoi(argv[2]) : 6;
	double best[C_N];
	struct zc_bpf *b[3];
	uint64_t runs[2][ZC_BPF_NPROGS], ns[2][ZC_BPF_NPROGS];
	cpu_set_t set;
	int stats_fd;

	if (n <= 0)
		n = 5000;
	/* the last CPU, where the proxy topology puts the device under test */
	cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		cpu = -1;
	if (rounds <= 0)
		rounds = 6;
	for (int c = 0; c < C_N; c++)
		best[c] = 1e18;
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < C_N; k++) {
			int c = (k + r) % C_N; /* a different order each round */
			double t = measure(c, n, b);

			if (t < 0) {
				printf("skip: %s\n", why);
				return 77;
			}
			if (t < best[c])
				best[c] = t;
		}
	}
	for (int c = 0; c < C_N; c++)
		printf("%s %.1f %.1f\n", conf_name[c], best[c],
		       best[c] - best[c == C_NONE_PRCTL || c == C_EMPTY_TP ? C_NONE_PRCTL : C_NONE]);

	/* The programs' own run time as BPF stats see it, own and other. */
	stats_fd = zc_bpf_enable_stats();
	if (stats_fd < 0) {
		printf("stats: unavailable: %s\n", strerror(-stats_fd));
		return 0;
	}
	if (open_conf(C_OTHER, b) || zc_bpf_open(&b[0], (uint32_t)gettid(), cpu, why, sizeof(why),
						 (char[128]){ 0 }, 128, (char[256]){ 0 }, 256)) {
		close_conf(b);
		printf("stats: unavailable: %s\n", why);
		return 0;
	}
	per_call_ns(n, 10, false);
	if (zc_bpf_prog_stats(b[0], runs[0], ns[0]) == 0 &&
	    zc_bpf_prog_stats(b[1], runs[1], ns[1]) == 0)
		for (int i = 0; i < 2; i++)
			printf("stats %s_sys_exit %.1f\n", i ? "other" : "own",
			       runs[i][1] ? (double)ns[i][1] / (double)runs[i][1] : 0.0);
	close_conf(b);
	close(stats_fd);
	return 0;
}
