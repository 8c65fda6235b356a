// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only foreign proxy for request/response runs (traffic = rr; zcbench
 * run --exec-proxy), used by tests/integration/rr.sh and rr_tamper.sh: the
 * request/response counterpart of tamper_proxy.c. It speaks just enough of
 * the role protocol (READY port=N, GO, --connect=ADDR:PORT, the run's
 * --warmup/--duration/--tail/--timeout), accepts every client connection
 * (keep-alive or churn), connects each onward and forwards both ways,
 * tampering with one stretch of one connection, heads and bodies alike:
 *   ZC_TAMPER_CONN=c   the connection, in accept order (default 0)
 *   ZC_TAMPER_DIR=d    down: the server's responses (default); up: requests
 *   ZC_TAMPER_OFF=o    where: a byte offset in that direction of that
 *                      connection (default 0)
 *   ZC_TAMPER_AFTER=s  or: the first byte of that direction s seconds after
 *                      GO (a stall 1 s into the window)
 *   ZC_TAMPER_LEN=l    how many bytes (drop, dup; default 1)
 *   ZC_TAMPER_XOR=x    flip: the bits flipped (default 0x20)
 *   ZC_TAMPER_HOW=flip   flip the byte at o (default)
 *                 drop   leave out [o, o+l)
 *                 dup    send [o, o+l) twice
 *                 trunc  forward what is before o, then close the connection
 *                 stall  forward what is before o, then nothing more of that
 *                        direction (read and dropped), the connection kept open
 *                 pause  with ZC_TAMPER_AFTER: from then on read nothing of that
 *                        direction for ZC_TAMPER_PAUSE seconds, then forward
 *                        all of it untouched (a stall shorter than the timeout:
 *                        the run is ok, its latency must show the pause)
 *                 replay [o+l, o+2l) replaced by [o, o+l): with l a whole
 *                        response, the next response is the one before again
 *                 none   forward untouched
 * Nothing it does but pause may be accepted: the run must fail (exit 1), never ok.
 * It exits once the run's tail is over and every connection has closed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tamper_util.h"

#define MAXC 512

enum how { NONE, FLIP, DROP, DUP, TRUNC, STALL, PAUSE, REPLAY };

struct conn {
	int fd[2];			/* [0] the client's, [1] the server's: read side of up, down */
	bool eof[2];
	unsigned long long off[2];	/* bytes read in each direction */
	long id;			/* accept order */
};

static enum how how = FLIP;
static int dir = 1;			/* the direction tampered with: 0 up, 1 down */
static long victim;
static unsigned long long at, len = 1;
static double after = -1;		/* ZC_TAMPER_AFTER: seconds after GO, or -1 */
static double pause_s, pause_until;	/* ZC_TAMPER_PAUSE, and until when it holds */
static unsigned char mask = 0x20;
static unsigned char *hold;
static unsigned char out[1 << 17];

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int send_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

static void conn_close(struct conn *c)
{
	for (int i = 0; i < 2; i++) {
		if (c->fd[i] >= 0)
			close(c->fd[i]);
		c->fd[i] = -1;
		c->eof[i] = true;
	}
}

