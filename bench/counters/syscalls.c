// SPDX-License-Identifier: GPL-2.0
/* Names and kinds of the syscalls and softirq vectors the counters see. */
#include "counters/syscalls.h"
#include "counters/bpf.h"

#include <stdio.h>
#include <sys/syscall.h>

#define SYS(name) { SYS_##name, #name, 0 },
#define SYSB(name) { SYS_##name, #name, 1 },
static const struct { int nr; const char *name; bool bytes; } sys_table[] = {
	/* return value is a byte count (splice family, copies, socket I/O) */
	SYSB(read) SYSB(write) SYSB(readv) SYSB(writev) SYSB(pread64) SYSB(pwrite64)
	SYSB(preadv) SYSB(pwritev) SYSB(preadv2) SYSB(pwritev2)
	SYSB(recvfrom) SYSB(sendto) SYSB(recvmsg) SYSB(sendmsg)
	SYSB(splice) SYSB(vmsplice) SYSB(tee) SYSB(sendfile) SYSB(copy_file_range)
	/* the rest a role is seen making */
#ifdef __x86_64__
	SYS(epoll_wait) SYS(poll) SYS(select)
#endif
	SYS(recvmmsg) SYS(sendmmsg) SYS(epoll_pwait) SYS(epoll_pwait2)
	SYS(ppoll) SYS(pselect6) SYS(io_uring_enter) SYS(io_uring_setup)
	SYS(io_uring_register) SYS(getrusage) SYS(openat) SYS(close) SYS(fcntl) SYS(ioctl)
	SYS(futex) SYS(nanosleep) SYS(clock_nanosleep) SYS(clock_gettime) SYS(rt_sigreturn)
	SYS(rt_sigaction) SYS(setitimer) SYS(shutdown) SYS(getpid) SYS(gettid) SYS(mmap)
	SYS(munmap) SYS(madvise) SYS(mprotect) SYS(brk) SYS(lseek) SYS(fstat) SYS(newfstatat)
	SYS(statx) SYS(exit_group) SYS(bpf) SYS(perf_event_open) SYS(accept) SYS(accept4)
	SYS(connect) SYS(setsockopt) SYS(getsockopt) SYS(pipe2) SYS(epoll_ctl) SYS(sched_yield)
};
#undef SYS
#undef SYSB

const char *zc_softirq_name(int vec)
{
	/* include/linux/interrupt.h, enum { HI_SOFTIRQ = 0, ... } */
	static const char *const n[ZC_ACCT_SOFTIRQ_NR] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
		"HRTIMER", "RCU",
	};

	return vec >= 0 && vec < ZC_ACCT_SOFTIRQ_NR ? n[vec] : "?";
}

int zc_syscall_pipe_dir(int nr)
{
	static const int w[] = { SYS_write, SYS_writev, SYS_pwrite64, SYS_pwritev, SYS_pwritev2 };
	static const int r[] = { SYS_read, SYS_readv, SYS_pread64, SYS_preadv, SYS_preadv2 };

	for (size_t i = 0; i < ZC_ARRAY_SIZE(w); i++)
		if (w[i] == nr)
			return 1;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(r); i++)
		if (r[i] == nr)
			return 2;
	return 0;
}

const char *zc_syscall_name(int nr, char *buf, size_t len)
{
	for (size_t i = 0; i < ZC_ARRAY_SIZE(sys_table); i++)
		if (sys_table[i].nr == nr)
			return sys_table[i].name;
	snprintf(buf, len, "nr_%d", nr);
	return buf;
}

bool zc_syscall_returns_bytes(int nr)
{
	for (size_t i = 0; i < ZC_ARRAY_SIZE(sys_table); i++)
		if (sys_table[i].nr == nr)
			return sys_table[i].bytes;
	return false;
}
