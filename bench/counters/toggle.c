// SPDX-License-Identifier: GPL-2.0
/*
 * The sliced way of make bench-overhead (toggle.h): the programs detached
 * and attached again slice after slice of one window, from a thread on
 * another CPU. Each slice is measured between two reads taken after the
 * switch, so the switch itself (a tracepoint registered or removed, an RCU
 * wait) falls between slices; the slice the window's end cuts is dropped.
 */
#include "counters/toggle.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLICES_MAX 4096

struct slice {
	bool on;
	double s, cpu_s;
	uint64_t bytes;
};

struct zc_toggle {
	struct zc_bpf *b;
	clockid_t clock;
	uint64_t (*bytes)(void *arg);
	void *arg;
	double slice_s;
	int window;		/* 0 before, 1 open, 2 closed: __atomic */
	pthread_t th;
	int err;		/* the first attach that failed, -errno */
	size_t n;
	struct slice sl[SLICES_MAX];
};

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

double zc_toggle_slice_s(void)
{
	const char *v = getenv("ZC_BPF_TOGGLE_MS");
	char *end;
	long ms;

	if (!v || !*v)
		return 0;
	errno = 0;
	ms = strtol(v, &end, 10);
	if (errno || *end || ms < 10 || ms > 10000)
		return -1;
	return ms / 1e3;
}

static void *run(void *arg)
{
	struct zc_toggle *t = arg;
	bool on = true;

	while (__atomic_load_n(&t->window, __ATOMIC_ACQUIRE) == 0)
		sleep_s(0.001);
	for (size_t k = 0; t->n < SLICES_MAX; k++) {
		/* on, off, off, on, on, off, off, on, ... */
		bool want = ((k + 1) / 2) % 2 == 0;
		double t0, c0;
		uint64_t b0;

		if (want != on) {
			int err = zc_bpf_attach(t->b, want);

			if (err) {
				t->err = t->err ?: err;
				break;
			}
			on = want;
		}
		if (__atomic_load_n(&t->window, __ATOMIC_ACQUIRE) != 1)
			break;
		t0 = zc_now();
		c0 = clock_s(t->clock);
		b0 = t->bytes(t->arg);
		sleep_s(t->slice_s);
		/* A slice the window's end cut is not the window's. */
		if (__atomic_load_n(&t->window, __ATOMIC_ACQUIRE) != 1)
			break;
		t->sl[t->n++] = (struct slice){ .on = on, .bytes = t->bytes(t->arg) - b0,
						.cpu_s = clock_s(t->clock) - c0,
						.s = zc_now() - t0 };
	}
	if (!on) {
		int err = zc_bpf_attach(t->b, true);

		t->err = t->err ?: err;
	}
	return NULL;
}

int zc_toggle_start(struct zc_toggle **out, struct zc_bpf *b, clockid_t clock,
		    uint64_t (*bytes)(void *arg), void *arg, const int *avoid, int navoid,
		    double slice_s, char *why, size_t whylen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct zc_toggle *t;
	pthread_attr_t attr;
	cpu_set_t set;
	int ret, nfree = 0;

	*out = NULL;
	if (!b) {
		snprintf(why, whylen, "no BPF programs loaded");
		return -ENOENT;
	}
	/* Every CPU, less the workers' (the kernel keeps it to the allowed). */
	CPU_ZERO(&set);
	for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
		CPU_SET((int)c, &set);
	for (int i = 0; i < navoid; i++)
		if (avoid[i] >= 0 && avoid[i] < CPU_SETSIZE)
			CPU_CLR(avoid[i], &set);
	nfree = CPU_COUNT(&set);
	if (!nfree) {
		snprintf(why, whylen, "no CPU outside the measured workers' to switch the "
			 "programs from");
		return -EBUSY;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	*t = (struct zc_toggle){ .b = b, .clock = clock, .bytes = bytes, .arg = arg,
				 .slice_s = slice_s };
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(&t->th, &attr, run, t);
	pthread_attr_destroy(&attr);
	if (ret) {
		snprintf(why, whylen, "pthread_create: %s", strerror(ret));
		free(t);
		return -ret;
	}
	*out = t;
	return 0;
}

void zc_toggle_window(struct zc_toggle *t, bool open)
{
	if (t)
		__atomic_store_n(&t->window, open ? 1 : 2, __ATOMIC_RELEASE);
}

json_t *zc_toggle_finish(struct zc_toggle *t)
{
	json_t *o, *a;

	if (!t)
		return NULL;
	/* A role that failed before its window: end the wait. */
	if (__atomic_load_n(&t->window, __ATOMIC_ACQUIRE) == 0)
		__atomic_store_n(&t->window, 2, __ATOMIC_RELEASE);
	pthread_join(t->th, NULL);
	a = json_array();
	for (size_t i = 0; i < t->n; i++)
		json_array_append_new(a, json_pack("[b,f,f,I]", t->sl[i].on, t->sl[i].s,
						   t->sl[i].cpu_s, (json_int_t)t->sl[i].bytes));
	o = json_pack("{s:f,s:o}", "slice_s", t->slice_s, "slices", a);
	if (t->err)
		json_object_set_new(o, "error", json_sprintf("attaching the programs again: %s",
							     strerror(-t->err)));
	free(t);
	return o;
}
