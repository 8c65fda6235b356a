// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench noise WORKLOAD: an A/A measurement. Every run of the workload is
 * taken twice (A and B, the same build and settings) in interleaved rounds;
 * the results file keeps both, and the noise file says per run and metric
 * how far two runs of the same thing come apart inside one invocation, and
 * per headline ratio how far A and B ended up (make bench-stability prints
 * it). Not how far two invocations come apart: compare refuses it for that
 * (--noise) and takes --profile, separate invocations.
 */
#include "run/run.h"
#include "compare/noise.h"
#include "results/results.h"
#include "lib/outpath.h"

#include <string.h>

struct noise_args {
	const char *noise_out;
};

#define AT(field) ZC_OPT_AT(struct noise_args, field)
static const struct zc_opt noise_optv[] = {
	{ "noise-out", ZC_OPT_TEXT, NULL, AT(noise_out), .meta = "FILE",
	  .help = "where the noise file goes (default: the results file's path, .json replaced by "
		  ".noise)" },
};

int zc_cmd_noise(int argc, char **argv)
{
	static struct zc_section ov;
	static struct noise_args na;
	const struct zc_optgroup extra = ZC_OPT_GROUP1(noise_optv, &na);
	struct zc_run_args a;
	char err[1200], path[1024] = "", out[1100];
	json_t *root, *noise;
	int ret, wret;

	memset(&na, 0, sizeof(na));
	ret = zc_run_parse_as("noise",
			      "An A/A run: every run of the workload twice (A and B) in interleaved\n"
			      "rounds (order = interleaved or random), then the noise file: per run and\n"
			      "metric how far A and B came apart inside this invocation, per headline\n"
			      "ratio the spread between A and B (between invocations: compare --profile).\n"
			      "Takes run's flags; exit codes as run's.\n",
			      &extra, argc, argv, &a, &ov, err, sizeof(err));
	if (ret == ZC_OPT_HELP)
		return ZC_EXIT_OK;
	if (ret) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	a.aa = true;
	/* The noise file's place is checked before the runs take minutes (exit 2). */
	if (na.noise_out && zc_out_file(na.noise_out, false, out, sizeof(out), err, sizeof(err)) < 0) {
		zc_err("noise: --noise-out %s %s", na.noise_out, err);
		return ZC_EXIT_USAGE;
	}
	ret = zc_run_exec(&a, &ov, argc, argv, path, sizeof(path));
	if (ret == ZC_EXIT_USAGE || !path[0])
		return ret;
	root = zc_results_load(path, err, sizeof(err));
	if (!root) {
		zc_err("noise: %s", err);
		return ZC_EXIT_FAIL;
	}
	noise = zc_noise_build(root, path, err, sizeof(err));
	json_decref(root);
	if (!noise) {
		zc_err("noise: %s", err);
		return ZC_EXIT_FAIL;
	}
	if (!na.noise_out) {
		size_t l = strlen(path);

		snprintf(out, sizeof(out), "%.*s.noise", (int)(l > 5 && !strcmp(path + l - 5, ".json") ?
							      l - 5 : l), path);
	}
	zc_noise_print(stdout, noise);
	wret = zc_json_write_atomic(noise, out);
	json_decref(noise);
	if (wret) {
		zc_err("noise: writing %s: %s", out, strerror(-wret));
		return ZC_EXIT_FAIL;
	}
	printf("\nnoise: %s\n", out);
	return ret;
}
