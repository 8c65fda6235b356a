/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every libFuzzer harness shares: the input as a file the loaders read
 * the way they read a user's (a memfd, reached as /proc/self/fd/N: a regular
 * file), zcbench's own messages silenced (libFuzzer and the sanitizers write
 * to fd 2 directly, so their reports stay), stdout to /dev/null.
 */
#ifndef ZC_FUZZ_H
#define ZC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <fcntl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input written into a memfd: its path ("/proc/self/fd/N"). */
static inline const char *zc_fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("zcfuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

static inline void zc_fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (!null || fd < 0 || dup2(fd, 1) < 0)
		abort();
	close(fd);
	stderr = null;	/* zc_err and friends; not the sanitizers' fd 2 */
}

/* Every harness's start, but one that defines ZC_FUZZ_OWN_INIT first:
 * zcbench's messages silenced. */
#ifndef ZC_FUZZ_OWN_INIT
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	zc_fuzz_quiet();
	return 0;
}
#endif

#endif
