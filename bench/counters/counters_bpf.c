// SPDX-License-Identifier: GPL-2.0
/*
 * Loads bench/counters/bpf/acct.bpf.c (skeleton from `bpftool gen skeleton`) for one
 * role: its tid and CPU go into .rodata before load, so the programs filter
 * with a compare against a constant. Built without the skeleton when the
 * build machine had no clang/bpftool/kernel BTF: then every open says so.
 */
#include "counters/bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const zc_bpf_prog_names[ZC_BPF_NPROGS] = {
	"sys_enter", "sys_exit", "softirq_entry", "softirq_exit", "skb_copy_datagram_iovec",
	"tcp_sendmsg_locked", "copy_to_iter", "copy_from_iter", "copy_page_to_iter",
};

#ifdef ZC_HAVE_BPF_SKEL
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "acct.skel.h"
#include "counters/syscalls.h"

struct zc_bpf {
	struct zc_acct_bpf *skel;
};

/* libbpf's first complaint, kept for the reason instead of going to stderr. */
static char libbpf_last[200];

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(libbpf_last)];
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = 0;
	/* The first complaint names the cause; later ones repeat the failure. */
	if (n && !libbpf_last[0] && !strstr(line, "RLIMIT_MEMLOCK"))
		memcpy(libbpf_last, line, n + 1);
	return 0;
}

static bool have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe", F_OK) == 0;
}

static void why_errno(char *why, size_t len, const char *what, int err)
{
	snprintf(why, len, "%s: %s%s%s%s", what, strerror(err),
		 err == EPERM || err == EACCES ? " (needs root or CAP_BPF + CAP_PERFMON)" : "",
		 libbpf_last[0] ? "; " : "", libbpf_last);
}

int zc_bpf_open(struct zc_bpf **out, uint32_t tid, int cpu, char *why, size_t whylen,
		char *copy_iter_why, size_t cilen, char *missing, size_t mlen)
{
	struct zc_bpf *b = calloc(1, sizeof(*b));
	struct zc_acct_bpf *s;
	bool kp = have_kprobes();
	int err;

	*out = NULL;
	if (!b)
		return -ENOMEM;
	libbpf_last[0] = 0;
	libbpf_set_print(libbpf_quiet);
	s = zc_acct_bpf__open();
	if (!s) {
		err = errno ? errno : EINVAL;
		why_errno(why, whylen, "cannot open the BPF object", err);
		free(b);
		return -err;
	}
	s->rodata->target_tid = tid;
	s->rodata->target_cpu = cpu;
	for (int nr = 0; nr < ZC_ACCT_SYS_NR; nr++) {
		int dir = zc_syscall_pipe_dir(nr);

		if (zc_syscall_returns_bytes(nr))
			s->rodata->byte_nr_mask[nr / 64] |= 1ULL << (nr % 64);
		if (dir == 1)
			s->rodata->pipe_w_mask[nr / 64] |= 1ULL << (nr % 64);
		else if (dir == 2)
			s->rodata->pipe_r_mask[nr / 64] |= 1ULL << (nr % 64);
	}
	if (!kp) {
		bpf_program__set_autoload(s->progs.zc_copy_to_iter, false);
		bpf_program__set_autoload(s->progs.zc_copy_from_iter, false);
		bpf_program__set_autoload(s->progs.zc_copy_page_to_iter, false);
		snprintf(copy_iter_why, cilen, "not available: no kprobes");
	}
	err = zc_acct_bpf__load(s);
	if (err) {
		why_errno(why, whylen, "cannot load the BPF programs", -err);
		zc_acct_bpf__destroy(s);
		free(b);
		return err;
	}
	/* One by one: an older kernel without tcp_sendmsg_locked (before 6.8)
	 * or without kprobes still gets the rest, with what is missing named. */
	struct { struct bpf_program *p; struct bpf_link **l; bool required; } at[] = {
		{ s->progs.zc_sys_enter, &s->links.zc_sys_enter, true },
		{ s->progs.zc_sys_exit, &s->links.zc_sys_exit, true },
		{ s->progs.zc_softirq_entry, &s->links.zc_softirq_entry, false },
		{ s->progs.zc_softirq_exit, &s->links.zc_softirq_exit, false },
		{ s->progs.zc_skb_copy, &s->links.zc_skb_copy, false },
		{ s->progs.zc_tcp_sendmsg_locked, &s->links.zc_tcp_sendmsg_locked, false },
		{ s->progs.zc_copy_to_iter, &s->links.zc_copy_to_iter, false },
		{ s->progs.zc_copy_from_iter, &s->links.zc_copy_from_iter, false },
		{ s->progs.zc_copy_page_to_iter, &s->links.zc_copy_page_to_iter, false },
	};
	missing[0] = 0;
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		size_t n = strlen(missing);

		if (!bpf_program__autoload(at[i].p))
			continue;
		*at[i].l = bpf_program__attach(at[i].p);
		if (*at[i].l)
			continue;
		err = -errno;
		if (at[i].required) {
			why_errno(why, whylen, "cannot attach to raw_syscalls", -err);
			zc_acct_bpf__destroy(s);
			free(b);
			return err;
		}
		snprintf(missing + n, mlen - n, "%s%s (%s)", n ? ", " : "",
			 bpf_program__section_name(at[i].p), strerror(-err));
	}
	if (kp)
		copy_iter_why[0] = 0;
	b->skel = s;
	*out = b;
	return 0;
}

