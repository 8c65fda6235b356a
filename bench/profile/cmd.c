// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench profile: the profile library on its own. Sample some CPUs for a
 * while (say the DUT's core of a `zcbench run` in progress) from a CPU that
 * is not one of them, or summarise a folded-stacks file already made; print
 * the buckets and the top symbols, write profile.json, stacks.folded and
 * flamegraph.svg into --out.
 */
#include "profile/profile_int.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct profile_args {
	int cpu, cpus[ZC_PROFILE_CPUS_MAX], ncpus;
	double duration_s, delay_s;
	const char *out, *folded, *title, *comm;
	int frequency_hz, backend, top;
	bool json;
};

#define AT(field) ZC_OPT_AT(struct profile_args, field)
static const struct zc_opt profile_optv[] = {
	{ "cpus", ZC_OPT_INT, NULL, 0, 4095, AT(cpu), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct profile_args, cpus, ncpus), .meta = "LIST",
	  .help = "the CPUs to sample, comma list (the DUT's core)" },
	{ "duration", ZC_OPT_DOUBLE, "2", 0.05, 3600, AT(duration_s), .meta = "S",
	  .help = "seconds of sampling" },
	{ "delay", ZC_OPT_DOUBLE, "0", 0, 3600, AT(delay_s), .meta = "S",
	  .help = "seconds from this command's start to the first sample (a run's warm-up); "
		  "setting up counts" },
	{ "frequency", ZC_OPT_INT, "999", 1, 100000, AT(frequency_hz), .meta = "HZ",
	  .help = "samples per second per CPU" },
	{ "backend", ZC_OPT_CHOICE, "auto", AT(backend), .choices = "auto|perf|perf_event_open",
	  .help = "perf record (linux-perf) when it runs here, else our perf_event_open sampler" },
	{ "top", ZC_OPT_INT, "25", 1, 10000, AT(top), .meta = "N",
	  .help = "symbols kept by self and by children share" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "DIR",
	  .help = "where profile.json, stacks.folded, flamegraph.svg (and perf.data) go" },
	{ "folded", ZC_OPT_TEXT, NULL, AT(folded), .meta = "FILE",
	  .help = "summarise this folded-stacks file instead of sampling" },
	{ "title", ZC_OPT_TEXT, NULL, AT(title), .meta = "TEXT",
	  .help = "the flame graph's title (with --folded)" },
	{ "comm", ZC_OPT_TEXT, NULL, AT(comm), .meta = "NAME",
	  .help = "summarise only the samples of this process name, or pid (the DUT's)" },
	{ "json", ZC_OPT_BOOL, "no", AT(json), .help = "print the summary as JSON" },
};

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void print_top(FILE *f, json_t *o, const char *what, int max)
{
	const char *k;
	json_t *v;
	int i = 0;

	fprintf(f, "\n  top by %s share (%% of samples):\n", what);
	json_object_foreach(o, k, v) {
		if (i++ == max)
			break;
		fprintf(f, "    %6.2f  %s\n", json_number_value(v), k);
	}
}

static void print_summary(FILE *f, json_t *s)
{
	json_t *b = json_object_get(s, "buckets");
	const char *ev = json_string_value(json_object_get(s, "event"));

	fprintf(f, "profile: %.0f samples", num(s, "samples"));
	if (ev)
		fprintf(f, " of %s (%s backend), %.2f s", ev,
			json_string_value(json_object_get(s, "backend")), num(s, "window_s"));
	if (json_string_value(json_object_get(s, "comm")))
		fprintf(f, " of %s", json_string_value(json_object_get(s, "comm")));
	fprintf(f, "; idle %.1f%%\n", num(s, "idle_pct"));
	if (json_string_value(json_object_get(s, "event_note")))
		fprintf(f, "  event: %s\n", json_string_value(json_object_get(s, "event_note")));
	fprintf(f, "\n  where the time goes (%% of samples):\n");
	for (int i = 0; i < ZC_BUCKET_NR; i++)
		fprintf(f, "    %6.2f  %s\n", num(b, zc_buckets[i].key), zc_buckets[i].label);
	print_top(f, json_object_get(s, "comms"), "process (all samples)", 8);
	print_top(f, json_object_get(s, "self"), "self", 12);
	print_top(f, json_object_get(s, "children"), "children", 12);
}

