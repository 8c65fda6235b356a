// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-build's patch series: which files, in which order, their hashes,
 * whether the whole series applies (checked on a scratch copy before the
 * tree is touched), applying it, and naming the file and hunk that failed.
 */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "guest/initramfs.h"
#include "guest/kbuild_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int run_log(char *const argv[], const char *cwd, const char *log)
{
	return zc_run_argv(argv, &(struct zc_spawn_opts){ .cwd = cwd, .out_path = log,
							  .null_stdin = true });
}

int zc_sha256_file(const char *path, char out[65])
{
	char buf[PATH_MAX + 128];
	char *argv[] = { "sha256sum", "-b", (char *)path, NULL };
	int rc = zc_run_argv(argv, &(struct zc_spawn_opts){ .out = buf, .outlen = sizeof(buf),
							   .null_stdin = true });

	if (rc < 0)
		return rc;
	if (rc || strspn(buf, "0123456789abcdef") < 64)
		return access(path, R_OK) ? -errno : -EIO;
	memcpy(out, buf, 64);
	out[64] = 0;
	return 0;
}

int zc_series_add(struct zc_series *s, const char *path, char *err, size_t errlen)
{
	struct zc_patch *p;

	if (s->n >= ZC_SERIES_MAX) {
		snprintf(err, errlen, "more than %d patches", ZC_SERIES_MAX);
		return -E2BIG;
	}
	p = &s->p[s->n];
	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	if (!realpath(path, p->abs) || access(p->abs, R_OK)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	s->n++;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int numbered_patch(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return isdigit((unsigned char)e->d_name[0]) && n > 6 && !strcmp(e->d_name + n - 6, ".patch");
}

int zc_series_from_dir(struct zc_series *s, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], *text, *line, *save;
	const char *base;
	struct dirent **names;
	struct stat st;
	int n, ret = 0;

	if (stat(dir, &st)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return -ENOTDIR;
	}
	if (!realpath(dir, s->dir)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	base = strrchr(s->dir, '/');
	snprintf(s->name, sizeof(s->name), "%s", base && base[1] ? base + 1 : s->dir);
	snprintf(path, sizeof(path), "%s/series", s->dir);
	text = zc_read_file(path, 1 << 20, NULL);
	if (text) {
		/* quilt: one patch per line, relative to the folder; "# ..." comments. */
		for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save)) {
			char *p = line + strspn(line, " \t"), *opt, name[PATH_MAX];

			if (!*p || *p == '#')
				continue;
			p[strcspn(p, "#")] = 0;
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, " \t"), p);
			opt = p + strcspn(p, " \t");
			opt += strspn(opt, " \t");
			if (*opt && strcmp(opt, "-p1") && strspn(opt, " \t") != strlen(opt)) {
				snprintf(err, errlen, "%s: %s: option '%s' (only -p1 patches are "
					 "supported)", path, name, opt);
				ret = -EINVAL;
				break;
			}
			snprintf(path, sizeof(path), "%s/%s", s->dir, name);
			ret = zc_series_add(s, path, err, errlen);
		}
		free(text);
		if (!ret && !s->n) {
			snprintf(err, errlen, "%s/series lists no patch", s->dir);
			ret = -ENOENT;
		}
		return ret;
	}
	n = scandir(s->dir, &names, numbered_patch, by_name);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", s->dir, strerror(errno));
		return -errno;
	}
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", s->dir, names[i]->d_name);
		if (!ret)
			ret = zc_series_add(s, path, err, errlen);
		free(names[i]);
	}
	free(names);
	if (!ret && !n) {
		snprintf(err, errlen, "%s: no series file and no [0-9]*.patch", s->dir);
		ret = -ENOENT;
	}
	return ret;
}

int zc_series_hash(struct zc_series *s, const char *sums_path, char *err, size_t errlen)
{
	FILE *f = fopen(sums_path, "w");
	int ret = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", sums_path, strerror(errno));
		return -errno;
	}
	for (int i = 0; i < s->n && !ret; i++) {
		const char *b = strrchr(s->p[i].path, '/');

		if ((ret = zc_sha256_file(s->p[i].abs, s->p[i].sha256)))
			snprintf(err, errlen, "sha256sum %s: %s", s->p[i].path, strerror(-ret));
		else
			fprintf(f, "%s  %s\n", s->p[i].sha256, b ? b + 1 : s->p[i].path);
	}
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && (ret = zc_sha256_file(sums_path, s->sha256)))
		snprintf(err, errlen, "sha256sum %s: %s", sums_path, strerror(-ret));
	return ret;
}

