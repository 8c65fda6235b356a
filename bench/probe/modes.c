// SPDX-License-Identifier: GPL-2.0
/* Mode probes; the page-change test of each mode's own data path (its step,
 * or one fill and drain: zc_mode_step). */
#include "probe/probe_int.h"
#include "results/meta.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <sys/file.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Probes that set fs.splice_needs_write change the whole system for a moment:
 * concurrent probes (two `zcbench run` side by side) serialise on this lock,
 * and the value to restore is written down first, so a probe SIGKILLed
 * between set and restore is repaired by the next one (which, holding the
 * lock, knows nobody else is in the middle of a change).
 */
#define PROBE_LOCK	"/run/zcbench-probe.lock"
#define SNW_RESTORE	"/run/zcbench-snw.restore"

/* ---- mode probes: each mode's own step ------------------------------------ */

struct mctx {
	const struct zc_mode *m;
	const struct zc_probe_opts *o;
};

/*
 * A proxy's input: a pipe holding pages we can change, and a control pipe
 * filled the same way (the control must show the change, or a "copy" would
 * only mean the input copied). kind 0: vmsplice'd user pages, 1: page cache.
 */
static int proxy_input(int kind, const struct zc_probe_opts *o, int in[2], int ctl[2],
		       uint8_t **ubuf, int *fd)
{
	struct iovec iov;
	loff_t off;
	int ret;

	if ((ret = zc_probe_pipe(in, false)) || (ret = zc_probe_pipe(ctl, false)))
		return ret;
	*ubuf = zc_probe_page_buf(PROBE_CHUNK, OLD);
	if (!*ubuf)
		return -ENOMEM;
	*fd = -1;
	if (kind == 0) {
		iov = (struct iovec){ *ubuf, PROBE_CHUNK };
		if (vmsplice(in[1], &iov, 1, 0) != PROBE_CHUNK)
			return -EIO;
		iov = (struct iovec){ *ubuf, PROBE_CHUNK };
		return vmsplice(ctl[1], &iov, 1, 0) == PROBE_CHUNK ? 0 : -EIO;
	}
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/zcbench-probe-XXXXXX", o->file_dir);
		*fd = mkostemp(path, O_CLOEXEC);
		if (*fd < 0)
			return -errno;
		unlink(path);
	}
	if (pwrite(*fd, *ubuf, PROBE_CHUNK, 0) != PROBE_CHUNK)
		return -EIO;
	off = 0;
	if (splice(*fd, &off, in[1], NULL, PROBE_CHUNK, 0) != PROBE_CHUNK)
		return -EIO;
	off = 0;
	return splice(*fd, &off, ctl[1], NULL, PROBE_CHUNK, 0) == PROBE_CHUNK ? 0 : -EIO;
}

static void p_mode(void *arg, struct zc_probe_res *r)
{
	struct mctx *c = arg;
	const struct zc_mode *m = c->m;
	static volatile sig_atomic_t never;
	static uint8_t got[PROBE_CHUNK];
	int kinds = m->role == ZC_ROLE_PROXY ? 2 : 1;

	for (int kind = 0; kind < kinds; kind++) {
		struct zc_io io = { ZC_IO_INIT, .stop = &never };
		int out[2], in[2], ctl[2], ret, in_fd = -1;
		uint8_t *in_buf = NULL;
		ssize_t n;
		char how[160], err[256];

		io.chunk = PROBE_CHUNK;
		io.pipe_size = PROBE_PIPE;
		io.file_dir = c->o->file_dir;
		io.period = PROBE_CHUNK;
		io.buf_len = PROBE_CHUNK;
		io.buf = zc_probe_page_buf(PROBE_CHUNK, OLD);
		if (!io.buf || (ret = zc_probe_pipe(out, false)))
			return zc_probe_set(r, "error", "setup: out of memory or pipes");
		io.out_fd = out[1];
		if (m->role == ZC_ROLE_PROXY) {
			ret = proxy_input(kind, c->o, in, ctl, &in_buf, &in_fd);
			if (ret)
				continue;
			io.in_fd = in[0];
		}
		/* The mode's options at their defaults: the probe tests its data path. */
		if ((ret = zc_mode_setup(m, &io, NULL, err, sizeof(err))))
			return zc_probe_set(r, "error", "mode setup: %s", strerror(-ret));
		n = zc_mode_step(m, &io);
		if (n <= 0)
			return zc_probe_set(r, "error", "step: %s", n ? strerror((int)-n) : "moved nothing");
		/* Change the source the path took its bytes from. */
		if (m->role == ZC_ROLE_PROXY && in_fd >= 0) {
			memset(in_buf, NEW, PROBE_CHUNK);
			if (pwrite(in_fd, in_buf, PROBE_CHUNK, 0) != PROBE_CHUNK)
				return zc_probe_set(r, "error", "pwrite: %s", strerror(errno));
		} else if (m->role == ZC_ROLE_PROXY) {
			memset(in_buf, NEW, PROBE_CHUNK);
		} else if (m->flags & ZC_MODE_FILE) {
			memset(io.buf, NEW, PROBE_CHUNK);
			if (pwrite(io.file_fd, io.buf, PROBE_CHUNK, 0) != PROBE_CHUNK)
				return zc_probe_set(r, "error", "pwrite: %s", strerror(errno));
		} else {
			memset(io.buf, NEW, PROBE_CHUNK);
		}
		if (m->role == ZC_ROLE_PROXY) {
			size_t cn = zc_probe_read_back(ctl[0], got, PROBE_CHUNK), nn;

			if (strcmp(zc_probe_classify(got, cn, OLD, NEW, &nn), "zero-copy"))
				continue;	/* this input does not share here: no evidence */
		}
		snprintf(how, sizeof(how), "%s; step moved %zd bytes",
			 m->role == ZC_ROLE_PROXY ? (kind ? "input: page-cache pages spliced into a pipe"
						    : "input: user pages vmspliced into a pipe")
			 : m->flags & ZC_MODE_FILE ? "source: page-cache file" : "source: user buffer",
			 n);
		zc_probe_judge(r, out[0], n, how);
		zc_mode_teardown(m, &io);
		return;
	}
	zc_probe_set(r, "skipped", "no input pipe holding changeable pages (vmsplice and file splice both "
	    "copy here), so a proxy's copy is not observable");
}

void zc_probe_mode(const struct zc_mode *m, const struct zc_probe_opts *o, struct zc_probe_res *r)
{
	struct mctx c = { m, o };
	const char *why;

	memset(r, 0, sizeof(*r));
	if (!zc_mode_probeable(m))
		return zc_probe_set(r, "skipped", m->role == ZC_ROLE_SINK ? "a sink has no pages to send" :
				    m->flags & ZC_MODE_SOCKET_STEP ? "its step needs sockets, the probe "
				    "hands it pipes" : "mode has no step (its own pump only)");
	if (m->unavailable && (why = m->unavailable()))
		return zc_probe_set(r, "skipped", "unavailable: %s", why);
	zc_probe_bounded(p_mode, &c, o->timeout_ms, NULL, r);
}
