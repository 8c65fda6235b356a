// SPDX-License-Identifier: GPL-2.0
/*
 * The buckets of a core's time: each sample goes to exactly one, so they
 * add up to 100%. Why one path costs less is then a few numbers: "copy -31
 * points, TCP transmit -4 ...". The rules, in order:
 *
 *  1. a leaf in the idle loop: scheduler and idle (and counted as idle);
 *  2. a kernel leaf that copies bytes (copy_user*, rep_movs*, memcpy,
 *     _copy_to/from_iter, skb copies): kernel copy;
 *  3. a user leaf in memcpy/memmove: user copy;
 *  4. anywhere under softirq processing (net_rx on loopback and veth runs
 *     the receiver's TCP on the sender's core): softirq;
 *  5. else the first kernel frame from the leaf up that names a bucket:
 *     TCP transmit, TCP receive, pipe and splice, scheduler, syscall layer;
 *  6. other (user code, memory management not under any of these ...).
 *
 * The patterns are shell globs on symbol names of Linux 6.x (x86-64 and
 * arm64 share most); a kernel that renames its copy routine shows up as
 * "other" growing, which the flame graph then explains.
 */
#include "profile/profile.h"
#include "lib/zcbench.h"

#include <fnmatch.h>
#include <string.h>

const struct zc_bucket_info zc_buckets[ZC_BUCKET_NR] = {
	[ZC_BUCKET_USER_COPY] = { "user_copy", "user copy", "#76b7e4", "u-copy",
				  "memcpy/memmove in user space (the leaf)" },
	[ZC_BUCKET_KERNEL_COPY] = { "kernel_copy", "kernel copy", "#2f5fbf", "k-copy",
				    "copy_user*, rep_movs*, memcpy, _copy_to/from_iter, skb copies "
				    "(the leaf, in the kernel)" },
	[ZC_BUCKET_TCP_TX] = { "tcp_tx", "TCP transmit", "#f28e2b", "tcp-tx",
			       "tcp_sendmsg and below: segmentation, IP and device transmit" },
	[ZC_BUCKET_TCP_RX] = { "tcp_rx", "TCP receive", "#edc948", "tcp-rx",
			       "tcp_recvmsg, tcp_rcv_*, ACK processing, socket reads" },
	[ZC_BUCKET_SOFTIRQ] = { "softirq", "softirq/net_rx", "#e15759", "softirq",
				"anything under softirq processing (net_rx_action, handle_softirqs)" },
	[ZC_BUCKET_SYSCALL] = { "syscall", "syscall entry/exit", "#b07aa1", "syscall",
				"entry/exit, fd lookup, the sys_* layer, epoll bookkeeping" },
	[ZC_BUCKET_PIPE_SPLICE] = { "pipe_splice", "pipe and splice", "#59a14f", "pipe",
				    "splice, vmsplice, tee and pipe buffer code" },
	[ZC_BUCKET_SCHED_IDLE] = { "sched_idle", "scheduler and idle", "#bab0ac", "sched",
				   "schedule, wake-ups, and the idle loop" },
	[ZC_BUCKET_OTHER] = { "other", "other", "#9c755f", "other", "user code and the rest" },
};

