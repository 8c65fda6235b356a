// SPDX-License-Identifier: GPL-2.0
/* Kernel probes; what vmsplice, splice, sendfile and tee do with the pages they are given. */
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

/* ---- kernel probes ------------------------------------------------------ */

ssize_t zc_real_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags)
{
	return vmsplice(fd, iov, n, flags);
}

ssize_t zc_safin_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags)
{
	int fl = fcntl(fd, F_GETFL);
	int rw = flags & SPLICE_F_NONBLOCK ? RWF_NOWAIT : 0;

	if (flags & ~(SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)) {
		errno = EINVAL;
		return -1;
	}
	if (fl < 0)
		return -1;
	return (fl & O_ACCMODE) == O_RDONLY ? preadv2(fd, iov, n, -1, rw) : pwritev2(fd, iov, n, -1, rw);
}

void zc_p_vmsplice_to_pipe(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *buf = zc_probe_page_buf(PROBE_CHUNK, OLD);
	struct iovec iov = { buf, PROBE_CHUNK };
	int p[2], ret;
	ssize_t n;
	char how[128];

	if (!buf || (ret = zc_probe_pipe(p, false)))
		return zc_probe_set(r, "error", "setup: %s", strerror(buf ? -ret : ENOMEM));
	n = c->vms(p[1], &iov, 1, c->flags);
	if (n < 0)
		return zc_probe_set(r, "refused", "vmsplice(flags %#x): %s", c->flags, strerror(errno));
	memset(buf, NEW, PROBE_CHUNK);
	snprintf(how, sizeof(how), "vmsplice(flags %#x) returned %zd", c->flags, n);
	zc_probe_judge(r, p[0], n, how);
	if (c->flags & SPLICE_F_GIFT) {
		/* Old kernels wanted gifted pages page-aligned; is that still checked? */
		size_t l = strlen(r->detail);

		n = c->vms(p[1], &(struct iovec){ buf + 100, 1000 }, 1, SPLICE_F_GIFT);
		snprintf(r->detail + l, sizeof(r->detail) - l,
			 "; unaligned GIFT: %s; GIFT only lets /dev/fuse steal pages, not probed",
			 n < 0 ? strerror(errno) : "accepted");
	}
}

/* More than the free space of a half-full pipe, three ways (LTP vmsplice01). */
void zc_p_overfill(void *arg, struct zc_probe_res *r)
{
	static const char *const ways[] = { "poll(POLLOUT) then flags 0", "SPLICE_F_NONBLOCK",
					    "flags 0" };
	struct kctx *c = arg;
	uint8_t *buf = zc_probe_page_buf(PROBE_PIPE, OLD), *fill = zc_probe_page_buf(PROBE_PIPE / 2, OLD);
	struct iovec iov = { buf, PROBE_PIPE };
	struct pollfd pfd;
	int p[2], ret = 0, err;
	ssize_t n;
	bool fired;
	double t0;
	char pollinfo[64] = "";

	if (!buf || !fill || (ret = zc_probe_pipe(p, false)))
		return zc_probe_set(r, "error", "setup: %s", strerror(buf && fill ? -ret : ENOMEM));
	if (write(p[1], fill, PROBE_PIPE / 2) != PROBE_PIPE / 2)
		return zc_probe_set(r, "error", "prefill write: %s", strerror(errno));
	if (c->how == 0) {
		pfd = (struct pollfd){ .fd = p[1], .events = POLLOUT };
		ret = poll(&pfd, 1, 0);
		snprintf(pollinfo, sizeof(pollinfo), "poll said %s; ",
			 ret == 1 && (pfd.revents & POLLOUT) ? "POLLOUT" : "not writable");
	}
	zc_probe_arm_block(c->o->block_ms);
	t0 = zc_now();
	n = c->vms(p[1], &iov, 1, c->how == 1 ? SPLICE_F_NONBLOCK : 0);
	err = errno;
	fired = zc_probe_blocked(t0, c->o->block_ms);
	zc_probe_disarm();
	if (fired)
		zc_probe_set(r, "blocks", "%s%s: %u of %u bytes free, not back after %d ms (then %zd%s%s)",
		    pollinfo, ways[c->how], PROBE_PIPE / 2, PROBE_PIPE, c->o->block_ms, n,
		    n < 0 ? " " : "", n < 0 ? strerror(err) : "");
	else if (n < 0)
		zc_probe_set(r, err == EAGAIN ? "EAGAIN" : "error", "%s%s: %u of %u bytes free: %s", pollinfo,
		    ways[c->how], PROBE_PIPE / 2, PROBE_PIPE, strerror(err));
	else
		zc_probe_set(r, (size_t)n < PROBE_PIPE ? "partial" : "complete",
		    "%s%s: %u of %u bytes free, returned %zd of %u", pollinfo, ways[c->how],
		    PROBE_PIPE / 2, PROBE_PIPE, n, PROBE_PIPE);
}

