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

#define AT(field) ZC_OPT_AT(struct zc_probe_opts, field)
/* Every field of zc_probe_opts, so zc_probe_opts_default is these defaults. */
const struct zc_opt zc_probe_optv[] = {
	{ "user", ZC_OPT_STR, "nobody", AT(user), .meta = "NAME",
	  .help = "unprivileged user for the read-only file probes" },
	{ "file-dir", ZC_OPT_STR, "/var/tmp", AT(file_dir), .meta = "DIR",
	  .help = "where the probe file lives, unlinked at once" },
	{ "timeout-ms", ZC_OPT_INT, "1000", 10, 60000, AT(timeout_ms),
	  .help = "kill a probe child after N ms" },
	{ "block-ms", ZC_OPT_INT, "150", 10, 60000, AT(block_ms),
	  .help = "a call not back after N ms blocks (below --timeout-ms)" },
	{ "modes", ZC_OPT_BOOL, "yes", AT(modes),
	  .help = "the page-change test of every mode's data path" },
	{ "emulate-safin", ZC_OPT_BOOL, "no", AT(emulate_safin),
	  .help = "run the vmsplice probes on Safin's pwritev2/preadv2 wrapper: what a patched "
		  "kernel would answer (checks the probes)" },
};
const size_t zc_nprobe_optv = ZC_ARRAY_SIZE(zc_probe_optv);

static const struct zc_opt probe_json_opt[] = {
	{ "json", ZC_OPT_BOOL, "no", .off = 0, .size = sizeof(bool),
	  .help = "print the fingerprint as JSON (what results files carry)" },
};

int zc_cmd_probe(int argc, char **argv)
{
	struct zc_probe_opts o = { 0 };
	bool as_json = false;
	json_t *fp;
	const struct zc_optgroup groups[] = {
		{ .opts = probe_json_opt, .n = ZC_ARRAY_SIZE(probe_json_opt), .base = &as_json },
		{ .opts = zc_probe_optv, .n = zc_nprobe_optv, .base = &o },
	};
	const struct zc_cmdline cmdline = {
		.name = "probe", .groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
		.about = "Behaviour probes that tell a patched kernel from an unpatched one, each in a\n"
			 "child killed after a timeout; one verdict per behaviour, with its evidence.\n",
	};
	int rc = zc_opt_main(&cmdline, argc, argv);

	if (rc >= 0)
		return rc;
	if (o.block_ms >= o.timeout_ms) {
		zc_err("command line: --block-ms (%d) must be below --timeout-ms (%d)", o.block_ms,
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
