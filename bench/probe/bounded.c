// SPDX-License-Identifier: GPL-2.0
/* The probes' machinery; a child per probe killed after a timeout, and the helpers children use. */
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

void zc_probe_opts_default(struct zc_probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	zc_opt_defaults(zc_probe_optv, zc_nprobe_optv, o);	/* probe.c declares them */
}

void zc_probe_set(struct zc_probe_res *r, const char *verdict, const char *fmt, ...)
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
	zc_probe_set(shared, "error", "probe child exited without a verdict");
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
			zc_probe_set(shared, "skipped", "cannot become uid %u: %s", (unsigned)as->uid,
			    strerror(errno));
			_exit(0);
		}
		/*
		 * Not dumpable (the credential change clears it; said again so no
		 * later change undoes it): other processes of this user must not
		 * ptrace the child or open its /proc/PID/fd, which holds root's
		 * probe file. The child still re-opens its own /proc/self/fd.
		 */
		if (as && prctl(PR_SET_DUMPABLE, 0)) {
			zc_probe_set(shared, "skipped", "prctl(PR_SET_DUMPABLE, 0): %s", strerror(errno));
			_exit(0);
		}
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
			zc_probe_set(shared, "timeout", "probe child killed after %d ms", timeout_ms);
			ret = -ETIMEDOUT;
			break;
		}
		usleep(500);
	}
	if (!ret && WIFSIGNALED(status))
		zc_probe_set(shared, "error", "probe child died of signal %d", WTERMSIG(status));
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
void zc_probe_arm_block(int ms)
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
bool zc_probe_blocked(double t0, int block_ms)
{
	return alarm_fired && (zc_now() - t0) * 1000 >= block_ms * 0.9;
}

void zc_probe_disarm(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
}

uint8_t *zc_probe_page_buf(size_t len, uint8_t byte)
{
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, byte, len);
	return p;
}

int zc_probe_pipe(int p[2], bool nonblock)
{
	if (pipe2(p, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0)))
		return -errno;
	if (fcntl(p[1], F_SETPIPE_SZ, PROBE_PIPE) < 0)
		return -errno;
	return 0;
}

/* Everything already in the pipe, without waiting: bytes read. */
size_t zc_probe_read_back(int fd, uint8_t *buf, size_t len)
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
void zc_probe_judge(struct zc_probe_res *r, int fd, size_t moved, const char *how)
{
	static uint8_t got[PROBE_CHUNK];
	size_t n, nn;
	const char *v;

	if (moved > sizeof(got))
		moved = sizeof(got);
	n = zc_probe_read_back(fd, got, moved);
	v = zc_probe_classify(got, n, OLD, NEW, &nn);
	zc_probe_set(r, v, "%s; changed the source, read back %zu bytes: %zu new, %zu old", how, n, nn,
	    n - nn);
}
