// SPDX-License-Identifier: GPL-2.0
/*
 * A host's transport ops as the rest calls them: is a role remote, its
 * command line, what its exit status means. Below host.c (which names every
 * transport) and the transports themselves, which use them too.
 */
#include "transport/host.h"

#include <errno.h>

bool zc_host_remote(const struct zc_host *h, int role)
{
	return h->transport->remote && h->transport->remote(h, role);
}

int zc_host_argv(const struct zc_host *h, int role, char *const cmd[], char **argv, int max,
		 char *store, size_t storelen)
{
	int n = h->transport->prefix(h, role, argv, max), first = n;

	if (n < 0)
		return n;
	for (int i = 0; cmd[i]; i++) {
		if (n >= max - 1)
			return -E2BIG;
		argv[n++] = cmd[i];
	}
	if (h->transport->finish)
		n = h->transport->finish(h, role, argv, first, n, store, storelen);
	if (n < 0 || n >= max)
		return -E2BIG;
	argv[n] = NULL;
	return n;
}

const char *zc_host_explain_exit(const struct zc_host *h, int role, int status)
{
	return h->transport->explain_exit ? h->transport->explain_exit(h, role, status) : NULL;
}
