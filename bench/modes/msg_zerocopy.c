// SPDX-License-Identifier: GPL-2.0
/*
 * source msg-zerocopy: SO_ZEROCOPY + send(MSG_ZEROCOPY) from the static
 * pattern buffer; completions are reaped from the socket's error queue.
 *
 * The buffer is never written after it is filled, so pages still in flight
 * are safe to send again; the number of outstanding notifications is bounded
 * anyway, because each one pins pages and charges the socket's optmem.
 *
 * A notification carrying SO_EE_CODE_ZEROCOPY_COPIED means the kernel copied
 * the pages after all. Delivery to a local socket (loopback, veth inside one
 * host) always does: skb_orphan_frags_rx() copies before the receiver queues
 * the skb. The copied fraction goes into the role report as mode_report, so
 * a loopback figure is never mistaken for a zero-copy one.
 */
#include "modes/mode.h"

#include <errno.h>
#include <jansson.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

/* How long teardown waits for the last notifications (they follow the ACKs). */
#define MSGZC_DRAIN_S 1.0

struct msgzc {
	/* Option msg_zerocopy_max_outstanding: sends whose notification has not
	 * come back yet; past this, wait for one. */
	long max_outstanding;
	uint64_t sends;		/* send() calls that queued bytes: one id each */
	uint64_t completed;	/* ids covered by notifications */
	uint64_t copied;	/* ... of which the kernel copied */
	uint64_t enobufs;	/* send() refused for lack of optmem */
	uint64_t errqueue_reads;
};

static const char *msgzc_unavailable(void)
{
	static char why[160];
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(why, sizeof(why), "socket: %s", strerror(errno));
		return why;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one))) {
		snprintf(why, sizeof(why), "setsockopt(SO_ZEROCOPY): %s (needs Linux >= 4.14)",
			 strerror(errno));
		close(fd);
		return why;
	}
	close(fd);
	return NULL;
}

