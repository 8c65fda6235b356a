/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_VERIFY_H
#define ZC_RUN_VERIFY_H

/*
 * "verified" is what was measured, never what a mode promises: the sink
 * says how many payload bytes of each connection it checked against the
 * pattern, the controller holds them against what the source says it sent,
 * and a run is verified only when every ok sample of it was.
 */
#include <jansson.h>

/*
 * Controller side, an ok sample: "verified" true when the sink reported
 * every byte of every connection checked and those are the bytes the source
 * says it sent on it; otherwise false, and "unverified" says why (a foreign
 * sink or source, a sink mode that does not look, a count that disagrees).
 */
void zc_sample_verified(json_t *sample, json_t *roles);

/*
 * A run's "verified": true when it has ok samples and every one of them is
 * verified;
 * "unverified" carries the first unverified sample's reason.
 */
void zc_run_verified(json_t *run);

#endif