/* The -p1 path of a "--- a/x" or "+++ b/x" line into out; false for /dev/null. */
static bool header_path(const char *line, char *out, size_t len)
{
	const char *p = line + 4, *slash;
	size_t n = strcspn(p, "\t\n\r");

	while (n && p[n - 1] == ' ')
		n--;
	if (n == 9 && !strncmp(p, "/dev/null", 9))
		return false;
	slash = memchr(p, '/', n);
	if (!slash)
		return false;
	n -= (size_t)(slash + 1 - p);
	p = slash + 1;
	if (!n || n >= len || p[0] == '/' || strstr(p, "../"))
		return false;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

/* Copy every existing file the patch touches from tree into scratch. */
static int copy_touched(const char *tree, const char *scratch, const char *patch, char *err,
			size_t errlen)
{
	char *text = zc_read_file(patch, 64 << 20, NULL), *line, *next;
	int ret = 0;

	if (!text) {
		snprintf(err, errlen, "%s: %s", patch, strerror(errno));
		return -errno;
	}
	/* A "--- " line counts only right before a "+++ " one: a removed line
	 * that starts with "-- " is not a header. */
	for (line = text; line && *line && !ret; line = next) {
		char rel[PATH_MAX], src[PATH_MAX * 2], dst[PATH_MAX * 2];
		struct stat st;

		next = strchr(line, '\n');
		if (next)
			next++;
		if (strncmp(line, "--- ", 4) || !next || strncmp(next, "+++ ", 4))
			continue;
		for (int k = 0; k < 2; k++) {
			if (!header_path(k ? next : line, rel, sizeof(rel)))
				continue;
			snprintf(src, sizeof(src), "%s/%s", tree, rel);
			snprintf(dst, sizeof(dst), "%s/%s", scratch, rel);
			if (stat(src, &st) || !S_ISREG(st.st_mode) || !access(dst, F_OK))
				continue;
			if ((ret = zc_copy_file(src, dst))) {
				snprintf(err, errlen, "copy %s to %s: %s", src, dst, strerror(-ret));
				break;
			}
		}
	}
	free(text);
	return ret;
}

/* From a patch file: the number of the hunk of file whose old range starts at line. */
static int hunk_number(const char *patch, const char *file, long at)
{
	char *text = zc_read_file(patch, 64 << 20, NULL), *line, *save, rel[PATH_MAX];
	bool in_file = false;
	int n = 0, found = -1;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && found < 0; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "+++ ", 4)) {
			in_file = header_path(line, rel, sizeof(rel)) && !strcmp(rel, file);
			n = 0;
		} else if (in_file && !strncmp(line, "@@ -", 4)) {
			n++;
			if (strtol(line + 4, NULL, 10) == at)
				found = n;
		}
	}
	free(text);
	return found;
}

/*
 * The failing file and hunk from a tool's output: patch(1)'s
 * "patching file F" + "Hunk #N FAILED at L", or git apply's
 * "error: patch failed: F:L" (N found in the patch file by L). 0 with
 * "F hunk #N FAILED at line L" in out, or -ENOENT when the log names no hunk.
 */
static int zc_patch_failure(const char *log, const char *patch, char *out, size_t len)
{
	char *text = zc_read_file(log, 4 << 20, NULL), *line, *save, file[PATH_MAX] = "";
	int ret = -ENOENT, more = 0;

	if (!text)
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long hunk, at;
		char *colon;

		if (!strncmp(line, "patching file ", 14) || !strncmp(line, "checking file ", 14)) {
			snprintf(file, sizeof(file), "%s", line + 14);
		} else if (sscanf(line, "Hunk #%ld FAILED at %ld", &hunk, &at) == 2) {
			if (ret == 0) {
				more++;
				continue;
			}
			snprintf(out, len, "%s hunk #%ld FAILED at line %ld", file[0] ? file : "?",
				 hunk, at);
			ret = 0;
		} else if (!strncmp(line, "error: patch failed: ", 21) && ret) {
			/* git apply: "error: patch failed: FILE:LINE" */
			snprintf(file, sizeof(file), "%s", line + 21);
			colon = strrchr(file, ':');
			if (!colon)
				continue;
			*colon = 0;
			at = strtol(colon + 1, NULL, 10);
			hunk = hunk_number(patch, file, at);
			if (hunk > 0)
				snprintf(out, len, "%s hunk #%ld FAILED at line %ld", file, hunk, at);
			else
				snprintf(out, len, "%s FAILED at line %ld", file, at);
			ret = 0;
		} else if (!strncmp(line, "Hunk #", 6) && strstr(line, "FAILED")) {
			more += ret == 0;
		}
	}
	if (!ret && more) {
		size_t l = strlen(out);

		snprintf(out + l, len - l, " (and %d more hunk%s)", more, more > 1 ? "s" : "");
	}
	free(text);
	return ret;
}

