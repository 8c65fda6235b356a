// SPDX-License-Identifier: GPL-2.0
/*
 * Per-role kernel accounting (issues 4 and 14), CO-RE, BTF-typed raw
 * tracepoints (tp_btf: arguments read with plain loads, no probe-read
 * helper; this kernel has no kprobes and refuses fentry).
 *
 * What it costs is set by how often a program runs more than by what it
 * does: on the 2-core VM of issue 14 (retpolines) a run costs 85-105 ns of
 * dispatch before its first instruction on a syscall tracepoint, 45-50 ns
 * on another one, a bpf_ktime_get_ns() 30-70 ns more, the body 10-70 ns
 * (cache misses in a real workload). Hence:
 *  - syscalls are counted at sys_exit alone: the syscall number is in the
 *    saved registers there, so no sys_enter run per syscall;
 *  - softirqs need no program per softirq: at each window edge the role
 *    runs zc_edge, which copies the kernel's own per-CPU softirq counts and
 *    tick-sampled softirq time of its CPU;
 *  - the detail that needs a run per event and two clock reads (per-syscall
 *    time: zc_sys_enter; per-vector softirq time: zc_softirq_*) is loaded
 *    only on request (ZC_BPF_DETAIL=1, counters_bpf.c);
 *  - tcp_sendmsg_locked stays: how TCP took a send's bytes (copied, pipe
 *    pages, pinned user pages) is the evidence a zero-copy path did not copy;
 *  - every program tests its thread or CPU first, against a constant of
 *    .rodata, before touching anything else;
 *  - no maps to look up: the counters live in .bss, which libbpf mmaps, and
 *    the role copies it at the window edges (no syscall). A role is one
 *    thread, so each counter has one writer (its thread, or its CPU for
 *    softirqs, which do not nest): plain adds, no per-CPU copies to sum.
 * Layout shared with userspace in acct.h.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "acct.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load (.rodata): the role's thread and CPU. */
const volatile __u32 target_tid;
const volatile __s32 target_cpu = -1;
/* rt_sigreturn leaves the syscall number at -1 in the saved registers (it
 * restores them, then forgets the syscall so it is not restarted). */
const volatile __s32 sigreturn_nr = -1;
/* ZC_SYS_* of each syscall number (this arch's): one byte, so a syscall's
 * exit reads one cache line of it. The write- and read-family ones have an
 * fd that may be a pipe or a file as first argument: their bytes are
 * copies from or to user memory. */
const volatile __u8 sys_kind[ZC_ACCT_SYS_NR];

/* Where the saved registers keep the syscall number at sys_exit; elsewhere
 * zc_sys_enter records it (and the loader always attaches it). */
#if defined(__TARGET_ARCH_x86)
#define EXIT_NR(regs) ((long)(regs)->orig_ax)
#elif defined(__TARGET_ARCH_arm64)
#define EXIT_NR(regs) ((long)(regs)->syscallno)
#endif
#ifdef EXIT_NR
const volatile bool nr_at_exit = true;
#else
const volatile bool nr_at_exit = false;
#endif
/* Set by the loader once the zc_softirq_* programs are attached: they count
 * and time softirqs, zc_edge leaves it to them. */
bool softirq_exact;
/* This arch's bpf(2), which runs zc_edge at each window edge. */
const volatile __s32 bpf_nr = -1;
/* Set by the loader where zc_edge cannot be run: sys_exit copies the
 * kernel's softirq figures instead, at each of the role's syscalls. */
bool softirq_at_exit;

/*
 * The kernel's own per-CPU softirq counts (kstat.softirqs[], what
 * /proc/softirqs shows) and tick-sampled softirq time (kernel_cpustat, the
 * softirq column of /proc/stat) of the role's CPU. Per-CPU variables are not
 * ksyms without CONFIG_KALLSYMS_ALL, so they are found from one that current
 * points at: this CPU's runqueue (se.cfs_rq->rq), plus the distance between
 * the variables in the per-CPU section, which the loader reads from the
 * kernel's BTF (0: not found, no copy).
 */
const volatile __s64 kstat_from_rq;
const volatile __s64 kcpustat_from_rq;

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

struct zc_acct acct;

/* Syscall in flight on the role's thread. */
static __u64 sys_t0;		/* zc_sys_enter's clock, 0: not timed */
static __s64 sys_nr = -1;	/* zc_sys_enter's number (arches without EXIT_NR) */
static __u32 send_kinds;	/* ZC_SEND_* seen by tcp_sendmsg_locked during it */

