// SPDX-License-Identifier: GPL-2.0
/*
 * Per-role kernel accounting (issue 4), CO-RE, raw tracepoints only (this
 * kernel has no kprobes; raw tracepoints need no tracefs and skip the perf
 * buffer copy of the classic ones, which keeps the cost per syscall low).
 *
 * Every counter lives in .bss, which libbpf mmaps: the role reads it at the
 * window edges with a memcpy, no syscall. A role is one thread, so the
 * syscall state is one global filtered on its tid; softirqs are filtered on
 * its CPU. Layout shared with userspace in acct.h.
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
/* Syscall numbers (this arch's) whose return value is a byte count. */
const volatile __u64 byte_nr_mask[ZC_ACCT_SYS_NR / 64];
/* write- and read-family syscalls whose first argument is an fd that may be
 * a pipe or a file: their bytes are copies from or to user memory. */
const volatile __u64 pipe_w_mask[ZC_ACCT_SYS_NR / 64];
const volatile __u64 pipe_r_mask[ZC_ACCT_SYS_NR / 64];

struct zc_acct acct;

/* Syscall in flight on the role's thread. */
static __u64 sys_t0;
static __s64 sys_nr = -1;
static __u32 send_kinds;	/* ZC_SEND_* seen by tcp_sendmsg_locked during it */
static __u32 sys_fd_kind;	/* FD_PIPE or FD_FILE, for read/write-family calls */
static bool sys_fd_write;	/* ... writing to it (else reading from it) */

#define FD_PIPE 1
#define FD_FILE 2
static __u64 sirq_t0;
static __u32 sirq_vec;

#define MSG_ZEROCOPY_FLAG	0x4000000	/* uapi MSG_ZEROCOPY */
#define MSG_SPLICE_PAGES_FLAG	0x8000000	/* include/linux/socket.h, since 6.5 */

/*
 * Plain adds, not atomics: each counter has one writer, the role's thread
 * (tid-filtered) or its CPU (softirqs do not nest), and the reader copies at
 * the window edges; a lock prefix per add is measurable per syscall.
 */
#define ADD(x, v) ((x) += (v))

static __always_inline bool mine(void)
{
	return (__u32)bpf_get_current_pid_tgid() == target_tid;
}

static __always_inline bool in_mask(const volatile __u64 *mask, long nr)
{
	return nr >= 0 && nr < ZC_ACCT_SYS_NR &&
	       ((mask[(nr >> 6) & (ZC_ACCT_SYS_NR / 64 - 1)] >> (nr & 63)) & 1);
}

#define S_IFMT_ 00170000
#define S_IFIFO_ 0010000
#define S_IFREG_ 0100000

/* FD_PIPE, FD_FILE or 0 (a socket: its copies are seen by the skb and TCP
 * tracepoints). current->files->fdt->fd[fd]->f_inode->i_mode, with CO-RE. */
static __always_inline int fd_kind(long fd)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = NULL;
	umode_t mode;

	if (fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
		return 0;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	if (!f)
		return 0;
	mode = BPF_CORE_READ(f, f_inode, i_mode) & S_IFMT_;
	return mode == S_IFIFO_ ? FD_PIPE : mode == S_IFREG_ ? FD_FILE : 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(zc_sys_enter, struct pt_regs *regs, long id)
{
	if (!mine())
		return 0;
	sys_nr = id;
	send_kinds = 0;
	sys_fd_kind = 0;
	if (in_mask(pipe_w_mask, id) || in_mask(pipe_r_mask, id)) {
		sys_fd_kind = fd_kind(PT_REGS_PARM1_CORE_SYSCALL(regs));
		sys_fd_write = in_mask(pipe_w_mask, id);
	}
	sys_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(zc_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 dt;
	__s64 nr = sys_nr;

	if (!mine() || nr < 0)
		return 0;
	dt = bpf_ktime_get_ns() - sys_t0;
	sys_nr = -1;
	ADD(acct.sys_total, 1);
	if (nr < ZC_ACCT_SYS_NR) {
		struct zc_acct_sys *s = &acct.sys[nr & (ZC_ACCT_SYS_NR - 1)];

		ADD(s->count, 1);
		ADD(s->time_ns, dt);
		if (ret > 0 && (byte_nr_mask[(nr >> 6) & (ZC_ACCT_SYS_NR / 64 - 1)] >> (nr & 63)) & 1)
			ADD(s->bytes, ret);
		if (ret < 0)
			ADD(s->errors, 1);
	}
	if (ret > 0 && sys_fd_kind == FD_PIPE) {
		if (sys_fd_write)
			ADD(acct.tx_pipe_copy_bytes, ret);
		else
			ADD(acct.rx_pipe_copy_bytes, ret);
	} else if (ret > 0 && sys_fd_kind == FD_FILE) {
		if (sys_fd_write)
			ADD(acct.tx_file_copy_bytes, ret);
		else
			ADD(acct.rx_file_copy_bytes, ret);
	}
	/* Attribute the bytes a send-side syscall moved by how TCP took them. */
	if (ret > 0 && send_kinds) {
		if (send_kinds & ZC_SEND_COPY)
			ADD(acct.tx_copy_bytes, ret);
		else if (send_kinds & ZC_SEND_ZEROCOPY)
			ADD(acct.tx_zerocopy_bytes, ret);
		else
			ADD(acct.tx_splice_pages_bytes, ret);
	}
	return 0;
}

SEC("raw_tp/softirq_entry")
int BPF_PROG(zc_softirq_entry, unsigned int vec)
{
	if ((__s32)bpf_get_smp_processor_id() != target_cpu)
		return 0;
	sirq_vec = vec;
	sirq_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp/softirq_exit")
int BPF_PROG(zc_softirq_exit, unsigned int vec)
{
	__u64 t0 = sirq_t0;

	if ((__s32)bpf_get_smp_processor_id() != target_cpu || !t0 || vec != sirq_vec)
		return 0;
	sirq_t0 = 0;
	if (vec < ZC_ACCT_SOFTIRQ_NR) {
		ADD(acct.softirq[vec].count, 1);
		ADD(acct.softirq[vec].time_ns, bpf_ktime_get_ns() - t0);
	}
	return 0;
}

SEC("raw_tp/skb_copy_datagram_iovec")
int BPF_PROG(zc_skb_copy, const struct sk_buff *skb, int len)
{
	if (!mine() || len <= 0)
		return 0;
	ADD(acct.rx_copy_calls, 1);
	ADD(acct.rx_copy_bytes, len);
	return 0;
}

SEC("raw_tp/tcp_sendmsg_locked")
int BPF_PROG(zc_tcp_sendmsg_locked, const struct sock *sk, const struct msghdr *msg)
{
	unsigned int flags;

	if (!mine())
		return 0;
	flags = BPF_CORE_READ(msg, msg_flags);
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
	if (mine())
		ADD(acct.copy_to_iter_bytes, bytes);
	return 0;
}

SEC("kprobe/_copy_from_iter")
int BPF_KPROBE(zc_copy_from_iter, void *addr, unsigned long bytes)
{
	if (mine())
		ADD(acct.copy_from_iter_bytes, bytes);
	return 0;
}

SEC("kprobe/copy_page_to_iter")
int BPF_KPROBE(zc_copy_page_to_iter, struct page *page, unsigned long offset,
	       unsigned long bytes)
{
	if (mine())
		ADD(acct.copy_page_to_iter_bytes, bytes);
	return 0;
}
