// SPDX-License-Identifier: GPL-2.0
/*
 * Where zcbench may write (outpath.h): what may be replaced, the folder an
 * output goes into, and the temp-file-and-rename every writer uses.
 */
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int zc_out_may_replace(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode))
		return 0;
	return S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
}

/* The folder path is in, "." when none: 0, or -1 with why. */
static int parent_ok(const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		snprintf(why, whylen, "is longer than %d bytes", PATH_MAX);
		return -1;
	}
	/* dirname() of "x" is "." and of "/x" is "/": both folders. */
	if (stat(dirname(dir), &st)) {
		snprintf(why, whylen, "is in %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "is in %s, which is %s, not a folder", dir,
			 zc_file_kind(st.st_mode));
		return -1;
	}
	return 0;
}

static int out_file(const char *path, bool dash_ok, char *target, size_t tlen, char *why,
		    size_t whylen)
{
	struct stat st, to;

	if (!strcmp(path, "-")) {
		if (dash_ok)
			return ZC_OUT_STDOUT;
		snprintf(why, whylen, "is standard output, but this output is a file that is "
				      "rewritten while it grows: name a file");
		return ZC_OUT_REFUSED;
	}
	if (!*path) {
		snprintf(why, whylen, "is empty: name a file%s", dash_ok ? " (or - for standard output)" : "");
		return ZC_OUT_REFUSED;
	}
	if (snprintf(target, tlen, "%s", path) >= (int)tlen) {
		snprintf(why, whylen, "is too long");
		return ZC_OUT_REFUSED;
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT) {
			snprintf(why, whylen, "%s", strerror(errno));
			return ZC_OUT_REFUSED;
		}
		return parent_ok(path, why, whylen) ? ZC_OUT_REFUSED : ZC_OUT_FILE;
	}
	if (S_ISREG(st.st_mode))
		return ZC_OUT_FILE;
	if (!S_ISLNK(st.st_mode)) {
		snprintf(why, whylen, "is %s, not a regular file: zcbench replaces only regular files%s",
			 zc_file_kind(st.st_mode), dash_ok ? " (- is standard output)" : "");
		return ZC_OUT_REFUSED;
	}
	/* A link: its target is written, if a regular file, and the note says so
	 * (the link stays a link). /dev/stdout is a link to /proc/self/fd/1. */
	if (stat(path, &to)) {
		snprintf(why, whylen, "is a symbolic link to a path that cannot be written (%s)",
			 strerror(errno));
		return ZC_OUT_REFUSED;
	}
	if (!S_ISREG(to.st_mode)) {
		snprintf(why, whylen, "is a symbolic link to %s, not to a regular file%s",
			 zc_file_kind(to.st_mode), dash_ok ? " (- is standard output)" : "");
		return ZC_OUT_REFUSED;
	}
	{
		char *real = realpath(path, NULL);

		if (!real || snprintf(target, tlen, "%s", real) >= (int)tlen) {
			snprintf(why, whylen, "is a symbolic link whose target cannot be named (%s)",
				 real ? "too long" : strerror(errno));
			free(real);
			return ZC_OUT_REFUSED;
		}
		free(real);
	}
	if (zc_out_may_replace(target)) {
		snprintf(why, whylen, "is a symbolic link to %s, which is not a regular file", target);
		return ZC_OUT_REFUSED;
	}
	zc_warn("%s is a symbolic link: writing its target %s (the link stays)", path, target);
	return ZC_OUT_FILE;
}

int zc_out_file(const char *path, bool dash_ok, char *target, size_t tlen, char *why,
		size_t whylen)
{
	size_t n = strlen(path);
	char tmp[PATH_MAX + 16];
	int kind, fd;

	if (n > 1 && path[n - 1] == '/') {
		snprintf(why, whylen, "ends in /, which names a folder: name a file");
		return ZC_OUT_REFUSED;
	}
	kind = out_file(path, dash_ok, target, tlen, why, whylen);
	if (kind != ZC_OUT_FILE)
		return kind;
	/* The temp file the writer makes beside it, made and removed now: a
	 * folder that takes no new file (/proc, read-only, no permission) is
	 * refused before any work, not after it. */
	fd = zc_out_temp(target, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(why, whylen, "cannot be written: no new file can be made beside it (%s)",
			 strerror(-fd));
		return ZC_OUT_REFUSED;
	}
	close(fd);
	unlink(tmp);
	return ZC_OUT_FILE;
}

int zc_out_not_input(const char *target, char *const *inputs, size_t n, char *why,
		     size_t whylen)
{
	struct stat out, in;

	if (stat(target, &out))
		return 0;	/* a new file is no input */
	for (size_t i = 0; i < n; i++)
		if (inputs[i] && !stat(inputs[i], &in) && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino) {
			snprintf(why, whylen, "is %s, one of the files read: writing it would replace "
				 "what is read", !strcmp(inputs[i], target) ? "the input" : inputs[i]);
			return -1;
		}
	return 0;
}

int zc_out_dir(const char *path, char *why, size_t whylen)
{
	struct stat st;
	int ret;

	if (!*path) {
		snprintf(why, whylen, "is empty: name a folder");
		return -1;
	}
	ret = zc_mkdir_p(path, 0755);
	if (ret == -ENOTDIR && !stat(path, &st)) {
		snprintf(why, whylen, "is %s, not a folder", zc_file_kind(st.st_mode));
		return -1;
	}
	if (ret) {
		snprintf(why, whylen, "%s", strerror(-ret));
		return -1;
	}
	return 0;
}

int zc_out_temp(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n, fd;

	n = slash ? snprintf(tmp, len, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1)
		  : snprintf(tmp, len, ".%s.XXXXXX", path);
	/* A cut temp name would be renamed onto a cut path: refuse it whole. */
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int zc_out_install(const char *tmp, const char *path)
{
	int ret = zc_out_may_replace(path);

	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int zc_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	int fd, ret = zc_out_may_replace(path);

	if (ret)
		return ret;
	if ((fd = zc_out_temp(path, tmp, sizeof(tmp))) < 0)
		return fd;
	for (size_t off = 0; off < len && !ret;) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno != EINTR)
			ret = -errno;
		else if (w > 0)
			off += w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	/* Collectors and web servers read it as another user. */
	if (!ret && fchmod(fd, 0644))
		ret = -errno;
	close(fd);
	if (ret) {
		unlink(tmp);
		return ret;
	}
	return zc_out_install(tmp, path);
}

FILE *zc_out_fopen(const char *path)
{
	int fd, ret = zc_out_may_replace(path);
	struct stat st;
	FILE *f = NULL;

	if (ret) {
		errno = -ret;
		return NULL;
	}
	/* O_NOFOLLOW and O_NONBLOCK: what replaced the file since the check
	 * fails the open or the fstat, and a FIFO never hangs it. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		ret = errno;
	else if (!S_ISREG(st.st_mode))
		ret = EEXIST;
	else if (ftruncate(fd, 0) || fcntl(fd, F_SETFL, O_WRONLY) || !(f = fdopen(fd, "w")))
		ret = errno;
	if (ret) {
		close(fd);
		errno = ret;
		return NULL;
	}
	return f;
}

void zc_out_remove(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		unlink(path);
}
