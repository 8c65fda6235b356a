// SPDX-License-Identifier: GPL-2.0
/*
 * A role's connections, all made before GO (this harness measures steady
 * flows, not connection rates): the source connects each one and writes its
 * header (lib/pattern.h) first; the proxy accepts them all on one listener
 * and connects one onward for each, in the same order; the sink accepts them
 * and reads each header to learn which connection it is, whatever order the
 * accepts came in. Workers then own connection c mod workers.
 */
#include "role/role_int.h"
#include "lib/net.h"
#include "lib/pattern.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* 0 or -errno */
static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

int zc_role_conns_open(struct role *r, int *port, char *err, size_t errlen)
{
	struct zc_role_args *ra = r->ra;

	*port = 0;
	if (ra->role != ZC_ROLE_SOURCE) {
		r->lfd = zc_listen(ra->listen, port);
		if (r->lfd < 0) {
			snprintf(err, errlen, "listen");
			return r->lfd;
		}
		/* Every connection may arrive before the first accept: room for them
		 * all (listen again only changes the backlog). */
		listen(r->lfd, r->nconn > SOMAXCONN ? r->nconn : SOMAXCONN);
		return 0;
	}
	for (int c = 0; c < r->nconn; c++) {
		uint8_t hdr[ZC_CONN_HDR_LEN];
		int fd = zc_connect(ra->connect, ra->port), ret;

		if (fd < 0) {
			snprintf(err, errlen, "connect (connection %d of %d)", c, r->nconn);
			return fd;
		}
		r->io[c].out_fd = fd;
		r->io[c].conn_id = (uint32_t)c;
		zc_conn_hdr_encode(hdr, (uint32_t)c, (uint32_t)r->nconn);
		if ((ret = write_all(fd, hdr, sizeof(hdr)))) {
			snprintf(err, errlen, "connection header (connection %d)", c);
			return ret;
		}
	}
	snprintf(r->accept_how, sizeof(r->accept_how), "connected in order, header first");
	return 0;
}

/* The sink: read every connection's header (they come once the proxy runs)
 * and put connection c at io[c]. 0 or -errno with err. */
static int read_headers(struct role *r, int *fds, char *err, size_t errlen)
{
	struct pollfd *p = calloc(r->nconn, sizeof(*p));
	double until = zc_now() + 10 + r->ra->cfg.timeout_s;
	int left = r->nconn, ret = 0;

	if (!p)
		return -ENOMEM;
	for (int i = 0; i < r->nconn; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	while (left && !ret) {
		int k = poll(p, r->nconn, 200);

		if (k < 0 && errno != EINTR) {
			ret = -errno;
			snprintf(err, errlen, "poll for connection headers");
		} else if (k == 0 && zc_now() > until) {
			ret = -ETIMEDOUT;
			snprintf(err, errlen, "connection headers: %d of %d never came", left, r->nconn);
		}
		for (int i = 0; i < r->nconn && k > 0 && !ret; i++) {
			uint8_t hdr[ZC_CONN_HDR_LEN];
			uint32_t c, n;
			ssize_t got;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			got = recv(fds[i], hdr, sizeof(hdr), MSG_WAITALL);
			if (got != (ssize_t)sizeof(hdr) || zc_conn_hdr_decode(hdr, &c, &n) ||
			    n != (uint32_t)r->nconn || r->io[c].in_fd >= 0) {
				/* A foreign source, another run's, or a proxy that mixed
				 * bytes up: the header is checked whole (its bytes shown). */
				char hex[2 * ZC_CONN_HDR_LEN + 1] = "";

				for (ssize_t b = 0; b < got && b < (ssize_t)sizeof(hdr); b++)
					snprintf(hex + 2 * b, 3, "%02x", hdr[b]);
				snprintf(err, errlen, "accepted connection %d: no valid zcbench connection "
					 "header (%zd bytes: %s; expected \"ZCBC\", version %d, flags 0, "
					 "an id below %d, the count %d, each id once)", i, got,
					 hex[0] ? hex : "none", ZC_CONN_HDR_VERSION, r->nconn, r->nconn);
				ret = -EPROTO;
				break;
			}
			r->io[c].in_fd = fds[i];
			r->io[c].conn_id = c;
			fds[i] = -1;
			p[i].fd = -1;
			left--;
		}
	}
	free(p);
	return ret;
}

int zc_role_conns_accept(struct role *r, char *err, size_t errlen)
{
	struct zc_role_args *ra = r->ra;
	int *fds, ret = 0;

	if (r->lfd < 0)
		return 0;
	fds = calloc(r->nconn, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (int i = 0; i < r->nconn; i++)
		fds[i] = -1;
	for (int i = 0; i < r->nconn && !ret; i++)
		if ((fds[i] = zc_accept(r->lfd)) < 0) {
			ret = fds[i];
			snprintf(err, errlen, "accept (connection %d of %d)", i, r->nconn);
		}
	close(r->lfd);
	r->lfd = -1;
	if (!ret && ra->role == ZC_ROLE_SINK) {
		ret = read_headers(r, fds, err, errlen);
	} else if (!ret) {
		/* The proxy cannot tell connections apart, and need not: pair the
		 * i-th accepted with the i-th onward, bytes (header too) pass as they are. */
		for (int i = 0; i < r->nconn; i++) {
			r->io[i].in_fd = fds[i];
			r->io[i].conn_id = (uint32_t)i;
			fds[i] = -1;
		}
		for (int i = 0; i < r->nconn && !ret; i++)
			if ((r->io[i].out_fd = zc_connect(ra->connect, ra->port)) < 0) {
				ret = r->io[i].out_fd;
				r->io[i].out_fd = -1;
				snprintf(err, errlen, "connect onward (connection %d of %d)", i, r->nconn);
			}
	}
	for (int i = 0; i < r->nconn; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	snprintf(r->accept_how, sizeof(r->accept_how), "one listener (backlog >= %d), every "
		 "connection accepted before GO%s", r->nconn > SOMAXCONN ? r->nconn : SOMAXCONN,
		 ra->role == ZC_ROLE_SINK ? ", numbered by its header" : ", paired in accept order");
	return ret;
}

void zc_role_conns_close(struct role *r)
{
	if (r->lfd >= 0)
		close(r->lfd);
	r->lfd = -1;
	for (int c = 0; r->io && c < r->nconn; c++) {
		if (r->io[c].in_fd >= 0)
			close(r->io[c].in_fd);
		if (r->io[c].out_fd >= 0)
			close(r->io[c].out_fd);
		r->io[c].in_fd = r->io[c].out_fd = -1;
	}
}

void zc_role_verified_json(const struct role *r, json_t *out)
{
	bool checks = r->ra->role == ZC_ROLE_SINK && (r->m->flags & ZC_MODE_VERIFIES);
	json_t *conns = json_object_get(out, "connections");
	uint64_t total = 0, got = 0;

	if (r->ra->role != ZC_ROLE_SINK)
		return;
	for (int c = 0; c < r->nconn; c++) {
		const struct zc_io *io = &r->io[c];
		/* A checking sink advances fill_off past each byte it compared. */
		uint64_t v = checks && io->fill_off >= r->shift[c] ? io->fill_off - r->shift[c] : 0;

		total += v;
		got += io->bytes;
		json_object_set_new(json_array_get(conns, (size_t)c), "verified_bytes",
				    json_integer((json_int_t)v));
	}
	json_object_set_new(out, "verified_bytes", json_integer((json_int_t)total));
	json_object_set_new(out, "verified", json_boolean(checks && total == got));
}
