// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench probe and zc_fingerprint_collect(): behaviour probes that tell a
 * kernel with Safin's vmsplice series or Falcato's fs.splice_needs_write
 * apart from one without, whatever its version says (distributions
 * backport). DESIGN.md, "Kernel fingerprint".
 *
 * The trick behind the zero-copy probes: put bytes that are all OLD into a
 * pipe through the path under test, change the source (user buffer or page
 * cache) to NEW, then read the pipe. NEW bytes mean the pipe held references
 * to the source's pages (zero-copy); OLD bytes mean the path copied.
 *
 * Each probe runs in a forked child killed after --timeout-ms; calls that
 * may block are additionally interrupted by a --block-ms alarm, so "blocks"
 * is measured, and a probe never takes more than a fraction of a second.
 */
#include "probe/probe.h"
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

#define PROBE_CHUNK	16384u		/* 4 pages: bytes each path moves */
#define PROBE_PIPE	65536u		/* 16 slots */
#define OLD		0xA5
#define NEW		0x5A
#define SNW_PATH	"/proc/sys/fs/splice_needs_write"
/*
 * Probes that set fs.splice_needs_write change the whole system for a moment:
 * concurrent probes (two `zcbench run` side by side) serialise on this lock,
 * and the value to restore is written down first, so a probe SIGKILLed
 * between set and restore is repaired by the next one (which, holding the
 * lock, knows nobody else is in the middle of a change).
 */
#define PROBE_LOCK	"/run/zcbench-probe.lock"
#define SNW_RESTORE	"/run/zcbench-snw.restore"

static int zc_write_sysctl_value(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	if (fprintf(f, "%s\n", v) < 0) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

static int probe_lock(void)
{
	int fd = open(PROBE_LOCK, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	double give_up = zc_now() + 5;

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || zc_now() > give_up) {
			close(fd);
			return -1;
		}
		usleep(10000);
	}
	return fd;
}

static void snw_repair(void)
{
	char v[32];

	if (zc_read_file_trim(SNW_RESTORE, v, sizeof(v)))
		return;
	if (zc_write_sysctl_value(SNW_PATH, v) == 0) {
		zc_warn("restored fs.splice_needs_write=%s left by an interrupted probe", v);
		unlink(SNW_RESTORE);
	}
}

void zc_probe_opts_default(struct zc_probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->user, sizeof(o->user), "nobody");
	snprintf(o->file_dir, sizeof(o->file_dir), "/var/tmp");
	o->timeout_ms = 1000;
	o->block_ms = 150;
	o->modes = true;
}

static void set(struct zc_probe_res *r, const char *verdict, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set(struct zc_probe_res *r, const char *verdict, const char *fmt, ...)
{
	va_list ap;

	snprintf(r->verdict, sizeof(r->verdict), "%s", verdict);
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

const char *zc_probe_classify(const uint8_t *got, size_t len, uint8_t old_byte,
			      uint8_t new_byte, size_t *n_new)
{
	size_t nn = 0, no = 0;

	for (size_t i = 0; i < len; i++) {
		nn += got[i] == new_byte;
		no += got[i] == old_byte;
	}
	if (n_new)
		*n_new = nn;
	if (!len || nn + no != len)
		return "garbled";
	return nn == len ? "zero-copy" : no == len ? "copy" : "mixed";
}

/* ---- the bounded child ------------------------------------------------- */

int zc_probe_bounded(void (*fn)(void *arg, struct zc_probe_res *res), void *arg,
		     int timeout_ms, const struct zc_probe_creds *as, struct zc_probe_res *res)
{
	struct zc_probe_res *shared;
	double t0 = zc_now(), deadline = t0 + timeout_ms / 1000.0;
	int status, ret = 0;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (shared == MAP_FAILED)
		return -errno;
	memset(shared, 0, sizeof(*shared));
	set(shared, "error", "probe child exited without a verdict");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		munmap(shared, sizeof(*shared));
		return ret;
	}
	if (pid == 0) {
		/* The child is a probe, not a zcbench: default signals, no stdio. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		if (as && (setgroups(0, NULL) || setresgid(as->gid, as->gid, as->gid) ||
			   setresuid(as->uid, as->uid, as->uid))) {
			set(shared, "skipped", "cannot become uid %u: %s", (unsigned)as->uid,
			    strerror(errno));
			_exit(0);
		}
		/* Changing credentials clears dumpable; /proc/self/fd stays ours. */
		if (as)
			prctl(PR_SET_DUMPABLE, 1);
		fn(arg, shared);
		_exit(0);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (zc_now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			set(shared, "timeout", "probe child killed after %d ms", timeout_ms);
			ret = -ETIMEDOUT;
			break;
		}
		usleep(500);
	}
	if (!ret && WIFSIGNALED(status))
		set(shared, "error", "probe child died of signal %d", WTERMSIG(status));
	*res = *shared;
	res->elapsed_ms = (zc_now() - t0) * 1000;
	munmap(shared, sizeof(*shared));
	return ret;
}

/* ---- helpers used inside children --------------------------------------- */

static volatile sig_atomic_t alarm_fired;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

/* Interrupt the next blocking call after ms (no SA_RESTART: it returns). */
static void arm_block(int ms)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	alarm_fired = 0;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Did the call started at t0 block? The alarm fired and the call itself
 * lasted about block_ms: an alarm that hit a descheduled process before the
 * call does not make a quick call a blocking one.
 */
static bool blocked(double t0, int block_ms)
{
	return alarm_fired && (zc_now() - t0) * 1000 >= block_ms * 0.9;
}

static void disarm(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
}

static uint8_t *page_buf(size_t len, uint8_t byte)
{
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, byte, len);
	return p;
}

