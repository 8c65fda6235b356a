/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_STALL_H
#define ZC_RUN_STALL_H

#include "lib/proc.h"
#include "wire/wire.h"

#include <stdbool.h>
#include <stddef.h>


/*
 * A sample that timed out: which of its roles' processes are stopped
 * (SIGSTOP, a debugger), seen in /proc/PID/stat before the controller kills
 * them, as "; the sink was stopped (state T)" appended to out. A role on
 * another machine (ssh) cannot be seen from here. The names added.
 */
int zc_roles_stopped(const struct zc_child *kids, const bool *spawned, int n, char *out,
		     size_t len);

#endif
