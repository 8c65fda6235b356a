// SPDX-License-Identifier: GPL-2.0
/* Is a peer mode's program usable here: a real call (its version), as every
 * mode's unavailable() is. */
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

const char *zc_peer_program_why(const char *prog, const char *arg, const char *need,
				const char *need_what, char *why, size_t len)
{
	return program_why(prog, prog, arg, need, need_what, false, why, len);
}

const char *zc_peer_program_why_pkg(const char *prog, const char *pkg, const char *arg,
				    const char *need, char *why, size_t len)
{
	return program_why(prog, pkg, arg, need, "the expected output", true, why, len);
}
