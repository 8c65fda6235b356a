// SPDX-License-Identifier: GPL-2.0
/*
 * The server of a request/response run (the sink role, traffic = rr): every
 * worker accepts from the one listener (EPOLLEXCLUSIVE) through the whole
 * window, reads requests (pipelined ones answered in order), and answers
 * each with a 200 and a body of the requested size: the payload pattern from
 * offset 0, sent with send() from one period in memory, or with sendfile()
 * from the same bytes in a file (server_send). At most `chunk` bytes a
 * call. A request with Connection: close is answered and the connection
 * closed. A malformed request fails the run, naming the connection; with
 * rr_check = exact so does any byte of a request head other than what
 * zcbench's client writes for that object (lib/http.h), so a TCP proxy that
 * alters a Host value, a pad byte or a Connection token is caught too.
 */
#include "rr/rr_int.h"
#include "lib/http.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <unistd.h>

struct sconn {
	int fd;
	uint64_t id;		/* accept order on this worker */
	char in[ZC_HTTP_HEAD_MAX];
	size_t in_len;
	char head[128];		/* the response head being sent */
	size_t head_len, head_off;
	uint64_t body_len, body_off;
	uint64_t served, mark;	/* responses begun on it; this one's mark (zc_rr_mark) */
	bool sending, close_after;
	struct sconn *next_free;
};

struct server {
	struct sconn *free;
	void **all;		/* every state made, freed at teardown */
	size_t nall, cap;
	uint64_t accepted, requests;
};

static int s_setup(struct rr_worker *w)
{
	return (w->priv = calloc(1, sizeof(struct server))) ? 0 : -ENOMEM;
}

static void s_close(struct rr_worker *w, struct sconn *c)
{
	struct server *s = w->priv;

	close(c->fd);
	c->fd = -1;
	c->next_free = s->free;
	s->free = c;
	w->closed++;
}

/* Send what is left of the response: 1 done, 0 would block, -errno. */
static int s_write(struct rr_worker *w, struct sconn *c)
{
	const struct rr *rr = w->rr;

	while (c->head_off < c->head_len) {
		ssize_t n = send(c->fd, c->head + c->head_off, c->head_len - c->head_off,
				 MSG_NOSIGNAL | (c->body_len ? MSG_MORE : 0));

		w->calls++;
		if (n < 0)
			return errno == EAGAIN ? 0 : errno == EINTR ? s_write(w, c) : -errno;
		c->head_off += n;
		w->bytes += n;
	}
	while (c->body_off < c->body_len) {
		uint64_t pos = (c->body_off + c->mark) % rr->period, len = rr->period - pos;
		ssize_t n;

		if (len > c->body_len - c->body_off)
			len = c->body_len - c->body_off;
		if (len > rr->cfg->chunk)
			len = rr->cfg->chunk;
		if (rr->file_fd >= 0) {
			off_t off = (off_t)pos;

			n = sendfile(c->fd, rr->file_fd, &off, len);
		} else {
			n = send(c->fd, rr->pattern + pos, len, MSG_NOSIGNAL);
		}
		w->calls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		c->body_off += n;
		w->bytes += n;
	}
	return 1;
}

/* rr_check = exact: the request head m parsed at c->in is byte for byte the
 * one zcbench's client writes for m's object. 0, or -EPROTO (failed). */
static int s_exact(struct rr_worker *w, struct sconn *c, const struct zc_http_msg *m)
{
	const struct zc_cfg *cfg = w->rr->cfg;
	struct server *s = w->priv;
	char want[ZC_HTTP_HEAD_MAX + 1], what[300];
	int n = zc_http_request(want, sizeof(want), m->object, cfg->churn, cfg->request_size);
	long at;

	if (n < 0)	/* "/" or a size whose request cannot be request_size long */
		n = 0;
	at = zc_http_diff(c->in, m->head_len, want, (size_t)n, false, what, sizeof(what));
	if (at < 0)
		return 0;
	zc_rr_fail(w, -EPROTO, "server: connection %llu (worker %d), request %llu: request head "
		   "mismatch at byte %ld: %s (rr_check = exact)", (unsigned long long)c->id, w->idx,
		   (unsigned long long)s->requests, at, what);
	return -EPROTO;
}

