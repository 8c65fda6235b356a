// SPDX-License-Identifier: GPL-2.0
/*
 * The profile without perf(1): one CPU-wide sampling event per profiled CPU
 * (cycles, or cpu-clock without a PMU) with kernel and user call chains, a
 * ring buffer each, and one reader thread, kept off the profiled CPUs, that
 * names each sample's frames as it arrives and counts the folded stack.
 * Nothing is written during the window; the rings are sized for a few
 * seconds of samples between two reads and a full ring is counted as lost.
 */
#include "profile/profile_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 128		/* 512 KiB a CPU: ~2 s of deep chains at 999 Hz */
#define PROCS_MAX 1024
#define CHAIN_MAX 256

struct proc {
	pid_t pid;
	struct zc_usyms *syms;	/* NULL: no user space (kernel thread) or gone */
	bool tried;		/* syms looked for (on its first user-space chain) */
	char comm[40];	/* "comm-pid", the folded stack's root */
};

struct zc_sampler {
	int n;
	int fd[ZC_PROFILE_CPUS_MAX];
	void *ring[ZC_PROFILE_CPUS_MAX];
	size_t ring_len, page;
	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	struct zc_stacks stacks;
	struct zc_ksyms ks;
	bool have_ks;
	struct proc procs[PROCS_MAX];
	int nprocs;
	uint64_t lost;
	int err;		/* first error of the thread (-ENOMEM) */
	uint64_t rec[(CHAIN_MAX + 16) * 2];	/* the record being read (it may wrap) */
	char line[CHAIN_MAX * 128];		/* the stack being folded */
};

static struct proc *proc_of(struct zc_sampler *s, pid_t pid, pid_t tid, bool user)
{
	struct proc *p;
	char path[64], name[20];

	for (int i = 0; i < s->nprocs; i++) {
		p = &s->procs[i];
		if (p->pid != pid)
			continue;
		if (user && !p->tried && pid > 0) {
			p->syms = zc_usyms_open(pid);
			p->tried = true;
		}
		return p;
	}
	if (s->nprocs == PROCS_MAX)
		return NULL;
	p = &s->procs[s->nprocs++];
	p->pid = pid;
	p->tried = user;
	p->syms = user && pid > 0 ? zc_usyms_open(pid) : NULL;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	if (pid == 0)
		snprintf(name, sizeof(name), "swapper");
	else if (zc_read_file_trim(path, name, sizeof(name)))
		snprintf(name, sizeof(name), "[unknown]");	/* gone already */
	for (char *c = name; *c; c++)
		if (*c == ';' || *c == ' ')
			*c = *c == ';' ? ':' : '_';
	snprintf(p->comm, sizeof(p->comm), "%s-%d", name, (int)pid);
	return p;
}

/* One PERF_RECORD_SAMPLE: ip, pid/tid, callchain (leaf first, context markers inside). */
static void take_sample(struct zc_sampler *s, const uint64_t *rec, size_t words)
{
	char *line = s->line;
	const uint32_t *ids = (const uint32_t *)&rec[1];
	uint64_t nr = words > 3 ? rec[2] : 0;
	const uint64_t *ips = &rec[3];
	char names[CHAIN_MAX][128];
	bool kernel = true, user = false;
	int n = 0;
	size_t o;
	struct proc *p;

	if (words < 3 || nr > words - 3)
		return;
	for (uint64_t i = 0; i < nr; i++)
		user |= ips[i] == (uint64_t)PERF_CONTEXT_USER;
	p = proc_of(s, (pid_t)ids[0], (pid_t)ids[1], user);
	for (uint64_t i = 0; i < nr && n < CHAIN_MAX; i++) {
		uint64_t ip = ips[i];
		const char *k;

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel) {
			k = s->have_ks ? zc_ksyms_find(&s->ks, ip) : NULL;
			snprintf(names[n], sizeof(names[n]), "%s_[k]", k ? k : "[kernel]");
		} else if (zc_usyms_find(p ? p->syms : NULL, n ? ip - 1 : ip, names[n],
					 sizeof(names[n]) - 1)) {
			/* A return address names its caller; the leaf is exact. */
			snprintf(names[n], sizeof(names[n]), "[unknown]");
		}
		for (char *c = names[n]; *c; c++)
			if (*c == ';')
				*c = ':';
		n++;
	}
	o = snprintf(line, sizeof(s->line), "%s", p ? p->comm : "[unknown]");
	for (int i = n - 1; i >= 0 && o < sizeof(s->line); i--)
		o += snprintf(line + o, sizeof(s->line) - o, ";%s", names[i]);
	if (zc_stacks_add(&s->stacks, line, 1) && !s->err)
		s->err = -ENOMEM;
}

