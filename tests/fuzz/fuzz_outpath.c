// SPDX-License-Identifier: GPL-2.0
/*
 * The output-path rules (lib/outpath.h) on the input as a path, inside a
 * folder of its own (made once, with a file, a folder, a FIFO and links to
 * them to meet): zc_out_file (which makes and removes a temp file beside a
 * path it accepts), zc_out_not_input against the file, and zc_escape of the
 * path as every message shows it. The path is kept inside the folder: every
 * ".." component is rewritten, so nothing outside it is
 * touched (it is written after the folder's path).
 */
#define ZC_FUZZ_OWN_INIT
#include "fuzz.h"
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

static char dir[] = "/tmp/zc-fuzz-outpath.XXXXXX";
static char in_json[64], in_link[64];

/* NAME in the folder, into buf. */
static const char *at(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* The folder and what it holds go when the fuzzer exits. */
static void cleanup(void)
{
	static const char *const names[] = { "in.json", "link", "fifo", "dlink", "dangling" };
	char p[96];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(at(p, sizeof(p), names[i]));
	rmdir(at(p, sizeof(p), "dir"));
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char p[4][96];

	(void)argc;
	(void)argv;
	zc_fuzz_quiet();
	/* The folder by its absolute path: libFuzzer's corpus paths stay relative
	 * to where it was started. */
	if (!mkdtemp(dir))
		abort();
	at(in_json, sizeof(in_json), "in.json");
	at(in_link, sizeof(in_link), "link");
	/* What a path may meet: a results file, a folder, a FIFO, links. */
	if (close(open(in_json, O_CREAT | O_WRONLY, 0644)) ||
	    mkdir(at(p[0], sizeof(p[0]), "dir"), 0755) ||
	    mkfifo(at(p[1], sizeof(p[1]), "fifo"), 0644) || symlink("in.json", in_link) ||
	    symlink("dir", at(p[2], sizeof(p[2]), "dlink")) ||
	    symlink("nowhere", at(p[3], sizeof(p[3]), "dangling")) || atexit(cleanup))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX], why[600], *esc;
	char *const inputs[] = { in_json, in_link };
	size_t n = strlen(dir) + 1;

	if (size >= sizeof(path) - n - 1)
		return 0;
	memcpy(path, dir, n - 1);
	path[n - 1] = '/';
	for (size_t i = 0; i < size; i++) {
		char c = (char)data[i];

		if (!c)
			break;
		/* Inside the folder: no "..". */
		if (c == '.' && path[n - 1] == '.' && path[n - 2] == '/')
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
