// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes a peer moved, read from the kernel at the window edges: the
 * program counts nothing for us, but its TCP sockets do. sock_diag
 * (NETLINK_SOCK_DIAG, INET_DIAG_INFO) dumps this network namespace's TCP
 * sockets with their tcp_info; those the peer holds an fd of (/proc/PID/fd)
 * on the given ports are summed. Written by the program = bytes the peer
 * acknowledged (tcpi_bytes_acked) + what still sits in the send queue; read
 * by it = tcpi_bytes_received - what still sits in the receive queue. The
 * same figures a zcbench role counts from its own calls' return values.
 */
#include "peers/peer.h"

#include <dirent.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_INODES 4096

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int zc_peer_socket_inodes(pid_t pid, unsigned long *ino, int max)
{
	char path[64], target[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(dir = opendir(path)))
		return -errno;
	while (n < max && (d = readdir(dir))) {
		char fdpath[320];
		ssize_t len;

		if (d->d_name[0] == '.')
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, d->d_name);
		len = readlink(fdpath, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (sscanf(target, "socket:[%lu]", &ino[n]) == 1)
			n++;
	}
	closedir(dir);
	qsort(ino, n, sizeof(*ino), cmp_ul);
	return n;
}

bool zc_peer_holds(const unsigned long *ino, int n, const unsigned long *want, int nwant)
{
	for (int i = 0; i < nwant; i++)
		if (bsearch(&want[i], ino, (size_t)n, sizeof(*ino), cmp_ul))
			return true;
	return false;
}

/* One family's dump, summed into out. 0 or -errno. */
static int dump(int family, pid_t pid, const unsigned long *ino, int nino, int lport, int rport,
		struct zc_peer_tcp *out)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = (__u8)family, .sdiag_protocol = IPPROTO_TCP,
		       /* every state but LISTEN (10) and TIME_WAIT (6): no bytes there */
		       .idiag_states = ~((1u << 10) | (1u << 6)),
		       .idiag_ext = 1 << (INET_DIAG_INFO - 1) },
	};
	static char buf[1 << 16];
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG), ret = 0;
	bool done = false;

	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		ret = -errno;
		goto out;
	}
	while (!done && !ret) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0) {
			ret = errno == EINTR ? 0 : -errno;
			continue;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)len); h = NLMSG_NEXT(h, len)) {
			struct inet_diag_msg *m = NLMSG_DATA(h);
			struct tcp_info ti;
			struct rtattr *a;
			int alen;
			bool have = false;

			if (h->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				ret = e->error ? e->error : -EIO;
				break;
			}
			if ((lport && ntohs(m->id.idiag_sport) != lport) ||
			    (rport && ntohs(m->id.idiag_dport) != rport))
				continue;
			if (pid > 0 && !bsearch(&(unsigned long){ m->idiag_inode }, ino, nino,
						sizeof(*ino), cmp_ul))
				continue;
			memset(&ti, 0, sizeof(ti));
			alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
			for (a = (struct rtattr *)(m + 1); RTA_OK(a, alen); a = RTA_NEXT(a, alen))
				if (a->rta_type == INET_DIAG_INFO) {
					size_t n = RTA_PAYLOAD(a);

					memcpy(&ti, RTA_DATA(a), n < sizeof(ti) ? n : sizeof(ti));
					have = true;
				}
			if (!have)
				continue;
			out->written += ti.tcpi_bytes_acked + m->idiag_wqueue;
			out->read += ti.tcpi_bytes_received - m->idiag_rqueue;
			out->nsocks++;
		}
	}
out:
	close(fd);
	return ret;
}

int zc_peer_tcp_bytes(pid_t pid, int lport, int rport, struct zc_peer_tcp *out)
{
	static unsigned long ino[MAX_INODES];
	int nino = 0, ret;

	memset(out, 0, sizeof(*out));
	if (pid > 0 && (nino = zc_peer_socket_inodes(pid, ino, MAX_INODES)) < 0)
		return nino;
	if ((ret = dump(AF_INET, pid, ino, nino, lport, rport, out)))
		return ret;
	return dump(AF_INET6, pid, ino, nino, lport, rport, out);
}
