// SPDX-License-Identifier: GPL-2.0
/*
 * The role's side of the protocol (wire.h): READY, the wait for GO and the
 * report line, the same for the stream, request/response and peer roles.
 * The controller writes GO with the same spelling (run/sample.c) and reads
 * READY with it (lib/proc.c, given the format).
 */
#include "wire/wire.h"
#include "lib/zcbench.h"

#include <errno.h>
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
