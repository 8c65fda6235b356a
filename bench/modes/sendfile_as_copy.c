// SPDX-License-Identifier: GPL-2.0
/*
 * source sendfile-as-copy (emulated after-mode of sendfile and splice-file):
 * read() the chunk from the file into a user buffer, then write() it to the
 * socket: sendfile done as the plain copy Torvalds suggested (page cache ->
 * user -> skb, two copies, two calls per chunk). Falcato's v2 degrades
 * splice/sendfile of a file the caller cannot write to copy_splice_read(),
 * one copy into fresh pages that then go to the socket by reference:
 * read+write is its upper bound, not its equal (sendfile-bounce is the
 * degraded path itself).
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <unistd.h>

static int sac_setup(struct zc_io *io)
{
	struct zc_bounce *b = io->priv;
	int ret = zc_payload_file(io);

	return ret ? ret : zc_bounce_alloc(b, io->chunk);
}

static void sac_teardown(struct zc_io *io)
{
	zc_file_teardown(io);
	zc_bounce_free(io->priv);
}

/* One chunk: pread() from the file, write() all of it. Bytes or -errno. */
static ssize_t sac_step(struct zc_io *io)
{
	struct zc_bounce *b = io->priv;
	size_t len = zc_src_len(io), done = 0;
	ssize_t n;

	if (len > b->len)
		len = b->len;
	n = pread(io->file_fd, b->buf, len, (off_t)(io->fill_off % io->period));
	io->calls++;
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	len = n;
	while (done < len) {
		n = write(io->out_fd, b->buf + done, len - done);
		io->calls++;
		if (n < 0 && errno == EINTR && !*io->stop)
			continue;
		if (n < 0) {
			/* Stopped mid-chunk, or a non-blocking socket full: count what
			 * went out, the stream stays whole (the rest is read again). */
			if ((errno == EINTR || errno == EAGAIN) && done)
				break;
			return -errno;
		}
		done += n;
	}
	io->fill_off += done;
	io->bytes += done;
	return done;
}

ZC_MODE(sendfile_as_copy,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_EMULATED | ZC_MODE_FILE,
	.summary = "sendfile as a copy: pread() the file into a buffer, write() to socket",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(sendfile), ZC_MODE_REF(splice_file)),
	.priv_size = sizeof(struct zc_bounce),
	.setup = sac_setup,
	.step = sac_step,
	.teardown = sac_teardown,
);