static int probe_pipe(int p[2], bool nonblock)
{
	if (pipe2(p, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0)))
		return -errno;
	if (fcntl(p[1], F_SETPIPE_SZ, PROBE_PIPE) < 0)
		return -errno;
	return 0;
}

/* Everything already in the pipe, without waiting: bytes read. */
static size_t read_back(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n <= 0)
			break;
		got += n;
	}
	return got;
}

/* Read the pipe and judge it: the verdict of a page-change probe. */
static void judge(struct zc_probe_res *r, int fd, size_t moved, const char *how)
{
	static uint8_t got[PROBE_CHUNK];
	size_t n, nn;
	const char *v;

	if (moved > sizeof(got))
		moved = sizeof(got);
	n = read_back(fd, got, moved);
	v = zc_probe_classify(got, n, OLD, NEW, &nn);
	set(r, v, "%s; changed the source, read back %zu bytes: %zu new, %zu old", how, n, nn,
	    n - nn);
}

/* ---- kernel probes ------------------------------------------------------ */

/*
 * The vmsplice under test. The probes take it as a callback so that the
 * same probes, given Safin's wrapper (pwritev2/preadv2, exactly as in his
 * patch), show what a patched kernel would answer: a check of the probes'
 * own verdicts on a kernel that is not patched (zcbench probe --emulate-safin).
 */
typedef ssize_t (*vms_fn)(int fd, const struct iovec *iov, unsigned long n, unsigned int flags);

static ssize_t real_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags)
{
	return vmsplice(fd, iov, n, flags);
}

static ssize_t safin_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags)
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

struct kctx {
	const struct zc_probe_opts *o;
	vms_fn vms;
	int wfd;		/* probe file, O_RDWR, unlinked */
	unsigned flags;		/* vmsplice flags / which variant */
	int how;		/* file probes: 0 splice, 1 sendfile; overfill: 0 poll 1 nonblock 2 flags0 */
};

