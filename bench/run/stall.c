// SPDX-License-Identifier: GPL-2.0
/* Which role stalled a sample by being stopped (stall.h). */
#include "run/stall.h"
#include "lib/zcbench.h"

#include <stdio.h>
#include <string.h>

/* The process state letter of pid from /proc (R, S, T, t ...), or 0. */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* The name in parentheses may hold anything: the state follows the last ')'. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

int zc_roles_stopped(const struct zc_child *kids, const bool *spawned, int n, char *out,
		     size_t len)
{
	int found = 0;

	for (int r = 0; r < n; r++) {
		size_t k = strlen(out);
		char st;

		if (!spawned[r] || kids[r].eof || kids[r].reaped)
			continue;
		st = state_of(kids[r].pid);
		if (st != 'T' && st != 't')
			continue;
		snprintf(out + k, len - k, "; the %s was stopped (state %c%s)", zc_role_names[r], st,
			 st == 'T' ? ", SIGSTOP" : ", traced");
		found++;
	}
	return found;
}
