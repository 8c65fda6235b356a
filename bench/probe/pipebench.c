// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench pipebench: the pipe-only patterns behind the regressions reported
 * against Safin's series, each with its emulated "after" (vmsplice done as
 * the writev it becomes). Not TCP, so not a role/topology: one process,
 * one loop, the way the original tools run it.
 *
 *   vm-splice            stress-ng vm-splice (the 0-day robot's -10.2%
 *                        calls/s): vmsplice a chunk into a pipe, splice the
 *                        pipe to /dev/null; one bogo op = one vmsplice+splice.
 *   criu-dump            CRIU's page dump (9 s -> 18 s): vmsplice with
 *                        SPLICE_F_GIFT of distinct page-aligned memory into a
 *                        pipe, splice the pipe into an image file.
 *   *-as-writev          the same with writev() in place of vmsplice().
 *
 * Figures: calls/s (vmsplice or writev calls, stress-ng's bogo ops/s), MB/s
 * (1e6 bytes), and CPU seconds from getrusage, so MB/s per core as well.
 * Results go to a JSON file of schema zcbench-pipebench (results/README.md);
 * `zcbench before-after` reads it beside the TCP results.
 */
#include "probe/probe.h"
#include "metrics/figures.h"
#include "results/meta.h"
#include "results/results.h"
#include "stats/stats.h"
#include "lib/cpu.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define CRIU_MEM	(16u << 20)	/* "process memory" walked by the dump */
#define CRIU_IMG	(64u << 20)	/* image file offset wraps here */

struct pattern {
	const char *name;
	const char *after_of;	/* emulates this pattern after the patch; NULL: real */
	bool writev_fill, gift, to_file;
	const char *summary;
};

static const struct pattern patterns[] = {
	{ "vm-splice", NULL, false, false, false,
	  "stress-ng vm-splice / 0-day: vmsplice into a pipe, splice to /dev/null" },
	{ "vm-splice-as-writev", "vm-splice", true, false, false,
	  "[emulated] the same with writev (vmsplice after Safin's patch)" },
	{ "criu-dump", NULL, false, true, true,
	  "CRIU page dump: vmsplice(GIFT) distinct pages into a pipe, splice into a file" },
	{ "criu-dump-as-writev", "criu-dump", true, false, true,
	  "[emulated] the same with writev (GIFT ignored, a copy)" },
};

static volatile sig_atomic_t pb_stop;

static void on_alarm(int sig)
{
	(void)sig;
	pb_stop = 1;
}

struct pb_out {
	uint64_t calls, bytes;
	double window_s, cpu_s;
};

static double tvs(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

/* One timed loop of pattern p. 0 or -errno. */
static int pb_loop(const struct pattern *p, size_t chunk, double seconds, const char *file_dir,
		   struct pb_out *out)
{
	size_t mem_len = p->to_file ? (CRIU_MEM > chunk ? CRIU_MEM : chunk) : chunk;
	uint8_t *mem = mmap(NULL, mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { (time_t)seconds,
					      (suseconds_t)((seconds - (time_t)seconds) * 1e6) } };
	struct rusage r0, r1;
	size_t mem_off = 0;
	loff_t img_off = 0;
	int p2[2] = { -1, -1 }, dst = -1, ret = 0;
	double t0;

	memset(out, 0, sizeof(*out));
	if (mem == MAP_FAILED)
		return -ENOMEM;
	memset(mem, 0x5a, mem_len);	/* touched before t0 */
	if (pipe2(p2, O_CLOEXEC) || fcntl(p2[1], F_SETPIPE_SZ, (int)chunk) < 0) {
		ret = -errno;
		goto out_pipe;
	}
	if (p->to_file) {
		char path[300];

		snprintf(path, sizeof(path), "%s/zcbench-criu-img-XXXXXX", file_dir);
		dst = mkostemp(path, O_CLOEXEC);
		if (dst >= 0)
			unlink(path);	/* nothing left behind */
	} else {
		dst = open("/dev/null", O_WRONLY | O_CLOEXEC);
	}
	if (dst < 0) {
		ret = -errno;
		goto out_pipe;
	}
	pb_stop = 0;
	sigaction(SIGALRM, &sa, NULL);
	getrusage(RUSAGE_SELF, &r0);
	t0 = zc_now();
	setitimer(ITIMER_REAL, &it, NULL);
	while (!pb_stop) {
		struct iovec iov = { mem + mem_off, chunk };
		size_t in_pipe = 0;

		while (in_pipe < chunk) {
			ssize_t n = p->writev_fill ? writev(p2[1], &iov, 1)
				  : vmsplice(p2[1], &iov, 1, p->gift ? SPLICE_F_GIFT : 0);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				ret = n < 0 ? -errno : -EIO;
				goto out_loop;
			}
			out->calls++;
			in_pipe += n;
			iov.iov_base = (uint8_t *)iov.iov_base + n;
			iov.iov_len -= n;
		}
		while (in_pipe) {
			ssize_t n = splice(p2[0], NULL, dst, p->to_file ? &img_off : NULL, in_pipe,
					   SPLICE_F_MOVE);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				ret = n < 0 ? -errno : -EIO;
				goto out_loop;
			}
			in_pipe -= n;
			out->bytes += n;
		}
		if (p->to_file) {
			mem_off = mem_off + chunk + chunk <= mem_len ? mem_off + chunk : 0;
			if (img_off + chunk > CRIU_IMG)
				img_off = 0;
		}
	}
out_loop:
	out->window_s = zc_now() - t0;
	getrusage(RUSAGE_SELF, &r1);
	out->cpu_s = tvs(&r1.ru_utime) - tvs(&r0.ru_utime) + tvs(&r1.ru_stime) - tvs(&r0.ru_stime);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	close(dst);
out_pipe:
	if (p2[0] >= 0)
		close(p2[0]);
	if (p2[1] >= 0)
		close(p2[1]);
	munmap(mem, mem_len);
	return ret;
}

