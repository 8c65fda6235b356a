/* SPDX-License-Identifier: GPL-2.0 */
/* Peer modes (HAProxy, iperf3): is their program usable here? */
#ifndef ZC_PEER_PROGRAM_H
#define ZC_PEER_PROGRAM_H

#include <stddef.h>

/*
 * Run `prog arg` (PATH lookup, output captured): NULL when it exits 0 and
 * its output holds need (NULL: anything), else why not, written into
 * why[len]: "haproxy not installed ...", "... failed", "... built without
 * <need>" (need_what names it).
 */
const char *zc_peer_program_why(const char *prog, const char *arg, const char *need,
				const char *need_what, char *why, size_t len);

#endif