/* flags 0 on a full O_NONBLOCK pipe: old vmsplice ignores O_NONBLOCK. */
void zc_p_nonblock_pipe(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *buf = zc_probe_page_buf(PROBE_CHUNK, OLD);
	struct iovec iov = { buf, 4096 };
	int p[2], ret, err;
	size_t filled = 0;
	ssize_t n;
	bool fired;
	double t0;

	if (!buf || (ret = zc_probe_pipe(p, true)))
		return zc_probe_set(r, "error", "setup: %s", strerror(buf ? -ret : ENOMEM));
	while ((n = write(p[1], buf, PROBE_CHUNK)) > 0)
		filled += n;
	zc_probe_arm_block(c->o->block_ms);
	t0 = zc_now();
	n = c->vms(p[1], &iov, 1, 0);
	err = errno;
	fired = zc_probe_blocked(t0, c->o->block_ms);
	zc_probe_disarm();
	if (fired)
		zc_probe_set(r, "blocks", "O_NONBLOCK pipe full (%zu bytes), vmsplice flags 0: not back after "
		    "%d ms (O_NONBLOCK ignored)", filled, c->o->block_ms);
	else if (n < 0)
		zc_probe_set(r, err == EAGAIN ? "EAGAIN" : "error", "O_NONBLOCK pipe full (%zu bytes), "
		    "vmsplice flags 0: %s", filled, strerror(err));
	else
		zc_probe_set(r, "wrote", "O_NONBLOCK pipe full (%zu bytes), vmsplice flags 0 returned %zd",
		    filled, n);
}

void zc_p_vmsplice_to_user(void *arg, struct zc_probe_res *r)
{
	static uint8_t in[PROBE_CHUNK], out[PROBE_CHUNK];
	struct iovec iov = { out, PROBE_CHUNK };
	struct kctx *c = arg;
	int p[2], ret;
	ssize_t n;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 31 + 7);
	if ((ret = zc_probe_pipe(p, false)))
		return zc_probe_set(r, "error", "setup: %s", strerror(-ret));
	if (write(p[1], in, sizeof(in)) != (ssize_t)sizeof(in))
		return zc_probe_set(r, "error", "write: %s", strerror(errno));
	n = c->vms(p[0], &iov, 1, 0);
	if (n < 0)
		return zc_probe_set(r, "refused", "vmsplice(read end): %s", strerror(errno));
	if (memcmp(in, out, n))
		return zc_probe_set(r, "differs", "vmsplice(read end) returned %zd bytes not equal to those written",
			   n);
	zc_probe_set(r, "works", "vmsplice(read end) returned %zd of %zu bytes, the same data", n, sizeof(in));
}

/*
 * The probe file filled with len bytes of old, then opened again read-only
 * by this user (*rfd), wr saying whether this caller could also open it for
 * writing: the evidence for Falcato's case. 0, or -1 with the verdict set.
 */
