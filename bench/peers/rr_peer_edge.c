// SPDX-License-Identifier: GPL-2.0
/*
 * What an HTTP program in a request/response role's place is measured with
 * (rr_peer_int.h), at the edges of the controller's GO time: the role's
 * CPUs, the program's sockets and its process group's CPU time.
 */
#include "peers/rr_peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* User and system seconds of a process group (nginx's master and workers,
 * and the workers the master reaped): 0 or -errno. */
static int group_times(const struct zc_peer *p, double *user_s, double *sys_s)
{
	pid_t pids[HP_CPUS + 8];
	int n = zc_peer_group_pids(p, pids, ZC_ARRAY_SIZE(pids));
	unsigned long long ut = 0, st = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		char path[64], line[1024], *q;
		unsigned long long u, s, cu, cs;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		if (!(f = fopen(path, "re")))
			continue;	/* gone since it was listed */
		q = fgets(line, sizeof(line), f);
		fclose(f);
		/* After the command's closing parenthesis: utime is field 14,
		 * stime 15, cutime 16, cstime 17. */
		if (!q || !(q = strrchr(line, ')')) ||
		    sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			   &u, &s, &cu, &cs) != 4)
			return -EINVAL;
		ut += u + (i == 0 ? cu : 0);
		st += s + (i == 0 ? cs : 0);
	}
	*user_s = ut / (double)sysconf(_SC_CLK_TCK);
	*sys_s = st / (double)sysconf(_SC_CLK_TCK);
	return 0;
}

void zc_hp_take(struct hp *h, struct hp_edge *e)
{
	e->t = zc_now();
	e->cs_ok = true;
	for (int i = 0; i < h->ncpus; i++)
		e->cs_ok &= h->cpus[i] >= 0 && zc_cpustat_read(h->cpus[i], &e->cs[i]) == 0;
	e->tcp_ret = zc_peer_tcp_bytes(h->tcp_pid, h->lport, h->rport, &e->tcp);
	e->cpu_ok = group_times(h->p, &e->user_s, &e->sys_s) == 0;
}

int zc_hp_sleep_until(struct hp *h, double t)
{
	for (;;) {
		double left = t - zc_now();
		struct pollfd pfd = { .fd = h->pidfd, .events = POLLIN };

		if (left <= 0)
			return zc_peer_alive(h->p) ? 0 : -ECHILD;
		if (h->pidfd < 0) {
			/* No pidfd (kernel < 5.3): look every 50 ms. */
			if (!zc_peer_alive(h->p))
				return -ECHILD;
			usleep(left < 0.05 ? (useconds_t)(left * 1e6) : 50000);
			continue;
		}
		if (poll(&pfd, 1, (int)ceil(left * 1000)) > 0 && !zc_peer_alive(h->p))
			return -ECHILD;
	}
}

json_t *zc_hp_window_json(const struct hp *h)
{
	const struct hp_edge *a = &h->e[HP_WARMUP], *b = &h->e[HP_WINDOW];
	double win = b->t - a->t;
	json_t *o = json_object(), *cpus = json_array();
	struct zc_cpustat sum = { 0 };
	uint64_t x0 = h->read ? a->tcp.read : a->tcp.written, x1 = h->read ? b->tcp.read : b->tcp.written;

	for (int i = 0; i < h->ncpus; i++)
		json_array_append_new(cpus, json_integer(h->cpus[i]));
	json_object_set_new(o, "window_s", json_real(win));

	/* Under churn a socket closed inside the window takes its count along. */
	json_object_set_new(o, "tcp_bytes", a->tcp_ret || b->tcp_ret || x1 < x0 ? json_null() :
			    json_integer((json_int_t)(x1 - x0)));
	json_object_set_new(o, "tcp_bytes_from", json_string(h->read ?
		"the program's TCP sockets, heads and bodies read: tcpi_bytes_received - receive "
		"queue (sock_diag)" : "the program's TCP sockets, heads and bodies written: "
		"tcpi_bytes_acked + send queue (sock_diag), live sockets only"));
	json_object_set_new(o, "sockets", json_integer(b->tcp.nsocks));
	if (a->cpu_ok && b->cpu_ok) {
		json_object_set_new(o, "rusage_user_s", json_real(b->user_s - a->user_s));
		json_object_set_new(o, "rusage_sys_s", json_real(b->sys_s - a->sys_s));
		json_object_set_new(o, "rusage_from", json_string("the program's process group "
				    "(/proc/PID/stat of each member, and the children its leader reaped)"));
	}
	json_object_set_new(o, "cpus", cpus);
	if (!a->cs_ok || !b->cs_ok) {
		json_object_set_new(o, "busy_s", json_null());
		return o;
	}
	for (int i = 0; i < h->ncpus; i++) {
		struct zc_cpustat d;

		zc_cpustat_delta(&a->cs[i], &b->cs[i], &d);
		sum.user += d.user, sum.nice += d.nice, sum.system += d.system;
		sum.irq += d.irq, sum.softirq += d.softirq, sum.idle += d.idle;
		sum.iowait += d.iowait, sum.steal += d.steal;
	}
	json_object_set_new(o, "cpustat", json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "user_s",
			    sum.user, "system_s", sum.system, "irq_s", sum.irq, "softirq_s",
			    sum.softirq, "idle_s", sum.idle, "steal_s", sum.steal, "busy_s",
			    zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_s", json_real(zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_frac", json_real(win > 0 ? zc_cpustat_busy(&sum) / win : 0));
	return o;
}

void zc_hp_died(struct hp *h, const char *when, char *err, size_t len)
{
	char desc[64], tail[600];

	zc_peer_describe(h->p, desc, sizeof(desc));
	zc_peer_log_tail(h->p->log_path, tail, sizeof(tail));
	snprintf(err, len, "%s exited %s (%s)%s%s", h->p->name, when, desc,
		 tail[0] ? "; its log ends: " : "", tail);
}

void zc_hp_emit(json_t *out)
{
	char *s = json_dumps(out, JSON_COMPACT);

	if (s) {
		puts(s);
		fflush(stdout);
		free(s);
	}
}
