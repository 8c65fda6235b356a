// SPDX-License-Identifier: GPL-2.0
/*
 * One profile of a window: which backend and event, the edges, and what is
 * kept afterwards (profile.h). The choice is made once at open, and the
 * summary says what was chosen and why, so a figure from a VM's cpu-clock
 * is never mistaken for a PMU's cycles.
 */
#include "profile/profile_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const zc_profile_backend_names[3] = { "auto", "perf", "perf_event_open" };

struct zc_profile {
	struct zc_profile_opts o;
	char outdir[PATH_MAX - 64];
	enum zc_profile_backend backend;
	bool hw;
	char event_note[512], perf_version[64], backend_note[1200];
	struct zc_perf_tool tool;
	struct zc_sampler *sampler;
	double t_start, t_stop;
	bool started;
};

bool zc_profile_hw_event(int cpu, char *note, size_t len)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		snprintf(note, len, "cycles: the CPU's PMU");
		return true;
	}
	if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
		snprintf(note, len, "cpu-clock: no hardware PMU here (a VM without a virtual PMU): "
			 "the software cpu-clock event samples by time, not cycles, from a timer "
			 "interrupt, so time with interrupts off shows where they are turned "
			 "back on (_raw_spin_unlock_irqrestore, handle_softirqs)");
	else
		snprintf(note, len, "cpu-clock: the cycles event cannot be opened (%s)",
			 strerror(errno));
	return false;
}

int zc_profile_open(struct zc_profile **out, const struct zc_profile_opts *opts, char *why,
		    size_t len)
{
	struct zc_profile *p = calloc(1, sizeof(*p));
	const char *event;
	int ret;

	if (!p)
		return -ENOMEM;
	p->o = *opts;
	if (!p->o.frequency_hz)
		p->o.frequency_hz = ZC_PROFILE_FREQ_HZ;
	if (!p->o.top)
		p->o.top = ZC_PROFILE_TOP;
	if (p->o.ncpus < 1 || p->o.ncpus > ZC_PROFILE_CPUS_MAX || !opts->outdir) {
		snprintf(why, len, "profile: no CPU or no output folder");
		free(p);
		return -EINVAL;
	}
	snprintf(p->outdir, sizeof(p->outdir), "%s", opts->outdir);
	p->o.outdir = p->outdir;
	if ((ret = zc_mkdir_p(p->outdir, 0755))) {
		snprintf(why, len, "mkdir %s: %s", p->outdir, strerror(-ret));
		free(p);
		return ret;
	}
	p->hw = zc_profile_hw_event(p->o.cpus[0], p->event_note, sizeof(p->event_note));
	event = p->hw ? "cycles" : "cpu-clock";
	p->backend = p->o.backend;
	if (p->backend == ZC_PROFILE_AUTO)
		p->backend = zc_perf_tool_usable(p->perf_version, sizeof(p->perf_version)) ?
				     ZC_PROFILE_PERF : ZC_PROFILE_SAMPLER;
	else if (p->backend == ZC_PROFILE_PERF)
		zc_perf_tool_usable(p->perf_version, sizeof(p->perf_version));
	if (p->backend == ZC_PROFILE_PERF) {
		ret = zc_perf_tool_open(&p->tool, p->o.cpus, p->o.ncpus, p->o.frequency_hz, event,
					p->outdir, why, len);
		/* perf can fail for reasons of its own (a perf too old for the
		 * kernel): asked for either, our sampler gets its turn. */
		if (ret && p->o.backend == ZC_PROFILE_AUTO) {
			snprintf(p->backend_note, sizeof(p->backend_note), "perf record failed (%s): "
				 "our perf_event_open sampler used", why);
			p->backend = ZC_PROFILE_SAMPLER;
		}
	}
	if (p->backend == ZC_PROFILE_SAMPLER)
		ret = zc_sampler_open(&p->sampler, p->o.cpus, p->o.ncpus, p->o.frequency_hz, p->hw,
				      why, len);
	if (ret) {
		free(p);
		return ret;
	}
	*out = p;
	return 0;
}