/* The first line of a log worth quoting when no hunk is named. */
static void first_error(const char *log, char *out, size_t len)
{
	char *text = zc_read_file(log, 1 << 20, NULL), *line, *save;

	snprintf(out, len, "see %s", log);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "error") || strstr(line, "FAILED") || strstr(line, "can't") ||
		    strstr(line, "No such file") || strstr(line, "malformed")) {
			snprintf(out, len, "%s", line);
			break;
		}
	free(text);
}

enum { FORWARD, REVERSE_CHECK, REVERSE };

/* One patch tool run in dir. */
static int tool(bool git, int how, const char *abs, const char *dir, const char *log)
{
	char *git_fwd[] = { "git", "apply", "-v", (char *)abs, NULL };
	char *git_rchk[] = { "git", "apply", "-R", "--check", (char *)abs, NULL };
	char *git_rev[] = { "git", "apply", "-R", (char *)abs, NULL };
	char *p_fwd[] = { "patch", "-p1", "-N", "-f", "--no-backup-if-mismatch", "-i", (char *)abs, NULL };
	char *p_rchk[] = { "patch", "-p1", "-R", "--dry-run", "-s", "-f", "-i", (char *)abs, NULL };
	char *p_rev[] = { "patch", "-p1", "-R", "-s", "-f", "--no-backup-if-mismatch", "-i", (char *)abs, NULL };
	char *const *argv = git ? (how == FORWARD ? git_fwd : how == REVERSE ? git_rev : git_rchk)
				: (how == FORWARD ? p_fwd : how == REVERSE ? p_rev : p_rchk);

	return run_log(argv, dir, log);
}

int zc_series_check(const char *tree, bool git, struct zc_series *s, const char *scratch,
		    const char *logdir, char *err, size_t errlen)
{
	char *rm[] = { "rm", "-rf", (char *)scratch, NULL };
	char *init[] = { "git", "init", "-q", ".", NULL };
	char log[PATH_MAX + 32];
	int ret = 0;

	if (zc_run_argv(rm, NULL) || (ret = zc_mkdir_p(scratch, 0755))) {
		snprintf(err, errlen, "scratch folder %s: %s", scratch, strerror(ret ? -ret : EIO));
		return ret ? ret : -EIO;
	}
	for (int i = 0; i < s->n && !ret; i++)
		ret = copy_touched(tree, scratch, s->p[i].abs, err, errlen);
	/* git apply works on the files of the repository it runs in: give the
	 * scratch copy its own, so no enclosing checkout captures the paths. */
	if (!ret && git && run_log(init, scratch, "/dev/null")) {
		snprintf(err, errlen, "git init %s failed", scratch);
		ret = -EIO;
	}
	for (int i = 0; i < s->n && !ret; i++) {
		struct zc_patch *p = &s->p[i];

		snprintf(log, sizeof(log), "%s/check-%02d.log", logdir, i + 1);
		p->already = tool(git, REVERSE_CHECK, p->abs, scratch, "/dev/null") == 0;
		if (p->already)
			continue;
		if (tool(git, FORWARD, p->abs, scratch, log)) {
			char where[PATH_MAX + 64];

			if (zc_patch_failure(log, p->abs, where, sizeof(where)))
				first_error(log, where, sizeof(where));
			snprintf(err, errlen, "%s does not apply to %s (%s): %s%s; the tree "
				 "was not touched (the whole series is checked first), nothing was "
				 "built; the tool's output: %s", p->path, tree,
				 git ? "git apply" : "patch -p1", where,
				 i ? " after the patches before it" : "", log);
			ret = -EINVAL;
		}
	}
	zc_run_argv(rm, NULL);
	return ret;
}

int zc_series_apply(const char *tree, bool git, struct zc_series *s, const char *logdir,
		    char *err, size_t errlen)
{
	char log[PATH_MAX + 32];
	int applied[ZC_SERIES_MAX], napplied = 0;

	for (int i = 0; i < s->n; i++) {
		char where[PATH_MAX + 64];

		if (s->p[i].already)
			continue;
		snprintf(log, sizeof(log), "%s/apply-%02d.log", logdir, i + 1);
		if (!tool(git, FORWARD, s->p[i].abs, tree, log)) {
			applied[napplied++] = i;
			continue;
		}
		if (zc_patch_failure(log, s->p[i].abs, where, sizeof(where)))
			first_error(log, where, sizeof(where));
		/* It applied to the scratch copy: the tree changed in between. */
		while (napplied > 0) {
			int j = applied[--napplied];

			snprintf(log, sizeof(log), "%s/reverse-%02d.log", logdir, j + 1);
			if (tool(git, REVERSE, s->p[j].abs, tree, log))
				zc_warn("kernel-build: could not reverse %s in %s (see %s)",
					s->p[j].path, tree, log);
		}
		snprintf(err, errlen, "%s applied to the scratch copy but not to %s: %s "
			 "(did the tree change meanwhile?); the patches this run applied were "
			 "reversed", s->p[i].path, tree, where);
		return -EIO;
	}
	return 0;
}
