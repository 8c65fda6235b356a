// SPDX-License-Identifier: GPL-2.0
/* The human table of runs and the headline ratios, as run prints them. */
#include "output/table.h"
#include "results/results.h"

#include <math.h>
#include <string.h>

static double med(json_t *run, const char *metric)
{
	json_t *m = json_object_get(json_object_get(json_object_get(run, "summary"), metric),
				    "median");

	return json_is_number(m) ? json_number_value(m) : NAN;
}

/* The --counters columns, shown when some run has one of them. */
static const struct {
	const char *metric, *head, *fmt;
	double scale;
} ctr_cols[] = {
	{ "dut_cycles_per_byte", "cyc/B", " %6.2f", 1 },
	{ "dut_syscalls_per_mb", "sys/MB", " %7.1f", 1 },
	{ "dut_softirq_share", "sirq%", " %6.1f", 100 },
	{ "dut_rx_copied_per_byte", "cpRx/B", " %6.3f", 1 },
	{ "dut_tx_copied_per_byte", "cpTx/B", " %6.3f", 1 },
};

static bool have_counter_cols(json_t *runs)
{
	size_t i;
	json_t *run;

	json_array_foreach(runs, i, run)
		for (size_t c = 0; c < ZC_ARRAY_SIZE(ctr_cols); c++)
			if (json_object_get(json_object_get(run, "summary"), ctr_cols[c].metric))
				return true;
	return false;
}

static void print_counter_cols(FILE *f, json_t *run)
{
	for (size_t c = 0; c < ZC_ARRAY_SIZE(ctr_cols); c++) {
		double v = med(run, ctr_cols[c].metric);
		int w = (int)strlen(ctr_cols[c].head) > 6 ? (int)strlen(ctr_cols[c].head) : 6;

		if (!strcmp(ctr_cols[c].metric, "dut_syscalls_per_mb"))
			w = 7;
		if (isnan(v))
			fprintf(f, " %*s", w, "-");
		else
			fprintf(f, ctr_cols[c].fmt, v * ctr_cols[c].scale);
	}
}

void zc_print_table(FILE *f, json_t *runs)
{
	size_t i;
	json_t *run;
	bool ctr = have_counter_cols(runs);

	fprintf(f, "%-22s %-6s %-26s %6s %5s %8s %9s %19s %7s %8s", "run", "topo",
		"source>proxy>sink", "chunk", "pipe", "Gbps", "DUTcores", "Gbps/core [min-max]",
		"sd%", "us/KB");
	if (ctr)
		fprintf(f, " %6s %7s %6s %6s %6s", ctr_cols[0].head, ctr_cols[1].head,
			ctr_cols[2].head, ctr_cols[3].head, ctr_cols[4].head);
	fprintf(f, "  %s\n", "status");
	json_array_foreach(runs, i, run) {
		json_t *k = json_object_get(run, "key");
		json_t *gpc = json_object_get(json_object_get(run, "summary"), "gbps_per_core");
		char path[96], chunk[24], pipe[24], range[40] = "-";
		double g = med(run, "gbps_per_core");

		if (!strcmp(zc_an_str(k, "topology"), "proxy"))
			snprintf(path, sizeof(path), "%s>%s>%s", zc_an_str(k, "source"), zc_an_str(k, "proxy"),
				 zc_an_str(k, "sink"));
		else
			snprintf(path, sizeof(path), "%s>%s", zc_an_str(k, "source"), zc_an_str(k, "sink"));
		zc_fmt_size(json_integer_value(json_object_get(k, "chunk")), chunk, sizeof(chunk));
		zc_fmt_size(json_integer_value(json_object_get(k, "pipe_size")), pipe, sizeof(pipe));
		if (gpc)
			snprintf(range, sizeof(range), "%6.2f [%.2f-%.2f]", g,
				 json_number_value(json_object_get(gpc, "min")),
				 json_number_value(json_object_get(gpc, "max")));
		fprintf(f, "%-22.22s %-6s %-26.26s %6s %5s %8.2f %9.2f %19s %7.1f %8.3f",
			zc_an_str(run, "name"), zc_an_str(k, "topology"), path, chunk, pipe, med(run, "gbps"),
			med(run, "dut_busy_cores"), range,
			gpc ? 100 * json_number_value(json_object_get(gpc, "stddev")) / g : NAN,
			med(run, "service_demand_us_per_kb"));
		if (ctr)
			print_counter_cols(f, run);
		fprintf(f, "  %s%s%s\n", zc_an_str(run, "status"),
			json_is_true(json_object_get(run, "emulated")) ? " emulated" : "",
			json_is_false(json_object_get(run, "verified")) ? " unverified" : "");
		if (json_is_string(json_object_get(run, "reason")))
			fprintf(f, "%-22s   reason: %s\n", "", zc_an_str(run, "reason"));
	}
}

void zc_print_headline(FILE *f, json_t *headline)
{
	json_t *h;
	size_t i;

	if (!json_array_size(headline))
		return;
	fprintf(f, "\nHeadline: Gbps per core, median of repetitions\n");
	json_array_foreach(headline, i, h) {
		char chunk[24], pipe[24];
		json_t *v = json_object_get(h, "value");

		zc_fmt_size(json_integer_value(json_object_get(h, "chunk")), chunk, sizeof(chunk));
		zc_fmt_size(json_integer_value(json_object_get(h, "pipe_size")), pipe, sizeof(pipe));
		if (json_is_number(v))
			fprintf(f, "  %-27s chunk %-5s pipe %-5s %6.2fx  (%.2f vs %.2f Gbps/core)\n",
				zc_an_str(h, "ratio"), chunk, pipe, json_number_value(v),
				json_number_value(json_object_get(h, "numerator_gbps_per_core")),
				json_number_value(json_object_get(h, "denominator_gbps_per_core")));
		else
			fprintf(f, "  %-27s chunk %-5s pipe %-5s    n/a  (a side has no successful sample)\n",
				zc_an_str(h, "ratio"), chunk, pipe);
	}
}

