// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only foreign role for tests/integration/faults.sh and conns.sh (zcbench run
 * --exec-proxy / --exec-sink). It speaks just enough of the role protocol
 * (READY port=N, GO, --connections=N, --connect=ADDR:PORT).
 *
 * As the proxy it forwards every connection and tampers with one stretch of
 * one of them (the 16-byte connection header passes untouched unless
 * ZC_TAMPER_HDR says otherwise; offsets are payload stream offsets after it):
 *   ZC_TAMPER_CONN=c   the connection, by the id in its header (default 0)
 *   ZC_TAMPER_HDR=b    flip byte b (0..15) of that connection's header as well
 *   ZC_TAMPER_OFF=o    where (default 0)
 *   ZC_TAMPER_LEN=l    how many bytes (default 1)
 *   ZC_TAMPER_HOW=flip   flip the byte at o
 *                 drop   leave out [o, o+l)
 *                 dup    send [o, o+l) twice
 *                 swap   send [o+l, o+2l) before [o, o+l) (reordered)
 *                 none   forward untouched
 * Nothing it does may be accepted: the sink's check or the controller's
 * per-connection totals must fail the sample.
 *
 * As the sink it reads every connection to its end and exits 0 without a
 * report: a foreign sink that checks nothing (its samples must not count as
 * verified).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tamper_util.h"

#define HDR 16
#define MAXC 1024

struct conn {
	int in, out;
	long id;			/* from the header, -1 until read */
	unsigned char hdr[HDR];
	size_t hdr_got;
	unsigned long long off;		/* payload bytes read so far */
	bool eof;
};

enum how { NONE, FLIP, DROP, DUP, SWAP };

static enum how how;
static long victim, hdr_flip = -1;
static unsigned long long at, len;
static unsigned char *hold;		/* dup: the stretch seen; swap: the stretch held back */
static unsigned char out[1 << 17];	/* at most twice the read size plus the hold */

static int send_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

/* Payload b[0..k) at stream offset c->off, tampered with, sent on. */
static int forward(struct conn *c, const unsigned char *b, size_t k)
{
	unsigned long long end = how == SWAP ? at + 2 * len : at + len;
	size_t n = 0;

	if (c->id != victim || how == NONE || c->off + k <= at || c->off >= end) {
		c->off += k;
		return send_all(c->out, b, k);
	}
	for (size_t i = 0; i < k; i++) {
		unsigned long long p = c->off + i;
		bool in1 = p >= at && p < at + len;

		switch (how) {
		case FLIP:
			out[n++] = p == at ? b[i] ^ 0x40 : b[i];
			break;
		case DROP:
			if (!in1)
				out[n++] = b[i];
			break;
		case DUP:
			out[n++] = b[i];
			if (in1)
				hold[p - at] = b[i];
			break;
		case SWAP:
			if (in1)
				hold[p - at] = b[i];
			else
				out[n++] = b[i];
			break;
		case NONE:
			break;
		}
		if ((how == DUP && p == at + len - 1) || (how == SWAP && p == at + 2 * len - 1)) {
			if (send_all(c->out, out, n) || send_all(c->out, hold, len))
				return -1;
			n = 0;
		}
		if (n == sizeof(out)) {
			if (send_all(c->out, out, n))
				return -1;
			n = 0;
		}
	}
	c->off += k;
	return send_all(c->out, out, n);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int n = atoi(arg(argc, argv, "--connections=")), l = socket(AF_INET, SOCK_STREAM, 0), left;
	const char *h = getenv("ZC_TAMPER_HOW") ?: "none", *peer = arg(argc, argv, "--connect=");
	bool sink = argc > 1 && !strcmp(argv[1], "sink");
	static struct conn c[MAXC];
	static struct pollfd p[MAXC];
	static unsigned char buf[1 << 16];
	char line[16];

	victim = atol(getenv("ZC_TAMPER_CONN") ?: "0");
	hdr_flip = atol(getenv("ZC_TAMPER_HDR") ?: "-1");
	at = strtoull(getenv("ZC_TAMPER_OFF") ?: "0", NULL, 0);
	len = strtoull(getenv("ZC_TAMPER_LEN") ?: "1", NULL, 0);
	how = !strcmp(h, "flip") ? FLIP : !strcmp(h, "drop") ? DROP : !strcmp(h, "dup") ? DUP
	    : !strcmp(h, "swap") ? SWAP : NONE;
	if (n < 1)
		n = 1;
	if (n > MAXC || len < 1 || !(hold = malloc(len)))
		return 2;
	addr_of(arg(argc, argv, "--listen="), &a);
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, MAXC) ||
	    getsockname(l, (struct sockaddr *)&a, &al))
		return 1;
	printf("READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	if (!sink) {
		if (!strrchr(peer, ':'))
			return 2;
		addr_of(peer, &a);
		a.sin_port = htons(atoi(strrchr(peer, ':') + 1));
	}
	for (int i = 0; i < n; i++) {
		c[i].in = accept(l, NULL, NULL);
		c[i].out = sink ? -1 : socket(AF_INET, SOCK_STREAM, 0);
		c[i].id = -1;
		if (c[i].in < 0 || (!sink && connect(c[i].out, (struct sockaddr *)&a, sizeof(a))))
			return 1;
	}
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (left = n; left;) {
		for (int i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = c[i].eof ? -1 : c[i].in, .events = POLLIN };
		if (poll(p, n, -1) < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++) {
			unsigned char *b = buf;
			ssize_t k;

			if (c[i].eof || !p[i].revents)
				continue;
			k = recv(c[i].in, buf, sizeof(buf), 0);
			if (k <= 0) {
				if (!sink)
					shutdown(c[i].out, SHUT_WR);
				c[i].eof = true;
				left--;
				continue;
			}
			if (sink)
				continue;
			/* The header is held whole: it says whose connection this is;
			 * it passes as it is, or with byte ZC_TAMPER_HDR flipped. */
			while (c[i].hdr_got < HDR && k > 0) {
				c[i].hdr[c[i].hdr_got++] = *b;
				b++;
				k--;
				if (c[i].hdr_got < HDR)
					continue;
				c[i].id = c[i].hdr[8] | c[i].hdr[9] << 8 | c[i].hdr[10] << 16 |
					  (long)c[i].hdr[11] << 24;
				if (c[i].id == victim && hdr_flip >= 0 && hdr_flip < HDR)
					c[i].hdr[hdr_flip] ^= 0x40;
				if (send_all(c[i].out, c[i].hdr, HDR))
					return 1;
			}
			if (k && forward(&c[i], b, (size_t)k))
				return 1;
		}
	}
	return 0;
}
