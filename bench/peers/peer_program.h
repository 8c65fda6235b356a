/* SPDX-License-Identifier: GPL-2.0 */
/* Peer modes (HAProxy, iperf3): is their program usable here? */
#ifndef ZC_PEER_PROGRAM_H
#define ZC_PEER_PROGRAM_H

/*
 * A peer mode's .unavailable: NULL when `prog arg` (its version) exits 0
 * and says what the mode needs, else why not: "haproxy not installed ...",
 * "... failed", "... built without splice". Each runs it once.
 */
const char *zc_peer_haproxy_unavailable(void);
const char *zc_peer_haproxy_splice_unavailable(void);	/* +LINUX_SPLICE */
const char *zc_peer_iperf3_unavailable(void);
const char *zc_peer_iperf3_sendfile_unavailable(void);	/* sendfile (-Z) */
const char *zc_peer_nginx_unavailable(void);
const char *zc_peer_wrk_unavailable(void);
const char *zc_peer_h2load_unavailable(void);

/* Why both iperf3 modes are unverified. */
#define ZC_IPERF3_UNVERIFIED_WHY \
	"iperf3 sends its own payload, not zcbench's pattern: no sink can check its bytes"

#endif
