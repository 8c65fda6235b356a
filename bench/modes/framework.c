// SPDX-License-Identifier: GPL-2.0
/*
 * What a mode does not write itself: its private state, its options, the
 * pump and probe step around its step or fill, and a worker's many
 * connections (the event loop). The pump is the device under test's hot
 * loop: one indirect call per data syscall, nothing else.
 */
#include "modes/mode.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

int zc_mode_setup(const struct zc_mode *m, struct zc_io *io, const char *opts, char *err,
		  size_t errlen)
{
	int ret;

	io->priv = NULL;
	if (m->priv_size && !(io->priv = calloc(1, m->priv_size))) {
		snprintf(err, errlen, "%s: private state: out of memory", m->name);
		return -ENOMEM;
	}
	if ((ret = zc_mode_opts_apply(m, io->priv, opts, err, errlen)))
		return ret;
	if (m->setup && (ret = m->setup(io))) {
		snprintf(err, errlen, "mode setup (%s)", m->name);
		return ret;
	}
	return 0;
}

/* pump of a step mode: 0 on stop, 1 on EOF, -errno. */
static int step_pump(ssize_t (*step)(struct zc_io *io), struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = step(io);

		if (n < 0 && n != -EINTR)
			return (int)n;
		if (io->eof)
			return 1;
	}
	return 0;
}

/* pump of a pipe-filling source: fill when the pipe is empty, then drain. */
static int fill_pump(ssize_t (*fill)(struct zc_io *io), struct zc_io *io)
{
	while (!*io->stop) {
		int ret;

		if (!io->pending) {
			ssize_t n = fill(io);

			io->calls++;
			if (n == -EINTR)
				continue;
			if (n < 0)
				return (int)n;
			io->pending = n;
		}
		if ((ret = zc_pipe_drain(io)))
			return ret;
	}
	return 0;
}

int zc_mode_pump(const struct zc_mode *m, struct zc_io *io)
{
	if (m->pump)
		return m->pump(io);
	if (m->fill)
		return fill_pump(m->fill, io);
	if (m->step)
		return step_pump(m->step, io);
	return -EOPNOTSUPP;
}

ssize_t zc_mode_step(const struct zc_mode *m, struct zc_io *io)
{
	ssize_t n;
	int ret;

	if (m->step)
		return m->step(io);
	if (!m->fill)
		return -EOPNOTSUPP;
	/* One turn of fill_pump. */
	n = m->fill(io);
	io->calls++;
	if (n < 0)
		return n;
	io->pending = n;
	ret = zc_pipe_drain(io);
	return ret ? ret : n;
}

void zc_mode_teardown(const struct zc_mode *m, struct zc_io *io)
{
	/* Without its priv (out of memory) the mode's setup never ran. */
	if (m->teardown && (io->priv || !m->priv_size))
		m->teardown(io);
	free(io->priv);
	io->priv = NULL;
}

/* --- many connections on one worker ------------------------------------- */

const char *zc_conns_unsupported(const struct zc_mode *m, size_t n)
{
	/* A peer's program serves its connections itself (peers/role_peer.c). */
	if (n <= 1 || (m->flags & ZC_MODE_PEER))
		return NULL;
	if (m->single_conn)
		return m->single_conn;
	if (!m->pump_conns && !m->step && !m->fill)
		return "its loop is its own (a pump) and it has no per-connection step";
	return NULL;
}

int zc_conns_setup(const struct zc_mode *m, struct zc_conns *w, const char *opts, char *err,
		   size_t errlen)
{
	const char *why = zc_conns_unsupported(m, w->n);
	bool evloop = w->n > 1 && !m->pump_conns;
	int ret;

	w->epfd = -1;
	w->shared = NULL;
	w->nlist = w->ndone = 0;
	w->waits = 0;
	w->driver = m->pump_conns ? "shared loop" : evloop ? "event loop" : "mode loop";
	if (why) {
		snprintf(err, errlen, "mode %s cannot serve %zu connections on one worker: %s",
			 m->name, w->n, why);
		return -EOPNOTSUPP;
	}
	w->list = calloc(w->n ? w->n : 1, sizeof(*w->list));
	w->mark = calloc(w->n ? w->n : 1, sizeof(*w->mark));
	if (!w->list || !w->mark || (m->shared_size && !(w->shared = calloc(1, m->shared_size)))) {
		snprintf(err, errlen, "%s: per-worker state: out of memory", m->name);
		return -ENOMEM;
	}
	if (m->shared_setup && (ret = m->shared_setup(w))) {
		snprintf(err, errlen, "mode setup (%s, shared by a worker's connections)", m->name);
		return ret;
	}
	for (size_t i = 0; i < w->n; i++) {
		struct zc_io *io = w->io[i];

		io->shared = w->shared;
		io->evloop = evloop;
		if (evloop && ((io->in_fd >= 0 && (ret = zc_set_nonblock(io->in_fd))) ||
			       (io->out_fd >= 0 && (ret = zc_set_nonblock(io->out_fd))))) {
			snprintf(err, errlen, "non-blocking sockets");
			return ret;
		}
		if ((ret = zc_mode_setup(m, io, opts, err, errlen)))
			return ret;
	}
	if (!evloop)
		return 0;
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0) {
		snprintf(err, errlen, "epoll_create1");
		return -errno;
	}
	for (size_t i = 0; i < w->n; i++) {
		/* Edge-triggered, both ways: a step runs until -EAGAIN, so an edge
		 * always follows the wait it stopped on (its input or its output). */
		struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
					  .data.u32 = (uint32_t)i };
		int fds[2] = { w->io[i]->in_fd, w->io[i]->out_fd };

		for (int k = 0; k < 2; k++)
			/* EPERM: a file that never blocks (splice-null's /dev/null). */
			if (fds[k] >= 0 && epoll_ctl(w->epfd, EPOLL_CTL_ADD, fds[k], &ev) &&
			    errno != EPERM) {
				snprintf(err, errlen, "epoll_ctl");
				return -errno;
			}
		/* Every connection starts ready: nothing has blocked yet. */
		w->list[w->nlist++] = (uint32_t)i;
		w->mark[i] = true;
	}
	return 0;
}

