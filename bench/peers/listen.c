// SPDX-License-Identifier: GPL-2.0
/*
 * Has the peer started listening? Read from /proc, not by connecting: a
 * probe connection through HAProxy opens a backend connection to the sink
 * (a stray stream the sink would count), and iperf3 -s -1 takes any
 * connection as its one test and exits when it says nothing.
 */
#include "peers/peer.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TCP_LISTEN 0x0A
#define MAX_INODES 64

/* Inodes of LISTEN sockets on port in one /proc/PID/net/tcp{,6}: count added. */
static int listen_inodes(const char *path, int port, unsigned long *ino, int n, int max)
{
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f)
		return n;
	while (n < max && fgets(line, sizeof(line), f)) {
		unsigned lport, st;
		unsigned long inode;

		/* sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*d: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %*u %*u %lu",
			   &lport, &st, &inode) == 3 &&
		    (int)lport == port && st == TCP_LISTEN)
			ino[n++] = inode;
	}
	fclose(f);
	return n;
}

/* The program holds an fd of one of those sockets (not another process
 * listening on the same port, as SO_REUSEPORT allows). */
static bool holds_socket(pid_t pid, const unsigned long *ino, int n)
{
	char path[64], target[64], want[40];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		char fdpath[320];
		ssize_t len;

		if (d->d_name[0] == '.')
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, d->d_name);
		len = readlink(fdpath, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		for (int i = 0; i < n && !found; i++) {
			snprintf(want, sizeof(want), "socket:[%lu]", ino[i]);
			found = !strcmp(target, want);
		}
	}
	closedir(dir);
	return found;
}

static bool listening(pid_t pid, int port)
{
	unsigned long ino[MAX_INODES];
	char path[64];
	int n;

	/* The peer's own network namespace: right also under ip netns exec. */
	snprintf(path, sizeof(path), "/proc/%d/net/tcp", (int)pid);
	n = listen_inodes(path, port, ino, 0, MAX_INODES);
	snprintf(path, sizeof(path), "/proc/%d/net/tcp6", (int)pid);
	n = listen_inodes(path, port, ino, n, MAX_INODES);
	return n > 0 && holds_socket(pid, ino, n);
}

int zc_peer_wait_listen(struct zc_peer *p, int port, double timeout_s)
{
	double deadline = zc_now() + timeout_s;
	struct timespec nap = { .tv_nsec = 10 * 1000000L };
	char what[96];

	for (;;) {
		if (!zc_peer_alive(p)) {
			snprintf(what, sizeof(what), "exited before listening on port %d", port);
			zc_peer_fail_reason(p, what);
			return -ECHILD;
		}
		if (listening(p->pid, port))
			return 0;
		if (zc_interrupted) {
			zc_peer_stop(p, 1);
			snprintf(p->reason, sizeof(p->reason), "%s: interrupted", p->name);
			return -EINTR;
		}
		if (zc_now() >= deadline) {
			snprintf(what, sizeof(what), "did not listen on port %d within %.1f s", port,
				 timeout_s);
			zc_peer_fail_reason(p, what);
			zc_peer_stop(p, 1);
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
	}
}
