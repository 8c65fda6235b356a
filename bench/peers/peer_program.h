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

/* As zc_peer_program_why for a program whose package has another name
 * (nginx: nginx-light, h2load: nghttp2-client), named in the reason; with
 * need, any exit status passes when the output holds it (wrk -v exits 1). */
const char *zc_peer_program_why_pkg(const char *prog, const char *pkg, const char *arg,
				    const char *need, char *why, size_t len);

/* A static fn(void) that asks CALL (which writes into why, sizeof(why)) once
 * and keeps its answer for every later call: a peer mode's .unavailable. */
#define ZC_PEER_UNAVAILABLE_CALL(fn, call)						\
	static const char *fn(void)							\
	{										\
		static char why[256];							\
		static const char *cached;						\
		static bool done;							\
											\
		if (!done)								\
			cached = (call);						\
		done = true;								\
		return cached;								\
	}

/* .unavailable through zc_peer_program_why(prog, arg, need, need_what). */
#define ZC_PEER_UNAVAILABLE(fn, prog, arg, need, need_what)				\
	ZC_PEER_UNAVAILABLE_CALL(fn, zc_peer_program_why(prog, arg, need, need_what, why,	\
							 sizeof(why)))

/* .unavailable through zc_peer_program_why_pkg. */
#define ZC_PEER_UNAVAILABLE_PKG(fn, prog, pkg, arg, need)				\
	ZC_PEER_UNAVAILABLE_CALL(fn, zc_peer_program_why_pkg(prog, pkg, arg, need, why,	\
							     sizeof(why)))

/* Why both iperf3 modes are unverified. */
#define ZC_IPERF3_UNVERIFIED_WHY \
	"iperf3 sends its own payload, not zcbench's pattern: no sink can check its bytes"

#endif
