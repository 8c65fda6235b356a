/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_SYSCALLS_H
#define ZC_SYSCALLS_H

#include "lib/zcbench.h"

const char *zc_syscall_name(int nr, char *buf, size_t len);	/* "splice", or "nr_N" */
bool zc_syscall_returns_bytes(int nr);
/* 1: writes user memory to its fd (write, writev, pwrite*), 2: reads into
 * user memory from it (read, readv, pread*), 0: neither. */
int zc_syscall_pipe_dir(int nr);
const char *zc_softirq_name(int vec);				/* "NET_RX" ... */

#endif