static void p_vmsplice_to_pipe(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *buf = page_buf(PROBE_CHUNK, OLD);
	struct iovec iov = { buf, PROBE_CHUNK };
	int p[2], ret;
	ssize_t n;
	char how[128];

	if (!buf || (ret = probe_pipe(p, false)))
		return set(r, "error", "setup: %s", strerror(buf ? -ret : ENOMEM));
	n = c->vms(p[1], &iov, 1, c->flags);
	if (n < 0)
		return set(r, "refused", "vmsplice(flags %#x): %s", c->flags, strerror(errno));
	memset(buf, NEW, PROBE_CHUNK);
	snprintf(how, sizeof(how), "vmsplice(flags %#x) returned %zd", c->flags, n);
	judge(r, p[0], n, how);
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
static void p_overfill(void *arg, struct zc_probe_res *r)
{
	static const char *const ways[] = { "poll(POLLOUT) then flags 0", "SPLICE_F_NONBLOCK",
					    "flags 0" };
	struct kctx *c = arg;
	uint8_t *buf = page_buf(PROBE_PIPE, OLD), *fill = page_buf(PROBE_PIPE / 2, OLD);
	struct iovec iov = { buf, PROBE_PIPE };
	struct pollfd pfd;
	int p[2], ret, err;
	ssize_t n;
	bool fired;
	double t0;
	char pollinfo[64] = "";

	if (!buf || !fill || (ret = probe_pipe(p, false)))
		return set(r, "error", "setup: %s", strerror(buf && fill ? -ret : ENOMEM));
	if (write(p[1], fill, PROBE_PIPE / 2) != PROBE_PIPE / 2)
		return set(r, "error", "prefill write: %s", strerror(errno));
	if (c->how == 0) {
		pfd = (struct pollfd){ .fd = p[1], .events = POLLOUT };
		ret = poll(&pfd, 1, 0);
		snprintf(pollinfo, sizeof(pollinfo), "poll said %s; ",
			 ret == 1 && (pfd.revents & POLLOUT) ? "POLLOUT" : "not writable");
	}
	arm_block(c->o->block_ms);
	t0 = zc_now();
	n = c->vms(p[1], &iov, 1, c->how == 1 ? SPLICE_F_NONBLOCK : 0);
	err = errno;
	fired = blocked(t0, c->o->block_ms);
	disarm();
	if (fired)
		set(r, "blocks", "%s%s: %u of %u bytes free, not back after %d ms (then %zd%s%s)",
		    pollinfo, ways[c->how], PROBE_PIPE / 2, PROBE_PIPE, c->o->block_ms, n,
		    n < 0 ? " " : "", n < 0 ? strerror(err) : "");
	else if (n < 0)
		set(r, err == EAGAIN ? "EAGAIN" : "error", "%s%s: %u of %u bytes free: %s", pollinfo,
		    ways[c->how], PROBE_PIPE / 2, PROBE_PIPE, strerror(err));
	else
		set(r, (size_t)n < PROBE_PIPE ? "partial" : "complete",
		    "%s%s: %u of %u bytes free, returned %zd of %u", pollinfo, ways[c->how],
		    PROBE_PIPE / 2, PROBE_PIPE, n, PROBE_PIPE);
}

/* flags 0 on a full O_NONBLOCK pipe: old vmsplice ignores O_NONBLOCK. */
static void p_nonblock_pipe(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *buf = page_buf(PROBE_CHUNK, OLD);
	struct iovec iov = { buf, 4096 };
	int p[2], ret, err;
	size_t filled = 0;
	ssize_t n;
	bool fired;
	double t0;

	if (!buf || (ret = probe_pipe(p, true)))
		return set(r, "error", "setup: %s", strerror(buf ? -ret : ENOMEM));
	while ((n = write(p[1], buf, PROBE_CHUNK)) > 0)
		filled += n;
	arm_block(c->o->block_ms);
	t0 = zc_now();
	n = c->vms(p[1], &iov, 1, 0);
	err = errno;
	fired = blocked(t0, c->o->block_ms);
	disarm();
	if (fired)
		set(r, "blocks", "O_NONBLOCK pipe full (%zu bytes), vmsplice flags 0: not back after "
		    "%d ms (O_NONBLOCK ignored)", filled, c->o->block_ms);
	else if (n < 0)
		set(r, err == EAGAIN ? "EAGAIN" : "error", "O_NONBLOCK pipe full (%zu bytes), "
		    "vmsplice flags 0: %s", filled, strerror(err));
	else
		set(r, "wrote", "O_NONBLOCK pipe full (%zu bytes), vmsplice flags 0 returned %zd",
		    filled, n);
}

static void p_vmsplice_to_user(void *arg, struct zc_probe_res *r)
{
	static uint8_t in[PROBE_CHUNK], out[PROBE_CHUNK];
	struct iovec iov = { out, PROBE_CHUNK };
	struct kctx *c = arg;
	int p[2], ret;
	ssize_t n;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 31 + 7);
	if ((ret = probe_pipe(p, false)))
		return set(r, "error", "setup: %s", strerror(-ret));
	if (write(p[1], in, sizeof(in)) != (ssize_t)sizeof(in))
		return set(r, "error", "write: %s", strerror(errno));
	n = c->vms(p[0], &iov, 1, 0);
	if (n < 0)
		return set(r, "refused", "vmsplice(read end): %s", strerror(errno));
	if (memcmp(in, out, n))
		return set(r, "differs", "vmsplice(read end) returned %zd bytes not equal to those written",
			   n);
	set(r, "works", "vmsplice(read end) returned %zd of %zu bytes, the same data", n, sizeof(in));
}

