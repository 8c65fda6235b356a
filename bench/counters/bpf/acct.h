/* SPDX-License-Identifier: GPL-2.0 */
/* Counters shared by bench/bpf/acct.bpf.c and bench/counters_bpf.c. */
#ifndef ZC_BPF_ACCT_H
#define ZC_BPF_ACCT_H

#define ZC_ACCT_SYS_NR 512		/* syscall numbers tracked one by one */
#define ZC_ACCT_SOFTIRQ_NR 10		/* NR_SOFTIRQS */

/* What a syscall number is, for the accounting (acct.bpf.c's sys_kind[]). */
#define ZC_SYS_BYTES	0x1	/* returns a byte count */
#define ZC_SYS_PIPE_W	0x2	/* write family: copies user memory to its fd (pipe, file) */
#define ZC_SYS_PIPE_R	0x4	/* read family: copies its fd's data to user memory */

#define ZC_SEND_COPY		0x1	/* tcp_sendmsg_locked copying user memory */
#define ZC_SEND_SPLICE_PAGES	0x2	/* MSG_SPLICE_PAGES: pipe pages attached */
#define ZC_SEND_ZEROCOPY	0x4	/* MSG_ZEROCOPY: user pages pinned */

struct zc_acct_sys {
	__u64 count, time_ns, bytes, errors;
};

struct zc_acct_softirq {
	__u64 count, time_ns;
};

struct zc_acct {
	__u64 sys_total;
	struct zc_acct_sys sys[ZC_ACCT_SYS_NR];
	struct zc_acct_softirq softirq[ZC_ACCT_SOFTIRQ_NR];
	__u64 rx_copy_calls, rx_copy_bytes;
	__u64 tcp_send_copy, tcp_send_splice_pages, tcp_send_zerocopy;
	__u64 tx_copy_bytes, tx_splice_pages_bytes, tx_zerocopy_bytes;
	/* read/write-family syscalls on a pipe or a regular file: copies between
	 * user memory and pipe or page-cache pages (an emulated "after" vmsplice
	 * is a writev into the pipe; sendfile-as-copy preads the file) */
	__u64 tx_pipe_copy_bytes, rx_pipe_copy_bytes;
	__u64 tx_file_copy_bytes, rx_file_copy_bytes;
	/* kprobes, where the kernel has them: bytes asked of the copy helpers */
	__u64 copy_to_iter_bytes, copy_from_iter_bytes, copy_page_to_iter_bytes;
	/* Without the softirq programs: the kernel's own softirq time of the
	 * role's CPU (kernel_cpustat, sampled by the tick), read at each of the
	 * role's syscall exits; softirq[].count then holds the kernel's per-CPU
	 * counts (kstat) and softirq[].time_ns stays 0. */
	__u64 softirq_tick_ns;
};

#endif
