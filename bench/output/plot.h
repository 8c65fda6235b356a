/* SPDX-License-Identifier: GPL-2.0 */
/* Inside zcbench plot: what plot.c and dashboard.c share. */
#ifndef ZC_PLOT_H
#define ZC_PLOT_H

#include <jansson.h>

#define MAX_FILES 1024
#define MAX_SERIES 64

struct plot_ctx {
	const char *outdir, *scripts;
	int nfiles;
	char *paths[MAX_FILES];
	json_t *roots[MAX_FILES];
	int latest;		/* index of the newest file by meta.date */
	char caption[512];	/* kernel and host of the latest file */
	char history_caption[512];
};

/* Median, min and max Gbps per core of a run's ok samples: 0 or -ENODATA. */
struct gpc {
	double median, min, max;
	size_t n;
};
int zc_gpc_of(json_t *run, struct gpc *g);

/* plots/out/index.html: every picture drawn, with the ratios and runs of the
 * newest file (order: files by date). 0 or -errno. */
int zc_write_index(struct plot_ctx *c, const int *order);

#endif
