// SPDX-License-Identifier: GPL-2.0
/*
 * The client of a request/response run (the source role, traffic = rr):
 * each of a worker's connections keeps up to `inflight` requests in flight
 * (pipelined); a new connection per request with churn = on. Closed loop:
 * a request leaves as soon as there is room. Open loop (rate > 0): request
 * k of a connection is due at start + k * connections / rate, and its
 * latency runs from that intended time however late it could leave (wrk2's
 * correction of coordinated omission): a request intended in the window is
 * in the latency whenever its response comes (in the tail too), one that
 * could not leave on time is counted late, and one never sent (its
 * connection stalled until the run ended) is in it from its time to the end
 * and counted unsent. Every body byte is checked against
 * the pattern at its body offset, and with rr_check = exact every byte of
 * its head against the one zcbench's server writes (with http: the status,
 * 200, and the Content-Length); a wrong byte, a wrong length or status,
 * or a server that goes away with a request unanswered fails the run,
 * naming the connection, the request and the offset. So does a response
 * that stops coming: a request unanswered `timeout` seconds after it was
 * sent, or still unanswered when the client must give up after the tail
 * (rr->give_up), is a stall, as a stream run's role that never ends; its
 * latency up to the window's end goes into the histogram, as wrk2 counts
 * what never came back.
 */
#include "rr/rr_int.h"
#include "lib/http.h"
#include "lib/pattern.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#define REQ_MAX (ZC_HTTP_HEAD_MAX + 1)

struct rq {
	uint64_t size;
	double t_int;		/* intended send time (closed loop: when it was issued) */
	double t_sent;		/* when it was issued: a stall counts from here */
};

struct cconn {
	int fd;
	uint32_t slot;		/* the connection's number in the run (0..connections) */
	bool connecting;
	uint64_t sent, done;	/* requests issued and answered on this slot */
	uint64_t sent_here;	/* issued on the current connection */
	uint64_t done_here;	/* answered on it: the next response's mark (zc_rr_mark) */
	struct rq *q;		/* ring of inflight entries */
	unsigned qh, qn;
	char req[REQ_MAX];
	size_t req_len, req_off;
	char head[ZC_HTTP_HEAD_MAX];
	size_t hlen;
	char want[128];		/* rr_check = exact: the response head due */
	size_t want_len;
	bool body;
	uint64_t boff, blen;
	double next;		/* open loop: the next request's intended time */
	uint64_t rng;		/* object_sizes_file draws */
};

struct client {
	struct cconn *c;
	size_t n;
	double interval;	/* open loop: seconds between a connection's requests */
	uint64_t req_min_size;
};

/* Was a request intended in the window (open loop: which the latency holds)? */
static bool in_window(const struct rr *rr, double t)
{
	return t >= rr->edge[RR_WARMUP] && t < rr->edge[RR_WINDOW];
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static int c_setup(struct rr_worker *w)
{
	const struct zc_cfg *cfg = w->rr->cfg;
	struct client *cl = calloc(1, sizeof(*cl));
	int node, ret;

	if (!cl)
		return -ENOMEM;
	w->priv = cl;
	for (long s = w->idx; s < cfg->connections; s += w->rr->nw)
		cl->n++;
	cl->c = calloc(cl->n ? cl->n : 1, sizeof(*cl->c));
	w->buf_len = cfg->chunk > 65536 ? cfg->chunk : 65536;
	w->buf = zc_buf_alloc(w->buf_len, w->cpu, &node);
	if (!cl->c || !w->buf)
		return -ENOMEM;
	if ((ret = zc_hdr_new(1, 100ULL * 1000000000ULL, 3, &w->lat)))
		return ret;
	for (size_t i = 0; i < cl->n; i++) {
		struct cconn *c = &cl->c[i];

		c->fd = -1;
		c->slot = (uint32_t)(w->idx + i * w->rr->nw);
		c->rng = (uint64_t)cfg->seed * 0x9e3779b97f4a7c15ULL + c->slot * 2654435761ULL + 1;
		if (!(c->q = calloc(cfg->inflight, sizeof(*c->q))))
			return -ENOMEM;
	}
	if (cfg->rate_rps > 0)
		cl->interval = cfg->connections / cfg->rate_rps;
	return 0;
}

static void c_close(struct rr_worker *w, struct cconn *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	c->fd = -1;
	c->connecting = false;
	w->closed++;
}

static uint64_t pick_size(const struct rr *rr, struct cconn *c)
{
	if (rr->sizes)
		return rr->sizes[xorshift(&c->rng) % rr->nsizes];
	return rr->cfg->object_size;
}

/* Open the slot's connection (churn, or the first): 0 or -errno. */
static int c_open(struct rr_worker *w, struct cconn *c)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
				  .data.ptr = c };
	int fd = zc_rr_connect(w->rr);

	if (fd < 0)
		return fd;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		return -errno;
	}
	c->fd = fd;
	c->connecting = true;
	c->sent_here = 0;
	c->done_here = 0;
	c->hlen = 0;
	c->body = false;
	w->opened++;
	return 0;
}