static const char *const pb_metrics[] = { "calls_per_s", "mb_per_s", "cpu_cores", "mb_per_s_per_core" };

static json_t *pb_summary(json_t *samples)
{
	json_t *s = json_object();

	for (size_t m = 0; m < ZC_ARRAY_SIZE(pb_metrics); m++) {
		double v[1000];
		size_t n = 0, i;
		json_t *x;
		struct zc_summary sum;

		json_array_foreach(samples, i, x) {
			json_t *val = json_object_get(x, pb_metrics[m]);

			if (json_is_number(val) && n < ZC_ARRAY_SIZE(v))
				v[n++] = json_number_value(val);
		}
		zc_summarize(v, n, &sum);
		json_object_set_new(s, pb_metrics[m],
				    n ? json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)n,
						  "median", sum.median, "min", sum.min, "max", sum.max,
						  "mean", sum.mean, "stddev", sum.stddev)
				      : json_null());
	}
	return s;
}

struct pb_args {
	const char *out, *patterns;
	uint64_t chunk, chunks[16];
	int nchunks;
	double duration;
	long repetitions, cpu;
	char file_dir[256];
};

#define AT(field) ZC_OPT_AT(struct pb_args, field)
static const struct zc_opt pb_optv[] = {
	{ "pattern", ZC_OPT_TEXT, NULL, AT(patterns), .meta = "LIST",
	  .help = "comma list of the patterns above (default all)" },
	{ "chunk", ZC_OPT_SIZE, "4k,64k,1M", 4096, 64 << 20, AT(chunk), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct pb_args, chunks, nchunks), .multiple = 4096,
	  .help = "bytes per vmsplice/writev" },
	{ "duration", ZC_OPT_DOUBLE, "0.5", 0.05, 3600, AT(duration), .meta = "S",
	  .help = "seconds per sample" },
	{ "repetitions", ZC_OPT_LONG, "3", 1, 1000, AT(repetitions),
	  .help = "samples per pattern and chunk" },
	{ "cpu", ZC_OPT_LONG, "none", 0, 4095, AT(cpu), .names = "none=-1",
	  .help = "pin to this CPU" },
	{ "file-dir", ZC_OPT_STR, "/dev/shm", AT(file_dir), .meta = "DIR",
	  .help = "where criu-dump's image file lives, unlinked at once (tmpfs, so that storage "
		  "does not dominate the CPU cost)" },
	{ "out", ZC_OPT_TEXT, "results", AT(out), .meta = "DIR",
	  .help = "results folder; the file is DIR/DATE-pipebench-KERNEL.json" },
};