static int msgzc_setup(struct zc_io *io)
{
	int one = 1;

	/* Without SO_ZEROCOPY the kernel silently ignores MSG_ZEROCOPY. */
	if (setsockopt(io->out_fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		return -errno;
	return 0;
}

/* Read every queued notification. 0, or -errno (a real socket error). */
static int msgzc_reap(struct zc_io *io)
{
	struct msgzc *zc = io->priv;

	for (;;) {
		char control[CMSG_SPACE(sizeof(struct sock_extended_err)) + 64];
		struct msghdr msg = { .msg_control = control, .msg_controllen = sizeof(control) };
		struct cmsghdr *cm;

		zc->errqueue_reads++;
		io->calls++; /* a syscall of the data path too */
		if (recvmsg(io->out_fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -errno;
		}
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err serr;
			uint64_t n;

			if (!((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)))
				continue;
			memcpy(&serr, CMSG_DATA(cm), sizeof(serr));
			if (serr.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				return serr.ee_errno ? -(int)serr.ee_errno : -EIO;
			/* [ee_info, ee_data]: an inclusive range of send ids (wraps at 2^32). */
			n = (uint32_t)(serr.ee_data - serr.ee_info) + 1ull;
			zc->completed += n;
			if (serr.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				zc->copied += n;
		}
	}
}

/* Wait (bounded, EINTR-aware) for a notification, then reap. 0 or -errno. */
static int msgzc_wait(struct zc_io *io, int timeout_ms)
{
	/* POLLERR is reported whatever the events: the error queue is not empty. */
	struct pollfd p = { .fd = io->out_fd, .events = 0 };

	if (poll(&p, 1, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return msgzc_reap(io);
}

static int msgzc_pump(struct zc_io *io)
{
	struct msgzc *zc = io->priv;
	uint64_t max = zc->max_outstanding;
	int ret;

	while (!*io->stop) {
		ssize_t n;

		if (zc->sends - zc->completed >= max) {
			if ((ret = msgzc_wait(io, 1000)))
				return ret;
			continue;
		}
		n = send(io->out_fd, io->buf + io->fill_off % io->period, zc_src_len(io),
			 MSG_ZEROCOPY);
		io->calls++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* optmem is full of notifications: give some back first. */
				zc->enobufs++;
				if ((ret = msgzc_wait(io, 1000)))
					return ret;
				continue;
			}
			return -errno;
		}
		zc->sends++;
		io->fill_off += n;
		io->bytes += n;
		/* Reap in batches: one recvmsg per send would double the syscalls. */
		if (zc->sends - zc->completed >= max / 2 && (ret = msgzc_reap(io)))
			return ret;
	}
	return 0;
}

/*
 * One turn for the event loop of a worker with many connections (the socket
 * is non-blocking): a send, or -EAGAIN when the socket is full or too many
 * notifications are owed (the error queue's EPOLLERR wakes it again).
 */
static ssize_t msgzc_step(struct zc_io *io)
{
	struct msgzc *zc = io->priv;
	uint64_t max = zc->max_outstanding;
	ssize_t n;
	int ret;

	if (zc->sends - zc->completed >= max / 2 && (ret = msgzc_reap(io)))
		return ret;
	if (zc->sends - zc->completed >= max)
		return -EAGAIN;
	n = send(io->out_fd, io->buf + io->fill_off % io->period, zc_src_len(io), MSG_ZEROCOPY);
	io->calls++;
	if (n < 0) {
		if (errno == ENOBUFS) {
			/* optmem is full of notifications: give some back first. */
			zc->enobufs++;
			return (ret = msgzc_reap(io)) ? ret : -EAGAIN;
		}
		return -errno;
	}
	zc->sends++;
	io->fill_off += n;
	io->bytes += n;
	return n;
}

static void msgzc_teardown(struct zc_io *io)
{
	struct msgzc *zc = io->priv;
	double until = zc_now() + MSGZC_DRAIN_S;
	json_t *r = json_object();

	while (zc->sends > zc->completed && zc_now() < until)
		if (msgzc_wait(io, 100))
			break;
	json_object_set_new(r, "zerocopy_sends", json_integer(zc->sends));
	json_object_set_new(r, "notified_sends", json_integer(zc->completed));
	json_object_set_new(r, "copied_sends", json_integer(zc->copied));
	/* Over the whole role (warm-up, window, tail): notifications lag the window. */
	json_object_set_new(r, "copied_fraction",
			    zc->completed ? json_real((double)zc->copied / zc->completed) : json_null());
	json_object_set_new(r, "unnotified_sends", json_integer(zc->sends - zc->completed));
	json_object_set_new(r, "enobufs", json_integer(zc->enobufs));
	json_object_set_new(r, "errqueue_reads", json_integer(zc->errqueue_reads));
	json_object_set_new(r, "max_outstanding", json_integer(zc->max_outstanding));
	if (zc->copied) {
		/* On stderr too: the human table cannot tell a copied run apart. */
		zc_warn("msg-zerocopy: the kernel copied %.0f%% of %llu MSG_ZEROCOPY sends "
			"(local delivery always copies): not a zero-copy figure",
			100.0 * zc->copied / zc->completed, (unsigned long long)zc->completed);
		json_object_set_new(r, "note", json_string(
			"the kernel copied these MSG_ZEROCOPY sends (SO_EE_CODE_ZEROCOPY_COPIED): "
			"delivery to a local socket (loopback, same-host veth) always copies, so "
			"this run is not a zero-copy figure"));
	}
	io->mode_report = r;
}

/* Its loop is its own: it waits for and reaps completions between sends. */
ZC_MODE(msg_zerocopy,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_SOCKET_STEP,
	.summary = "send(MSG_ZEROCOPY) with SO_ZEROCOPY, completions from the error queue",
	.vs = ZC_MODE_REF(send),
	.opts = ZC_MODE_OPTS({ "msg_zerocopy_max_outstanding", ZC_MODE_OPT_LONG, "128", 1, 65536,
			       offsetof(struct msgzc, max_outstanding),
			       "sends whose completion has not come back yet; past this the "
			       "source waits for one (each pins pages and optmem)" }),
	.priv_size = sizeof(struct msgzc),
	.unavailable = msgzc_unavailable,
	.setup = msgzc_setup,
	.pump = msgzc_pump,
	.step = msgzc_step,
	.teardown = msgzc_teardown,
);