/* One turn of a connection: bytes moved, -EAGAIN when it must wait, -errno. */
static ssize_t conn_turn(const struct zc_mode *m, struct zc_io *io)
{
	int ret;

	if (m->step)
		return m->step(io);
	/* fill: a new chunk only once the last one left the pipe. */
	if (!io->pending) {
		ssize_t n = m->fill(io);

		io->calls++;
		if (n < 0)
			return n;
		io->pending = n;
	}
	ret = zc_pipe_drain(io);
	return ret ? ret : 0;
}

/* Turns a ready connection gets before the next one's: enough to amortise
 * the loop, few enough that one busy connection cannot starve the others. */
#define EV_BUDGET 16
#define EV_BATCH 64

static void ev_ready(struct zc_conns *w, uint32_t i)
{
	if (!w->mark[i]) {
		w->mark[i] = true;
		w->list[w->nlist++] = i;
	}
}

/* The event loop: 0 on stop, 1 when every connection is finished, -errno. */
static int ev_pump(const struct zc_mode *m, struct zc_conns *w)
{
	struct epoll_event evs[EV_BATCH];

	while (!*w->stop) {
		size_t n = w->nlist, keep = 0;
		int k;

		if (w->ndone == w->n)
			return 1;
		/* Nothing ready: wait. Something ready: only look for more (fairness). */
		k = epoll_wait(w->epfd, evs, EV_BATCH, n ? 0 : -1);
		w->waits++;
		if (k < 0 && errno != EINTR)
			return -errno;
		for (int e = 0; e < k; e++)
			ev_ready(w, evs[e].data.u32);
		n = w->nlist;
		for (size_t j = 0; j < n; j++) {
			uint32_t i = w->list[j];
			struct zc_io *io = w->io[i];
			bool again = true;

			/* A window edge: the rest stay ready for the next phase. */
			if (*w->stop) {
				w->list[keep++] = i;
				continue;
			}

			for (int t = 0; t < EV_BUDGET && again; t++) {
				ssize_t r = conn_turn(m, io);

				if (r == -EAGAIN || (io->eof && !io->pending)) {
					again = false;
				} else if (r == -EINTR) {
					if (*w->stop)
						break;
				} else if (r < 0) {
					return (int)r;
				}
			}
			if (io->eof && !io->pending) {
				/* Finished: out of the set, never ready again. */
				if (io->in_fd >= 0)
					epoll_ctl(w->epfd, EPOLL_CTL_DEL, io->in_fd, NULL);
				if (io->out_fd >= 0)	/* fails harmlessly where never added */
					epoll_ctl(w->epfd, EPOLL_CTL_DEL, io->out_fd, NULL);
				w->ndone++;
				again = false;
				io->pending = 0;
				io->eof = true;
				w->mark[i] = true;	/* never listed again */
			} else if (!again) {
				w->mark[i] = false;
			}
			if (again)
				w->list[keep++] = i;
		}
		w->nlist = keep;
	}
	return 0;
}

int zc_conns_pump(const struct zc_mode *m, struct zc_conns *w)
{
	for (size_t i = 0; i < w->n; i++)
		w->io[i]->stop = w->stop;
	if (m->pump_conns)
		return m->pump_conns(w);
	if (w->epfd < 0)
		return w->n ? zc_mode_pump(m, w->io[0]) : 1;
	return ev_pump(m, w);
}

int zc_conns_settle(const struct zc_mode *m, struct zc_conns *w)
{
	return m->settle_conns && w->n ? m->settle_conns(w) : 0;
}

void zc_conns_teardown(const struct zc_mode *m, struct zc_conns *w)
{
	if (w->shared && m->shared_teardown)
		m->shared_teardown(w);
	for (size_t i = 0; i < w->n; i++)
		zc_mode_teardown(m, w->io[i]);
	if (w->epfd >= 0)
		close(w->epfd);
	w->epfd = -1;
	free(w->shared);
	free(w->list);
	free(w->mark);
	w->shared = NULL;
	w->list = NULL;
	w->mark = NULL;
}
