/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_META_H
#define ZC_META_H

#include <jansson.h>

/* Metadata of this host (DESIGN.md's list): a new JSON object. */
json_t *zc_meta_collect(void);
/* Kernel fingerprint (zcbench probe); JSON null until probes exist. */
json_t *zc_fingerprint_collect(void);

#endif