/* splice or sendfile from the probe file, re-opened read-only by this user. */
static void p_file(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	uint8_t *old = page_buf(PROBE_CHUNK, OLD), *new = page_buf(PROBE_CHUNK, NEW);
	char path[64], how[200], wr[64];
	int p[2], rfd, ret, wtest;
	loff_t off = 0;
	off_t soff = 0;
	ssize_t n;

	if (!old || !new || (ret = probe_pipe(p, false)))
		return set(r, "error", "setup: %s", strerror(old && new ? -ret : ENOMEM));
	if (pwrite(c->wfd, old, PROBE_CHUNK, 0) != PROBE_CHUNK)
		return set(r, "error", "pwrite: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", c->wfd);
	rfd = open(path, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		return set(r, "skipped", "cannot re-open the probe file read-only: %s", strerror(errno));
	/* Evidence that this caller cannot write the file (Falcato's case). */
	wtest = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(wr, sizeof(wr), "uid %u %s", (unsigned)geteuid(),
		 wtest >= 0 ? "can write the file" : "cannot write the file");
	if (wtest >= 0)
		close(wtest);
	if (c->how == 0)
		n = splice(rfd, &off, p[1], NULL, PROBE_CHUNK, 0);
	else
		n = sendfile(p[1], rfd, &soff, PROBE_CHUNK);
	if (n < 0)
		return set(r, "refused", "%s; %s(read-only fd -> pipe): %s", wr,
			   c->how ? "sendfile" : "splice", strerror(errno));
	if (pwrite(c->wfd, new, PROBE_CHUNK, 0) != PROBE_CHUNK)
		return set(r, "error", "pwrite: %s", strerror(errno));
	snprintf(how, sizeof(how), "%s; %s(read-only fd -> pipe) returned %zd", wr,
		 c->how ? "sendfile" : "splice", n);
	judge(r, p[0], n, how);
}

/* tee between pipes: works, and do both pipes share the buffers? */
static void p_tee(void *arg, struct zc_probe_res *r)
{
	struct kctx *c = arg;
	static uint8_t got[PROBE_CHUNK];

	/* The master needs pages we can change: page cache first, then user pages. */
	for (int kind = 0; kind < 2; kind++) {
		uint8_t *buf = page_buf(PROBE_CHUNK, OLD), *new = page_buf(PROBE_CHUNK, NEW);
		int m[2], t[2], ret;
		ssize_t n, teed;
		loff_t off = 0;
		size_t nn, got_n;
		const char *v, *src = kind ? "vmsplice" : "file splice";
		char how[160];

		if (!buf || !new || (ret = probe_pipe(m, false)) || (ret = probe_pipe(t, false)))
			return set(r, "error", "setup failed");
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
			return set(r, "refused", "tee: %s", strerror(errno));
		if (kind == 0)
			ret = pwrite(c->wfd, new, PROBE_CHUNK, 0) == PROBE_CHUNK ? 0 : -EIO;
		else
			memset(buf, NEW, PROBE_CHUNK);
		/* Control: the master itself must show the change, else no evidence. */
		got_n = read_back(m[0], got, n);
		v = zc_probe_classify(got, got_n, OLD, NEW, &nn);
		if (strcmp(v, "zero-copy"))
			continue;
		snprintf(how, sizeof(how), "master filled by %s (%zu bytes, still there after tee: "
			 "tee does not consume), tee returned %zd", src, got_n, teed);
		judge(r, t[0], teed, how);
		if (!strcmp(r->verdict, "zero-copy"))
			snprintf(r->verdict, sizeof(r->verdict), "shares buffers");
		else if (!strcmp(r->verdict, "copy"))
			snprintf(r->verdict, sizeof(r->verdict), "copies");
		return;
	}
	set(r, "skipped", "no way to put changeable pages in a pipe here (file splice and "
	    "vmsplice both copy), so sharing is not observable");
}

/* ---- mode probes: each mode's own probe_step ----------------------------- */

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

	if ((ret = probe_pipe(in, false)) || (ret = probe_pipe(ctl, false)))
		return ret;
	*ubuf = page_buf(PROBE_CHUNK, OLD);
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
		struct zc_io io = { .in_fd = -1, .out_fd = -1, .file_fd = -1, .pipe_r = -1,
				    .pipe_w = -1, .aux_r = -1, .aux_w = -1, .epfd = -1,
				    .mismatch_off = UINT64_MAX, .stop = &never };
		int out[2], in[2], ctl[2], ret, in_fd = -1;
		uint8_t *in_buf = NULL;
		ssize_t n;
		char how[160];

		io.chunk = PROBE_CHUNK;
		io.pipe_size = PROBE_PIPE;
		io.file_dir = c->o->file_dir;
		io.period = PROBE_CHUNK;
		io.buf_len = PROBE_CHUNK;
		io.buf = page_buf(PROBE_CHUNK, OLD);
		if (!io.buf || (ret = probe_pipe(out, false)))
			return set(r, "error", "setup: out of memory or pipes");
		io.out_fd = out[1];
		if (m->role == ZC_ROLE_PROXY) {
			ret = proxy_input(kind, c->o, in, ctl, &in_buf, &in_fd);
			if (ret)
				continue;
			io.in_fd = in[0];
		}
		if (m->setup && (ret = m->setup(&io)))
			return set(r, "error", "mode setup: %s", strerror(-ret));
		n = m->probe_step(&io);
		if (n <= 0)
			return set(r, "error", "probe_step: %s", n ? strerror((int)-n) : "moved nothing");
		/* Change the source the path took its bytes from. */
		if (m->role == ZC_ROLE_PROXY && in_fd >= 0) {
			memset(in_buf, NEW, PROBE_CHUNK);
			if (pwrite(in_fd, in_buf, PROBE_CHUNK, 0) != PROBE_CHUNK)
				return set(r, "error", "pwrite: %s", strerror(errno));
		} else if (m->role == ZC_ROLE_PROXY) {
			memset(in_buf, NEW, PROBE_CHUNK);
		} else if (m->flags & ZC_MODE_FILE) {
			memset(io.buf, NEW, PROBE_CHUNK);
			if (pwrite(io.file_fd, io.buf, PROBE_CHUNK, 0) != PROBE_CHUNK)
				return set(r, "error", "pwrite: %s", strerror(errno));
		} else {
			memset(io.buf, NEW, PROBE_CHUNK);
		}
		if (m->role == ZC_ROLE_PROXY) {
			size_t cn = read_back(ctl[0], got, PROBE_CHUNK), nn;

			if (strcmp(zc_probe_classify(got, cn, OLD, NEW, &nn), "zero-copy"))
				continue;	/* this input does not share here: no evidence */
		}
		snprintf(how, sizeof(how), "%s; probe_step moved %zd bytes",
			 m->role == ZC_ROLE_PROXY ? (kind ? "input: page-cache pages spliced into a pipe"
						    : "input: user pages vmspliced into a pipe")
			 : m->flags & ZC_MODE_FILE ? "source: page-cache file" : "source: user buffer",
			 n);
		judge(r, out[0], n, how);
		if (m->teardown)
			m->teardown(&io);
		return;
	}
	set(r, "skipped", "no input pipe holding changeable pages (vmsplice and file splice both "
	    "copy here), so a proxy's copy is not observable");
}

