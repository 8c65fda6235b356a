// SPDX-License-Identifier: GPL-2.0
/*
 * What the client, server and proxy workers of a request/response role
 * share (rr_int.h): failing the role, the window edges they take as the
 * clock passes them, and a non-blocking connect to the peer. Below rr.c,
 * which starts the workers and reads what they took.
 */
#include "rr/rr_int.h"
#include "lib/net.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

struct zc_live_role zc_rr_live;	/* rr_int.h */

void zc_rr_fail(struct rr_worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (!w->ret) {
		w->ret = err < 0 ? err : -EIO;
		va_start(ap, fmt);
		vsnprintf(w->err, sizeof(w->err), fmt, ap);
		va_end(ap);
	}
	w->rr->abort = 1;
}

void zc_rr_take(struct rr_worker *w, int p)
{
	struct rr_snap *s = &w->s[p];

	s->t = zc_now();
	s->bytes = w->bytes;
	s->calls = w->calls;
	s->tx = w->tx;
	getrusage(RUSAGE_THREAD, &s->ru);
	s->cs_ok = w->cpu >= 0 && zc_cpustat_read(w->cpu, &s->cs) == 0;
	if (zc_rr_live.edge && p < PH_NR)
		zc_rr_live.edge[w->idx][p] = w->bytes;
}

bool zc_rr_tick(struct rr_worker *w, double now)
{
	if (zc_rr_live.io)
		__atomic_store_n(&zc_rr_live.io[w->idx].bytes, w->bytes, __ATOMIC_RELAXED);
	while (w->phase < RR_NR && now >= w->rr->edge[w->phase])
		zc_rr_take(w, w->phase++);
	return w->phase < RR_NR;
}

int zc_rr_wait_ms(const struct rr_worker *w, double now, int cap)
{
	double next = w->phase < RR_NR ? w->rr->edge[w->phase] : w->rr->end;
	double ms = (next - now) * 1e3;

	if (ms < 0)
		return 0;
	/* Rounded up: a wait that ends just before the edge only spins once more. */
	return ms + 1 < cap ? (int)ms + 1 : cap;
}

void zc_rr_nodelay(int fd)
{
	int one = 1;

	/* Only fails on a socket that is not TCP; the run goes on as it is. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int zc_rr_epoll(struct rr_worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE };

	if ((w->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    (w->rr->lfd >= 0 && epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->rr->lfd, &ev)))
		return -errno;
	return 0;
}

/* The listener is ready: every connection waiting, to ops->accept. */
static void accept_all(struct rr_worker *w, const struct rr_ops *ops)
{
	const struct rr *rr = w->rr;
	int fd = 0;

	while (!rr->abort && (fd = accept4(rr->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		zc_rr_nodelay(fd);
		ops->accept(w, fd);
	}
	if (fd < 0 && errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
		zc_rr_fail(w, -errno, "%s: accept: %s", rr->role == ZC_ROLE_SINK ? "server" : "proxy",
			   strerror(errno));
}

void zc_rr_serve(struct rr_worker *w, const struct rr_ops *ops)
{
	const struct rr *rr = w->rr;
	/*
	 * Past the tail nothing open means the client is done, except under
	 * churn: its last connection, opened before its own tail's end, may not
	 * be accepted yet. One tail more (the roles' allowance for each other's
	 * clocks) lets it in; the client opens none past its tail.
	 */
	double done = rr->edge[RR_TAIL] + (rr->cfg->churn ? rr->cfg->tail_s : 0);
	struct epoll_event evs[64];

	while (!rr->abort) {
		double now = zc_now();
		int k;

		if (!zc_rr_tick(w, now) && ((w->opened == w->closed && now >= done) || now >= rr->end))
			break;
		k = epoll_wait(w->epfd, evs, 64, zc_rr_wait_ms(w, now, 100));
		for (int e = 0; e < k && !rr->abort; e++) {
			if (!evs[e].data.ptr)
				accept_all(w, ops);
			else
				ops->event(w, evs[e].data.ptr);
		}
	}
}

bool zc_rr_keep(void ***all, size_t *n, size_t *cap, void *c)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		void **a = realloc(*all, ncap * sizeof(*a));

		if (!a)
			return false;
		*all = a;
		*cap = ncap;
	}
	(*all)[(*n)++] = c;
	return true;
}

int zc_rr_connect(const struct rr *rr)
{
	const char *dev = rr->ra->bind_device;
	int fd = socket(rr->peer.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if ((dev[0] && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, strlen(dev))) ||
	    (connect(fd, (const struct sockaddr *)&rr->peer, rr->peer_len) && errno != EINPROGRESS)) {
		int e = -errno;

		close(fd);
		return e;
	}
	zc_rr_nodelay(fd);
	return fd;
}