/* Serve c until it would block: 0, or -errno (the connection is to go). */
static int s_serve(struct rr_worker *w, struct sconn *c)
{
	struct server *s = w->priv;

	for (;;) {
		struct zc_http_msg m;
		char why[200];
		int ret;

		if (c->sending) {
			if ((ret = s_write(w, c)) <= 0)
				return ret;
			c->sending = false;
			w->tx++;
			if (c->close_after)
				return -ECONNABORTED;	/* answered: close */
		}
		ret = zc_http_parse_request(c->in, c->in_len, &m, why, sizeof(why));
		if (ret < 0) {
			zc_rr_fail(w, -EPROTO, "server: connection %llu (worker %d), request %llu: "
				   "malformed: %s", (unsigned long long)c->id, w->idx,
				   (unsigned long long)s->requests, why);
			return -EPROTO;
		}
		if (ret == 1 && w->rr->cfg->rr_check == ZC_RR_CHECK_EXACT && s_exact(w, c, &m))
			return -EPROTO;
		if (ret == 1) {
			s->requests++;
			c->body_len = m.object == UINT64_MAX ? w->rr->cfg->object_size : m.object;
			c->close_after = m.close;
			ret = zc_http_response(c->head, sizeof(c->head), c->body_len, m.close);
			c->head_len = ret > 0 ? (size_t)ret : 0;
			c->head_off = c->body_off = 0;
			c->mark = zc_rr_mark(w->rr, c->served++);
			c->sending = true;
			memmove(c->in, c->in + m.head_len, c->in_len - m.head_len);
			c->in_len -= m.head_len;
			continue;
		}
		{
			ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, 0);

			w->calls++;
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return errno == EAGAIN ? 0 : -errno;
			if (n == 0)
				return -ECONNABORTED;	/* the client is done */
			c->in_len += n;
		}
	}
}

static void s_accept(struct rr_worker *w, int fd)
{
	struct server *s = w->priv;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET };
	struct sconn *c = s->free;

	if (c)
		s->free = c->next_free;
	else if (!(c = malloc(sizeof(*c))) || !zc_rr_keep(&s->all, &s->nall, &s->cap, c)) {
		free(c);
		close(fd);
		zc_rr_fail(w, -ENOMEM, "server: connection state");
		return;
	}
	c->fd = fd;
	c->id = s->accepted++;
	c->in_len = 0;
	c->served = 0;
	c->sending = c->close_after = false;
	ev.data.ptr = c;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		zc_rr_fail(w, -errno, "server: epoll_ctl: %s", strerror(errno));
		s_close(w, c);
		return;
	}
	w->opened++;
	if (s_serve(w, c) < 0)
		s_close(w, c);
}

/* One event on a connection: serve it; an abort or a bad request ends it
 * (a reset is counted, the client judges). */
static void s_event(struct rr_worker *w, void *ptr)
{
	struct sconn *c = ptr;
	int ret;

	if (c->fd < 0)
		return;
	ret = s_serve(w, c);
	if (ret < 0 && ret != -ECONNABORTED && ret != -EPROTO && !w->resets++)
		w->first_reset = ret;
	if (ret < 0)
		s_close(w, c);
}

static void s_teardown(struct rr_worker *w)
{
	struct server *s = w->priv;

	for (size_t i = 0; s && i < s->nall; i++) {
		struct sconn *c = s->all[i];

		if (c->fd >= 0)
			close(c->fd);
		free(c);
	}
	if (s)
		free(s->all);
	free(s);
	w->priv = NULL;
}

static void s_report(struct rr *rr, json_t *o)
{
	json_object_set_new(o, "server_send", json_string(rr->file_fd >= 0 ? "sendfile" : "send"));
	/* what the requests were held to (rr_check) */
	json_object_set_new(o, "check", json_string(rr->cfg->rr_check == ZC_RR_CHECK_EXACT ? "exact"
						    : "http"));
}

const struct rr_ops zc_rr_server = { .setup = s_setup, .teardown = s_teardown, .report = s_report,
				     .accept = s_accept, .event = s_event };
