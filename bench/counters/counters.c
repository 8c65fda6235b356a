// SPDX-License-Identifier: GPL-2.0
/*
 * Per-role counters: perf_event_open on the role's thread, the BPF
 * accounting of counters_bpf.c, and what is derived from them. Read only at
 * the window edges (role.c's take()), never per call.
 */
#include "counters/counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const zc_counters_choices = "none, perf, bpf, all";

int zc_counters_parse(const char *s)
{
	static const char *const names[] = { "none", "perf", "bpf", "all" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i; /* index == ZC_CTR_PERF | ZC_CTR_BPF bits */
	return -EINVAL;
}

/* ---- perf_event_open ---------------------------------------------------- */

static const char *const zc_perf_names[ZC_PERF_NR] = {
	"cycles", "instructions", "cache_references", "cache_misses", "llc_load_misses",
	"branch_misses", "task_clock_ns", "context_switches", "cpu_migrations", "page_faults",
};

static const struct { uint32_t type; uint64_t config; } perf_defs[ZC_PERF_NR] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
				      (PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
};

/* The thread counted (zc_counters_open_tid): 0, the calling one. */
static pid_t perf_tid;

static int perf_open_attr(struct perf_event_attr *a, bool user_only)
{
	int fd;

	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->exclude_kernel = user_only;
	a->exclude_hv = 1;
	a->disabled = 0;
	a->inherit = 0;
	/* This thread, any CPU: a role is one thread; counting starts now, the
	 * window is the difference of the reads at its edges. */
	fd = (int)syscall(SYS_perf_event_open, a, perf_tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

#ifdef ZC_HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

/* CPU-specific names (libpfm4) for hardware events the kernel's generic
 * ones do not map on this PMU: Intel architectural, then AMD names. */
static const char *const pfm_alt[ZC_PERF_NR][3] = {
	[ZC_PERF_CYCLES] = { "UNHALTED_CORE_CYCLES", "CYCLES_NOT_IN_HALT" },
	[ZC_PERF_INSTRUCTIONS] = { "INSTRUCTION_RETIRED", "RETIRED_INSTRUCTIONS" },
	[ZC_PERF_CACHE_REFERENCES] = { "LLC_REFERENCES" },
	[ZC_PERF_CACHE_MISSES] = { "LLC_MISSES" },
	[ZC_PERF_LLC_LOAD_MISSES] = { "LONGEST_LAT_CACHE:MISS", "LLC_MISSES" },
	[ZC_PERF_BRANCH_MISSES] = { "BRANCH_MISSES_RETIRED", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED" },
};

/* 0 and the fd, or -errno; *name the libpfm4 event that worked. */
static int perf_open_pfm(int ev, bool user_only, const char **name)
{
	static bool init_done, init_ok;
	int fd = -ENOENT;

	if (!init_done) {
		init_done = true;
		init_ok = pfm_initialize() == PFM_SUCCESS;
	}
	for (int i = 0; init_ok && i < 3 && pfm_alt[ev][i]; i++) {
		struct perf_event_attr a;
		pfm_perf_encode_arg_t arg;

		memset(&a, 0, sizeof(a));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &a;
		arg.size = sizeof(arg);
		if (pfm_get_os_event_encoding(pfm_alt[ev][i], user_only ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3,
					      PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
			continue;
		fd = perf_open_attr(&a, user_only);
		if (fd >= 0) {
			*name = pfm_alt[ev][i];
			return fd;
		}
	}
	return fd;
}

/* The hardware PMUs libpfm4 detects here, for the reason text. */
static void pfm_pmus(char *buf, size_t len)
{
	pfm_pmu_t p;
	size_t n = 0;

	buf[0] = 0;
	if (pfm_initialize() != PFM_SUCCESS)
		return;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.is_present ||
		    info.type == PFM_PMU_TYPE_OS_GENERIC || n + 2 >= len)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", info.name);
	}
}
#else
static int perf_open_pfm(int ev, bool user_only, const char **name)
{
	(void)ev, (void)user_only, (void)name;
	return -ENOENT;
}

static void pfm_pmus(char *buf, size_t len)
{
	snprintf(buf, len, "?");
}
#endif

static int perf_open(struct zc_counters *c, int ev, bool user_only)
{
	struct perf_event_attr a;
	const char *name = NULL;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = perf_defs[ev].type;
	a.config = perf_defs[ev].config;
	fd = perf_open_attr(&a, user_only);
	if ((fd == -ENOENT || fd == -EOPNOTSUPP) && perf_defs[ev].type != PERF_TYPE_SOFTWARE) {
		int alt = perf_open_pfm(ev, user_only, &name);

		if (alt >= 0) {
			snprintf(c->perf_event_name[ev], sizeof(c->perf_event_name[ev]), "%s", name);
			return alt;
		}
	}
	return fd;
}

static void perf_why(char *buf, size_t len, int err)
{
	static char pmus[64] = "";
	bool kernel_pmu = access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
			  access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0;

	switch (err) {
	case ENOENT: case EOPNOTSUPP: case ENODEV:
		if (!pmus[0])
			pfm_pmus(pmus, sizeof(pmus));
		if (!kernel_pmu)
			snprintf(buf, len, "not supported: %s (the kernel exposes no hardware PMU: "
				 "no /sys/bus/event_source/devices/cpu, e.g. a VM without a virtual "
				 "PMU; libpfm4 sees the CPU as %s)", strerror(err), pmus[0] ? pmus : "?");
		else
			snprintf(buf, len, "not supported: %s (this PMU has no such event, nor "
				 "libpfm4's names for it on %s)", strerror(err), pmus[0] ? pmus : "?");
		break;
	case EACCES: case EPERM:
		snprintf(buf, len, "not permitted: %s (needs root or CAP_PERFMON, or a lower "
			 "kernel.perf_event_paranoid)", strerror(err));
		break;
	default:
		snprintf(buf, len, "perf_event_open: %s", strerror(err));
	}
}

static void perf_open_all(struct zc_counters *c)
{
	for (int ev = 0; ev < ZC_PERF_NR; ev++) {
		int fd;

		/* These fire in kernel mode only: user-only counting reads 0. */
		if (c->perf_user_only &&
		    (ev == ZC_PERF_CONTEXT_SWITCHES || ev == ZC_PERF_CPU_MIGRATIONS)) {
			c->perf_fd[ev] = -1;
			snprintf(c->perf_why[ev], sizeof(c->perf_why[ev]),
				 "not permitted: kernel-mode event, counting is user-only here "
				 "(kernel.perf_event_paranoid without CAP_PERFMON)");
			continue;
		}
		fd = perf_open(c, ev, c->perf_user_only);

		/* paranoid 2 without CAP_PERFMON still allows counting user space */
		if ((fd == -EACCES || fd == -EPERM) && !c->perf_user_only) {
			fd = perf_open(c, ev, true);
			if (fd >= 0)
				c->perf_user_only = true;
		}
		c->perf_fd[ev] = fd >= 0 ? fd : -1;
		if (fd < 0)
			perf_why(c->perf_why[ev], sizeof(c->perf_why[ev]), -fd);
	}
}

/* ---- open / snapshot / close -------------------------------------------- */

static bool kernel_bpf_stats_on(void)
{
	char v[8];

	return zc_read_file_trim("/proc/sys/kernel/bpf_stats_enabled", v, sizeof(v)) == 0 &&
	       !strcmp(v, "1");
}

void zc_counters_open(struct zc_counters *c, int mask, int cpu)
{
	zc_counters_open_tid(c, mask, cpu, 0);
}

void zc_counters_open_tid(struct zc_counters *c, int mask, int cpu, pid_t tid)
{
	const char *st = getenv("ZC_BPF_STATS");

	memset(c, 0, sizeof(*c));
	c->mask = mask;
	c->cpu = cpu;
	c->stats_fd = -1;
	for (int ev = 0; ev < ZC_PERF_NR; ev++) {
		c->perf_fd[ev] = -1;
		snprintf(c->perf_why[ev], sizeof(c->perf_why[ev]), "off (--counters)");
	}
	snprintf(c->bpf_why, sizeof(c->bpf_why), "off (--counters)");
	snprintf(c->copy_iter_why, sizeof(c->copy_iter_why), "off (--counters)");
	perf_tid = tid;
	if (mask & ZC_CTR_PERF)
		perf_open_all(c);
	perf_tid = 0;
	if (mask & ZC_CTR_BPF) {
		if (zc_bpf_open(&c->bpf, (uint32_t)(tid > 0 ? tid : gettid()), cpu, c->bpf_why, sizeof(c->bpf_why),
				c->copy_iter_why, sizeof(c->copy_iter_why), c->bpf_missing,
				sizeof(c->bpf_missing)) == 0)
			c->bpf_why[0] = 0;
		/* What the programs cost, for make bench-overhead: the kernel
		 * times every run while an fd from BPF_ENABLE_STATS is open. */
		if (c->bpf && st && !strcmp(st, "1"))
			c->stats_fd = zc_bpf_enable_stats();
		c->prog_stats = c->bpf && (c->stats_fd >= 0 || kernel_bpf_stats_on());
	}
}

static void snap_bpf(const struct zc_counters *c, struct zc_counters_snap *s)
{
	const struct zc_acct *live = zc_bpf_acct(c->bpf);

	s->acct_ok = live != NULL;
	if (live)
		memcpy(&s->acct, live, sizeof(s->acct));
	s->prog_ok = c->prog_stats && zc_bpf_prog_stats(c->bpf, s->prog_runs, s->prog_ns) == 0;
}

void zc_counters_snap(const struct zc_counters *c, struct zc_counters_snap *s, bool closing)
{
	/* The BPF copy is the innermost read at both edges, so the perf reads
	 * (and the caller's other edge work) are not syscalls of the window. */
	if (closing)
		snap_bpf(c, s);
	for (int ev = 0; ev < ZC_PERF_NR; ev++) {
		uint64_t v[3];

		s->perf.ok[ev] = c->perf_fd[ev] >= 0 &&
				 read(c->perf_fd[ev], v, sizeof(v)) == (ssize_t)sizeof(v);
		if (s->perf.ok[ev]) {
			s->perf.value[ev] = v[0];
			s->perf.enabled_ns[ev] = v[1];
			s->perf.running_ns[ev] = v[2];
		}
	}
	if (!closing)
		snap_bpf(c, s);
}

void zc_counters_close(struct zc_counters *c)
{
	for (int ev = 0; ev < ZC_PERF_NR; ev++)
		if (c->perf_fd[ev] >= 0) {
			close(c->perf_fd[ev]);
			c->perf_fd[ev] = -1;
		}
	zc_bpf_close(c->bpf);
	c->bpf = NULL;
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	c->stats_fd = -1;
}

/* ---- derivations -------------------------------------------------------- */

bool zc_perf_delta(const struct zc_perf_snap *a, const struct zc_perf_snap *b, int ev,
		   double *out)
{
	double v, en, run;

	if (!a->ok[ev] || !b->ok[ev] || b->value[ev] < a->value[ev])
		return false;
	v = (double)(b->value[ev] - a->value[ev]);
	en = (double)(b->enabled_ns[ev] - a->enabled_ns[ev]);
	run = (double)(b->running_ns[ev] - a->running_ns[ev]);
	/* Multiplexed with other events: scale to the time it was enabled. */
	if (run > 0 && en > run)
		v *= en / run;
	else if (run <= 0 && en > 0)
		return false; /* never scheduled on the PMU: no figure, not zero */
	*out = v;
	return true;
}

double zc_per_mb(double count, uint64_t bytes)
{
	return bytes && isfinite(count) ? count / ((double)bytes / 1e6) : NAN;
}

double zc_ratio(double num, double den)
{
	return den > 0 && isfinite(num) && isfinite(den) ? num / den : NAN;
}

void zc_acct_delta(const struct zc_acct *a, const struct zc_acct *b, struct zc_acct *d)
{
	const __u64 *pa = (const __u64 *)a, *pb = (const __u64 *)b;
	__u64 *pd = (__u64 *)d;

	/* struct zc_acct is only __u64 counters, all monotonic. */
	for (size_t i = 0; i < sizeof(*d) / sizeof(__u64); i++)
		pd[i] = pb[i] >= pa[i] ? pb[i] - pa[i] : 0;
}

uint64_t zc_acct_softirq_ns(const struct zc_acct *d)
{
	uint64_t t = 0;

	for (int v = 0; v < ZC_ACCT_SOFTIRQ_NR; v++)
		t += d->softirq[v].time_ns;
	return t;
}

/* ---- JSON --------------------------------------------------------------- */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *perf_json(const struct zc_counters *c, const struct zc_counters_snap *a,
			 const struct zc_counters_snap *b, uint64_t bytes)
{
	json_t *o = json_object(), *ev = json_object(), *why = json_object();
	double v[ZC_PERF_NR];
	int got = 0;

	for (int e = 0; e < ZC_PERF_NR; e++) {
		v[e] = NAN;
		if (zc_perf_delta(&a->perf, &b->perf, e, &v[e])) {
			got++;
			json_object_set_new(ev, zc_perf_names[e], json_integer((json_int_t)llround(v[e])));
		} else {
			json_object_set_new(ev, zc_perf_names[e], json_null());
			json_object_set_new(why, zc_perf_names[e],
					    json_string(c->perf_fd[e] >= 0 ? "read failed or never scheduled"
									   : c->perf_why[e]));
		}
	}
	json_object_set_new(o, "status", json_string(got == ZC_PERF_NR ? "ok" : got ? "partial"
							    : "unavailable"));
	json_object_set_new(o, "user_only", json_boolean(c->perf_user_only));
	{
		json_t *alt = json_object();

		for (int e = 0; e < ZC_PERF_NR; e++)
			if (c->perf_event_name[e][0])
				json_object_set_new(alt, zc_perf_names[e], json_string(c->perf_event_name[e]));
		json_object_set_new(o, "libpfm4_events", alt);
	}
	json_object_set_new(o, "events", ev);
	json_object_set_new(o, "reasons", why);
	json_object_set_new(o, "cycles_per_byte", num_or_null(zc_ratio(v[ZC_PERF_CYCLES], (double)bytes)));
	json_object_set_new(o, "ipc", num_or_null(zc_ratio(v[ZC_PERF_INSTRUCTIONS], v[ZC_PERF_CYCLES])));
	json_object_set_new(o, "context_switches_per_mb",
			    num_or_null(zc_per_mb(v[ZC_PERF_CONTEXT_SWITCHES], bytes)));
	json_object_set_new(o, "page_faults_per_mb", num_or_null(zc_per_mb(v[ZC_PERF_PAGE_FAULTS], bytes)));
	return o;
}

static json_t *self_cost_json(const struct zc_counters_snap *a, const struct zc_counters_snap *b)
{
	json_t *o = json_object(), *p = json_object();
	uint64_t total = 0;

	for (int i = 0; i < ZC_BPF_NPROGS; i++) {
		uint64_t runs = b->prog_runs[i] - a->prog_runs[i], ns = b->prog_ns[i] - a->prog_ns[i];

		total += ns;
		if (runs)
			json_object_set_new(p, zc_bpf_prog_names[i],
				json_pack("{s:I,s:I,s:f}", "runs", (json_int_t)runs, "time_ns",
					  (json_int_t)ns, "mean_ns", (double)ns / (double)runs));
	}
	json_object_set_new(o, "time_ns", json_integer((json_int_t)total));
	json_object_set_new(o, "programs", p);
	return o;
}

static json_t *bpf_json(const struct zc_counters *c, const struct zc_counters_snap *a,
			const struct zc_counters_snap *b, const struct zc_acct *d, uint64_t bytes,
			double window_s)
{
	json_t *o = json_object(), *sys = json_object(), *sirq = json_object(), *vec = json_object();
	const char *sirq_sampled = zc_bpf_softirq_why(c->bpf);
	uint64_t sirq_ns = sirq_sampled[0] ? d->softirq_tick_ns : zc_acct_softirq_ns(d);
	bool have_send_tp = !strstr(c->bpf_missing, "tcp_sendmsg_locked");
	bool have_copy_tp = !strstr(c->bpf_missing, "skb_copy_datagram_iovec");

	json_object_set_new(o, "status", json_string("ok"));
	json_object_set_new(o, "missing", c->bpf_missing[0] ? json_string(c->bpf_missing) : json_null());
	json_object_set_new(o, "syscalls_total", json_integer((json_int_t)d->sys_total));
	json_object_set_new(o, "syscalls_per_mb", num_or_null(zc_per_mb((double)d->sys_total, bytes)));
	const char *untimed = zc_bpf_sys_time_why(c->bpf);

	for (int nr = 0; nr < ZC_ACCT_SYS_NR; nr++) {
		const struct zc_acct_sys *s = &d->sys[nr];
		char buf[24];

		if (!s->count)
			continue;
		json_object_set_new(sys, zc_syscall_name(nr, buf, sizeof(buf)),
			json_pack("{s:i,s:I,s:o,s:o,s:o,s:I}", "nr", nr, "count", (json_int_t)s->count,
				  "time_ns", untimed[0] ? json_null() : json_integer((json_int_t)s->time_ns),
				  "mean_ns", untimed[0] ? json_null()
					     : json_real((double)s->time_ns / (double)s->count),
				  "bytes", zc_syscall_returns_bytes(nr) ? json_integer((json_int_t)s->bytes)
									 : json_null(),
				  "errors", (json_int_t)s->errors));
	}
	json_object_set_new(o, "syscalls", sys);
	json_object_set_new(o, "syscall_time_reason", untimed[0] ? json_string(untimed) : json_null());
	for (int v = 0; v < ZC_ACCT_SOFTIRQ_NR; v++)
		if (d->softirq[v].count)
			json_object_set_new(vec, zc_softirq_name(v),
				json_pack("{s:I,s:o}", "count", (json_int_t)d->softirq[v].count,
					  "time_ns", sirq_sampled[0] ? json_null()
						     : json_integer((json_int_t)d->softirq[v].time_ns)));
	json_object_set_new(sirq, "cpu", json_integer(c->cpu));
	json_object_set_new(sirq, "time_ns", json_integer((json_int_t)sirq_ns));
	json_object_set_new(sirq, "time_reason", sirq_sampled[0] ? json_string(sirq_sampled)
								 : json_null());
	json_object_set_new(sirq, "share_of_core", num_or_null(zc_ratio((double)sirq_ns / 1e9, window_s)));
	json_object_set_new(sirq, "vectors", vec);
	json_object_set_new(o, "softirq", c->cpu >= 0 ? sirq : (json_decref(sirq), json_null()));
	/* Copied to user memory: from skbs (tracepoint), and out of pipes and
	 * the page cache (read family on a pipe or a file). */
	uint64_t rx = d->rx_copy_bytes + d->rx_pipe_copy_bytes + d->rx_file_copy_bytes;
	uint64_t tx = d->tx_copy_bytes + d->tx_pipe_copy_bytes + d->tx_file_copy_bytes;

	json_object_set_new(o, "rx_copy_calls", have_copy_tp ? json_integer((json_int_t)d->rx_copy_calls)
							     : json_null());
	json_object_set_new(o, "rx_skb_copied_bytes", have_copy_tp ?
			    json_integer((json_int_t)d->rx_copy_bytes) : json_null());
	json_object_set_new(o, "rx_pipe_copied_bytes", json_integer((json_int_t)d->rx_pipe_copy_bytes));
	json_object_set_new(o, "rx_file_copied_bytes", json_integer((json_int_t)d->rx_file_copy_bytes));
	json_object_set_new(o, "rx_copied_bytes", have_copy_tp ? json_integer((json_int_t)rx) : json_null());
	json_object_set_new(o, "rx_copied_per_payload_byte", have_copy_tp ?
			    num_or_null(zc_ratio((double)rx, (double)bytes)) : json_null());
	/* Copied from user memory: into skbs (tcp_sendmsg_locked without page
	 * flags), into pipes and into the page cache (write family). */
	json_object_set_new(o, "tx_skb_copied_bytes", have_send_tp ?
			    json_integer((json_int_t)d->tx_copy_bytes) : json_null());
	json_object_set_new(o, "tx_pipe_copied_bytes", json_integer((json_int_t)d->tx_pipe_copy_bytes));
	json_object_set_new(o, "tx_file_copied_bytes", json_integer((json_int_t)d->tx_file_copy_bytes));
	json_object_set_new(o, "tx_copied_bytes", have_send_tp ? json_integer((json_int_t)tx) : json_null());
	json_object_set_new(o, "tx_copied_per_payload_byte", have_send_tp ?
			    num_or_null(zc_ratio((double)tx, (double)bytes)) : json_null());
	json_object_set_new(o, "tx_splice_pages_bytes",
			    have_send_tp ? json_integer((json_int_t)d->tx_splice_pages_bytes) : json_null());
	json_object_set_new(o, "tx_zerocopy_bytes",
			    have_send_tp ? json_integer((json_int_t)d->tx_zerocopy_bytes) : json_null());
	json_object_set_new(o, "tcp_sendmsg_locked", have_send_tp ?
		json_pack("{s:I,s:I,s:I}", "copy", (json_int_t)d->tcp_send_copy,
			  "splice_pages", (json_int_t)d->tcp_send_splice_pages,
			  "zerocopy", (json_int_t)d->tcp_send_zerocopy) : json_null());
	if (c->copy_iter_why[0]) {
		json_object_set_new(o, "copy_iter", json_null());
		json_object_set_new(o, "copy_iter_reason", json_string(c->copy_iter_why));
	} else {
		json_object_set_new(o, "copy_iter",
			json_pack("{s:I,s:I,s:I}", "copy_to_iter_bytes", (json_int_t)d->copy_to_iter_bytes,
				  "copy_from_iter_bytes", (json_int_t)d->copy_from_iter_bytes,
				  "copy_page_to_iter_bytes", (json_int_t)d->copy_page_to_iter_bytes));
		json_object_set_new(o, "copy_iter_reason", json_null());
	}
	if (a->prog_ok && b->prog_ok) {
		json_object_set_new(o, "self_cost", self_cost_json(a, b));
		json_object_set_new(o, "self_cost_reason", json_null());
	} else {
		json_object_set_new(o, "self_cost", json_null());
		json_object_set_new(o, "self_cost_reason", json_string(
			"BPF run-time stats off (ZC_BPF_STATS=1 in the roles' environment, or "
			"kernel.bpf_stats_enabled=1, turns them on; they cost a little themselves)"));
	}
	return o;
}

json_t *zc_counters_json(const struct zc_counters *c, const struct zc_counters_snap *a,
			 const struct zc_counters_snap *b, uint64_t bytes, double window_s)
{
	static const char *const names[] = { "none", "perf", "bpf", "all" };
	json_t *o = json_object();

	json_object_set_new(o, "requested", json_string(names[c->mask & 3]));
	json_object_set_new(o, "payload_bytes", json_integer((json_int_t)bytes));
	if (c->mask & ZC_CTR_PERF) {
		json_object_set_new(o, "perf", perf_json(c, a, b, bytes));
	} else {
		json_object_set_new(o, "perf", json_null());
	}
	json_object_set_new(o, "perf_reason", c->mask & ZC_CTR_PERF ? json_null()
								 : json_string("off (--counters)"));
	if (a->acct_ok && b->acct_ok) {
		struct zc_acct *d = malloc(sizeof(*d));

		if (d) {
			zc_acct_delta(&a->acct, &b->acct, d);
			json_object_set_new(o, "bpf", bpf_json(c, a, b, d, bytes, window_s));
			json_object_set_new(o, "bpf_reason", json_null());
			free(d);
			return o;
		}
	}
	json_object_set_new(o, "bpf", json_null());
	json_object_set_new(o, "bpf_reason", json_string(c->bpf_why[0] ? c->bpf_why
									: "snapshot failed"));
	return o;
}

/* ---- sample metrics ----------------------------------------------------- */

