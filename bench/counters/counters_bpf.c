// SPDX-License-Identifier: GPL-2.0
/*
 * Loads bench/counters/bpf/acct.bpf.c (skeleton from `bpftool gen skeleton`)
 * for one role: its tid and CPU go into .rodata before load, so the programs
 * filter with a compare against a constant. Built without the skeleton when
 * the build machine had no clang/bpftool/kernel BTF: then every open says so.
 *
 * Issue 14: per-syscall time, per-vector softirq time and the copy-helper
 * kprobes cost a program run per event each, more than the rest of the
 * accounting together: they are loaded only with ZC_BPF_DETAIL=1 in the
 * role's environment. Without them the JSON says what is missing and why.
 */
#include "counters/bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const zc_bpf_prog_names[ZC_BPF_NPROGS] = {
	"sys_enter", "sys_exit", "softirq_entry", "softirq_exit", "skb_copy_datagram_iovec",
	"tcp_sendmsg_locked", "copy_to_iter", "copy_from_iter", "copy_page_to_iter",
};

#ifdef ZC_HAVE_BPF_SKEL
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "acct.skel.h"
#include "counters/syscalls.h"

struct zc_bpf {
	struct zc_acct_bpf *skel;
	/* With ZC_BPF_STATS=1 (make bench-overhead): the same programs filtered
	 * on no thread and no CPU, on the same tracepoints, so they run exactly
	 * as often; their run time is what the stats' own clock reads and the
	 * filter cost, taken off the set's in zc_bpf_prog_stats(). */
	struct zc_acct_bpf *twin;
	uint64_t *net_last;	/* [2 * ZC_BPF_NPROGS]: last difference, time returned */
	bool edge;		/* zc_edge brings the kernel's softirq figures */
	unsigned detached;	/* 1 << i: program i detached by zc_bpf_attach() */
	char sys_time_why[192];	/* "" when syscalls are timed */
	char softirq_why[256];	/* "" when softirqs are timed one by one */
};

static const char detail_env[] = "ZC_BPF_DETAIL=1 in the roles' environment turns it on";

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

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

/* Tracepoints this kernel lacks cannot be loaded as tp_btf (the load of the
 * whole object would fail): leave their programs out and name them. */
static void drop_missing_tracepoints(struct zc_acct_bpf *s, const struct btf *vmlinux,
				     char *missing, size_t mlen)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, s->obj) {
		const char *sec = bpf_program__section_name(p);
		char type[128];
		size_t n = strlen(missing);

		if (strncmp(sec, "tp_btf/", 7) || !bpf_program__autoload(p))
			continue;
		snprintf(type, sizeof(type), "btf_trace_%s", sec + 7);
		if (btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) >= 0)
			continue;
		bpf_program__set_autoload(p, false);
		snprintf(missing + n, mlen - n, "%s%s (not in this kernel)", n ? ", " : "", sec);
	}
}

/* How far the per-CPU variable var lies from runqueues, the per-CPU one the
 * programs reach from current (se.cfs_rq->rq, with CONFIG_FAIR_GROUP_SCHED):
 * from the kernel BTF's per-CPU data section. 0: not to be found. */
static long long percpu_from_rq(const struct btf *btf, const char *var)
{
	int sec_id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	int se_id = btf__find_by_name_kind(btf, "sched_entity", BTF_KIND_STRUCT);
	const struct btf_type *sec, *se;
	const struct btf_var_secinfo *vs;
	const struct btf_member *m;
	long long rq = -1, v = -1;
	bool cfs_rq = false;

	if (sec_id < 0 || se_id < 0)
		return 0;
	se = btf__type_by_id(btf, se_id);
	m = btf_members(se);
	for (int i = 0; i < btf_vlen(se); i++, m++)
		cfs_rq |= !strcmp(btf__name_by_offset(btf, m->name_off), "cfs_rq");
	sec = btf__type_by_id(btf, sec_id);
	vs = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, vs++) {
		const char *name = btf__name_by_offset(btf, btf__type_by_id(btf, vs->type)->name_off);

		if (!strcmp(name, "runqueues"))
			rq = vs->offset;
		else if (!strcmp(name, var))
			v = vs->offset;
	}
	return cfs_rq && rq >= 0 && v >= 0 ? v - rq : 0;
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

static struct bpf_link **link_at(struct zc_acct_bpf *s, int i)
{
	struct bpf_link **l[ZC_BPF_NPROGS] = {
		&s->links.zc_sys_enter, &s->links.zc_sys_exit, &s->links.zc_softirq_entry,
		&s->links.zc_softirq_exit, &s->links.zc_skb_copy, &s->links.zc_tcp_sendmsg_locked,
		&s->links.zc_copy_to_iter, &s->links.zc_copy_from_iter, &s->links.zc_copy_page_to_iter,
	};

	return l[i];
}

/* The twin of set s: its attached programs, filtered on nothing. NULL if it
 * cannot be had (then the stats are the set's own, clock reads included). */
static struct zc_acct_bpf *open_twin(const struct zc_acct_bpf *s)
{
	struct zc_acct_bpf *t = zc_acct_bpf__open();