static __u64 sirq_t0;
static __u32 sirq_vec;

#define MSG_ZEROCOPY_FLAG	0x4000000	/* uapi MSG_ZEROCOPY */
#define MSG_SPLICE_PAGES_FLAG	0x8000000	/* include/linux/socket.h, since 6.5 */

#define ADD(x, v) ((x) += (v))

/* The role's thread? current's pid against the constant. */
static __always_inline bool mine(void)
{
	return bpf_get_current_task_btf()->pid == target_tid;
}

/* The same, where bpf_get_current_task_btf() may not be offered (kprobes). */
static __always_inline bool mine_kprobe(void)
{
	return (__u32)bpf_get_current_pid_tgid() == target_tid;
}

#define S_IFMT_ 00170000
#define S_IFIFO_ 0010000
#define S_IFREG_ 0100000

/* A read/write-family syscall moved ret bytes through fd: a pipe's or the
 * page cache's copy from or to user memory (a socket's copies are seen by
 * the skb and TCP tracepoints). current->files->fdt->fd[fd]->f_inode->i_mode,
 * read at sys_exit: the fd a syscall just used is still the same file. */
static __always_inline void pipe_file_bytes(long fd, bool wr, long ret)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = NULL;
	umode_t mode;

	if (fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
		return;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	if (!f)
		return;
	mode = BPF_CORE_READ(f, f_inode, i_mode) & S_IFMT_;
	if (mode == S_IFIFO_) {
		if (wr)
			ADD(acct.tx_pipe_copy_bytes, ret);
		else
			ADD(acct.rx_pipe_copy_bytes, ret);
	} else if (mode == S_IFREG_) {
		if (wr)
			ADD(acct.tx_file_copy_bytes, ret);
		else
			ADD(acct.rx_file_copy_bytes, ret);
	}
}

static __u64 rq_addr;	/* the role's CPU's runqueue, found once */

/* The kernel's softirq counts and time of the role's CPU, as of now. */
static __always_inline void softirq_from_kernel(void)
{
	const struct kernel_stat *ks;
	const struct kernel_cpustat *kc;
	__u64 rq = rq_addr;

	if (softirq_exact || !kstat_from_rq || (__s32)bpf_get_smp_processor_id() != target_cpu)
		return;
	if (!rq) {
		struct task_struct *t = bpf_get_current_task_btf();

		if (!bpf_core_field_exists(t->se.cfs_rq))
			return; /* no CONFIG_FAIR_GROUP_SCHED: the loader left kstat_from_rq at 0 */
		rq = rq_addr = (__u64)t->se.cfs_rq->rq;
	}
	ks = bpf_rdonly_cast((void *)(rq + kstat_from_rq), bpf_core_type_id_kernel(struct kernel_stat));
	kc = bpf_rdonly_cast((void *)(rq + kcpustat_from_rq),
			     bpf_core_type_id_kernel(struct kernel_cpustat));
	for (int v = 0; v < ZC_ACCT_SOFTIRQ_NR; v++)
		acct.softirq[v].count = ks->softirqs[v];
	acct.softirq_tick_ns = kc->cpustat[bpf_core_enum_value(enum cpu_usage_stat, CPUTIME_SOFTIRQ)];
}

