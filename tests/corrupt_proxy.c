// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only proxy (zcbench run --exec-proxy) that damages one connection
 * of many: it speaks just enough of the role protocol (READY/GO), accepts
 * --connections=N connections, connects one onward for each and forwards
 * bytes, reading each connection's header (lib/pattern.h) to find the one
 * to damage:
 *   ZC_CORRUPT_CONN=c    the connection id
 *   ZC_CORRUPT_OFF=o     its payload stream offset (after the 16-byte header)
 *   ZC_CORRUPT_HOW=flip  flip that byte (the sink must name c and o), or
 *                 drop   drop ZC_CORRUPT_LEN bytes from there (a whole
 *                        pattern period verifies: the per-connection totals
 *                        must catch it).
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

#define HDR 16
#define MAXC 1024

struct conn {
	int in, out;
	long id;		/* from the header, -1 until read */
	unsigned char hdr[HDR];
	size_t hdr_got;
	unsigned long long off;	/* payload bytes passed so far */
	bool eof;
};

static const char *arg(int argc, char **argv, const char *k)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], k, strlen(k)))
			return argv[i] + strlen(k);
	return "";
}

static int send_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, 0);

		if (k <= 0)
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int n = atoi(arg(argc, argv, "--connections=")), l = socket(AF_INET, SOCK_STREAM, 0), left;
	long bad = atol(getenv("ZC_CORRUPT_CONN") ?: "0");
	unsigned long long at = strtoull(getenv("ZC_CORRUPT_OFF") ?: "0", NULL, 0);
	unsigned long long len = strtoull(getenv("ZC_CORRUPT_LEN") ?: "0", NULL, 0), dropped = 0;
	bool drop = !strcmp(getenv("ZC_CORRUPT_HOW") ?: "flip", "drop");
	static struct conn c[MAXC];
	static struct pollfd p[MAXC];
	static unsigned char buf[1 << 16];
	char line[16];

	if (n < 1 || n > MAXC)
		return 2;
	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, MAXC);
	getsockname(l, (struct sockaddr *)&a, &al);
	printf("READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	a.sin_port = htons(atoi(strrchr(arg(argc, argv, "--connect="), ':') + 1));
	for (int i = 0; i < n; i++) {
		c[i].in = accept(l, NULL, NULL);
		c[i].out = socket(AF_INET, SOCK_STREAM, 0);
		c[i].id = -1;
		if (c[i].in < 0 || connect(c[i].out, (struct sockaddr *)&a, sizeof(a)))
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
				shutdown(c[i].out, SHUT_WR);
				c[i].eof = true;
				left--;
				continue;
			}
			/* The header passes as it is; note whose connection this is. */
			while (c[i].hdr_got < HDR && k > 0) {
				c[i].hdr[c[i].hdr_got++] = *b;
				if (send_all(c[i].out, b, 1))
					return 1;
				b++;
				k--;
				if (c[i].hdr_got == HDR)
					c[i].id = c[i].hdr[8] | c[i].hdr[9] << 8 | c[i].hdr[10] << 16 |
						  (long)c[i].hdr[11] << 24;
			}
			if (c[i].id == bad && at >= c[i].off && at < c[i].off + k) {
				size_t o = at - c[i].off;

				if (!drop) {
					b[o] ^= 0x40;
				} else if (dropped < len) {
					size_t cut = k - o < len - dropped ? k - o : len - dropped;

					memmove(b + o, b + o + cut, k - o - cut);
					c[i].off += cut;
					k -= cut;
					dropped += cut;
					at += cut;	/* the rest of the stretch, from the next read */
				}
			}
			c[i].off += k;
			if (k && send_all(c[i].out, b, k))
				return 1;
		}
	}
	return 0;
}
