// SPDX-License-Identifier: GPL-2.0
/* Is a peer mode's program usable here: a real call (its version), as every
 * mode's unavailable() is. */
#include "modes/peer_program.h"
#include "lib/proc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *zc_peer_program_why(const char *prog, const char *arg, const char *need,
				const char *need_what, char *why, size_t len)
{
	char out[16384];
	char *argv[] = { (char *)prog, (char *)arg, NULL };
	struct zc_spawn_opts how = { .out = out, .outlen = sizeof(out), .null_stdin = true };
	int st = zc_run_argv(argv, &how);

	/* 127: the exec failed (not in PATH), as a shell says it. */
	if (st == 127 || st == -ENOENT)
		snprintf(why, len, "%s not installed or not in PATH (apt-get install %s; make deps "
			 "installs it as an optional package)", prog, prog);
	else if (st)
		snprintf(why, len, "%s %s failed (%s %d): %.160s", prog, arg,
			 st < 0 ? "error" : "exit", st < 0 ? -st : st, out);
	else if (need && !strstr(out, need))
		snprintf(why, len, "%s built without %s (no \"%s\" in %s %s)", prog, need_what, need,
			 prog, arg);
	else
		return NULL;
	return why;
}