static const char *const idle_leaf[] = {
	"default_idle*", "*safe_halt*", "native_halt", "arch_cpu_idle*", "cpu_idle_poll*",
	"poll_idle", "intel_idle*", "acpi_idle*", "mwait_idle*", "cpuidle_enter*", "do_idle",
	"cpu_startup_entry", "amd_e400_idle", "psci_*idle*", "cpu_do_idle", NULL,
};
static const char *const kcopy_leaf[] = {
	"copy_user*", "__copy_user*", "rep_movs*", "*memcpy*", "*memmove*", "copy_page",
	"copy_mc_*", "_copy_to_iter*", "_copy_from_iter*", "copy_to_iter*", "copy_from_iter*",
	"copy_page_to_iter*", "copy_page_from_iter*", "_copy_to_user", "_copy_from_user",
	"raw_copy_*", "skb_copy_bits", "skb_copy_datagram*", "__skb_datagram_iter",
	"csum_partial_copy*", "csum_and_copy*", "__arch_copy_*", "copy_from_kernel_nofault",
	NULL,
};
static const char *const ucopy_leaf[] = { "*memcpy*", "*memmove*", "__memcpy*", NULL };
static const char *const softirq_any[] = {
	"handle_softirqs", "__do_softirq", "do_softirq*", "net_rx_action", "net_tx_action",
	"__napi_poll*", "process_backlog", "run_ksoftirqd", NULL,
};
/* Step 5: tried in this order on each frame, from the leaf up. */
static const char *const tcp_tx[] = {
	"tcp_sendmsg*", "tcp_push*", "__tcp_push*", "tcp_write_xmit", "__tcp_transmit_skb",
	"tcp_transmit_skb", "tcp_*xmit*", "tcp_stream_alloc_skb", "tcp_skb_entail",
	"tcp_send_*", "tcp_wmem_*", "tcp_rate_*", "tcp_tso_*", "tcp_event_new_data_sent",
	"sk_stream_*", "ip_queue_xmit", "__ip_queue_xmit", "ip_finish_output*", "ip_output",
	"ip_local_out", "__ip_local_out", "ip6_xmit", "ip6_finish_output*", "__dev_queue_xmit",
	"dev_hard_start_xmit", "loopback_xmit", "veth_xmit", "validate_xmit_skb*",
	"sch_direct_xmit", "__qdisc_run", "neigh_*output*", "skb_splice_from_iter",
	"tcp_sendmsg_locked", "do_tcp_sendpages", "inet_sendmsg", "inet6_sendmsg", NULL,
};
static const char *const tcp_rx[] = {
	"tcp_recvmsg*", "tcp_rcv_*", "tcp_v4_rcv", "tcp_v6_rcv", "tcp_v4_do_rcv",
	"tcp_v6_do_rcv", "tcp_data_queue*", "tcp_queue_rcv", "tcp_ack*", "tcp_clean_rtx_queue*",
	"tcp_cleanup_rbuf", "tcp_event_data_recv", "tcp_read_sock*", "tcp_read_skb",
	"tcp_add_backlog", "tcp_try_coalesce", "tcp_ofo_*", "tcp_urg", "tcp_validate_incoming",
	"sk_wait_data", "inet_recvmsg", "inet6_recvmsg", "ip_rcv*", "ip_local_deliver*",
	"ip_protocol_deliver_rcu", "ip6_rcv*", "__netif_receive_skb*", "netif_receive_skb*",
	"skb_attempt_defer_free", "tcp_splice_read", "tcp_splice_data_recv", NULL,
};
static const char *const pipe_splice[] = {
	"*splice*", "pipe_*", "anon_pipe_*", "*_pipe_buf_*", "generic_pipe_buf_*", "do_tee",
	"link_pipe", "__do_sys_tee", "*vmsplice*", "add_to_pipe", "free_pipe_info",
	"alloc_pipe_info", "wait_for_space", NULL,
};
static const char *const sched[] = {
	"schedule*", "__schedule", "finish_task_switch*", "pick_next_task*", "try_to_wake_up",
	"__wake_up*", "wake_up_*", "ttwu_*", "enqueue_task*", "dequeue_task*", "update_curr*",
	"psi_*", "context_switch", "__switch_to*", "put_prev_task*", "set_next_task*",
	"check_preempt*", "resched_*", "autoremove_wake_function", "default_wake_function",
	"select_task_rq*", NULL,
};
static const char *const syscall_layer[] = {
	"entry_SYSCALL*", "entry_SYSRET*", "syscall_*", "do_syscall*", "x64_sys_call",
	"exit_to_user_mode*", "__x64_sys_*", "__arm64_sys_*", "__se_sys_*", "__do_sys_*",
	"__sys_*", "ksys_*", "el0_svc*", "invoke_syscall", "__fget*", "__fdget*", "fdget*",
	"fput*", "__fput*", "rw_verify_area", "security_*", "apparmor_*", "sock_sendmsg*",
	"__sock_sendmsg", "sock_recvmsg*", "sock_write_iter", "sock_read_iter", "vfs_read",
	"vfs_write", "do_writev", "do_readv", "vfs_writev", "vfs_readv", "ep_*", "do_epoll_*",
	"import_iovec", "__import_iovec", "import_ubuf", "move_addr_to_kernel",
	"sockfd_lookup_light", "fsnotify*", "__fsnotify*", "rseq_*", "__rseq_*",
	"arch_exit_to_user_mode*", "fpregs_*", "switch_fpu_*", "restore_fpregs*", NULL,
};

static bool match(const char *const *globs, const char *sym)
{
	for (; *globs; globs++)
		if (!fnmatch(*globs, sym, 0))
			return true;
	return false;
}

/* A frame's symbol without the "_[k]" mark into buf; true when it had it. */
static bool plain(const char *frame, char *buf, size_t len)
{
	size_t l = strlen(frame);
	bool k = l > 4 && !strcmp(frame + l - 4, "_[k]");

	snprintf(buf, len, "%.*s", (int)(k ? l - 4 : l), frame);
	return k;
}

enum zc_bucket zc_bucket_of(const char *const *frames, size_t n, bool *idle)
{
	static const struct {
		const char *const *globs;
		enum zc_bucket b;
	} walk[] = {
		{ tcp_tx, ZC_BUCKET_TCP_TX },	    { tcp_rx, ZC_BUCKET_TCP_RX },
		{ pipe_splice, ZC_BUCKET_PIPE_SPLICE }, { sched, ZC_BUCKET_SCHED_IDLE },
		{ syscall_layer, ZC_BUCKET_SYSCALL },
	};
	char sym[256];
	bool kernel;

	*idle = false;
	if (!n)
		return ZC_BUCKET_OTHER;
	kernel = plain(frames[n - 1], sym, sizeof(sym));
	if (kernel && match(idle_leaf, sym)) {
		*idle = true;
		return ZC_BUCKET_SCHED_IDLE;
	}
	if (kernel && match(kcopy_leaf, sym))
		return ZC_BUCKET_KERNEL_COPY;
	if (!kernel && match(ucopy_leaf, sym))
		return ZC_BUCKET_USER_COPY;
	for (size_t i = 0; i < n; i++)
		if (plain(frames[i], sym, sizeof(sym)) && match(softirq_any, sym))
			return ZC_BUCKET_SOFTIRQ;
	for (size_t i = n; i-- > 0;) {
		if (!plain(frames[i], sym, sizeof(sym)))
			continue;
		for (size_t w = 0; w < ZC_ARRAY_SIZE(walk); w++)
			if (match(walk[w].globs, sym))
				return walk[w].b;
	}
	return ZC_BUCKET_OTHER;
}