/* Issue requests while there is room (and, open loop, they are due), and
 * write what is pending. 0, or -errno after zc_rr_fail. */
static int c_send(struct rr_worker *w, struct cconn *c, double now)
{
	const struct zc_cfg *cfg = w->rr->cfg;
	struct client *cl = w->priv;
	int ret;

	for (;;) {
		if (c->fd >= 0 && !c->connecting && c->req_off < c->req_len) {
			ssize_t n = send(c->fd, c->req + c->req_off, c->req_len - c->req_off,
					 MSG_NOSIGNAL);

			w->calls++;
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return 0;
			if (n < 0) {
				zc_rr_fail(w, -errno, "connection %u, request %llu: send: %s", c->slot,
					   (unsigned long long)c->sent, strerror(errno));
				return -EIO;
			}
			c->req_off += n;
			continue;
		}
		if (c->req_off < c->req_len)
			return 0;	/* waiting for the connection */
		if (w->phase >= RR_NR)
			return 0;	/* past the tail: only the answers still due */
		if (c->qn >= cfg->inflight || (cfg->churn && c->fd >= 0 && (c->sent_here || c->qn)) ||
		    (cl->interval > 0 && now < c->next))
			return 0;
		if (c->fd < 0 && (ret = c_open(w, c))) {
			zc_rr_fail(w, ret, "connection %u: connect: %s", c->slot, strerror(-ret));
			return ret;
		}
		{
			struct rq *q = &c->q[(c->qh + c->qn) % cfg->inflight];
			int len;

			q->size = pick_size(w->rr, c);
			q->t_int = cl->interval > 0 ? c->next : now;
			q->t_sent = now;
			if (cl->interval > 0 && in_window(w->rr, q->t_int) &&
			    now - q->t_int > cl->interval)
				w->late++;
			len = zc_http_request(c->req, sizeof(c->req), q->size, cfg->churn,
					      cfg->request_size);
			if (len < 0) {
				zc_rr_fail(w, len, "request_size %llu cannot hold a request for %llu "
					   "bytes (at least %zu, at most %d)",
					   (unsigned long long)cfg->request_size,
					   (unsigned long long)q->size,
					   zc_http_request_min(q->size, cfg->churn), ZC_HTTP_HEAD_MAX);
				return len;
			}
			c->req_len = (size_t)len;
			c->req_off = 0;
			c->qn++;
			c->sent++;
			c->sent_here++;
			if (cl->interval > 0)
				c->next += cl->interval;
		}
	}
}

/* The response at the head of the queue is whole. */
static void c_done(struct rr_worker *w, struct cconn *c, double now)
{
	const struct zc_cfg *cfg = w->rr->cfg;
	const struct client *cl = w->priv;
	struct rq *q = &c->q[c->qh];
	double lat = now - q->t_int;

	/* Open loop: every request intended in the window, whenever it ends;
	 * closed loop: those that end in it. */
	if (cl->interval > 0 ? in_window(w->rr, q->t_int) : w->phase == RR_WINDOW)
		zc_hdr_record(w->lat, lat > 0 ? (uint64_t)(lat * 1e9) : 1);
	w->tx++;
	c->qh = (c->qh + 1) % cfg->inflight;
	c->qn--;
	c->done++;
	c->done_here++;
	c->body = false;
	c->hlen = 0;
	if (cfg->churn)
		c_close(w, c);
}

/*
 * rr_check = exact: the response head's bytes at p, checked against the head
 * zcbench's server writes for the request due. The bytes taken (the body
 * starts after the last), or -EIO (failed).
 */
