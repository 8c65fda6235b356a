// SPDX-License-Identifier: GPL-2.0
/*
 * The bare source: zcbench's `send` source mode as anyone would hand-write
 * it, a plain send() loop over one period of the payload pattern, with just
 * enough of the role protocol for the controller to start it (zcbench run
 * --exec-source build/bare_source): connect, the connection header, READY,
 * GO, send until warm-up, window and tail are over, shut down. One
 * connection. The sink checks the pattern as it would zcbench's.
 * With ZC_HANDICAP_PCT=P (or --handicap-pct=P) it spends P% of its CPU time
 * on extra work per byte (handicap.h) and says what that took in its report.
 */
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handicap.h"
#include "lib/pattern.h"

static const char *arg(int argc, char **argv, const char *k)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], k, strlen(k)))
			return argv[i] + strlen(k);
	return "";
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(const char *why)
{
	printf("{\"status\":\"error\",\"foreign\":\"bare_source\",\"error\":\"%s\"}\n", why);
	return 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	const char *peer = arg(argc, argv, "--connect="), *colon = strrchr(peer, ':');
	size_t chunk = strtoul(arg(argc, argv, "--chunk="), NULL, 0);
	size_t period = strtoul(arg(argc, argv, "--period="), NULL, 0);
	double secs = atof(arg(argc, argv, "--warmup=")) + atof(arg(argc, argv, "--duration=")) +
		      atof(arg(argc, argv, "--tail=")), t_go = 0, pct;
	int out = socket(AF_INET, SOCK_STREAM, 0);
	uint8_t hdr[ZC_CONN_HDR_LEN], *buf;
	char line[64], ip[64];
	struct handicap h;
	cpu_set_t cpus;
	size_t off = 0;

	if (!chunk || !period || !colon || (size_t)(colon - peer) >= sizeof(ip) ||
	    atoi(arg(argc, argv, "--connections=")) > 1)
		return fail("needs --chunk, --period, --connect=IP:PORT and one connection");
	CPU_ZERO(&cpus);
	CPU_SET(atoi(arg(argc, argv, "--cpu=")), &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	/* One period and a chunk more: every chunk is one send from one place. */
	buf = malloc(period + chunk);
	if (!buf)
		return fail("malloc");
	zc_pattern_fill(buf, period, strtoull(arg(argc, argv, "--seed="), NULL, 0));
	for (size_t i = 0; i < chunk; i++)
		buf[period + i] = buf[i % period];
	if (handicap_parse(argc, argv, &pct) || handicap_init(&h, pct, chunk))
		return fail("handicap: --handicap-pct or ZC_HANDICAP_PCT not a percent in [0, 50)");
	snprintf(ip, sizeof(ip), "%.*s", (int)(colon - peer), peer);
	a.sin_port = htons(atoi(colon + 1));
	zc_conn_hdr_encode(hdr, 0, 1);
	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1 ||
	    connect(out, (struct sockaddr *)&a, sizeof(a)) ||
	    send(out, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return fail("connect or connection header");
	printf("READY port=0\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin) || strncmp(line, "GO", 2))
		return fail("no GO");
	/* The controller's clock when it sent GO: the window is the others'. */
	if (sscanf(line, "GO t=%lf", &t_go) != 1 || t_go <= 0)
		t_go = now_s();
	handicap_start(&h);
	while (now_s() < t_go + secs) {
		ssize_t m = send(out, buf + off, chunk, 0);

		if (m < 0)
			return fail("send");
		handicap_bytes(&h, buf + off, m);
		off = (off + m) % period;
	}
	shutdown(out, SHUT_WR);
	/* The sink reads to the end before the run is over; so do we. */
	while (recv(out, line, sizeof(line), 0) > 0)
		;
	printf("{\"status\":\"ok\",\"foreign\":\"bare_source\",\"handicap\":");
	handicap_json(&h, stdout);
	printf("}\n");
	return 0;
}