/* b[0..k) read in direction i of c, tampered with, sent on: 0, or -1 (c closed). */
static int forward(struct conn *c, int i, const unsigned char *b, size_t k)
{
	int to = c->fd[!i];
	size_t n = 0;

	if (c->id != victim || i != dir || how == NONE || how == PAUSE || c->off[i] + k <= at ||
	    (c->off[i] >= at + (how == REPLAY ? 2 : 1) * len && how != STALL && how != TRUNC)) {
		c->off[i] += k;
		return send_all(to, b, k);
	}
	for (size_t j = 0; j < k; j++) {
		unsigned long long p = c->off[i] + j;
		bool in = p >= at && p < at + len;

		if (p >= at && how == TRUNC) {
			/* The receiver sees the connection end here. */
			if (send_all(to, out, n) == 0)
				shutdown(to, SHUT_WR);
			conn_close(c);
			return -1;
		}
		if (p >= at && how == STALL)
			break;
		if (how == REPLAY) {
			if (in)
				hold[p - at] = b[j];
			out[n++] = p >= at + len && p < at + 2 * len ? hold[p - at - len] : b[j];
		} else if (how == FLIP)
			out[n++] = p == at ? b[j] ^ mask : b[j];
		else if (how != DROP || !in)
			out[n++] = b[j];
		if (how == DUP && in)
			hold[p - at] = b[j];
		if (how == DUP && p == at + len - 1) {
			if (send_all(to, out, n) || send_all(to, hold, len))
				return -1;
			n = 0;
		}
		if (n == sizeof(out)) {
			if (send_all(to, out, n))
				return -1;
			n = 0;
		}
	}
	c->off[i] += k;
	return send_all(to, out, n);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	const char *h = getenv("ZC_TAMPER_HOW") ?: "flip", *peer = arg(argc, argv, "--connect=");
	double run_s = atof(arg(argc, argv, "--warmup=")) + atof(arg(argc, argv, "--duration=")) +
		       atof(arg(argc, argv, "--tail=")), t_go, t_end, t_last;
	static struct conn c[MAXC];
	static struct pollfd p[2 * MAXC + 1];
	static unsigned char buf[1 << 16];
	int l = socket(AF_INET, SOCK_STREAM, 0), nc = 0;
	long accepted = 0;
	char line[64];

	victim = atol(getenv("ZC_TAMPER_CONN") ?: "0");
	dir = strcmp(getenv("ZC_TAMPER_DIR") ?: "down", "up") != 0;
	at = strtoull(getenv("ZC_TAMPER_OFF") ?: "0", NULL, 0);
	len = strtoull(getenv("ZC_TAMPER_LEN") ?: "1", NULL, 0);
	mask = (unsigned char)strtoul(getenv("ZC_TAMPER_XOR") ?: "0x20", NULL, 0);
	if (getenv("ZC_TAMPER_AFTER"))
		after = atof(getenv("ZC_TAMPER_AFTER"));
	how = !strcmp(h, "flip") ? FLIP : !strcmp(h, "drop") ? DROP : !strcmp(h, "dup") ? DUP
	    : !strcmp(h, "trunc") ? TRUNC : !strcmp(h, "stall") ? STALL
	    : !strcmp(h, "pause") ? PAUSE : !strcmp(h, "replay") ? REPLAY : NONE;
	pause_s = atof(getenv("ZC_TAMPER_PAUSE") ?: "0");
	if (len < 1 || !(hold = malloc(len)) || !strrchr(peer, ':'))
		return 2;
	if (after >= 0)
		at = ~0ULL / 2;	/* set when the time comes */
	addr_of(arg(argc, argv, "--listen="), &a);
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, MAXC) ||
	    getsockname(l, (struct sockaddr *)&a, &al))
		return 1;
	printf("READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	t_go = now_s();
	/* Under churn the client's last connection may come just after its tail:
	 * one tail more (rr_worker.c's zc_rr_serve waits as long). */
	t_end = t_go + run_s + atof(arg(argc, argv, "--tail="));
	/* Never outlive the controller's patience (it would kill us then). */
	t_last = t_end + atof(arg(argc, argv, "--timeout=")) + 5;
	addr_of(peer, &a);
	a.sin_port = htons(atoi(strrchr(peer, ':') + 1));
	for (;;) {
		int np = 0, open_ = 0;
		double t = now_s();

		if (after >= 0 && t >= t_go + after && at == ~0ULL / 2) {
			at = 0;
			for (int i = 0; i < nc; i++)
				if (c[i].id == victim)
					at = c[i].off[dir];
			pause_until = t + pause_s;
		}
		p[np++] = (struct pollfd){ .fd = l, .events = POLLIN };
		for (int i = 0; i < nc; i++)
			for (int d = 0; d < 2; d++) {
				bool held = how == PAUSE && c[i].id == victim && d == dir &&
					    t < pause_until;

				p[np++] = (struct pollfd){ .fd = c[i].eof[d] || held ? -1 : c[i].fd[d],
							   .events = POLLIN };
				open_ += !c[i].eof[d];
			}
		if ((t >= t_end && !open_) || t >= t_last)
			return 0;
		if (poll(p, np, 50) < 0 && errno != EINTR)
			return 1;
		if (p[0].revents & POLLIN) {
			struct conn *n = NULL;

			/* A closed connection's slot (churn), or a new one. */
			for (int i = 0; i < nc && !n; i++)
				if (c[i].fd[0] < 0 && c[i].fd[1] < 0)
					n = &c[i];
			if (!n && nc == MAXC)
				return 1;
			if (!n)
				n = &c[nc++];
			*n = (struct conn){ .id = accepted++ };
			n->fd[0] = accept(l, NULL, NULL);
			n->fd[1] = socket(AF_INET, SOCK_STREAM, 0);
			if (n->fd[0] < 0 || connect(n->fd[1], (struct sockaddr *)&a, sizeof(a)))
				return 1;
			continue;	/* its slots in p are made next turn */
		}
		for (int i = 0; i < nc; i++)
			for (int d = 0; d < 2; d++) {
				struct pollfd *q = &p[1 + 2 * i + d];
				ssize_t k;

				if (c[i].eof[d] || q->fd < 0 || !q->revents)
					continue;
				k = recv(c[i].fd[d], buf, sizeof(buf), 0);
				if (k <= 0) {
					/* This direction ended: pass the end on. */
					shutdown(c[i].fd[!d], SHUT_WR);
					c[i].eof[d] = true;
					if (c[i].eof[!d])
						conn_close(&c[i]);
					continue;
				}
				if (forward(&c[i], d, buf, (size_t)k))
					conn_close(&c[i]);
			}
	}
}
