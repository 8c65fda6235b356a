// SPDX-License-Identifier: GPL-2.0
/* Is a peer mode's program usable here: a real call (its version), as every
 * mode's unavailable() is; asked once per program and check. */
#include "peers/peer_program.h"
#include "lib/proc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *program_why(const char *prog, const char *pkg, const char *arg,
			       const char *need, const char *need_what, bool any_exit, char *why,
			       size_t len)
{
	char out[16384];
	char *argv[] = { (char *)prog, (char *)arg, NULL };
	struct zc_spawn_opts how = { .out = out, .outlen = sizeof(out), .null_stdin = true };
	int st = zc_run_argv(argv, &how);

	/* 127: the exec failed (not in PATH), as a shell says it. */
	if (st == 127 || st == -ENOENT)
		snprintf(why, len, "%s not installed or not in PATH (apt-get install %s; make deps "
			 "installs it as an optional package)", prog, pkg);
	else if (st && !(any_exit && st > 0 && need && strstr(out, need)))
		snprintf(why, len, "%s %s failed (%s %d): %.160s", prog, arg,
			 st < 0 ? "error" : "exit", st < 0 ? -st : st, out);
	else if (need && !strstr(out, need))
		snprintf(why, len, "%s built without %s (no \"%s\" in %s %s)", prog, need_what, need,
			 prog, arg);
	else
		return NULL;
	return why;
}

/* fn(): CALL's answer (written into why), asked once and kept. */
#define CACHED(fn, call)								\
	const char *fn(void)								\
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
#define WHY why, sizeof(why)

CACHED(zc_peer_haproxy_unavailable, program_why("haproxy", "haproxy", "-vv", NULL, NULL, false, WHY))
CACHED(zc_peer_haproxy_splice_unavailable,
       program_why("haproxy", "haproxy", "-vv", "+LINUX_SPLICE", "splice", false, WHY))
CACHED(zc_peer_iperf3_unavailable, program_why("iperf3", "iperf3", "--version", NULL, NULL, false, WHY))
CACHED(zc_peer_iperf3_sendfile_unavailable, program_why("iperf3", "iperf3", "--version",
	"sendfile / zerocopy", "sendfile (-Z)", false, WHY))
/* Packages of other names, named in the reason; wrk -v exits 1: any exit
 * status passes when the output holds what is needed. */
CACHED(zc_peer_nginx_unavailable, program_why("nginx", "nginx-light", "-v", NULL,
	"the expected output", true, WHY))
CACHED(zc_peer_wrk_unavailable, program_why("wrk", "wrk", "-v", "wrk ", "the expected output", true,
	WHY))
CACHED(zc_peer_h2load_unavailable, program_why("h2load", "nghttp2-client", "--version", NULL,
	"the expected output", true, WHY))
