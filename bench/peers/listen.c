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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TCP_LISTEN 0x0A
#define MAX_INODES 64
#define HELD_MAX 65536	/* sockets a program may hold, looked through */

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

static bool listening(pid_t pid, int port)
{
	unsigned long ino[MAX_INODES], *held;
	char path[64];
	int n, nheld;
	bool found;

	/* The peer's own network namespace: right also under ip netns exec. */
	snprintf(path, sizeof(path), "/proc/%d/net/tcp", (int)pid);
	n = listen_inodes(path, port, ino, 0, MAX_INODES);
	snprintf(path, sizeof(path), "/proc/%d/net/tcp6", (int)pid);
	n = listen_inodes(path, port, ino, n, MAX_INODES);
	if (n <= 0)
		return false;
	/* The program holds an fd of one of those sockets (not another process
	 * listening on the same port, as SO_REUSEPORT allows). */
	held = malloc(HELD_MAX * sizeof(*held));
	nheld = held ? zc_peer_socket_inodes(pid, held, HELD_MAX) : -ENOMEM;
	found = nheld > 0 && zc_peer_holds(held, nheld, ino, n);
	free(held);
	return found;
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