/* Summarise a folded file (and draw it when --out is given): the summary or NULL. */
static json_t *from_folded(const struct profile_args *a)
{
	struct zc_stacks st;
	json_t *sum;
	char svg[PATH_MAX];
	int ret;

	if (zc_stacks_init(&st))
		return NULL;
	ret = zc_stacks_read(&st, a->folded);
	if (ret) {
		zc_err("profile: %s: %s", a->folded,
		       ret == -EPROTO ? "not folded stacks (\"frame;frame;... COUNT\" lines)" :
					strerror(-ret));
		zc_stacks_free(&st);
		return NULL;
	}
	sum = zc_profile_summarise(&st, a->top, a->comm);
	if (sum)
		json_object_set_new(sum, "folded", json_string(a->folded));
	if (sum && a->out) {
		snprintf(svg, sizeof(svg), "%s/flamegraph.svg", a->out);
		if ((ret = zc_mkdir_p(a->out, 0755)) == 0)
			ret = zc_flamegraph_file(&st, a->title ? a->title : a->folded, svg);
		if (ret) {
			zc_err("profile: %s: %s", svg, strerror(-ret));
			json_decref(sum);
			sum = NULL;
		} else {
			json_object_set_new(sum, "flamegraph", json_string(svg));
		}
	}
	zc_stacks_free(&st);
	return sum;
}

static json_t *sample(const struct profile_args *a, double t0)
{
	struct zc_profile_opts o = { .ncpus = a->ncpus, .outdir = a->out,
				     .frequency_hz = a->frequency_hz, .backend = a->backend,
				     .top = a->top, .comm = a->comm };
	struct zc_profile *p;
	char why[1024] = "";
	json_t *sum;
	int ret;

	memcpy(o.cpus, a->cpus, sizeof(o.cpus));
	/* Our own work (perf's reader, the sampler thread) stays off them. */
	zc_profile_keep_off(0, a->cpus, a->ncpus);
	ret = zc_profile_open(&p, &o, why, sizeof(why));
	if (ret) {
		zc_err("profile: %s", why);
		return NULL;
	}
	if (t0 + a->delay_s > zc_now())
		usleep((useconds_t)((t0 + a->delay_s - zc_now()) * 1e6));
	ret = zc_profile_start(p);
	if (!ret) {
		usleep((useconds_t)(a->duration_s * 1e6));
		ret = zc_profile_stop(p);
	}
	if (ret)
		zc_err("profile: start/stop: %s", strerror(-ret));
	sum = zc_profile_close(p, why, sizeof(why));
	if (!sum)
		zc_err("profile: %s", why);
	return ret ? (json_decref(sum), NULL) : sum;
}

int zc_cmd_profile(int argc, char **argv)
{
	struct profile_args a = { 0 };
	const struct zc_optgroup group = ZC_OPT_GROUP1(profile_optv, &a);
	const struct zc_cmdline cmdline = {
		.name = "profile", .groups = &group, .ngroups = 1,
		.about = "Samples --cpus for --duration seconds with call chains (perf record, or\n"
			 "perf_event_open; cycles, or cpu-clock where there is no PMU) and prints\n"
			 "where the time goes: buckets, and the top symbols by self and children\n"
			 "share in the 0-day robot's perf-profile names. Or summarises --folded.\n"
			 "Exit 1 when sampling is not possible here (the reason is printed).\n",
	};
	char path[PATH_MAX], why[PATH_MAX + 200];
	double t0 = zc_now();
	json_t *sum;
	int ret = zc_opt_main(&cmdline, argc, argv);

	if (ret >= 0)
		return ret;
	if (!a.folded && (!a.ncpus || !a.out)) {
		zc_err("profile: --cpus and --out are needed to sample (or --folded FILE)");
		return ZC_EXIT_USAGE;
	}
	/* Where it writes is checked before it samples (exit 2, lib/outpath.h). */
	if (a.out && zc_out_dir(a.out, why, sizeof(why))) {
		zc_err("profile: --out %s %s", a.out, why);
		return ZC_EXIT_USAGE;
	}
	/* A file it cannot read is bad input, as every command's (exit 2). */
	if (a.folded && access(a.folded, R_OK)) {
		zc_err("profile: --folded %s: %s", a.folded, strerror(errno));
		return ZC_EXIT_USAGE;
	}
	sum = a.folded ? from_folded(&a) : sample(&a, t0);
	if (!sum)
		return ZC_EXIT_FAIL;
	if (a.out) {
		char *text = json_dumps(sum, JSON_INDENT(2) | JSON_REAL_PRECISION(6));

		snprintf(path, sizeof(path), "%s/profile.json", a.out);
		ret = text ? zc_write_atomic(path, text, strlen(text)) : -ENOMEM;
		free(text);
		if (ret) {
			zc_err("profile: %s: %s", path, strerror(-ret));
			json_decref(sum);
			return ZC_EXIT_FAIL;
		}
	}
	if (a.json) {
		json_dumpf(sum, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
	} else {
		print_summary(stdout, sum);
	}
	json_decref(sum);
	return ZC_EXIT_OK;
}