/* Attached only to time syscalls (or where EXIT_NR is unknown). */
SEC("tp_btf/sys_enter")
int BPF_PROG(zc_sys_enter, struct pt_regs *regs, long id)
{
	if (!mine())
		return 0;
	sys_nr = id;
	sys_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(zc_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 kinds;
	long nr;

	if (!mine())
		return 0;
#ifdef EXIT_NR
	nr = EXIT_NR(regs);
	if (nr == -1)
		nr = sigreturn_nr;
#else
	nr = sys_nr;
	sys_nr = -1;
#endif
	if (softirq_at_exit)
		softirq_from_kernel();
	ADD(acct.sys_total, 1);
	if (nr >= 0 && nr < ZC_ACCT_SYS_NR) {
		struct zc_acct_sys *s = &acct.sys[nr & (ZC_ACCT_SYS_NR - 1)];

		ADD(s->count, 1);
		if (sys_t0) {
			ADD(s->time_ns, bpf_ktime_get_ns() - sys_t0);
			sys_t0 = 0;
		}
		if (ret < 0) {
			ADD(s->errors, 1);
		} else if (ret > 0) {
			__u8 kind = sys_kind[nr & (ZC_ACCT_SYS_NR - 1)];

			if (kind & ZC_SYS_BYTES)
				ADD(s->bytes, ret);
			if (kind & (ZC_SYS_PIPE_W | ZC_SYS_PIPE_R))
				pipe_file_bytes(PT_REGS_PARM1_CORE_SYSCALL(regs), kind & ZC_SYS_PIPE_W, ret);
		}
	}
	/* Attribute the bytes a send-side syscall moved by how TCP took them. */
	kinds = send_kinds;
	if (kinds) {
		send_kinds = 0;
		if (ret > 0) {
			if (kinds & ZC_SEND_COPY)
				ADD(acct.tx_copy_bytes, ret);
			else if (kinds & ZC_SEND_ZEROCOPY)
				ADD(acct.tx_zerocopy_bytes, ret);
			else
				ADD(acct.tx_splice_pages_bytes, ret);
		}
	}
	return 0;
}

/*
 * Run by the role at each window edge (BPF_PROG_TEST_RUN, counters_bpf.c's
 * zc_bpf_acct()), on its own CPU, just before it copies the counters: the
 * kernel's softirq figures as of the edge, at no cost per event. The bpf()
 * call that runs it is the harness's own edge work, like the perf reads kept
 * outside the window: its sys_exit, which follows, is cancelled here.
 */
SEC("raw_tp")
int zc_edge(void *ctx)
{
	if (!mine())
		return 0;
	ADD(acct.sys_total, -1);
	if (bpf_nr >= 0 && bpf_nr < ZC_ACCT_SYS_NR)
		ADD(acct.sys[bpf_nr & (ZC_ACCT_SYS_NR - 1)].count, -1);
	softirq_from_kernel();
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(zc_softirq_entry, unsigned int vec)
{
	if ((__s32)bpf_get_smp_processor_id() != target_cpu)
		return 0;
	sirq_vec = vec;
	sirq_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(zc_softirq_exit, unsigned int vec)
{
	__u64 t0;

	if ((__s32)bpf_get_smp_processor_id() != target_cpu)
		return 0;
	t0 = sirq_t0;
	if (!t0 || vec != sirq_vec)
		return 0;
	sirq_t0 = 0;
	if (vec < ZC_ACCT_SOFTIRQ_NR) {
		ADD(acct.softirq[vec].count, 1);
		ADD(acct.softirq[vec].time_ns, bpf_ktime_get_ns() - t0);
	}
	return 0;
}

SEC("tp_btf/skb_copy_datagram_iovec")
int BPF_PROG(zc_skb_copy, const struct sk_buff *skb, int len)
{
	if (!mine() || len <= 0)
		return 0;
	ADD(acct.rx_copy_calls, 1);
	ADD(acct.rx_copy_bytes, len);
	return 0;
}

SEC("tp_btf/tcp_sendmsg_locked")
int BPF_PROG(zc_tcp_sendmsg_locked, const struct sock *sk, const struct msghdr *msg)
{
	unsigned int flags;

	if (!mine())
		return 0;
	flags = msg->msg_flags;
	if (flags & MSG_SPLICE_PAGES_FLAG) {
		send_kinds |= ZC_SEND_SPLICE_PAGES;
		ADD(acct.tcp_send_splice_pages, 1);
	} else if (flags & MSG_ZEROCOPY_FLAG) {
		send_kinds |= ZC_SEND_ZEROCOPY;
		ADD(acct.tcp_send_zerocopy, 1);
	} else {
		send_kinds |= ZC_SEND_COPY;
		ADD(acct.tcp_send_copy, 1);
	}
	return 0;
}

/*
 * Where the kernel has kprobes (a distribution kernel), the bytes asked of
 * the generic copy helpers, on the role's thread. Loaded only there
 * (counters_bpf.c turns autoload off otherwise).
 */
SEC("kprobe/_copy_to_iter")
int BPF_KPROBE(zc_copy_to_iter, const void *addr, unsigned long bytes)
{
	if (mine_kprobe())
		ADD(acct.copy_to_iter_bytes, bytes);
	return 0;
}

SEC("kprobe/_copy_from_iter")
int BPF_KPROBE(zc_copy_from_iter, void *addr, unsigned long bytes)
{
	if (mine_kprobe())
		ADD(acct.copy_from_iter_bytes, bytes);
	return 0;
}

SEC("kprobe/copy_page_to_iter")
int BPF_KPROBE(zc_copy_page_to_iter, struct page *page, unsigned long offset,
	       unsigned long bytes)
{
	if (mine_kprobe())
		ADD(acct.copy_page_to_iter_bytes, bytes);
	return 0;
}