	if (!t)
		return NULL;
	t->rodata->target_tid = UINT32_MAX;	/* above any pid_max */
	t->rodata->target_cpu = -2;
	bpf_program__set_autoload(t->progs.zc_edge, false);
	for (int i = 0; i < ZC_BPF_NPROGS; i++)
		bpf_program__set_autoload(prog_at(t, i), bpf_program__fd(prog_at(s, i)) >= 0);
	if (zc_acct_bpf__load(t))
		goto fail;
	for (int i = 0; i < ZC_BPF_NPROGS; i++)
		if (bpf_program__autoload(prog_at(t, i)) &&
		    !(*link_at(t, i) = bpf_program__attach(prog_at(t, i))))
			goto fail;
	return t;
fail:
	zc_acct_bpf__destroy(t); /* detaches the links it holds */
	return NULL;
}

/* zc_edge, on this thread and CPU: the kernel's softirq figures into the
 * counters, now. 0 or -errno. */
static int run_edge(const struct zc_bpf *b)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(bpf_program__fd(b->skel->progs.zc_edge), &opts) ? -errno : 0;
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
	bool kp = have_kprobes(), detail;
	struct btf *vmlinux;
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
	s->rodata->sigreturn_nr = SYS_rt_sigreturn;
	s->rodata->bpf_nr = SYS_bpf;
	for (int nr = 0; nr < ZC_ACCT_SYS_NR; nr++) {
		int dir = zc_syscall_pipe_dir(nr);

		s->rodata->sys_kind[nr] = (zc_syscall_returns_bytes(nr) ? ZC_SYS_BYTES : 0) |
					  (dir == 1 ? ZC_SYS_PIPE_W : dir == 2 ? ZC_SYS_PIPE_R : 0);
	}
	/* What needs a program run per event and two clock reads (per-syscall
	 * time, per-vector softirq time) or a kprobe per copy is left out unless
	 * asked for: the default set stays within 2% of the device under
	 * test's core (make bench-overhead). sys_exit reads the syscall number
	 * from the saved registers, so sys_enter runs only to time syscalls (or
	 * on an arch where it must record the number). */
	vmlinux = btf__load_vmlinux_btf();
	if (vmlinux) {
		s->rodata->kstat_from_rq = percpu_from_rq(vmlinux, "kstat");
		s->rodata->kcpustat_from_rq = percpu_from_rq(vmlinux, "kernel_cpustat");
		if (!s->rodata->kcpustat_from_rq)
			s->rodata->kstat_from_rq = 0;
	}
	detail = env_on("ZC_BPF_DETAIL");
	if (!detail && s->rodata->nr_at_exit)
		snprintf(b->sys_time_why, sizeof(b->sys_time_why), "off for its cost, a sys_enter "
			 "program run and two clock reads per syscall (%s)", detail_env);
	/* Softirqs: the kernel's counts and tick-sampled time, copied at the
	 * window edges (zc_edge), unless asked for one by one or the kernel's
	 * cannot be found. */
	if (cpu < 0)
		snprintf(b->softirq_why, sizeof(b->softirq_why), "no CPU to watch");
	else if (!detail && s->rodata->kstat_from_rq)
		snprintf(b->softirq_why, sizeof(b->softirq_why), "sampled by the tick (the kernel's "
			 "cpustat of the CPU); exact per-vector time is off for its cost, two program "
			 "runs and two clock reads per softirq (%s)", detail_env);
	bpf_program__set_autoload(s->progs.zc_sys_enter, !b->sys_time_why[0]);
	bpf_program__set_autoload(s->progs.zc_softirq_entry, !b->softirq_why[0]);
	bpf_program__set_autoload(s->progs.zc_softirq_exit, !b->softirq_why[0]);
	if (!kp || !detail) {
		bpf_program__set_autoload(s->progs.zc_copy_to_iter, false);
		bpf_program__set_autoload(s->progs.zc_copy_from_iter, false);
		bpf_program__set_autoload(s->progs.zc_copy_page_to_iter, false);
		if (kp)
			snprintf(copy_iter_why, cilen, "off for its cost, a kprobe run per copy (%s)",
				 detail_env);
		else
			snprintf(copy_iter_why, cilen, "not available: no kprobes");
	}
	missing[0] = 0;
	if (vmlinux)
		drop_missing_tracepoints(s, vmlinux, missing, mlen);
	btf__free(vmlinux);
	if (!bpf_program__autoload(s->progs.zc_sys_exit)) {
		snprintf(why, whylen, "no raw_syscalls:sys_exit tracepoint in this kernel's BTF");
		zc_acct_bpf__destroy(s);
		free(b);
		return -ENOENT;
	}
	err = zc_acct_bpf__load(s);
	if (err) {
		why_errno(why, whylen, "cannot load the BPF programs", -err);
		zc_acct_bpf__destroy(s);
		free(b);
		return err;
	}
	/* One by one: a tracepoint or kprobe that will not attach is named in
	 * missing, and the rest still count. */
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
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		size_t n = strlen(missing);

		if (!bpf_program__autoload(at[i].p))
			continue;
		*at[i].l = bpf_program__attach(at[i].p);
		if (*at[i].l)
			continue;
		err = -errno;
		if (at[i].required) {
			why_errno(why, whylen, "cannot attach to raw_syscalls:sys_enter/sys_exit", -err);
			zc_acct_bpf__destroy(s);
			free(b);
			return err;
		}
		snprintf(missing + n, mlen - n, "%s%s (%s)", n ? ", " : "",
			 bpf_program__section_name(at[i].p), strerror(-err));
	}
	if (kp && detail)
		copy_iter_why[0] = 0;
	/* Exact softirq time only with both programs in; otherwise zc_edge
	 * copies the kernel's tick-sampled figures at the window edges. */
	if (!b->softirq_why[0] && s->links.zc_softirq_entry && s->links.zc_softirq_exit)
		s->bss->softirq_exact = true;
	else if (!b->softirq_why[0])
		snprintf(b->softirq_why, sizeof(b->softirq_why), "sampled by the tick (the kernel's "
			 "cpustat of the CPU): the softirq programs did not attach");
	b->skel = s;
	if (cpu >= 0 && !s->bss->softirq_exact) {
		b->edge = true;
		/* Where it cannot be run, sys_exit does its work, at a small
		 * cost per syscall. */
		if (run_edge(b)) {
			b->edge = false;
			s->bss->softirq_at_exit = true;
		}
	}
	if (env_on("ZC_BPF_STATS")) {
		b->net_last = calloc(2 * ZC_BPF_NPROGS, sizeof(*b->net_last));
		b->twin = b->net_last ? open_twin(s) : NULL;
	}
	*out = b;
	return 0;
}