int zc_profile_start(struct zc_profile *p)
{
	int ret = p->backend == ZC_PROFILE_PERF ? zc_perf_tool_ctl(&p->tool, "enable") :
						  zc_sampler_enable(p->sampler, true);

	p->t_start = zc_now();
	p->started = !ret;
	return ret;
}

int zc_profile_stop(struct zc_profile *p)
{
	int ret = 0;

	if (!p->t_stop) {
		ret = p->backend == ZC_PROFILE_PERF ? zc_perf_tool_ctl(&p->tool, "disable") :
						      zc_sampler_enable(p->sampler, false);
		p->t_stop = zc_now();
	}
	return ret;
}

json_t *zc_profile_close(struct zc_profile *p, char *why, size_t len)
{
	struct zc_stacks st = { 0 };
	char folded[PATH_MAX], svg[PATH_MAX], title[768], cpus[512];
	json_t *sum = NULL, *fig = NULL, *cpuv = json_array();
	uint64_t lost = 0;
	int ret;

	if (p->started)
		zc_profile_stop(p);
	zc_stacks_init(&st);
	if (p->backend == ZC_PROFILE_PERF) {
		ret = zc_perf_tool_close(&p->tool, &st, why, len);
	} else {
		zc_stacks_free(&st);
		ret = zc_sampler_close(p->sampler, &st, &lost);
		if (ret)
			snprintf(why, len, "sampler: %s", strerror(-ret));
	}
	if (ret)
		goto out;
	snprintf(folded, sizeof(folded), "%s/stacks.folded", p->outdir);
	snprintf(svg, sizeof(svg), "%s/flamegraph.svg", p->outdir);
	if ((ret = zc_stacks_write(&st, folded))) {
		snprintf(why, len, "%s: %s", folded, strerror(-ret));
		goto out;
	}
	zc_profile_cpulist(p->o.cpus, p->o.ncpus, cpus, sizeof(cpus));
	snprintf(title, sizeof(title), "CPU %s, %s at %d Hz, %.2f s, %llu samples", cpus,
		 p->hw ? "cycles" : "cpu-clock", p->o.frequency_hz, p->t_stop - p->t_start,
		 (unsigned long long)st.total);
	if ((ret = zc_flamegraph_file(&st, title, svg))) {
		snprintf(why, len, "%s: %s", svg, strerror(-ret));
		goto out;
	}
	fig = zc_profile_summarise(&st, p->o.top, p->o.comm);
	for (int i = 0; i < p->o.ncpus; i++)
		json_array_append_new(cpuv, json_integer(p->o.cpus[i]));
	/* What, how and where first; the figures after. */
	sum = json_pack("{s:s,s:s?,s:s,s:s,s:s?,s:i,s:O,s:f,s:I,s:s?,s:s,s:s}", "backend",
			zc_profile_backend_names[p->backend], "backend_note",
			p->backend_note[0] ? p->backend_note : NULL, "event",
			p->hw ? "cycles" : "cpu-clock",
			"event_note", p->event_note, "perf_version",
			p->backend == ZC_PROFILE_PERF ? p->perf_version : NULL, "frequency_hz",
			p->o.frequency_hz, "cpus", cpuv, "window_s",
			p->started ? p->t_stop - p->t_start : 0.0, "lost", (json_int_t)lost, "data",
			p->backend == ZC_PROFILE_PERF ? p->tool.data : NULL, "folded", folded,
			"flamegraph", svg);
	if (!fig || !sum || json_object_update(sum, fig)) {
		snprintf(why, len, "summary: out of memory");
		json_decref(sum);
		sum = NULL;
	}
	json_decref(fig);
out:
	json_decref(cpuv);
	zc_stacks_free(&st);
	free(p);
	return sum;
}
