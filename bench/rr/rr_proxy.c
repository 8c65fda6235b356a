// SPDX-License-Identifier: GPL-2.0
/*
 * The proxy of a request/response run (traffic = rr): every worker accepts
 * from the one listener (EPOLLEXCLUSIVE) through the whole window, connects
 * onward for each accepted connection (non-blocking: the first bytes wait
 * for the handshake as any write would), and forwards both directions with
 * the run's proxy mode: its .step on two zc_io, client -> server and
 * server -> client, the very step a stream run's event loop drives. A
 * connection goes when both directions saw their end and passed on
 * everything. With a pipe mode (splice) each direction's pipe is made by
 * the mode's setup, or taken from the worker's pipe pool and given back
 * empty at close (pipe_pool = N, modes/pipe.c); pipes made and reused are
 * counted, so what a pipe costs per connection shows beside the figures.
 */
#include "rr/rr_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

struct pconn {
	struct zc_io dir[2];	/* 0: client -> server, 1: server -> client */
	int cfd, sfd;
	uint8_t *buf[2];	/* chunk bytes each (copy-like modes) */
	bool live;
	uint64_t id;
	struct pconn *next_free;
};

struct proxy {
	struct pconn *free;
	void **all;
	size_t nall, cap;
	uint64_t accepted;
	volatile sig_atomic_t never;	/* the modes' stop flag: a step never looks */
};

static int p_setup(struct rr_worker *w)
{
	if (!(w->priv = calloc(1, sizeof(struct proxy))))
		return -ENOMEM;
	return zc_pipe_pool_init(&w->pool, (size_t)w->rr->cfg->pipe_pool);
}

static void p_close(struct rr_worker *w, struct pconn *c)
{
	struct proxy *p = w->priv;

	for (int d = 0; d < 2; d++)
		zc_mode_teardown(w->rr->m, &c->dir[d]);
	close(c->cfd);
	close(c->sfd);
	c->cfd = c->sfd = -1;
	c->live = false;
	c->next_free = p->free;
	p->free = c;
	w->closed++;
}

/* Both directions until each would block: 1 when both are finished, 0, -errno. */
static int p_run(struct rr_worker *w, struct pconn *c)
{
	const struct zc_mode *m = w->rr->m;
	int ret = 0;

	for (int d = 0; d < 2 && !ret; d++) {
		struct zc_io *io = &c->dir[d];
		uint64_t b0 = io->bytes, k0 = io->calls;

		while (!(io->eof && !io->pending)) {
			ssize_t n = m->step(io);

			if (n == -EAGAIN)
				break;
			if (n < 0 && n != -EINTR) {
				ret = (int)n;
				break;
			}
		}
		w->bytes += io->bytes - b0;
		w->calls += io->calls - k0;
	}
	if (ret)
		return ret;
	return c->dir[0].eof && !c->dir[0].pending && c->dir[1].eof && !c->dir[1].pending;
}

static struct pconn *p_new(struct rr_worker *w)
{
	struct proxy *p = w->priv;
	struct pconn *c = p->free;
	size_t len = w->rr->cfg->chunk;
	int node;

	if (c) {
		p->free = c->next_free;
		return c;
	}
	if (!(c = calloc(1, sizeof(*c))) || !zc_rr_keep(&p->all, &p->nall, &p->cap, c)) {
		free(c);
		return NULL;
	}
	c->cfd = c->sfd = -1;
	for (int d = 0; d < 2; d++)
		if (!(c->buf[d] = zc_buf_alloc(len, w->cpu, &node)))
			return NULL;
	return c;
}

