// SPDX-License-Identifier: GPL-2.0
/* Pieces every pipe, file or epoll mode shares: opening and draining pipes,
 * the payload file, non-blocking sockets under epoll. */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

int zc_pipe_pool_init(struct zc_pipe_pool *p, size_t max)
{
	*p = (struct zc_pipe_pool){ .max = max };
	if (max && !(p->fds = calloc(max, sizeof(*p->fds))))
		return -ENOMEM;
	return 0;
}

static void zc_pipe_close(int *r, int *w)
{
	if (*r >= 0)
		close(*r);
	if (*w >= 0)
		close(*w);
	*r = *w = -1;
}

void zc_pipe_pool_free(struct zc_pipe_pool *p)
{
	while (p->n) {
		p->n--;
		zc_pipe_close(&p->fds[p->n][0], &p->fds[p->n][1]);
	}
	free(p->fds);
	p->fds = NULL;
}

int zc_pipe_open(struct zc_io *io, int *r, int *w, uint64_t size, bool nonblock)
{
	struct zc_pipe_pool *pool = io && r == &io->pipe_r ? io->pipe_pool : NULL;
	int p[2];

	if (pool && pool->n) {
		pool->n--;
		*r = pool->fds[pool->n][0];
		*w = pool->fds[pool->n][1];
		pool->reused++;
		return 0;
	}
	if (pool)
		pool->created++;
	if (pipe2(p, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0)))
		return -errno;
	/* The kernel rounds up to a power of two pages; fail loudly if capped. */
	if (fcntl(p[1], F_SETPIPE_SZ, (int)size) < 0) {
		int e = -errno;

		close(p[0]);
		close(p[1]);
		return e;
	}
	*r = p[0];
	*w = p[1];
	return 0;
}

int zc_pipe_setup(struct zc_io *io)
{
	return zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

void zc_io_teardown_pipes(struct zc_io *io)
{
	struct zc_pipe_pool *pool = io->pipe_pool;

	if (pool && io->pipe_r >= 0) {
		if (!io->pending && pool->n < pool->max) {
			pool->fds[pool->n][0] = io->pipe_r;
			pool->fds[pool->n][1] = io->pipe_w;
			pool->n++;
			pool->returned++;
			io->pipe_r = io->pipe_w = -1;
		} else {
			pool->closed++;
		}
	}
	zc_pipe_close(&io->pipe_r, &io->pipe_w);
	zc_pipe_close(&io->aux_r, &io->aux_w);
}

int zc_pipe_drain(struct zc_io *io)
{
	while (io->pending) {
		ssize_t n = splice(io->pipe_r, NULL, io->out_fd, NULL, io->pending, SPLICE_F_MOVE);

		io->calls++;
		if (n < 0) {
			if (errno == EINTR && *io->stop)
				return 0;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		io->pending -= n;
		io->bytes += n;
	}
	return 0;
}

size_t zc_src_len(const struct zc_io *io)
{
	uint64_t pos = io->fill_off % io->period;
	uint64_t n = io->period - pos;

	if (n > io->chunk)
		n = io->chunk;
	if (io->pipe_w >= 0 && n > io->pipe_size)
		n = io->pipe_size;
	return n;
}

int zc_payload_file(struct zc_io *io)
{
	char path[512];
	size_t done = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/zcbench-payload-XXXXXX", io->file_dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Unlinked at once: nothing is left behind, whatever happens next. */
	unlink(path);
	while (done < io->period) {
		ssize_t n = write(fd, io->buf + done, io->period - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? -errno : -EIO;

			close(fd);
			return e;
		}
		done += n;
	}
	io->file_fd = fd;
	return 0;
}

void zc_file_teardown(struct zc_io *io)
{
	if (io->file_fd >= 0)
		close(io->file_fd);
	io->file_fd = -1;
	zc_io_teardown_pipes(io);
}

int zc_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

int zc_io_nonblock_epoll(struct zc_io *io)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET };
	int ret;

	if ((ret = zc_set_nonblock(io->in_fd)) || (ret = zc_set_nonblock(io->out_fd)))
		return ret;
	/* Under the framework's event loop the worker's epoll set waits for it. */
	if (io->evloop)
		return 0;
	io->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (io->epfd < 0)
		return -errno;
	ev.data.fd = io->in_fd;
	if (epoll_ctl(io->epfd, EPOLL_CTL_ADD, io->in_fd, &ev))
		return -errno;
	ev.data.fd = io->out_fd;
	if (epoll_ctl(io->epfd, EPOLL_CTL_ADD, io->out_fd, &ev))
		return -errno;
	return 0;
}

void zc_io_teardown_epoll(struct zc_io *io)
{
	if (io->epfd >= 0)
		close(io->epfd);
	io->epfd = -1;
	zc_io_teardown_pipes(io);
}
