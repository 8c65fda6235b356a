// SPDX-License-Identifier: GPL-2.0
/* Guest helpers; folders, image checks, files with their libraries, a spawned command waited for. */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "guest/initramfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>


int zc_bzimage_check(const char *path, char *version, size_t vlen, char *err, size_t errlen)
{
	unsigned char hdr[0x400];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	unsigned off;
	struct stat st;

	version[0] = 0;
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		return -ENOEXEC;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	/* Boot protocol: "HdrS" at 0x202, setup sectors at 0x1f1, the
	 * kernel_version pointer (relative to 0x200) at 0x20e. */
	if (n < 0x210 || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		snprintf(err, errlen, "%s: not an x86 bzImage (no \"HdrS\" boot header at 0x202)",
			 path);
		return -ENOEXEC;
	}
	off = (unsigned)(hdr[0x20e] | hdr[0x20f] << 8);
	if (off) {
		char v[256];
		ssize_t m = pread(fd, v, sizeof(v) - 1, off + 0x200);

		if (m > 0) {
			v[m] = 0;
			v[strcspn(v, "\n")] = 0;
			snprintf(version, vlen, "%s", v);
		}
	}
	close(fd);
	return 0;
}

int zc_ldd_line_path(const char *line, char *path, size_t len)
{
	const char *p = strstr(line, "=>");
	size_t n;

	if (p) {
		p += 2;
	} else {
		p = line;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '/')
		return -ENOENT;
	n = strcspn(p, " \t\n(");
	if (!n || n >= len)
		return -ENOENT;
	memcpy(path, p, n);
	path[n] = 0;
	return 0;
}

/* Copy src's content (symlinks followed) to dst, keeping the mode bits. */
int zc_copy_file(const char *src, const char *dst)
{
	char buf[1 << 16], dir[PATH_MAX], *slash;
	int in, out, ret = 0;
	struct stat st;
	ssize_t n;

	snprintf(dir, sizeof(dir), "%s", dst);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if ((ret = zc_mkdir_p(dir, 0755)))
			return ret;
	}
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		ret = -errno;
		goto out_in;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 07777);
	if (out < 0) {
		ret = -errno;
		goto out_in;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t w = 0; w < n;) {
			ssize_t k = write(out, buf + w, n - w);

			if (k < 0) {
				ret = -errno;
				goto out_out;
			}
			w += k;
		}
	}
	if (n < 0)
		ret = -errno;
out_out:
	if (close(out) && !ret)
		ret = -errno;
out_in:
	close(in);
	return ret;
}

/* The binary and every library ldd names, at the same paths under root. */
int zc_copy_with_libs(const char *exe, const char *root, const char *as,
			  char *err, size_t errlen)
{
	/* ldd prints a line of ~100 bytes per library: a few kB. */
	static char out[64 << 10];
	char lib[PATH_MAX], dst[PATH_MAX * 2], *line, *save;
	char *ldd[] = { "ldd", (char *)exe, NULL };
	int ret;

	snprintf(dst, sizeof(dst), "%s%s", root, as);
	if ((ret = zc_copy_file(exe, dst))) {
		snprintf(err, errlen, "copy %s: %s", exe, strerror(-ret));
		return ret;
	}
	/* Its exit status is not the verdict: a static binary names no library
	 * (fine) and ldd exits 1 for it; a missing library is "not found". */
	ret = zc_run_argv(ldd, &(struct zc_spawn_opts){ .out = out, .outlen = sizeof(out) });
	if (ret < 0 || strlen(out) == sizeof(out) - 1) {
		snprintf(err, errlen, "ldd %s: %s", exe, ret < 0 ? strerror(-ret) : "output too long");
		return ret < 0 ? ret : -E2BIG;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "not found")) {
			snprintf(err, errlen, "ldd %s: %s", exe, line);
			return -ENOENT;
		}
		if (zc_ldd_line_path(line, lib, sizeof(lib)))
			continue;
		snprintf(dst, sizeof(dst), "%s%s", root, lib);
		if ((ret = zc_copy_file(lib, dst))) {
			snprintf(err, errlen, "copy %s: %s", lib, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* sh single quotes around s. */