/* A connection accepted as fd: its onward connection and both directions. */
static int p_open(struct rr_worker *w, int fd, char *err, size_t errlen)
{
	struct proxy *p = w->priv;
	const struct zc_cfg *cfg = w->rr->cfg;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET };
	struct pconn *c = p_new(w);
	int sfd, ret;

	if (!c) {
		close(fd);
		snprintf(err, errlen, "connection state");
		return -ENOMEM;
	}
	if ((sfd = zc_rr_connect(w->rr)) < 0) {
		close(fd);
		c->next_free = p->free;
		p->free = c;
		snprintf(err, errlen, "connect onward");
		return sfd;
	}
	c->cfd = fd;
	c->sfd = sfd;
	c->id = p->accepted++;
	c->live = true;
	w->opened++;
	for (int d = 0; d < 2; d++) {
		struct zc_io *io = &c->dir[d];

		*io = (struct zc_io){ ZC_IO_INIT };
		io->chunk = cfg->chunk;
		io->pipe_size = cfg->pipe_size;
		io->file_dir = cfg->file_dir;
		io->period = cfg->period;
		io->in_fd = d ? sfd : fd;
		io->out_fd = d ? fd : sfd;
		io->buf = c->buf[d];
		io->buf_len = cfg->chunk;
		io->stop = &p->never;
		io->evloop = true;
		io->conn_id = (uint32_t)c->id;
		io->pipe_pool = &w->pool;
		if ((ret = zc_mode_setup(w->rr->m, io, cfg->mode_opts, err, errlen))) {
			if (d == 1)
				zc_mode_teardown(w->rr->m, &c->dir[0]);
			zc_mode_teardown(w->rr->m, io);
			close(fd);
			close(sfd);
			c->live = false;
			c->next_free = p->free;
			p->free = c;
			w->closed++;
			return ret;
		}
	}
	ev.data.ptr = c;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) || epoll_ctl(w->epfd, EPOLL_CTL_ADD, sfd, &ev)) {
		snprintf(err, errlen, "epoll_ctl");
		ret = -errno;
		p_close(w, c);
		return ret;
	}
	ret = p_run(w, c);
	if (ret) {
		if (ret < 0 && !w->resets++)
			w->first_reset = ret;
		p_close(w, c);
	}
	return 0;
}

static void p_accept(struct rr_worker *w, int fd)
{
	char err[256];
	int ret = p_open(w, fd, err, sizeof(err));

	if (ret)
		zc_rr_fail(w, ret, "proxy: %s (proxy mode %s): %s", err, w->rr->m->name,
			   strerror(-ret));
}

/* One event on a connection: run it; a peer's reset ends it, counted (the
 * client judges). */
static void p_event(struct rr_worker *w, void *ptr)
{
	struct pconn *c = ptr;
	int ret;

	if (!c->live)
		return;
	ret = p_run(w, c);
	if (ret < 0 && !w->resets++)
		w->first_reset = ret;
	if (ret)
		p_close(w, c);
}

static void p_teardown(struct rr_worker *w)
{
	struct proxy *p = w->priv;

	for (size_t i = 0; p && i < p->nall; i++) {
		struct pconn *c = p->all[i];

		if (c->live)
			p_close(w, c);
		for (int d = 0; d < 2; d++)
			zc_buf_free(c->buf[d], w->rr->cfg->chunk);
		free(c);
	}
	if (p)
		free(p->all);
	free(p);
	w->priv = NULL;
}

static void p_report(struct rr *rr, json_t *o)
{
	uint64_t made = 0, reused = 0, back = 0, closed = 0, conns = 0;

	for (int i = 0; i < rr->nw; i++) {
		const struct zc_pipe_pool *pp = &rr->w[i].pool;

		made += pp->created;
		reused += pp->reused;
		back += pp->returned;
		closed += pp->closed;
		conns += rr->w[i].opened;
		/* The pool's own pipes are closed with the worker's pool (below). */
	}
	json_object_set_new(o, "pipe_pool", json_integer((json_int_t)rr->cfg->pipe_pool));
	json_object_set_new(o, "pipes", json_pack("{s:I,s:I,s:I,s:I,s:f}", "created",
			    (json_int_t)made, "reused", (json_int_t)reused, "returned",
			    (json_int_t)back, "closed", (json_int_t)closed, "created_per_connection",
			    conns ? (double)made / conns : 0.0));
	for (int i = 0; i < rr->nw; i++)
		zc_pipe_pool_free(&rr->w[i].pool);
}

const struct rr_ops zc_rr_proxy = { .setup = p_setup, .teardown = p_teardown, .report = p_report,
				    .accept = p_accept, .event = p_event };