static long c_head_exact(struct rr_worker *w, struct cconn *c, const uint8_t *p, size_t left)
{
	const struct zc_cfg *cfg = w->rr->cfg;
	size_t take;
	char what[300];
	long at;

	if (!c->hlen) {
		int n = zc_http_response(c->want, sizeof(c->want), c->q[c->qh].size, cfg->churn);

		c->want_len = n > 0 ? (size_t)n : 0;
	}
	take = c->want_len - c->hlen < left ? c->want_len - c->hlen : left;
	at = zc_http_diff((const char *)p, take, c->want + c->hlen, c->want_len - c->hlen, true,
			  what, sizeof(what));
	if (at >= 0) {
		zc_rr_fail(w, -EPROTO, "response head mismatch on connection %u, request %llu at "
			   "byte %zu: %s (rr_check = exact)", c->slot, (unsigned long long)c->done,
			   c->hlen + (size_t)at, what);
		return -EIO;
	}
	c->hlen += take;
	if (c->hlen == c->want_len) {
		c->body = true;
		c->boff = 0;
		c->blen = c->q[c->qh].size;
	}
	return (long)take;
}

/* Bytes of the stream at p: response heads and bodies. 0, or -EIO (failed). */
static int c_bytes(struct rr_worker *w, struct cconn *c, const uint8_t *p, size_t left, double now)
{
	const struct rr *rr = w->rr;

	while (left && c->fd >= 0) {
		if (!c->body && c->qn && rr->cfg->rr_check == ZC_RR_CHECK_EXACT) {
			long take = c_head_exact(w, c, p, left);

			if (take < 0)
				return -EIO;
			p += take;
			left -= (size_t)take;
			if (!c->body)
				continue;
		} else if (!c->body) {
			size_t room = sizeof(c->head) - c->hlen, take = left < room ? left : room;
			struct zc_http_msg m;
			char why[200];
			int ret;

			memcpy(c->head + c->hlen, p, take);
			ret = zc_http_parse_response(c->head, c->hlen + take, &m, why, sizeof(why));
			if (ret == 0) {
				c->hlen += take;
				p += take;
				left -= take;
				continue;
			}
			if (ret < 0 || !c->qn) {
				zc_rr_fail(w, -EPROTO, "connection %u, request %llu: %s", c->slot,
					   (unsigned long long)c->done, ret < 0 ? why
					   : "a response to no request");
				return -EIO;
			}
			if (m.status != 200 || m.content_length != c->q[c->qh].size) {
				zc_rr_fail(w, -EPROTO, "connection %u, request %llu: status %d with "
					   "Content-Length %llu for an object of %llu bytes", c->slot,
					   (unsigned long long)c->done, m.status,
					   (unsigned long long)m.content_length,
					   (unsigned long long)c->q[c->qh].size);
				return -EIO;
			}
			take = m.head_len - c->hlen;
			p += take;
			left -= take;
			c->body = true;
			c->boff = 0;
			c->blen = m.content_length;
		}
		if (c->boff < c->blen) {
			uint64_t take = c->blen - c->boff < left ? c->blen - c->boff : left;
			uint64_t mark = zc_rr_mark(rr, c->done_here);
			uint64_t bad = zc_pattern_check(rr->pattern, rr->period, c->boff + mark, p, take);

			if (bad != UINT64_MAX) {
				zc_rr_fail(w, -EILSEQ, "response mismatch on connection %u, request %llu "
					   "(object %llu bytes) at body offset %llu%s", c->slot,
					   (unsigned long long)c->done, (unsigned long long)c->blen,
					   (unsigned long long)(bad - mark), bad - mark == 0 && mark ?
					   " (its first byte: another request's response?)" : "");
				return -EIO;
			}
			w->bytes += take;
			c->boff += take;
			p += take;
			left -= take;
		}
		if (c->boff == c->blen)
			c_done(w, c, now);
	}
	return 0;
}

