/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Noise files (schema zcbench-noise 1.0, results/README.md): what an A/A
 * measurement (`zcbench noise`: every run twice, A and B, interleaved) says
 * about this machine: per run key and metric the noise floor (stats/gate.h's
 * zc_noise_floor_aa: the smallest change a comparison can tell from noise),
 * and per headline ratio how far A and B came apart, all inside one
 * invocation. Nothing reads them back: compare refuses them (--noise),
 * between invocations it takes --profile (between.h).
 */
#ifndef ZC_NOISE_H
#define ZC_NOISE_H

#include <jansson.h>
#include <stdio.h>

#define ZC_NOISE_SCHEMA "zcbench-noise"
#define ZC_NOISE_VERSION "1.0"
#define ZC_NOISE_QUANTILE 0.95

/* The noise file of an A/A results file (runs with "aa_side" a and b).
 * NULL with why in err when it has no A/A pair. */
json_t *zc_noise_build(json_t *root, const char *results_path, char *err, size_t errlen);
/* The floors of the headline metric per run, and each ratio's A/B spread. */
void zc_noise_print(FILE *f, json_t *noise);

#endif
