// SPDX-License-Identifier: GPL-2.0
/*
 * What a mode does not write itself: its private state, its options, and the
 * pump and probe step around its step or fill. The pump is the device under
 * test's hot loop: one indirect call per data syscall, nothing else.
 */
#include "modes/mode.h"

#include <errno.h>
#include <stdlib.h>

int zc_mode_setup(const struct zc_mode *m, struct zc_io *io, const char *opts, char *err,
		  size_t errlen)
{
	int ret;

	io->priv = NULL;
	if (m->priv_size && !(io->priv = calloc(1, m->priv_size))) {
		snprintf(err, errlen, "%s: private state: out of memory", m->name);
		return -ENOMEM;
	}
	if ((ret = zc_mode_opts_apply(m, io->priv, opts, err, errlen)))
		return ret;
	if (m->setup && (ret = m->setup(io))) {
		snprintf(err, errlen, "mode setup (%s)", m->name);
		return ret;
	}
	return 0;
}

/* pump of a step mode: 0 on stop, 1 on EOF, -errno. */
static int step_pump(ssize_t (*step)(struct zc_io *io), struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = step(io);

		if (n < 0 && n != -EINTR)
			return (int)n;
		if (io->eof)
			return 1;
	}
	return 0;
}

/* pump of a pipe-filling source: fill when the pipe is empty, then drain. */
static int fill_pump(ssize_t (*fill)(struct zc_io *io), struct zc_io *io)
{
	while (!*io->stop) {
		int ret;

		if (!io->pending) {
			ssize_t n = fill(io);

			io->calls++;
			if (n == -EINTR)
				continue;
			if (n < 0)
				return (int)n;
			io->pending = n;
		}
		if ((ret = zc_pipe_drain(io)))
			return ret;
	}
	return 0;
}

int zc_mode_pump(const struct zc_mode *m, struct zc_io *io)
{
	if (m->pump)
		return m->pump(io);
	if (m->fill)
		return fill_pump(m->fill, io);
	if (m->step)
		return step_pump(m->step, io);
	return -EOPNOTSUPP;
}

ssize_t zc_mode_step(const struct zc_mode *m, struct zc_io *io)
{
	ssize_t n;
	int ret;

	if (m->step)
		return m->step(io);
	if (!m->fill)
		return -EOPNOTSUPP;
	/* One turn of fill_pump. */
	n = m->fill(io);
	io->calls++;
	if (n < 0)
		return n;
	io->pending = n;
	ret = zc_pipe_drain(io);
	return ret ? ret : n;
}

void zc_mode_teardown(const struct zc_mode *m, struct zc_io *io)
{
	/* Without its priv (out of memory) the mode's setup never ran. */
	if (m->teardown && (io->priv || !m->priv_size))
		m->teardown(io);
	free(io->priv);
	io->priv = NULL;
}
