// SPDX-License-Identifier: GPL-2.0
/*
 * The role's side of the protocol (wire.h): READY, the wait for GO and the
 * report line, the same for the stream, request/response and peer roles.
 * The controller writes GO with the same spelling (run/sample.c) and reads
 * READY with it (lib/proc.c, given the format). And the file descriptor
 * limit both raise for the run's connections.
 */
#include "wire/wire.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void zc_wire_ready(int port)
{
	printf(ZC_READY "\n", port);
	fflush(stdout);
}

int zc_wire_wait_go(double *late_s)
{
	char line[64];
	double t, now;

	*late_s = 0;
	if (!fgets(line, sizeof(line), stdin))
		return -EPIPE;
	if (strncmp(line, ZC_GO, strlen(ZC_GO)))
		return -EPROTO;
	now = zc_now();
	if (sscanf(line, ZC_GO_AT, &t) == 1 && t > 0 && now > t)
		*late_s = now - t;
	return 0;
}

int zc_wire_emit(json_t *out, const char *status, const char *error)
{
	const char *st;
	char *s;

	if (status)
		json_object_set_new(out, "status", json_string(status));
	if (status && error)
		json_object_set_new(out, "error", json_string(error));
	if ((s = json_dumps(out, JSON_COMPACT))) {
		puts(s);
		fflush(stdout);
		free(s);
	}
	st = json_string_value(json_object_get(out, "status"));
	return st && !strcmp(st, "ok") ? ZC_EXIT_OK : ZC_EXIT_FAIL;
}

int zc_wire_nofile(long long conns, json_t **out, char *err, size_t errlen)
{
	rlim_t need = ZC_FDS_BASE + (rlim_t)ZC_FDS_PER_CONN * conns;
	struct rlimit before, rl;
	int ret = 0;

	*out = NULL;
	if (getrlimit(RLIMIT_NOFILE, &before))
		return 0;
	rl = before;
	if (rl.rlim_cur < need) {
		/* The soft limit up to need, the hard one too where allowed (root). */
		rl.rlim_cur = need;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
			rl.rlim_max = need;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			rl = before;
			rl.rlim_cur = before.rlim_max;
			if (before.rlim_max < need || setrlimit(RLIMIT_NOFILE, &rl)) {
				snprintf(err, errlen, "%lld connections need about %llu file descriptors; "
					 "RLIMIT_NOFILE is %llu (hard %llu) and cannot be raised here",
					 conns, (unsigned long long)need,
					 (unsigned long long)before.rlim_cur,
					 (unsigned long long)before.rlim_max);
				rl = before;
				ret = -EMFILE;
			}
		}
	}
	*out = json_pack("{s:I,s:I,s:I,s:I}", "needed", (json_int_t)need,
			 "soft_before", (json_int_t)before.rlim_cur,
			 "soft", (json_int_t)rl.rlim_cur, "hard", (json_int_t)rl.rlim_max);
	return ret;
}