static int reopen_ro(struct kctx *c, const uint8_t *old, size_t len, int *rfd, char *wr,
		     size_t wrlen, struct zc_probe_res *r)
{
	char path[64];
	int wtest;

	if (pwrite(c->wfd, old, len, 0) != (ssize_t)len) {
		zc_probe_set(r, "error", "pwrite: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", c->wfd);
	*rfd = open(path, O_RDONLY | O_CLOEXEC);
	if (*rfd < 0) {
		zc_probe_set(r, "skipped", "cannot re-open the probe file read-only: %s", strerror(errno));
		return -1;
	}
	wtest = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(wr, wrlen, "uid %u %s", (unsigned)geteuid(),
		 wtest >= 0 ? "can write the file" : "cannot write the file");
	if (wtest >= 0)
		close(wtest);
	return 0;
}

/* splice or sendfile from the probe file, re-opened read-only by this user. */
void zc_p_file(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *old = zc_probe_page_buf(PROBE_CHUNK, OLD), *new = zc_probe_page_buf(PROBE_CHUNK, NEW);
	char how[200], wr[64];
	int p[2], rfd, ret = 0;
	loff_t off = 0;
	off_t soff = 0;
	ssize_t n;

	if (!old || !new || (ret = zc_probe_pipe(p, false)))
		return zc_probe_set(r, "error", "setup: %s", strerror(old && new ? -ret : ENOMEM));
	if (reopen_ro(c, old, PROBE_CHUNK, &rfd, wr, sizeof(wr), r))
		return;
	if (c->how == 0)
		n = splice(rfd, &off, p[1], NULL, PROBE_CHUNK, 0);
	else
		n = sendfile(p[1], rfd, &soff, PROBE_CHUNK);
	if (n < 0)
		return zc_probe_set(r, "refused", "%s; %s(read-only fd -> pipe): %s", wr,
			   c->how ? "sendfile" : "splice", strerror(errno));
	if (pwrite(c->wfd, new, PROBE_CHUNK, 0) != PROBE_CHUNK)
		return zc_probe_set(r, "error", "pwrite: %s", strerror(errno));
	snprintf(how, sizeof(how), "%s; %s(read-only fd -> pipe) returned %zd", wr,
		 c->how ? "sendfile" : "splice", n);
	zc_probe_judge(r, p[0], n, how);
}

/* tee between pipes: works, and do both pipes share the buffers? */
void zc_p_tee(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	static uint8_t got[PROBE_CHUNK];

	/* The master needs pages we can change: page cache first, then user pages. */
	for (int kind = 0; kind < 2; kind++) {
		uint8_t *buf = zc_probe_page_buf(PROBE_CHUNK, OLD), *new = zc_probe_page_buf(PROBE_CHUNK, NEW);
		int m[2], t[2], ret;
		ssize_t n, teed;
		loff_t off = 0;
		size_t nn, got_n;
		const char *v, *src = kind ? "vmsplice" : "file splice";
		char how[160];

		if (!buf || !new || (ret = zc_probe_pipe(m, false)) || (ret = zc_probe_pipe(t, false)))
			return zc_probe_set(r, "error", "setup failed");
		if (kind == 0) {
			if (c->wfd < 0 || pwrite(c->wfd, buf, PROBE_CHUNK, 0) != PROBE_CHUNK)
				continue;
			n = splice(c->wfd, &off, m[1], NULL, PROBE_CHUNK, 0);
		} else {
			n = c->vms(m[1], &(struct iovec){ buf, PROBE_CHUNK }, 1, 0);
		}
		if (n <= 0)
			continue;
		teed = tee(m[0], t[1], n, 0);
		if (teed < 0)
			return zc_probe_set(r, "refused", "tee: %s", strerror(errno));
		if (kind == 0)
			ret = pwrite(c->wfd, new, PROBE_CHUNK, 0) == PROBE_CHUNK ? 0 : -EIO;
		else
			memset(buf, NEW, PROBE_CHUNK);
		/* Control: the master itself must show the change, else no evidence. */
		got_n = zc_probe_read_back(m[0], got, n);
		v = zc_probe_classify(got, got_n, OLD, NEW, &nn);
		if (strcmp(v, "zero-copy"))
			continue;
		snprintf(how, sizeof(how), "master filled by %s (%zu bytes, still there after tee: "
			 "tee does not consume), tee returned %zd", src, got_n, teed);
		zc_probe_judge(r, t[0], teed, how);
		if (!strcmp(r->verdict, "zero-copy"))
			snprintf(r->verdict, sizeof(r->verdict), "shares buffers");
		else if (!strcmp(r->verdict, "copy"))
			snprintf(r->verdict, sizeof(r->verdict), "copies");
		return;
	}
	zc_probe_set(r, "skipped", "no way to put changeable pages in a pipe here (file splice and "
	    "vmsplice both copy), so sharing is not observable");
}

/*
 * vmsplice of a page of the probe file mapped shared and read-only, by a
 * caller who cannot write the file: the one call Falcato's patch refuses
 * (at fs.splice_needs_write=1 vmsplice stops at the first such page and
 * returns what it queued before it: 0 here, with no error). Else the page
 * goes in by reference (zero-copy) or is copied (Safin's pwritev2).
 */
void zc_p_vmsplice_file_page(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *old = zc_probe_page_buf(4096, OLD), *new = zc_probe_page_buf(4096, NEW);
	char how[200], wr[64];
	int p[2], rfd, ret = 0, err;
	void *m;
	ssize_t n;

	if (!old || !new || (ret = zc_probe_pipe(p, false)))
		return zc_probe_set(r, "error", "setup: %s", strerror(old && new ? -ret : ENOMEM));
	if (reopen_ro(c, old, 4096, &rfd, wr, sizeof(wr), r))
		return;
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, rfd, 0);
	if (m == MAP_FAILED)
		return zc_probe_set(r, "error", "mmap of the read-only file: %s", strerror(errno));
	n = c->vms(p[1], &(struct iovec){ m, 4096 }, 1, 0);
	err = errno;
	if (n < 0)
		return zc_probe_set(r, "refused", "%s; vmsplice(a MAP_SHARED page of it): %s", wr,
				    strerror(err));
	if (n == 0)
		return zc_probe_set(r, "returns 0", "%s; vmsplice(a MAP_SHARED page of it) queued nothing "
				    "and returned 0, no error (a caller looping until done spins)", wr);
	if (pwrite(c->wfd, new, 4096, 0) != 4096)
		return zc_probe_set(r, "error", "pwrite: %s", strerror(errno));
	snprintf(how, sizeof(how), "%s; vmsplice(a MAP_SHARED page of it) returned %zd", wr, n);
	zc_probe_judge(r, p[0], n, how);
}

