// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench probe and zc_fingerprint_collect(): behaviour probes that tell a
 * kernel with Safin's vmsplice series or Falcato's fs.splice_needs_write
 * apart from one without, whatever its version says (distributions
 * backport). DESIGN.md, "Kernel fingerprint".
 *
 * The trick behind the zero-copy probes: put bytes that are all OLD into a
 * pipe through the path under test, change the source (user buffer or page
 * cache) to NEW, then read the pipe. NEW bytes mean the pipe held references
 * to the source's pages (zero-copy); OLD bytes mean the path copied.
 *
 * Each probe runs in a forked child killed after --timeout-ms; calls that
 * may block are additionally interrupted by a --block-ms alarm, so "blocks"
 * is measured, and a probe never takes more than a fraction of a second.
 */
#include "probe/probe_int.h"
#include "results/meta.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <sys/file.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Probes that set fs.splice_needs_write change the whole system for a moment:
 * concurrent probes (two `zcbench run` side by side) serialise on this lock,
 * and the value to restore is written down first, so a probe SIGKILLed
 * between set and restore is repaired by the next one (which, holding the
 * lock, knows nobody else is in the middle of a change).
 */
#define PROBE_LOCK	"/run/zcbench-probe.lock"
#define SNW_RESTORE	"/run/zcbench-snw.restore"

static void probe_usage(FILE *f)
{
	fprintf(f, "usage: zcbench probe [--json] [--no-modes] [--emulate-safin] [--user NAME]\n"
		   "                     [--file-dir DIR] [--timeout-ms N] [--block-ms N]\n"
		   "  --json         print the fingerprint as JSON (what results files carry)\n"
		   "  --no-modes     skip the page-change test of every mode's data path\n"
		   "  --emulate-safin  run the vmsplice probes on Safin's pwritev2/preadv2 wrapper:\n"
		   "                 what a patched kernel would answer (checks the probes)\n"
		   "  --user NAME    unprivileged user for the read-only file probes (nobody)\n"
		   "  --file-dir D   where the probe file lives, unlinked at once (/var/tmp)\n"
		   "  --timeout-ms N kill a probe child after N ms (1000)\n"
		   "  --block-ms N   a call not back after N ms blocks (150)\n");
}

int zc_cmd_probe(int argc, char **argv)
{
	struct zc_probe_opts o;
	bool as_json = false;
	json_t *fp;

	zc_probe_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		long n;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			probe_usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--json")) {
			as_json = true;
			continue;
		}
		if (!strcmp(a, "--no-modes")) {
			o.modes = false;
			continue;
		}
		if (!strcmp(a, "--emulate-safin")) {
			o.emulate_safin = true;
			continue;
		}
		if (!strncmp(a, "--", 2) && strchr(a, '=')) {
			val = strchr(a, '=') + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			zc_err("probe: %s needs a value (zcbench probe --help)", a);
			return ZC_EXIT_USAGE;
		}
#define IS(opt) (!strncmp(a, opt, strlen(opt)) && (a[strlen(opt)] == 0 || a[strlen(opt)] == '='))
		if (IS("--user")) {
			snprintf(o.user, sizeof(o.user), "%s", val);
		} else if (IS("--file-dir")) {
			snprintf(o.file_dir, sizeof(o.file_dir), "%s", val);
		} else if (IS("--timeout-ms") || IS("--block-ms")) {
			if (zc_parse_long(val, &n) || n < 10 || n > 60000) {
				zc_err("probe: %.*s: '%s' is not a number of ms in 10..60000",
				       (int)strcspn(a, "="), a, val);
				return ZC_EXIT_USAGE;
			}
			if (IS("--timeout-ms"))
				o.timeout_ms = (int)n;
			else
				o.block_ms = (int)n;
		} else {
			zc_err("probe: unknown option '%s' (zcbench probe --help)", a);
			return ZC_EXIT_USAGE;
		}
#undef IS
	}
	if (o.block_ms >= o.timeout_ms) {
		zc_err("probe: --block-ms (%d) must be below --timeout-ms (%d)", o.block_ms,
		       o.timeout_ms);
		return ZC_EXIT_USAGE;
	}
	fp = zc_probe_collect(&o);
	if (as_json) {
		json_dumpf(fp, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else {
		zc_probe_print(stdout, fp);
	}
	json_decref(fp);
	return 0;
}
