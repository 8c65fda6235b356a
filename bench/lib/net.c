// SPDX-License-Identifier: GPL-2.0
/*
 * Sockets: listen, connect and accept on loopback or a bound device, their
 * buffer sizes and options.
 */
#include "lib/net.h"

#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char bind_dev[IF_NAMESIZE];

int zc_net_bind_device(const char *ifname)
{
	if (strlen(ifname) >= sizeof(bind_dev))
		return -EINVAL;
	snprintf(bind_dev, sizeof(bind_dev), "%s", ifname);
	return 0;
}

/* 0 or -errno (EPERM without CAP_NET_RAW on old kernels, ENODEV) */
static int bind_device(int fd)
{
	if (!bind_dev[0])
		return 0;
	return setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bind_dev, strlen(bind_dev)) ? -errno : 0;
}

static int resolve(const char *addr, int port, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
	char ps[16];

	snprintf(ps, sizeof(ps), "%d", port);
	return getaddrinfo(addr, ps, &hints, res) ? -EADDRNOTAVAIL : 0;
}

int zc_listen(const char *addr, int *port)
{
	struct addrinfo *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, one = 1, ret;

	ret = resolve(addr, 0, &ai);
	if (ret)
		return ret;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto err;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind_device(fd) || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 8) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl))
		goto err;
	freeaddrinfo(ai);
	*port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					       : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
err:
	ret = -errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return ret;
}

int zc_accept(int lfd)
{
	int fd;

	do
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

int zc_connect(const char *addr, int port)
{
	struct addrinfo *ai;
	int fd, ret;

	ret = resolve(addr, port, &ai);
	if (ret)
		return ret;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind_device(fd) || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return ret;
	}
	freeaddrinfo(ai);
	return fd;
}

int zc_split_hostport(const char *s, char *host, unsigned hostlen, int *port)
{
	const char *colon = strrchr(s, ':');
	size_t n;
	char *end;
	long p;

	if (!colon)
		return -EINVAL;
	n = colon - s;
	if (*s == '[' && n >= 2 && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n == 0 || n >= hostlen)
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = 0;
	p = strtol(colon + 1, &end, 10);
	if (*end || p <= 0 || p > 65535)
		return -EINVAL;
	*port = (int)p;
	return 0;
}