/*
 * SPLICE_F_NONBLOCK into a FIFO opened with open(2): Safin's vmsplice hands
 * it on as RWF_NOWAIT, which the VFS refuses with EOPNOTSUPP on a file
 * without FMODE_NOWAIT (only pipe(2) ends have it in 6.12); the old
 * vmsplice writes. Flags 0 is tried too, for contrast.
 */
void zc_p_vmsplice_fifo_nonblock(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *buf = zc_probe_page_buf(4096, OLD);
	char dir[300], fifo[320];
	ssize_t n, n0;
	int fd, err, err0;

	snprintf(dir, sizeof(dir), "%s/zcbench-fifo-XXXXXX", c->o->file_dir);
	if (!buf || !mkdtemp(dir))
		return zc_probe_set(r, "skipped", "cannot make a folder in %s: %s", c->o->file_dir,
				    strerror(buf ? errno : ENOMEM));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	/* O_RDWR: a FIFO open that needs no reader (so never blocks); gone at once. */
	fd = mkfifo(fifo, 0600) ? -1 : open(fifo, O_RDWR | O_CLOEXEC);
	err = errno;
	unlink(fifo);
	rmdir(dir);
	if (fd < 0)
		return zc_probe_set(r, "skipped", "cannot make and open a FIFO in %s: %s", c->o->file_dir,
				    strerror(err));
	n = c->vms(fd, &(struct iovec){ buf, 4096 }, 1, SPLICE_F_NONBLOCK);
	err = errno;
	n0 = c->vms(fd, &(struct iovec){ buf, 4096 }, 1, 0);
	err0 = errno;
	if (n >= 0)
		zc_probe_set(r, "works", "vmsplice(FIFO, SPLICE_F_NONBLOCK) returned %zd; flags 0: %zd%s%s", n,
			     n0, n0 < 0 ? " " : "", n0 < 0 ? strerror(err0) : "");
	else
		zc_probe_set(r, err == EOPNOTSUPP ? "EOPNOTSUPP" : "error",
			     "vmsplice(FIFO, SPLICE_F_NONBLOCK): %s; flags 0: %zd%s%s", strerror(err), n0,
			     n0 < 0 ? " " : "", n0 < 0 ? strerror(err0) : "");
}
