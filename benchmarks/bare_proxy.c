// SPDX-License-Identifier: GPL-2.0
/*
 * The bare loop for `make bench-lean`: a proxy as anyone would hand-write it,
 * doing the same syscalls as zcbench's copy and splice modes, with just
 * enough of the role protocol (READY/GO) for the controller to start it.
 * With ZC_HANDICAP_PCT=P (or --handicap-pct=P) it spends P% of its CPU time
 * on extra work per byte (handicap.h) and says what that took in its report
 * line: the regression make bench-gate must catch.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handicap.h"

/* The report line the controller keeps as roles.proxy (foreign: no window). */
static int report(const struct handicap *h, int failed)
{
	printf("{\"status\":\"%s\",\"foreign\":\"bare_proxy\",\"handicap\":", failed ? "error" : "ok");
	handicap_json(h, stdout);
	printf("%s}\n", failed ? ",\"error\":\"a recv, send or splice failed\"" : "");
	return failed;
}

static const char *arg(int argc, char **argv, const char *k)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], k, strlen(k)))
			return argv[i] + strlen(k);
	return "";
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	cpu_set_t cpus;
	size_t chunk = strtoul(arg(argc, argv, "--chunk="), NULL, 0), pending = 0;
	int pipe_sz = atoi(arg(argc, argv, "--pipe-size=")), splice_mode = !strcmp(arg(argc, argv, "--mode="), "splice");
	int l = socket(AF_INET, SOCK_STREAM, 0), in, out = socket(AF_INET, SOCK_STREAM, 0), p[2];
	char line[16], *buf = malloc(chunk);
	struct handicap h;
	double pct;
	ssize_t n;

	CPU_ZERO(&cpus);
	CPU_SET(atoi(arg(argc, argv, "--cpu=")), &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	memset(buf, 0, chunk);
	if (handicap_parse(argc, argv, &pct) || handicap_init(&h, pct, chunk)) {
		printf("{\"status\":\"error\",\"error\":\"handicap: --handicap-pct or ZC_HANDICAP_PCT not a percent in [0, 50)\"}\n");
		return 1;
	}
	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, 1);
	getsockname(l, (struct sockaddr *)&a, &al);
	printf("READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	in = accept(l, NULL, NULL);
	a.sin_port = htons(atoi(strrchr(arg(argc, argv, "--connect="), ':') + 1));
	if (connect(out, (struct sockaddr *)&a, sizeof(a)) || !fgets(line, sizeof(line), stdin))
		return 1;
	handicap_start(&h);
	if (!splice_mode) {
		while ((n = recv(in, buf, chunk, 0)) > 0) {
			handicap_bytes(&h, buf, n);
			for (ssize_t off = 0, m; off < n; off += m)
				if ((m = send(out, buf + off, n - off, 0)) < 0)
					return report(&h, 1);
		}
		shutdown(out, SHUT_WR);
		return report(&h, n < 0);
	}
	/* HAProxy's way, as in mode_splice.c: non-blocking, edge-triggered epoll. */
	int ep = epoll_create1(0), eof = 0;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET };

	pipe2(p, O_NONBLOCK);
	fcntl(p[1], F_SETPIPE_SZ, pipe_sz);
	fcntl(in, F_SETFL, O_NONBLOCK);
	fcntl(out, F_SETFL, O_NONBLOCK);
	epoll_ctl(ep, EPOLL_CTL_ADD, in, &ev);
	epoll_ctl(ep, EPOLL_CTL_ADD, out, &ev);
	while (!eof || pending) {
		int bin = eof, bout = !pending;

		if (!eof && pending < (size_t)pipe_sz) {
			n = splice(in, NULL, p[1], NULL, (size_t)pipe_sz - pending < chunk ? (size_t)pipe_sz - pending : chunk, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) pending += n, handicap_bytes(&h, buf, n); else if (n == 0) eof = 1; else bin = 1;
		} else {
			bin = 1;
		}
		if (pending) {
			n = splice(p[0], NULL, out, NULL, pending, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) pending -= n, bout = 0; else bout = 1;
		}
		if (bin && bout)
			epoll_wait(ep, &ev, 1, -1);
	}
	shutdown(out, SHUT_WR);
	return report(&h, 0);
}
