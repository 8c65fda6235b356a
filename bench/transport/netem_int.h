/* SPDX-License-Identifier: GPL-2.0 */
/* Inside transport/: netem values as tc and the iptables fallback read them
 * (netem.c), checked when the host file is read. */
#ifndef ZC_NETEM_INT_H
#define ZC_NETEM_INT_H

#include <stddef.h>

/* A netem loss: a plain decimal percentage 0..100, "%" optional as in tc.
 * 0 with *pct, or -EINVAL. */
int zc_netem_pct(const char *v, double *pct);
/* Host-file row checks (lib/opt.h .check): 0, or -EINVAL with why. */
int zc_netem_check_loss(const char *v, char *why, size_t len);
int zc_netem_check_delay(const char *v, char *why, size_t len);

#endif