void zc_probe_mode(const struct zc_mode *m, const struct zc_probe_opts *o, struct zc_probe_res *r)
{
	struct mctx c = { m, o };
	const char *why;

	memset(r, 0, sizeof(*r));
	if (!m->probe_step)
		return set(r, "skipped", "mode has no probe_step");
	if (m->unavailable && (why = m->unavailable()))
		return set(r, "skipped", "unavailable: %s", why);
	zc_probe_bounded(p_mode, &c, o->timeout_ms, NULL, r);
}

/* ---- the fingerprint ---------------------------------------------------- */

static json_t *res_json(const char *what, const struct zc_probe_res *r)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:f}", "what", what, "verdict", r->verdict, "detail",
			      r->detail, "elapsed_ms", r->elapsed_ms);

	return o;
}

static const char *verdict_of(json_t *probes, const char *name)
{
	return json_string_value(json_object_get(json_object_get(probes, name), "verdict")) ?: "";
}

static void add_verdict(json_t *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_verdict(json_t *arr, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_array_append_new(arr, json_string(line));
}

static void verdicts(json_t *fp)
{
	json_t *p = json_object_get(fp, "probes"), *v = json_array(), *modes;
	const char *vm = verdict_of(p, "vmsplice_to_pipe"), *nb = verdict_of(p, "vmsplice_nonblock_pipe");
	const char *ov = verdict_of(p, "vmsplice_overfill_poll"), *snw = verdict_of(p, "splice_needs_write");
	const char *fs = verdict_of(p, "splice_file_unpriv"), *sf = verdict_of(p, "sendfile_file");
	const char *sr = verdict_of(p, "splice_file"), *te = verdict_of(p, "tee_pipe");
	char label[256];
	const char *key;
	json_t *val;
	int emu = 0, emu_copy = 0;

	if (!strcmp(vm, "zero-copy"))
		add_verdict(v, "vmsplice: zero-copy (pre-Safin)");
	else if (!strcmp(vm, "copy"))
		add_verdict(v, "vmsplice: copy (pwritev2 semantics)");
	else
		add_verdict(v, "vmsplice: %s", vm);
	if (!strcmp(nb, "blocks"))
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: O_NONBLOCK ignored, blocks (pre-Safin)");
	else if (!strcmp(nb, "EAGAIN"))
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: O_NONBLOCK honoured, EAGAIN (Safin)");
	else
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: %s", nb);
	if (!strcmp(ov, "partial"))
		add_verdict(v, "vmsplice beyond the free space after poll: partial write (pre-Safin)");
	else if (!strcmp(ov, "blocks"))
		add_verdict(v, "vmsplice beyond the free space after poll: blocks (pwritev2; LTP vmsplice01 hangs)");
	else
		add_verdict(v, "vmsplice beyond the free space after poll: %s", ov);
	add_verdict(v, "splice_needs_write: %s", snw);
	if (!strcmp(fs, "skipped"))
		add_verdict(v, "splice of a read-only file as %s: skipped (%s)",
			    json_string_value(json_object_get(fp, "user")) ?: "?",
			    json_string_value(json_object_get(json_object_get(p, "splice_file_unpriv"), "detail")) ?: "");
	else
		add_verdict(v, "splice of a read-only file as %s: %s%s",
			    json_string_value(json_object_get(fp, "user")) ?: "?", fs,
			    !strcmp(fs, "copy") ? " (degraded, Falcato v2)" :
			    !strcmp(fs, "refused") ? " (Falcato v1)" : "");
	add_verdict(v, "splice/sendfile of a file: %s / %s", sr, sf);
	add_verdict(v, "tee: %s", te);
	modes = json_object_get(fp, "modes");
	json_object_foreach(modes, key, val) {
		if (!json_is_true(json_object_get(val, "emulated")))
			continue;
		emu++;
		emu_copy += !strcmp(json_string_value(json_object_get(val, "verdict")) ?: "", "copy");
	}
	if (emu)
		add_verdict(v, "emulated after-modes: %d of %d classify as a copy%s", emu_copy, emu,
			    emu_copy == emu ? " (faithful)" : " (NOT faithful: see modes)");
	json_object_set_new(fp, "verdicts", v);
	snprintf(label, sizeof(label), "%svmsplice=%s nonblock=%s snw=%s file-splice=%s sendfile=%s",
		 json_is_string(json_object_get(fp, "emulated")) ? "EMULATED(safin) " : "", vm, nb, snw,
		 sr, sf);
	json_object_set_new(fp, "label", json_string(label));
	/* before/after in one word, from behaviour alone */
	json_object_set_new(fp, "vmsplice_state",
			    json_string(!strcmp(vm, "zero-copy") ? "before" :
					!strcmp(vm, "copy") ? "after" : "unknown"));
}

json_t *zc_probe_collect(const struct zc_probe_opts *o)
{
	json_t *fp = json_object(), *probes = json_object(), *modes = json_object();
	struct zc_probe_creds nob = { 0 }, *as_user = NULL;
	struct zc_probe_res r;
	char user_why[160] = "", snw[32] = "", path[300];
	struct kctx k = { .o = o, .wfd = -1,
			  .vms = o->emulate_safin ? safin_vmsplice : real_vmsplice };
	struct passwd *pw;
	double t0 = zc_now();
	struct utsname u;
	int ret, file_err = 0, lock = probe_lock();
	bool restored = false;

	if (lock >= 0)
		snw_repair();
	uname(&u);
	json_object_set_new(fp, "kernel_release", json_string(u.release));
	json_object_set_new(fp, "euid", json_integer(geteuid()));
	json_object_set_new(fp, "user", json_string(o->user));
	json_object_set_new(fp, "block_ms", json_integer(o->block_ms));
	/* Never in a results file: only `zcbench probe --emulate-safin`. */
	json_object_set_new(fp, "emulated", o->emulate_safin ? json_string("safin-vmsplice")
							      : json_false());

#define KPROBE(name, what, fn, ...)                                              \
	do {                                                                     \
		struct kctx kc_ = k;                                             \
		__VA_ARGS__;                                                     \
		zc_probe_bounded(fn, &kc_, o->timeout_ms, NULL, &r);            \
		json_object_set_new(probes, name, res_json(what, &r));           \
	} while (0)

	KPROBE("vmsplice_to_pipe", "vmsplice user pages into a pipe, change them, read the pipe",
	       p_vmsplice_to_pipe, kc_.flags = 0);
	KPROBE("vmsplice_gift", "the same with SPLICE_F_GIFT: accepted? anything different?",
	       p_vmsplice_to_pipe, kc_.flags = SPLICE_F_GIFT);
	KPROBE("vmsplice_overfill_poll", "64 KiB into a pipe with 32 KiB free, after poll(POLLOUT)",
	       p_overfill, kc_.how = 0);
	KPROBE("vmsplice_overfill_nonblock", "64 KiB into a pipe with 32 KiB free, SPLICE_F_NONBLOCK",
	       p_overfill, kc_.how = 1);
	KPROBE("vmsplice_overfill_flags0", "64 KiB into a pipe with 32 KiB free, flags 0",
	       p_overfill, kc_.how = 2);
	KPROBE("vmsplice_nonblock_pipe", "flags 0 on a full pipe opened O_NONBLOCK",
	       p_nonblock_pipe, (void)0);
	KPROBE("vmsplice_to_user", "vmsplice from a pipe's read end into user memory",
	       p_vmsplice_to_user, (void)0);

	memset(&r, 0, sizeof(r));
	ret = zc_read_file_trim(SNW_PATH, snw, sizeof(snw));
	if (ret == -ENOENT)
		set(&r, "absent", "%s does not exist", SNW_PATH);
	else if (ret)
		set(&r, "skipped", "%s: %s", SNW_PATH, strerror(-ret));
	else
		set(&r, snw, "%s = %s", SNW_PATH, snw);
	json_object_set_new(probes, "splice_needs_write",
			    res_json("is fs.splice_needs_write there, and its value", &r));

	/* The probe file: root's, mode 0644, unlinked at once (nothing left behind). */
	snprintf(path, sizeof(path), "%s/zcbench-probe-XXXXXX", o->file_dir);
	k.wfd = mkostemp(path, O_CLOEXEC);
	file_err = errno;
	if (k.wfd >= 0) {
		unlink(path);
		if (fchmod(k.wfd, 0644)) {
			file_err = errno;
			close(k.wfd);
			k.wfd = -1;
		}
	}
	if (geteuid() != 0)
		snprintf(user_why, sizeof(user_why), "not root: cannot drop to an unprivileged user, "
			 "and the caller owns the probe file");
	else if (!(pw = getpwnam(o->user)))
		snprintf(user_why, sizeof(user_why), "no user '%s' (--user)", o->user);
	else if (pw->pw_uid == 0)
		snprintf(user_why, sizeof(user_why), "user '%s' is root", o->user);
	else {
		nob.uid = pw->pw_uid;
		nob.gid = pw->pw_gid;
		as_user = &nob;
	}

#define FPROBE(name, what, how_, as, why)                                         \
	do {                                                                     \
		struct kctx kc_ = k;                                             \
		kc_.how = how_;                                                  \
		memset(&r, 0, sizeof(r));                                        \
		if (k.wfd < 0)                                                   \
			set(&r, "skipped", "cannot create a file in %s: %s",    \
			    o->file_dir, strerror(file_err));                    \
		else if ((why)[0])                                               \
			set(&r, "skipped", "%s", why);                           \
		else                                                             \
			zc_probe_bounded(p_file, &kc_, o->timeout_ms, as, &r);  \
		json_object_set_new(probes, name, res_json(what, &r));           \
	} while (0)

	FPROBE("splice_file", "splice a file into a pipe as the caller (root: the owner), change the file, read the pipe",
	       0, NULL, "");
	FPROBE("sendfile_file", "sendfile a file into a pipe as the caller, change the file, read the pipe",
	       1, NULL, "");
	FPROBE("splice_file_unpriv", "the same as the unprivileged user, on a file it cannot write",
	       0, as_user, user_why);
	FPROBE("sendfile_file_unpriv", "sendfile as the unprivileged user, on a file it cannot write",
	       1, as_user, user_why);
	{
		/*
		 * Falcato's check only acts when the sysctl is 1: with it at 0,
		 * set it to 1 for the two probes and put it back, with the
		 * signals that could stop us in between blocked.
		 */
		char why[200] = "";
		bool changed = false;
		sigset_t block, old;

		if (ret == -ENOENT)
			snprintf(why, sizeof(why), "fs.splice_needs_write absent");
		else if (ret)
			snprintf(why, sizeof(why), "fs.splice_needs_write unreadable");
		else if (user_why[0])
			snprintf(why, sizeof(why), "%s", user_why);
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigaddset(&block, SIGQUIT);
		sigprocmask(SIG_BLOCK, &block, &old);
		if (!why[0] && !strcmp(snw, "0") && lock < 0)
			snprintf(why, sizeof(why), "not changing fs.splice_needs_write without "
				 PROBE_LOCK " (another probe holds it, or /run is not writable)");
		if (!why[0] && !strcmp(snw, "0")) {
			if (zc_write_sysctl_value(SNW_RESTORE, "0") ||
			    (ret = zc_write_sysctl_value(SNW_PATH, "1"))) {
				snprintf(why, sizeof(why), "cannot set fs.splice_needs_write=1: %s",
					 strerror(errno));
				unlink(SNW_RESTORE);
			} else {
				changed = true;
			}
		}
		FPROBE("splice_file_unpriv_snw1", "splice of the read-only file with fs.splice_needs_write=1",
		       0, as_user, why);
		FPROBE("sendfile_file_unpriv_snw1", "sendfile of the read-only file with fs.splice_needs_write=1",
		       1, as_user, why);
		if (changed) {
			ret = zc_write_sysctl_value(SNW_PATH, "0");
			if (ret)
				zc_warn("could not restore fs.splice_needs_write=0: %s (%s keeps the "
					"value for the next probe)", strerror(-ret), SNW_RESTORE);
			else
				unlink(SNW_RESTORE);
			restored = ret == 0;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		json_object_set_new(fp, "sysctl_changed_and_restored", json_boolean(changed && restored));
	}
	KPROBE("tee_pipe", "tee a pipe into another, change the master's pages, read the copy",
	       p_tee, (void)0);
	if (k.wfd >= 0)
		close(k.wfd);
#undef KPROBE
#undef FPROBE
	json_object_set_new(fp, "probes", probes);

	if (o->modes) {
		for (size_t i = 0; i < zc_nmodes; i++) {
			const struct zc_mode *m = zc_modes[i];

			if (!m->probe_step)
				continue;
			zc_probe_mode(m, o, &r);
			json_object_set_new(modes, m->name,
					    json_pack("{s:s,s:b,s:s,s:s,s:f}", "role",
						      zc_role_names[m->role], "emulated",
						      !!(m->flags & ZC_MODE_EMULATED), "verdict",
						      r.verdict, "detail", r.detail, "elapsed_ms",
						      r.elapsed_ms));
		}
	}
	json_object_set_new(fp, "modes", modes);
	verdicts(fp);
	json_object_set_new(fp, "elapsed_s", json_real(zc_now() - t0));
	if (lock >= 0)
		close(lock);
	return fp;
}

json_t *zc_fingerprint_collect(void)
{
	struct zc_probe_opts o;

	zc_probe_opts_default(&o);
	return zc_probe_collect(&o);
}

static void print_res(FILE *f, const char *name, json_t *p)
{
	const char *v = json_string_value(json_object_get(p, "verdict")) ?: "?";
	const char *d = json_string_value(json_object_get(p, "detail")) ?: "";

	if (!strcmp(v, "skipped"))
		fprintf(f, "  %-32s skipped: %s\n", name, d);
	else
		fprintf(f, "  %-32s %-15s %s\n", name, v, d);
}

void zc_probe_print(FILE *f, json_t *fp)
{
	const char *key;
	json_t *val, *v;
	size_t i;

	if (json_is_string(json_object_get(fp, "emulated")))
		fprintf(f, "EMULATED: vmsplice replaced by Safin's pwritev2/preadv2 wrapper in the "
			   "vmsplice probes\n");
	fprintf(f, "kernel fingerprint: %s, probed as euid %lld in %.2f s\n",
		json_string_value(json_object_get(fp, "kernel_release")) ?: "?",
		(long long)json_integer_value(json_object_get(fp, "euid")),
		json_real_value(json_object_get(fp, "elapsed_s")));
	json_object_foreach(json_object_get(fp, "probes"), key, val)
		print_res(f, key, val);
	if (json_object_size(json_object_get(fp, "modes"))) {
		fprintf(f, "\nmode data paths (each mode's probe_step, same page-change test):\n");
		json_object_foreach(json_object_get(fp, "modes"), key, val) {
			char name[64];

			snprintf(name, sizeof(name), "%s %s%s",
				 json_string_value(json_object_get(val, "role")) ?: "?", key,
				 json_is_true(json_object_get(val, "emulated")) ? " [emu]" : "");
			print_res(f, name, val);
		}
	}
	fprintf(f, "\nverdicts:\n");
	json_array_foreach(json_object_get(fp, "verdicts"), i, v)
		fprintf(f, "  %s\n", json_string_value(v));
}

void zc_fingerprint_print_brief(FILE *f, json_t *fp)
{
	if (!json_is_object(fp))
		return;
	fprintf(f, "kernel fingerprint: %s\n", json_string_value(json_object_get(fp, "label")) ?: "?");
}

static void probe_usage(FILE *f)
{
	fprintf(f, "usage: zcbench probe [--json] [--no-modes] [--emulate-safin] [--user NAME]\n"
		   "                     [--file-dir DIR] [--timeout-ms N] [--block-ms N]\n"
		   "  --json         print the fingerprint as JSON (what results files carry)\n"
		   "  --no-modes     skip the page-change test of every mode's data path\n"
		   "  --emulate-safin  run the vmsplice probes on Safin's pwritev2/preadv2 wrapper:\n"
		   "                 what a patched kernel would answer (checks the probes)\n"
		   "  --user NAME    unprivileged user for the read-only file probes (nobody)\n"
		   "  --file-dir D   where the probe file lives, unlinked at once (/var/tmp)\n"
		   "  --timeout-ms N kill a probe child after N ms (1000)\n"
		   "  --block-ms N   a call not back after N ms blocks (150)\n");
}

int zc_cmd_probe(int argc, char **argv)
{
	struct zc_probe_opts o;
	bool as_json = false;
	json_t *fp;

	zc_probe_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		long n;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			probe_usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--json")) {
			as_json = true;
			continue;
		}
		if (!strcmp(a, "--no-modes")) {
			o.modes = false;
			continue;
		}
		if (!strcmp(a, "--emulate-safin")) {
			o.emulate_safin = true;
			continue;
		}
		if (!strncmp(a, "--", 2) && strchr(a, '=')) {
			val = strchr(a, '=') + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			zc_err("probe: %s needs a value (zcbench probe --help)", a);
			return ZC_EXIT_USAGE;
		}
#define IS(opt) (!strncmp(a, opt, strlen(opt)) && (a[strlen(opt)] == 0 || a[strlen(opt)] == '='))
		if (IS("--user")) {
			snprintf(o.user, sizeof(o.user), "%s", val);
		} else if (IS("--file-dir")) {
			snprintf(o.file_dir, sizeof(o.file_dir), "%s", val);
		} else if (IS("--timeout-ms") || IS("--block-ms")) {
			if (zc_parse_long(val, &n) || n < 10 || n > 60000) {
				zc_err("probe: %.*s: '%s' is not a number of ms in 10..60000",
				       (int)strcspn(a, "="), a, val);
				return ZC_EXIT_USAGE;
			}
			if (IS("--timeout-ms"))
				o.timeout_ms = (int)n;
			else
				o.block_ms = (int)n;
		} else {
			zc_err("probe: unknown option '%s' (zcbench probe --help)", a);
			return ZC_EXIT_USAGE;
		}
#undef IS
	}
	if (o.block_ms >= o.timeout_ms) {
		zc_err("probe: --block-ms (%d) must be below --timeout-ms (%d)", o.block_ms,
		       o.timeout_ms);
		return ZC_EXIT_USAGE;
	}
	fp = zc_probe_collect(&o);
	if (as_json) {
		json_dumpf(fp, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else {
		zc_probe_print(stdout, fp);
	}
	json_decref(fp);
	return 0;
}
