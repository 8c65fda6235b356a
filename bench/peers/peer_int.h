/* SPDX-License-Identifier: GPL-2.0 */
/* Private to bench/peers/. */
#ifndef ZC_PEER_INT_H
#define ZC_PEER_INT_H

#include "peers/peer.h"

/* p->reason = "NAME WHAT (exit code 1); LOG ends: LAST LINES" */
void zc_peer_fail_reason(struct zc_peer *p, const char *what);

#endif
