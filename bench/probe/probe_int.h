/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the probe room: what its files share. */
#ifndef ZC_PROBE_INT_H
#define ZC_PROBE_INT_H

#include "lib/opt.h"
#include "probe/probe.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#define PROBE_CHUNK	16384u		/* 4 pages: bytes each path moves */
#define PROBE_PIPE	65536u		/* 16 slots */
#define OLD		0xA5
#define NEW		0x5A
#define SNW_PATH	"/proc/sys/fs/splice_needs_write"

/* bounded.c: helpers used inside probe children */
void zc_probe_set(struct zc_probe_res *r, const char *verdict, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Interrupt the next blocking call after ms (no SA_RESTART: it returns). */
void zc_probe_arm_block(int ms);
bool zc_probe_blocked(double t0, int block_ms);
void zc_probe_disarm(void);
uint8_t *zc_probe_page_buf(size_t len, uint8_t byte);
int zc_probe_pipe(int p[2], bool nonblock);
/* Everything already in the pipe, without waiting: bytes read. */
size_t zc_probe_read_back(int fd, uint8_t *buf, size_t len);
/* Read the pipe and judge it: the verdict of a page-change probe. */
void zc_probe_judge(struct zc_probe_res *r, int fd, size_t moved, const char *how);

/* kernel.c: the kernel probes, run by zc_probe_bounded with a struct kctx. */
/*
 * The vmsplice under test. The probes take it as a callback so that the
 * same probes, given Safin's wrapper (pwritev2/preadv2, exactly as in his
 * patch), show what a patched kernel would answer: a check of the probes'
 * own verdicts on a kernel that is not patched (zcbench probe --emulate-safin).
 */
typedef ssize_t (*vms_fn)(int fd, const struct iovec *iov, unsigned long n, unsigned int flags);
ssize_t zc_real_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags);
ssize_t zc_safin_vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags);

struct kctx {
	const struct zc_probe_opts *o;
	vms_fn vms;
	int wfd;		/* probe file, O_RDWR, unlinked */
	unsigned flags;		/* vmsplice flags / which variant */
	int how;		/* file probes: 0 splice, 1 sendfile; overfill: 0 poll 1 nonblock 2 flags0 */
};

void zc_p_vmsplice_to_pipe(void *arg, struct zc_probe_res *r);
/* More than the free space of a half-full pipe, three ways (LTP vmsplice01). */
void zc_p_overfill(void *arg, struct zc_probe_res *r);
/* flags 0 on a full O_NONBLOCK pipe: old vmsplice ignores O_NONBLOCK. */
void zc_p_nonblock_pipe(void *arg, struct zc_probe_res *r);
void zc_p_vmsplice_to_user(void *arg, struct zc_probe_res *r);
/* splice or sendfile from the probe file, re-opened read-only by this user. */
void zc_p_file(void *arg, struct zc_probe_res *r);
/* tee between pipes: works, and do both pipes share the buffers? */
void zc_p_tee(void *arg, struct zc_probe_res *r);
/* vmsplice a shared mapping of the probe file this user cannot write:
 * zero-copy, copy, or "returns 0" (Falcato's check at fs.splice_needs_write=1). */
void zc_p_vmsplice_file_page(void *arg, struct zc_probe_res *r);
/* SPLICE_F_NONBLOCK on a FIFO from open(2): works, or EOPNOTSUPP (RWF_NOWAIT). */
void zc_p_vmsplice_fifo_nonblock(void *arg, struct zc_probe_res *r);

/*
 * fingerprint.c: after a probe killed between setting fs.splice_needs_write
 * and putting it back, put back the value its note (note_path) records, but
 * only while sysctl_path still holds the value that probe set. 1 restored,
 * 0 nothing to do or left alone (said tells which), or -errno; said gets
 * what to tell the user ("" when nothing happened).
 */
int zc_snw_repair(const char *note_path, const char *sysctl_path, char *said, size_t len);

/* zcbench probe's options: every field of zc_probe_opts with its default. */
extern const struct zc_opt zc_probe_optv[];
extern const size_t zc_nprobe_optv;

#endif
