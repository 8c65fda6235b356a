// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated "after" modes: what each zero-copy path costs once the 2026
 * patches turn it into a copy, run on a kernel that still has zero-copy.
 * Each keeps its real mode's structure (same pipe, same chunking, same
 * syscall count per chunk) and changes only the step the patch changes, so
 * the difference between the pair is the copy. zcbench probe checks every
 * one of them through its own probe_step: each must classify as a copy.
 *
 * vmsplice-as-writev  Safin's series makes vmsplice(pipe) literally
 *     do_writev(fd, vec, vlen, flags & NONBLOCK ? RWF_NOWAIT : 0): the chunk
 *     is copied into the pipe's own pages. We call writev() on the same pipe,
 *     then splice the pipe to the socket as the real mode does.
 * tee-as-writev  the load generator's master pipe is filled by writev (what
 *     its one vmsplice becomes); tee() and splice() per chunk are unchanged
 *     by the series, so this isolates what the generator would lose.
 * sendfile-as-copy  read() the chunk from the file into a user buffer, then
 *     write() it to the socket: sendfile done as the plain copy Torvalds
 *     suggested (page cache -> user -> skb, two copies, two calls per chunk).
 *     Falcato's v2 degrades splice/sendfile of a file the caller cannot write
 *     to copy_splice_read(), one copy into fresh pages that then go to the
 *     socket by reference: read+write is its upper bound, not its equal.
 * sendfile-bounce  Falcato's degraded path itself: the kernel already
 *     sends O_DIRECT files through copy_splice_read() (do_splice_read:
 *     "O_DIRECT and DAX don't deal with the pagecache"), the very function
 *     his patch falls back to. On tmpfs an O_DIRECT read is a copy from the
 *     page cache (tmpfs' O_DIRECT support, 6.6+), so sendfile() of an
 *     O_DIRECT tmpfs file runs, on today's kernel, exactly the code a
 *     caller that cannot write the file gets under fs.splice_needs_write=1:
 *     one copy into fresh pages, handed to the socket by reference. Its
 *     file lives on /dev/shm whatever file_dir says (on a disk, O_DIRECT
 *     would read the disk).
 * splice-as-copy (proxy)  if splice() copied, socket -> pipe would copy the
 *     skb payload into pipe pages and pipe -> socket would copy them into a
 *     new skb: two copies and two calls per chunk, with the data parked in
 *     a pipe_size buffer between them. The most faithful user-space match is
 *     the splice proxy's own loop (non-blocking sockets, edge-triggered
 *     epoll, at most `chunk` per read, at most pipe_size parked) with the
 *     pipe replaced by a pipe_size user buffer and each splice() by read()
 *     or write(): the same copies, the same calls, the same wake-ups. The
 *     plain `copy` proxy differs (blocking, chunk-sized buffer), so it is not
 *     the after-mode of splice. read()/write() rather than recv()/send()
 *     so the probe can feed the step from pipes.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/uio.h>
#include <unistd.h>

/*
 * The bounce buffer of sendfile-as-copy and splice-as-copy. A role process
 * (and a probe child) runs exactly one mode, so one per process is enough;
 * io->buf stays the role's (the role frees it).
 */
static uint8_t *bounce;
static size_t bounce_len;
static size_t bounce_head, bounce_tail;	/* splice-as-copy: parked bytes */

static int bounce_alloc(size_t len)
{
	free(bounce);
	bounce = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!bounce)
		return -ENOMEM;
	/* Touched before t0, like every buffer of a timed loop. */
	for (size_t i = 0; i < len; i += 4096)
		bounce[i] = 0;
	bounce_len = len;
	bounce_head = bounce_tail = 0;
	return 0;
}

static void bounce_free(void)
{
	free(bounce);
	bounce = NULL;
	bounce_len = 0;
}

/* ---- vmsplice-as-writev ------------------------------------------------ */