/* Everything in one CPU's ring since the last read. */
static void drain(struct zc_sampler *s, int i)
{
	struct perf_event_mmap_page *mp = s->ring[i];
	char *data = (char *)s->ring[i] + s->page;
	size_t size = s->ring_len - s->page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;
	uint64_t *rec = s->rec;

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail % size, first;

		memcpy(&h, data + off, sizeof(h) <= size - off ? sizeof(h) : size - off);
		if (size - off < sizeof(h))
			memcpy((char *)&h + (size - off), data, sizeof(h) - (size - off));
		if (h.size < sizeof(h))
			break;	/* never happens with a sane kernel; do not loop */
		if (h.type == PERF_RECORD_SAMPLE || h.type == PERF_RECORD_LOST) {
			size_t len = h.size < sizeof(s->rec) ? h.size : sizeof(s->rec);

			/* A record may wrap around the end of the ring. */
			first = size - off < len ? size - off : len;
			memcpy(rec, data + off, first);
			memcpy((char *)rec + first, data, len - first);
			if (h.type == PERF_RECORD_LOST)
				s->lost += rec[2];	/* header, id, lost */
			else
				take_sample(s, rec + 1, (len - sizeof(h)) / 8);
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static void *reader(void *arg)
{
	struct zc_sampler *s = arg;
	struct pollfd pfd[ZC_PROFILE_CPUS_MAX];

	for (int i = 0; i < s->n; i++)
		pfd[i] = (struct pollfd){ .fd = s->fd[i], .events = POLLIN };
	while (!atomic_load(&s->stop)) {
		poll(pfd, s->n, 100);
		for (int i = 0; i < s->n; i++)
			drain(s, i);
	}
	for (int i = 0; i < s->n; i++)
		drain(s, i);
	return NULL;
}

static void release(struct zc_sampler *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->ring[i] && s->ring[i] != MAP_FAILED)
			munmap(s->ring[i], s->ring_len);
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	}
	for (int i = 0; i < s->nprocs; i++)
		zc_usyms_close(s->procs[i].syms);
	if (s->have_ks)
		zc_ksyms_free(&s->ks);
	zc_stacks_free(&s->stacks);
	free(s);
}

int zc_sampler_open(struct zc_sampler **out, const int *cpus, int n, int freq_hz, bool hw,
		    char *why, size_t len)
{
	struct zc_sampler *s = calloc(1, sizeof(*s));
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
		.config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = (uint64_t)freq_hz,
		.freq = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
		.disabled = 1,
		.watermark = 1,
	};
	int ret;

	if (!s)
		return -ENOMEM;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->ring_len = (RING_PAGES + 1) * s->page;
	a.wakeup_watermark = (uint32_t)(RING_PAGES * s->page / 4);
	for (int i = 0; i < ZC_PROFILE_CPUS_MAX; i++)
		s->fd[i] = -1;
	if ((ret = zc_stacks_init(&s->stacks)))
		goto fail;
	/* Kernel names: without them the chains still count, as "[kernel]". */
	s->have_ks = zc_ksyms_load(&s->ks) == 0;
	s->n = n;
	for (int i = 0; i < n; i++) {
		s->fd[i] = (int)syscall(SYS_perf_event_open, &a, -1, cpus[i], -1,
					PERF_FLAG_FD_CLOEXEC);
		if (s->fd[i] < 0) {
			ret = -errno;
			zc_profile_why(-ret, "perf_event_open", why, len);
			goto fail;
		}
		s->ring[i] = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd[i], 0);
		if (s->ring[i] == MAP_FAILED) {
			ret = -errno;
			snprintf(why, len, "mmap of the sample ring: %s", strerror(-ret));
			goto fail;
		}
	}
	ret = -pthread_create(&s->thread, NULL, reader, s);
	if (ret) {
		snprintf(why, len, "pthread_create: %s", strerror(-ret));
		goto fail;
	}
	s->thread_started = true;
	{
		cpu_set_t set;

		/* The reader never runs on a CPU it profiles (when there is another). */
		CPU_ZERO(&set);
		for (int c = 0; c < CPU_SETSIZE && c < sysconf(_SC_NPROCESSORS_ONLN); c++)
			CPU_SET(c, &set);
		for (int i = 0; i < n; i++)
			CPU_CLR(cpus[i], &set);
		if (CPU_COUNT(&set))
			pthread_setaffinity_np(s->thread, sizeof(set), &set);
	}
	*out = s;
	return 0;
fail:
	release(s);
	return ret;
}

int zc_sampler_enable(struct zc_sampler *s, bool on)
{
	for (int i = 0; i < s->n; i++)
		if (ioctl(s->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0))
			return -errno;
	return 0;
}

int zc_sampler_close(struct zc_sampler *s, struct zc_stacks *out, uint64_t *lost)
{
	int ret;

	zc_sampler_enable(s, false);
	atomic_store(&s->stop, true);
	if (s->thread_started)
		pthread_join(s->thread, NULL);
	ret = s->err;
	*lost = s->lost;
	*out = s->stacks;
	s->stacks.counts = NULL;
	release(s);
	return ret;
}