int zc_cmd_pipebench(int argc, char **argv)
{
	static struct pb_args a;
	static char about[2048];
	const struct zc_optgroup group = ZC_OPT_GROUP1(pb_optv, &a);
	const struct zc_cmdline cmdline = { .name = "pipebench", .about = about, .groups = &group,
					    .ngroups = 1 };
	char path[1024], date[32], err[256], why[4300];
	json_t *root, *runs, *cmd;
	struct utsname u;
	time_t now = time(NULL);
	int failed = 0, k;
	const struct pattern *sel[ZC_ARRAY_SIZE(patterns)];
	int nsel = 0;

	k = snprintf(about, sizeof(about), "Pipe-only patterns behind the reported regressions:\n");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(patterns) && k > 0 && (size_t)k < sizeof(about); i++)
		k += snprintf(about + k, sizeof(about) - k, "  %-22s %s\n", patterns[i].name,
			      patterns[i].summary);
	if ((k = zc_opt_main(&cmdline, argc, argv)) >= 0)
		return k;
	/* Check the pattern list before running anything. */
	{
		char buf[512], *items[64], why[512];
		int n = a.patterns ? zc_list_split(a.patterns, buf, sizeof(buf), items,
						   (int)ZC_ARRAY_SIZE(items), why, sizeof(why)) : 0;

		if (n < 0) {
			zc_err("command line: --pattern: %s", why);
			return ZC_EXIT_USAGE;
		}
		if (!a.patterns) {
			for (size_t i = 0; i < ZC_ARRAY_SIZE(patterns); i++)
				sel[nsel++] = &patterns[i];
		} else {
			for (int k = 0; k < n; k++) {
				const char *tok = items[k];
				size_t i;

				for (i = 0; i < ZC_ARRAY_SIZE(patterns); i++)
					if (!strcmp(tok, patterns[i].name))
						break;
				if (i == ZC_ARRAY_SIZE(patterns) || nsel == (int)ZC_ARRAY_SIZE(patterns)) {
					zc_err("command line: --pattern: unknown pattern '%s' (--help lists them)",
					       tok);
					return ZC_EXIT_USAGE;
				}
				sel[nsel++] = &patterns[i];
			}
		}
	}
	if (zc_out_dir(a.out, why, sizeof(why))) {
		zc_err("pipebench: --out %s %s", a.out, why);
		return ZC_EXIT_USAGE;
	}
	if (a.cpu >= 0 && zc_pin_cpu((int)a.cpu)) {
		zc_err("pipebench: --cpu %ld: cannot pin: %s", a.cpu, strerror(errno));
		return ZC_EXIT_FAIL;
	}
	uname(&u);
	strftime(date, sizeof(date), "%Y%m%dT%H%M%S", localtime(&now));
	snprintf(path, sizeof(path), "%s/%s-pipebench-%s.json", a.out, date, u.release);
	for (int i = 2; access(path, F_OK) == 0 && i < 100; i++)
		snprintf(path, sizeof(path), "%s/%s-pipebench-%s-%d.json", a.out, date, u.release, i);
	cmd = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	root = json_object();
	json_object_set_new(root, "schema", json_string("zcbench-pipebench"));
	json_object_set_new(root, "schema_version", json_string("1.0"));
	json_object_set_new(root, "command", cmd);
	json_object_set_new(root, "meta", zc_meta_collect());
	json_object_set_new(root, "fingerprint", zc_fingerprint_collect());
	json_object_set_new(root, "cpu", json_integer(a.cpu));
	runs = json_array();
	json_object_set_new(root, "runs", runs);

	printf("%-22s %6s %12s %10s %8s %12s  %s\n", "pattern", "chunk", "calls/s", "MB/s", "cores",
	       "MB/s/core", "status");
	for (int pi = 0; pi < nsel; pi++) {
		for (int ci = 0; ci < a.nchunks; ci++) {
			const struct pattern *p = sel[pi];
			json_t *run = json_object(), *samples = json_array(), *sum;
			const char *status = "ok";
			char reason[200] = "";

			json_object_set_new(run, "name", json_string(p->name));
			json_object_set_new(run, "pattern", json_string(p->name));
			json_object_set_new(run, "emulated", json_boolean(p->after_of != NULL));
			json_object_set_new(run, "after_of", p->after_of ? json_string(p->after_of) : json_null());
			json_object_set_new(run, "summary_text", json_string(p->summary));
			json_object_set_new(run, "chunk", json_integer(a.chunks[ci]));
			json_object_set_new(run, "pipe_size", json_integer(a.chunks[ci]));
			for (long r = 0; r < a.repetitions; r++) {
				struct pb_out o;
				int ret;

				/* a short unmeasured pass first: faults and caches settle */
				if (r == 0)
					pb_loop(p, a.chunks[ci], 0.1, a.file_dir, &o);
				ret = pb_loop(p, a.chunks[ci], a.duration, a.file_dir, &o);
				if (ret) {
					status = "failed";
					snprintf(reason, sizeof(reason), "%s: %s", p->name, strerror(-ret));
					break;
				}
				double cores = zc_fig_busy_cores(o.cpu_s, o.window_s);
				double mbps = o.bytes / 1e6 / o.window_s, pc = zc_fig_per_core(mbps, cores);

				json_array_append_new(samples,
					json_pack("{s:I,s:f,s:I,s:I,s:f,s:f,s:f,s:f,s:f}", "rep", (json_int_t)r,
						  "window_s", o.window_s, "calls", (json_int_t)o.calls,
						  "bytes", (json_int_t)o.bytes, "cpu_s", o.cpu_s,
						  "calls_per_s", o.calls / o.window_s, "mb_per_s", mbps,
						  "cpu_cores", cores,
						  "mb_per_s_per_core", isnan(pc) ? 0.0 : pc));
			}
			json_object_set_new(run, "samples", samples);
			sum = pb_summary(samples);
			json_object_set_new(run, "summary", sum);
			json_object_set_new(run, "status", json_string(status));
			json_object_set_new(run, "reason", reason[0] ? json_string(reason) : json_null());
			json_array_append_new(runs, run);
			if (strcmp(status, "ok")) {
				failed++;
				printf("%-22s %6llu %12s %10s %8s %12s  %s: %s\n", p->name,
				       (unsigned long long)a.chunks[ci] >> 10, "-", "-", "-", "-", status, reason);
			} else {
#define MED(k) json_real_value(json_object_get(json_object_get(sum, k), "median"))
				printf("%-22s %5lluk %12.0f %10.1f %8.2f %12.1f  ok%s\n", p->name,
				       (unsigned long long)a.chunks[ci] >> 10, MED("calls_per_s"),
				       MED("mb_per_s"), MED("cpu_cores"), MED("mb_per_s_per_core"),
				       p->after_of ? " emulated" : "");
#undef MED
			}
			fflush(stdout);
			json_object_set_new(root, "status", json_string("running"));
			if (zc_json_write_atomic(root, path)) {
				snprintf(err, sizeof(err), "%s", strerror(errno));
				zc_err("pipebench: writing %s: %s", path, err);
				json_decref(root);
				return ZC_EXIT_FAIL;
			}
		}
	}
	json_object_set_new(root, "status", json_string("complete"));
	zc_json_write_atomic(root, path);
	zc_fingerprint_print_brief(stdout, json_object_get(root, "fingerprint"));
	printf("\nresults: %s\n", path);
	json_decref(root);
	return failed ? ZC_EXIT_FAIL : 0;
}
