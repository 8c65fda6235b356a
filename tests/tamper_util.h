/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test-only tampering roles share (tamper_proxy.c, tamper_rr.c):
 * the role protocol's arguments, and where to listen and connect.
 */
#ifndef ZC_TAMPER_UTIL_H
#define ZC_TAMPER_UTIL_H

#include <arpa/inet.h>
#include <string.h>

/* The value of argument k ("--connect=") or "". */
static const char *arg(int argc, char **argv, const char *k)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], k, strlen(k)))
			return argv[i] + strlen(k);
	return "";
}

/* ADDR of "ADDR:PORT" (or of --listen's ADDR) into a, when it is an IPv4
 * address: across network namespaces the roles are not on loopback. */
static void addr_of(const char *s, struct sockaddr_in *a)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	if (n && n < sizeof(host)) {
		memcpy(host, s, n);
		host[n] = 0;
		inet_pton(AF_INET, host, &a->sin_addr);
	}
}

#endif