const struct zc_acct *zc_bpf_acct(const struct zc_bpf *b)
{
	return b ? &b->skel->bss->acct : NULL;
}

static struct bpf_program *prog_at(const struct zc_acct_bpf *s, int i)
{
	struct bpf_program *p[ZC_BPF_NPROGS] = {
		s->progs.zc_sys_enter, s->progs.zc_sys_exit, s->progs.zc_softirq_entry,
		s->progs.zc_softirq_exit, s->progs.zc_skb_copy, s->progs.zc_tcp_sendmsg_locked,
		s->progs.zc_copy_to_iter, s->progs.zc_copy_from_iter, s->progs.zc_copy_page_to_iter,
	};

	return p[i];
}

int zc_bpf_prog_stats(const struct zc_bpf *b, uint64_t *runs, uint64_t *ns)
{
	if (!b)
		return -ENOENT;
	for (int i = 0; i < ZC_BPF_NPROGS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog_at(b->skel, i));

		runs[i] = ns[i] = 0;
		if (fd < 0)
			continue; /* not loaded (kprobes absent) */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			return -errno;
		runs[i] = info.run_cnt;
		ns[i] = info.run_time_ns;
	}
	return 0;
}

int zc_bpf_enable_stats(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	return fd < 0 ? -errno : fd;
}

void zc_bpf_close(struct zc_bpf *b)
{
	if (!b)
		return;
	zc_acct_bpf__destroy(b->skel);
	free(b);
}

#else /* !ZC_HAVE_BPF_SKEL */

struct zc_bpf {
	int unused;
};

int zc_bpf_open(struct zc_bpf **out, uint32_t tid, int cpu, char *why, size_t whylen,
		char *copy_iter_why, size_t cilen, char *missing, size_t mlen)
{
	(void)tid, (void)cpu, (void)mlen;
	missing[0] = 0;
	*out = NULL;
	snprintf(why, whylen, "built without BPF (no clang, bpftool or /sys/kernel/btf/vmlinux "
		 "on the build machine)");
	snprintf(copy_iter_why, cilen, "not available: built without BPF");
	return -ENOSYS;
}

const struct zc_acct *zc_bpf_acct(const struct zc_bpf *b)
{
	(void)b;
	return NULL;
}

int zc_bpf_prog_stats(const struct zc_bpf *b, uint64_t *runs, uint64_t *ns)
{
	(void)b, (void)runs, (void)ns;
	return -ENOSYS;
}

int zc_bpf_enable_stats(void)
{
	return -ENOSYS;
}

void zc_bpf_close(struct zc_bpf *b)
{
	(void)b;
}

#endif
