/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the guest room: kernel-build's patch series (series.c) and its
 * helpers shared with kernel_build.c. */
#ifndef ZC_KBUILD_INT_H
#define ZC_KBUILD_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define ZC_SERIES_MAX 128

struct zc_patch {
	char path[PATH_MAX];	/* as given, or DIR/NAME of a series folder */
	char abs[PATH_MAX];	/* realpath: the tools run in other folders */
	char sha256[65];
	bool already;		/* reverse-applies: in the tree before this build */
};

struct zc_series {
	char dir[PATH_MAX];	/* the series folder, "" for --patches */
	char name[96];		/* its base name: LOCALVERSION -zc-NAME */
	char sha256[65];	/* of "SHA256  NAME" lines in order (sha256sum -c format) */
	struct zc_patch p[ZC_SERIES_MAX];
	int n;
};

/* Add one patch file (must be readable). 0 or -errno, why in err. */
int zc_series_add(struct zc_series *s, const char *path, char *err, size_t errlen);
/* The patches of a series folder in order: its quilt `series` file when
 * there is one (comments and blank lines skipped, -p1 only), else every
 * [0-9]*.patch sorted by name. 0 or -errno, why in err. */
int zc_series_from_dir(struct zc_series *s, const char *dir, char *err, size_t errlen);
/* sha256 of each patch and of the series (sums written to sums_path). 0/-errno */
int zc_series_hash(struct zc_series *s, const char *sums_path, char *err, size_t errlen);
/*
 * Does the whole series apply to tree, in order? Tried on a scratch copy of
 * the files the series touches (git apply there when git, else patch -p1),
 * so the tree is never touched by a series that would stop half way. Marks
 * the patches that are already applied. 0, or -EINVAL with the failing
 * patch, file and hunk in err (the tool's output in logdir/check-NN.log).
 */
int zc_series_check(const char *tree, bool git, struct zc_series *s, const char *scratch,
		    const char *logdir, char *err, size_t errlen);
/* Apply in tree every patch not already applied (logdir/apply-NN.log); if
 * one fails after all, reverse those this call applied. 0 or -EIO, err set. */
int zc_series_apply(const char *tree, bool git, struct zc_series *s, const char *logdir,
		    char *err, size_t errlen);
/* sha256 of a file, 64 hex digits (sha256sum). 0 or -errno. */
int zc_sha256_file(const char *path, char out[65]);

#endif
