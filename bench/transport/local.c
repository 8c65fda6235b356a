// SPDX-License-Identifier: GPL-2.0
/*
 * transport = local: every role on this machine, started as a plain child
 * process (no prefix). It has no keys of its own.
 */
#include "transport/host.h"
#include "transport/nic.h"

#include <errno.h>
#include <stdio.h>

static int local_prefix(const struct zc_host *h, int role, char **argv, int max)
{
	(void)h, (void)role, (void)argv, (void)max;
	return 0;
}

/* A role named by interface only gets that interface's address. */
static int local_setup(struct zc_host *h, char *err, size_t errlen)
{
	zc_host_irqs_reap_stale();
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (!h->iface[r][0] || h->address_set[r] || zc_host_remote(h, r))
			continue;
		if (zc_nic_addr(h->iface[r], h->address[r], sizeof(h->address[r]))) {
			snprintf(err, errlen, "%s: [%s] interface %s has no address here",
				 h->path, zc_role_names[r], h->iface[r]);
			return -ENOENT;
		}
	}
	return 0;
}

const struct zc_transport zc_transport_local = {
	.name = "local",
	.summary = "every role on this machine, over the addresses given (default 127.0.0.1)",
	.setup = local_setup,
	.prefix = local_prefix,
};
