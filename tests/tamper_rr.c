// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only foreign proxy for tests/integration/rr.sh (zcbench run
 * --exec-proxy, traffic = rr): it speaks just enough of the role protocol
 * (READY port=N, GO, --connect=ADDR:PORT), takes one client connection,
 * connects onward and forwards both ways, flipping the byte at offset
 * ZC_TAMPER_OFF of the server's responses (heads included) on their way to
 * the client. The client's check must fail the run, naming the request
 * and the body offset. It exits when both directions have ended.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *arg(int argc, char **argv, const char *k)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], k, strlen(k)))
			return argv[i] + strlen(k);
	return "";
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
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
	const char *peer = arg(argc, argv, "--connect=");
	unsigned long long at = strtoull(getenv("ZC_TAMPER_OFF") ?: "0", NULL, 0), down = 0;
	static unsigned char buf[1 << 16];
	int l = socket(AF_INET, SOCK_STREAM, 0), fd[2], open_ = 2;
	char line[64];

	if (!strrchr(peer, ':'))
		return 2;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 16) ||
	    getsockname(l, (struct sockaddr *)&a, &al))
		return 1;
	printf("READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	a.sin_port = htons(atoi(strrchr(peer, ':') + 1));
	fd[0] = accept(l, NULL, NULL);	/* the client */
	fd[1] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[1], (struct sockaddr *)&a, sizeof(a)))
		return 1;
	while (open_) {
		struct pollfd p[2] = { { .fd = fd[0], .events = POLLIN }, { .fd = fd[1], .events = POLLIN } };

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(fd[i], buf, sizeof(buf));
			if (n <= 0) {
				/* This direction ended: pass the end on, stop reading it. */
				shutdown(fd[!i], SHUT_WR);
				p[i].fd = -1;
				fd[i] = -fd[i] - 2;
				open_--;
				continue;
			}
			/* Server -> client: flip the chosen byte. */
			if (i == 1 && at >= down && at < down + (unsigned long long)n)
				buf[at - down] ^= 0x5a;
			if (i == 1)
				down += n;
			if (write_all(fd[!i] < 0 ? -fd[!i] - 2 : fd[!i], buf, (size_t)n))
				open_ = 0;
		}
	}
	return 0;
}
