/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_NET_H
#define ZC_NET_H

#include <stdint.h>

/* Bind every socket zc_listen/zc_connect make from now on to interface
 * ifname (SO_BINDTODEVICE), as a host file's bind_device asks. 0 or -EINVAL. */
int zc_net_bind_device(const char *ifname);
/* Listen on addr with an ephemeral port: the kernel picks it, so two
 * invocations side by side never collide. fd or -errno; port in *port. */
int zc_listen(const char *addr, int *port);
int zc_accept(int lfd);				/* fd or -errno */
int zc_connect(const char *addr, int port);	/* fd or -errno */
/* "host:port" or "[v6]:port" into host and port: 0 or -EINVAL */
int zc_split_hostport(const char *s, char *host, unsigned hostlen, int *port);

#endif
