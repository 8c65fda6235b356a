// SPDX-License-Identifier: GPL-2.0
/*
 * The output-path rules (lib/outpath.h) on the input as a path, inside a
 * folder of its own (made once, with a file, a folder, a FIFO and links to
 * them to meet): zc_out_file (which makes and removes a temp file beside a
 * path it accepts), zc_out_not_input against the file, and zc_escape of the
 * path as every message shows it. The path is kept inside the folder: a
 * leading / and every ".." component are rewritten, so nothing outside it is
 * touched.
 */
#include "fuzz.h"
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/zc-fuzz-outpath.XXXXXX";

	(void)argc;
	(void)argv;
	zc_fuzz_quiet();
	if (!mkdtemp(dir) || chdir(dir))
		abort();
	/* What a path may meet: a results file, a folder, a FIFO, links. */
	if (close(open("in.json", O_CREAT | O_WRONLY, 0644)) || mkdir("dir", 0755) ||
	    mkfifo("fifo", 0644) || symlink("in.json", "link") || symlink("dir", "dlink") ||
	    symlink("nowhere", "dangling"))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX], why[600], *esc;
	char *const inputs[] = { "in.json", "link" };
	size_t n = 0;

	if (size >= sizeof(path) - 1)
		return 0;
	for (size_t i = 0; i < size; i++) {
		char c = (char)data[i];

		if (!c)
			break;
		/* Inside the folder: no leading /, no "..". */
		if (c == '/' && n == 0)
			c = '_';
		if (c == '.' && n && path[n - 1] == '.' && (n == 1 || path[n - 2] == '/'))
			c = '_';
		path[n++] = c;
	}
	path[n] = 0;
	if (zc_out_file(path, true, target, sizeof(target), why, sizeof(why)) == ZC_OUT_FILE) {
		zc_out_not_input(target, inputs, 2, why, sizeof(why));
		/* A path it accepts is not one that must never be replaced. */
		if (zc_out_may_replace(target) == -EISDIR)
			abort();
		/* It made nothing that stays (the temp file is gone). */
	}
	if (!(esc = zc_escape(path)))
		abort();
	if (zc_needs_escape(esc))
		abort();
	free(esc);
	return 0;
}
