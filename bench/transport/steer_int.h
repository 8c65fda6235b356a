/* SPDX-License-Identifier: GPL-2.0 */
/* Inside transport/: steering a run's network work to its workers (steer.c). */
#ifndef ZC_STEER_INT_H
#define ZC_STEER_INT_H

#include "lib/cpu.h"
#include "transport/host.h"

/* Every saved value written back (the end of a run). */
void zc_steer_restore(void);
/* Settings left by dead controllers: written back; count. */
int zc_steer_reap_stale(void);
/* RFS's host-wide flow table when some role has several workers (saved,
 * restored at the run's end); what it did, or null when not needed. */
json_t *zc_steer_rfs(const struct zc_placement *pl);
/*
 * The writes that steer role's queues of dev (nrx rx, ntx tx) to its
 * workers: rx rps_cpus (and rps_flow_cnt when rfs), tx xps_cpus; into
 * paths/vals (sysfs paths as seen from the device's namespace). Count.
 */
int zc_steer_queue_writes(const struct zc_placement *pl, int role, const char *dev, int nrx,
			  int ntx, bool rfs, char (*paths)[160], char (*vals)[600], int max);
/* A host without namespaces: the DUT's NIC dev (NULL unknown) steered to its
 * workers when it is a real one, or why nothing is (loopback). */
json_t *zc_steer_local(const struct zc_host *h, int dut, const struct zc_placement *pl,
		       const char *dev);

#endif
