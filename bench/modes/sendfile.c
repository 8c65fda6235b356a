// SPDX-License-Identifier: GPL-2.0
/*
 * source sendfile: the payload lives in a page-cache file, sendfile() sends
 * it directly. Falcato's series (and Torvalds' suggestion) would make it a
 * copy (sendfile-as-copy, sendfile-bounce).
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <sys/sendfile.h>

/* One sendfile() call: bytes, or -errno (-EIO at an unexpected EOF). */
ssize_t zc_sendfile_step(struct zc_io *io)
{
	off_t off = io->fill_off % io->period;
	ssize_t n = sendfile(io->out_fd, io->file_fd, &off, zc_src_len(io));

	io->calls++;
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	io->fill_off += n;
	io->bytes += n;
	return n;
}

ZC_MODE(sendfile,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_FILE,
	.summary = "sendfile() from a file in the page cache",
	.path = "sendfile file -> socket",
	.vs = ZC_MODE_REF(send),
	.setup = zc_payload_file,
	.step = zc_sendfile_step,
	.teardown = zc_file_teardown,
);