const struct zc_acct *zc_bpf_acct(const struct zc_bpf *b)
{
	if (!b)
		return NULL;
	if (b->edge)
		run_edge(b);
	return &b->skel->bss->acct;
}

const char *zc_bpf_sys_time_why(const struct zc_bpf *b)
{
	return b ? b->sys_time_why : "";
}

const char *zc_bpf_softirq_why(const struct zc_bpf *b)
{
	return b ? b->softirq_why : "";
}

static int prog_info(const struct zc_acct_bpf *s, int i, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);
	int fd = bpf_program__fd(prog_at(s, i));

	memset(info, 0, sizeof(*info));
	if (fd < 0)
		return 0; /* not loaded (left out, or kprobes absent) */
	return bpf_obj_get_info_by_fd(fd, info, &len) ? -errno : 0;
}

int zc_bpf_prog_stats(const struct zc_bpf *b, uint64_t *runs, uint64_t *ns)
{
	if (!b)
		return -ENOENT;
	for (int i = 0; i < ZC_BPF_NPROGS; i++) {
		struct bpf_prog_info info, twin;

		if (prog_info(b->skel, i, &info) || (b->twin && prog_info(b->twin, i, &twin)))
			return -errno;
		runs[i] = info.run_cnt;
		ns[i] = info.run_time_ns;
		if (b->twin) {
			/* The twin ran the same tracepoints just after the set,
			 * failing its filter: its time is the timing's own (and it
			 * meets a cache the set has warmed, so if anything this
			 * overstates the set's). What is returned grows by each
			 * call's growth of the difference, never by less than 0,
			 * so a window's difference is never negative. */
			int64_t net = (int64_t)(info.run_time_ns - twin.run_time_ns);
			int64_t grew = net - (int64_t)b->net_last[2 * i];

			b->net_last[2 * i] = (uint64_t)net;
			b->net_last[2 * i + 1] += grew > 0 ? (uint64_t)grew : 0;
			ns[i] = b->net_last[2 * i + 1];
		}
	}
	return 0;
}

int zc_bpf_attach(struct zc_bpf *b, bool on)
{
	int err = 0;

	if (!b)
		return -ENOENT;
	for (int i = 0; i < ZC_BPF_NPROGS; i++) {
		struct bpf_link **l = link_at(b->skel, i);

		if (!on && *l) {
			bpf_link__destroy(*l);
			*l = NULL;
			b->detached |= 1u << i;
		} else if (on && (b->detached & (1u << i))) {
			*l = bpf_program__attach(prog_at(b->skel, i));
			if (!*l) {
				err = err ?: -errno;
				continue;
			}
			b->detached &= ~(1u << i);
		}
	}
	return err;
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
	zc_acct_bpf__destroy(b->twin);
	zc_acct_bpf__destroy(b->skel);
	free(b->net_last);
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

const char *zc_bpf_sys_time_why(const struct zc_bpf *b)
{
	(void)b;
	return "";
}

const char *zc_bpf_softirq_why(const struct zc_bpf *b)
{
	(void)b;
	return "";
}

int zc_bpf_prog_stats(const struct zc_bpf *b, uint64_t *runs, uint64_t *ns)
{
	(void)b, (void)runs, (void)ns;
	return -ENOSYS;
}

int zc_bpf_attach(struct zc_bpf *b, bool on)
{
	(void)b, (void)on;
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