static int c_recv(struct rr_worker *w, struct cconn *c, double now)
{
	while (c->fd >= 0) {
		ssize_t n = recv(c->fd, w->buf, w->buf_len, 0);

		w->calls++;
		if (n > 0) {
			if (c_bytes(w, c, w->buf, (size_t)n, now))
				return -EIO;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		/* The server went away: fine between requests with churn. */
		if (c->qn || c->body || !w->rr->cfg->churn) {
			zc_rr_fail(w, n < 0 ? -errno : -EPIPE, "connection %u, request %llu: the "
				   "server %s with %u request(s) unanswered", c->slot,
				   (unsigned long long)c->done, n < 0 ? strerror(errno) : "closed",
				   c->qn);
			return -EIO;
		}
		c_close(w, c);
	}
	return 0;
}

static void c_event(struct rr_worker *w, struct cconn *c, uint32_t evs, double now)
{
	if (c->fd < 0)
		return;
	if (c->connecting) {
		int e = 0;
		socklen_t l = sizeof(e);

		if (!(evs & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
			return;
		getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &l);
		if (e) {
			zc_rr_fail(w, -e, "connection %u, request %llu: connect: %s", c->slot,
				   (unsigned long long)c->done, strerror(e));
			return;
		}
		c->connecting = false;
	}
	if (!c_recv(w, c, now))
		c_send(w, c, now);
}

/* What of request k of c's queue got through, for a stall's message. */
static void c_progress(const struct cconn *c, unsigned k, char *buf, size_t len)
{
	if (c->connecting)
		snprintf(buf, len, "its connection not yet made");
	else if (k == c->qn - 1 && c->req_off < c->req_len)
		snprintf(buf, len, "%zu of its %zu request bytes sent", c->req_off, c->req_len);
	else if (k == 0 && c->body)
		snprintf(buf, len, "%llu of %llu body bytes received", (unsigned long long)c->boff,
			 (unsigned long long)c->blen);
	else if (k == 0 && c->hlen)
		snprintf(buf, len, "%zu bytes of the response head received", c->hlen);
	else
		snprintf(buf, len, "nothing of its response received");
}

/*
 * The requests of w stalled at now: unanswered for longer than the timeout,
 * or at all once the client must give up. With give_up each is counted, its
 * latency up to the window's end (or now, when earlier) recorded if it began
 * before that, and the first fails the run, named. The number found.
 */
static unsigned c_stalled(struct rr_worker *w, double now, bool give_up)
{
	const struct rr *rr = w->rr;
	const struct zc_cfg *cfg = rr->cfg;
	struct client *cl = w->priv;
	double end = now < rr->edge[RR_WINDOW] ? now : rr->edge[RR_WINDOW];
	unsigned found = 0;

	for (size_t i = 0; cl && i < cl->n; i++) {
		struct cconn *c = &cl->c[i];

		for (unsigned k = 0; k < c->qn; k++) {
			const struct rq *q = &c->q[(c->qh + k) % cfg->inflight];
			char what[96];

			if (now - q->t_sent <= cfg->timeout_s && now < rr->give_up)
				continue;
			if (!give_up)
				return 1;
			/* Open loop: from its time to now, the least it took. */
			if (cl->interval > 0 ? in_window(rr, q->t_int) : q->t_int < end)
				zc_hdr_record(w->lat, (uint64_t)(((cl->interval > 0 ? now : end) -
								  q->t_int) * 1e9) ?: 1);
			w->stalled++;
			if (found++)
				continue;
			c_progress(c, k, what, sizeof(what));
			zc_rr_fail(w, -ETIMEDOUT, "timed out: connection %u, request %llu (object %llu "
				   "bytes) unanswered %.1f s after it was sent (timeout %g s%s), %s (%s)",
				   c->slot, (unsigned long long)(c->done + k),
				   (unsigned long long)q->size, now - q->t_sent, cfg->timeout_s,
				   now - q->t_sent <= cfg->timeout_s ? ", the longest the run could wait"
				   : "", what, ZC_STALLED);
		}
	}
	return found;
}

/* Any request of w unanswered? */
static bool c_waiting(const struct rr_worker *w)
{
	const struct client *cl = w->priv;

	for (size_t i = 0; i < cl->n; i++)
		if (cl->c[i].qn)
			return true;
	return false;
}

/*
 * Open loop, at the end: the requests intended in the window that never left
 * (their connection was stalled, or full, until the run ended). wrk2 counts
 * them: each is in the latency from its time to now, the least it would
 * have taken, and counted unsent; leaving them out would make the
 * percentiles best exactly when something stalls.
 */
static void c_unsent(struct rr_worker *w, double now)
{
	const struct client *cl = w->priv;

	for (size_t i = 0; cl && cl->interval > 0 && i < cl->n; i++)
		for (double t = cl->c[i].next; t < w->rr->edge[RR_WINDOW]; t += cl->interval) {
			if (!in_window(w->rr, t))
				continue;
			zc_hdr_record(w->lat, (uint64_t)((now - t) * 1e9) ?: 1);
			w->unsent++;
		}
}

/* Until the tail's end, then until the responses still due are in (or stall). */
static void c_loop(struct rr_worker *w)
{
	struct client *cl = w->priv;
	struct epoll_event evs[64];
	double start = zc_now(), check = start;

	for (size_t i = 0; i < cl->n; i++) {
		/* Open loop: the connections' requests spread over one interval. */
		cl->c[i].next = start + cl->interval * cl->c[i].slot / w->rr->cfg->connections;
		if (c_send(w, &cl->c[i], start))
			return;
	}
	while (!w->rr->abort) {
		double now = zc_now(), due = now + 3600;
		int ms, k;

		if (!zc_rr_tick(w, now) && !c_waiting(w))
			break;
		/* Ten looks a second (a stall is a matter of seconds), and one at
		 * the latest moment the client may wait. */
		if (now >= check || now >= w->rr->give_up) {
			if (c_stalled(w, now, false))
				break;
			check = now + 0.1;
		}
		if (cl->interval > 0 && w->phase < RR_NR)
			for (size_t i = 0; i < cl->n && !w->rr->abort; i++) {
				c_send(w, &cl->c[i], now);
				if (cl->c[i].qn < w->rr->cfg->inflight && cl->c[i].next < due)
					due = cl->c[i].next;
			}
		if (w->phase >= RR_NR)
			due = w->rr->give_up;	/* its verdict before the server leaves */
		ms = zc_rr_wait_ms(w, now, 200);
		if ((due - now) * 1e3 < ms)
			ms = due > now ? (int)((due - now) * 1e3) : 0;
		k = epoll_wait(w->epfd, evs, 64, ms);
		now = zc_now();
		for (int e = 0; e < k && !w->rr->abort; e++)
			c_event(w, evs[e].data.ptr, evs[e].events, now);
	}
	/* Given up (or stopped by another worker's failure): what stalled. */
	c_stalled(w, zc_now(), true);
	c_unsent(w, zc_now());
}

static void c_teardown(struct rr_worker *w)
{
	struct client *cl = w->priv;

	for (size_t i = 0; cl && i < cl->n; i++) {
		c_close(w, &cl->c[i]);
		free(cl->c[i].q);
	}
	zc_buf_free(w->buf, w->buf_len);
	w->buf = NULL;
	if (cl)
		free(cl->c);
	free(cl);
	w->priv = NULL;
}

/* The window's latencies merged over the workers, verification. */
static void c_report(struct rr *rr, json_t *o)
{
	struct zc_hdr *all = NULL;
	uint64_t bytes = 0, stalled = 0, late = 0, unsent = 0;

	for (int i = 0; i < rr->nw; i++) {
		bytes += rr->w[i].bytes;
		stalled += rr->w[i].stalled;
		late += rr->w[i].late;
		unsent += rr->w[i].unsent;
		if (!rr->w[i].lat)
			continue;
		if (!all)
			zc_hdr_new(1, 100ULL * 1000000000ULL, 3, &all);
		if (all)
			zc_hdr_merge(all, rr->w[i].lat);
	}
	json_object_set_new(o, "loop", json_string(rr->cfg->rate_rps > 0 ? "open" : "closed"));
	/* what the responses were held to (rr_check) */
	json_object_set_new(o, "check", json_string(rr->cfg->rr_check == ZC_RR_CHECK_EXACT ? "exact"
						    : "http"));
	json_object_set_new(o, "verified_bytes", json_integer((json_int_t)bytes));
	/* unanswered within the timeout; in the latency when begun in the window */
	json_object_set_new(o, "stalled", json_integer((json_int_t)stalled));
	if (rr->cfg->rate_rps > 0) {
		/* open loop: requests of the window sent more than an interval
		 * late, and never sent (both in the latency from their time) */
		json_object_set_new(o, "late", json_integer((json_int_t)late));
		json_object_set_new(o, "unsent", json_integer((json_int_t)unsent));
	}
	if (all)
		json_object_set_new(o, "latency", zc_hdr_to_json(all));
	zc_hdr_free(all);
}

const struct rr_ops zc_rr_client = { .setup = c_setup, .loop = c_loop, .teardown = c_teardown,
				     .report = c_report };
