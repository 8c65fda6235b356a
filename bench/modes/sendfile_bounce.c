// SPDX-License-Identifier: GPL-2.0
/*
 * source sendfile-bounce (emulated after-mode of sendfile): Falcato's
 * degraded path itself. The kernel already sends O_DIRECT files through
 * copy_splice_read() (do_splice_read: "O_DIRECT and DAX don't deal with the
 * pagecache"), the very function his patch falls back to. On tmpfs an
 * O_DIRECT read is a copy from the page cache (tmpfs' O_DIRECT support,
 * 6.6+), so sendfile() of an O_DIRECT tmpfs file runs, on today's kernel,
 * exactly the code a caller that cannot write the file gets under
 * fs.splice_needs_write=1: one copy into fresh pages, handed to the socket
 * by reference. Its file lives on /dev/shm whatever file_dir says (on a
 * disk, O_DIRECT would read the disk). The sendfile() loop is the real
 * mode's: only the file differs.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/vfs.h>
#include <unistd.h>

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

ZC_MODE(sendfile_bounce,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_EMULATED | ZC_MODE_FILE,
	.summary = "sendfile via copy_splice_read (O_DIRECT tmpfs file): Falcato's degraded path",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(sendfile)),
	.unavailable = sfb_unavailable,
	.setup = sfb_setup,
	.step = zc_sendfile_step,
	.teardown = zc_file_teardown,
);