static int vaw_setup(struct zc_io *io)
{
	return zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

static ssize_t vaw_fill(struct zc_io *io)
{
	struct iovec iov = {
		.iov_base = io->buf + io->fill_off % io->period,
		.iov_len = zc_src_len(io),
	};
	/* vmsplice(fd, iov, 1, 0) under Safin's patch, exactly. */
	ssize_t n = writev(io->pipe_w, &iov, 1);

	if (n < 0)
		return -errno;
	io->fill_off += n;
	return n;
}

static int vaw_pump(struct zc_io *io)
{
	return zc_pipe_source_pump(io, vaw_fill);
}

static ssize_t vaw_step(struct zc_io *io)
{
	return zc_pipe_source_step(io, vaw_fill);
}

const struct zc_mode zc_mode_vmsplice_as_writev = {
	.name = "vmsplice-as-writev",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_EMULATED,
	.summary = "vmsplice after Safin's patch: writev() into the pipe, splice() to socket",
	.setup = vaw_setup,
	.pump = vaw_pump,
	.probe_step = vaw_step,
	.teardown = zc_io_teardown_pipes,
};

/* ---- tee-as-writev ----------------------------------------------------- */

static int taw_setup(struct zc_io *io)
{
	return zc_tee_setup(io, true);
}

static int taw_pump(struct zc_io *io)
{
	return zc_pipe_source_pump(io, zc_tee_fill);
}

static ssize_t taw_step(struct zc_io *io)
{
	return zc_pipe_source_step(io, zc_tee_fill);
}

const struct zc_mode zc_mode_tee_as_writev = {
	.name = "tee-as-writev",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_EMULATED | ZC_MODE_STATIC_CHUNK,
	.summary = "tee after Safin's patch: master pipe filled by writev(), tee() + splice()",
	.setup = taw_setup,
	.pump = taw_pump,
	.probe_step = taw_step,
	.teardown = zc_io_teardown_pipes,
};

/* ---- sendfile-as-copy -------------------------------------------------- */

static int sac_file_setup(struct zc_io *io)
{
	int ret = zc_payload_file(io);

	return ret ? ret : bounce_alloc(io->chunk);
}

static void sac_file_teardown(struct zc_io *io)
{
	if (io->file_fd >= 0)
		close(io->file_fd);
	io->file_fd = -1;
	bounce_free();
}

/* One chunk: pread() from the file, write() all of it. Bytes or -errno. */
static ssize_t sac_file_step(struct zc_io *io)
{
	size_t len = zc_src_len(io), done = 0;
	ssize_t n;

	if (len > bounce_len)
		len = bounce_len;
	n = pread(io->file_fd, bounce, len, (off_t)(io->fill_off % io->period));
	io->calls++;
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	len = n;
	while (done < len) {
		n = write(io->out_fd, bounce + done, len - done);
		io->calls++;
		if (n < 0 && errno == EINTR && !*io->stop)
			continue;
		if (n < 0) {
			/* Stopped mid-chunk: count what went out, the stream stays whole. */
			if (errno == EINTR && done)
				break;
			return -errno;
		}
		done += n;
	}
	io->fill_off += done;
	io->bytes += done;
	return done;
}

static int sac_file_pump(struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = sac_file_step(io);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
	}
	return 0;
}

const struct zc_mode zc_mode_sendfile_as_copy = {
	.name = "sendfile-as-copy",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_EMULATED | ZC_MODE_FILE,
	.summary = "sendfile as a copy: pread() the file into a buffer, write() to socket",
	.setup = sac_file_setup,
	.pump = sac_file_pump,
	.probe_step = sac_file_step,
	.teardown = sac_file_teardown,
};

/* ---- sendfile-bounce ---------------------------------------------------- */

#define SFB_DIR "/dev/shm"
#define SFB_TMPFS_MAGIC 0x01021994

static const char *sfb_unavailable(void)
{
	struct statfs st;
	char path[] = SFB_DIR "/zcbench-odirect-XXXXXX";
	int fd, dfd;

	if (statfs(SFB_DIR, &st) || st.f_type != SFB_TMPFS_MAGIC)
		return "needs tmpfs at " SFB_DIR " (its O_DIRECT reads copy from the page cache)";
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return "cannot create a file in " SFB_DIR;
	dfd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	unlink(path);
	close(fd);
	if (dfd < 0)
		return "tmpfs refuses O_DIRECT here (added in Linux 6.6)";
	close(dfd);
	return NULL;
}

static int sfb_setup(struct zc_io *io)
{
	char path[] = SFB_DIR "/zcbench-payload-XXXXXX";
	size_t done = 0;
	int fd = mkostemp(path, O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	while (done < io->period) {
		ssize_t n = write(fd, io->buf + done, io->period - done);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	/* O_DIRECT is what sends do_splice_read() to copy_splice_read(). */
	io->file_fd = ret ? -1 : open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (!ret && io->file_fd < 0)
		ret = -errno;
	unlink(path);
	close(fd);
	return ret;
}

/* The same sendfile() loop as the real mode: only the file differs. */
const struct zc_mode zc_mode_sendfile_bounce = {
	.name = "sendfile-bounce",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_EMULATED | ZC_MODE_FILE,
	.summary = "sendfile via copy_splice_read (O_DIRECT tmpfs file): Falcato's degraded path",
	.unavailable = sfb_unavailable,
	.setup = sfb_setup,
	.pump = zc_sendfile_pump,
	.probe_step = zc_sendfile_step,
	.teardown = sac_file_teardown,
};

/* ---- splice-as-copy (proxy) -------------------------------------------- */

static int spc_setup(struct zc_io *io)
{
	int ret;

	if ((ret = bounce_alloc(io->pipe_size)))
		return ret;
	return zc_io_nonblock_epoll(io);
}

/*
 * One turn of the splice proxy's loop with splice() as a copy: read at most
 * a chunk into the parked buffer, write out what is parked. 0 or -errno;
 * *blocked_in / *blocked_out say which side would block.
 */
static int spc_turn(struct zc_io *io, bool *blocked_in, bool *blocked_out)
{
	ssize_t n;

	*blocked_in = io->eof;
	*blocked_out = !io->pending;
	if (!io->eof && bounce_tail < bounce_len) {
		size_t want = bounce_len - bounce_tail;

		if (want > io->chunk)
			want = io->chunk;
		n = read(io->in_fd, bounce + bounce_tail, want);
		io->calls++;
		if (n > 0) {
			bounce_tail += n;
			io->pending += n;
		} else if (n == 0) {
			io->eof = true;
		} else if (errno == EAGAIN) {
			*blocked_in = true;
		} else if (errno != EINTR) {
			return -errno;
		}
	} else {
		*blocked_in = true;
	}
	if (io->pending) {
		n = write(io->out_fd, bounce + bounce_head, io->pending);
		io->calls++;
		if (n > 0) {
			bounce_head += n;
			io->pending -= n;
			io->bytes += n;
			*blocked_out = false;
			/* A pipe is a ring; a drained buffer starts over, no memmove. */
			if (!io->pending)
				bounce_head = bounce_tail = 0;
		} else if (n < 0 && errno == EAGAIN) {
			*blocked_out = true;
		} else if (n < 0 && errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

static int spc_pump(struct zc_io *io)
{
	struct epoll_event evs[2];

	while (!*io->stop) {
		bool blocked_in, blocked_out;
		int ret = spc_turn(io, &blocked_in, &blocked_out);

		if (ret)
			return ret;
		if (io->eof && !io->pending) {
			shutdown(io->out_fd, SHUT_WR);
			return 1;
		}
		if (blocked_in && blocked_out) {
			if (epoll_wait(io->epfd, evs, 2, -1) < 0 && errno != EINTR)
				return -errno;
		}
	}
	return 0;
}

static ssize_t spc_step(struct zc_io *io)
{
	uint64_t before = io->bytes;
	bool bi, bo;
	int ret = spc_turn(io, &bi, &bo);

	return ret ? ret : (ssize_t)(io->bytes - before);
}

static void spc_teardown(struct zc_io *io)
{
	if (io->epfd >= 0)
		close(io->epfd);
	io->epfd = -1;
	bounce_free();
}

const struct zc_mode zc_mode_splice_as_copy = {
	.name = "splice-as-copy",
	.role = ZC_ROLE_PROXY,
	.flags = ZC_MODE_EMULATED,
	.summary = "splice proxy if splice() copied: same epoll loop, read()/write() via a pipe_size buffer",
	.setup = spc_setup,
	.pump = spc_pump,
	.probe_step = spc_step,
	.teardown = spc_teardown,
};
