// SPDX-License-Identifier: GPL-2.0
#include "results/results.h"
#include "results/analysis.h"
#include "lib/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct zc_metric zc_metrics[] = {
	{ "gbps", "Gbit/s", 1, "verified payload bits at the sink per window second / 1e9" },
	{ "gbps_per_core", "Gbit/s/core", 1,
	  "gbps / busy cores of the device under test (softirq on its CPU included)" },
	{ "dut_busy_cores", "cores", 0, "busy fraction of the device under test's CPU" },
	{ "dut_proc_cores", "cores", 0, "device under test's own CPU time (getrusage) per second" },
	{ "service_demand_us_per_kb", "us/KB", 0, "netperf service demand: us of DUT CPU per KiB" },
	{ "dut_calls_per_mb", "calls/MB", 0, "data syscalls of the device under test per MB moved" },
	/* --counters (counters.c); present only in samples that collected them */
	{ "dut_cycles_per_byte", "cycles/B", 0, "DUT thread's CPU cycles per payload byte (perf)" },
	{ "dut_ipc", "instr/cycle", -1, "DUT thread's instructions per cycle (perf)" },
	{ "dut_syscalls_per_mb", "syscalls/MB", 0,
	  "every syscall of the DUT thread per MB it moved (BPF raw_syscalls)" },
	{ "dut_softirq_share", "cores", 0,
	  "softirq time on the DUT's CPU per window second (BPF irq:softirq_*)" },
	{ "dut_rx_copied_per_byte", "B/B", -1,
	  "bytes copied from skbs to the DUT's user memory per payload byte (skb_copy_datagram_iovec)" },
	{ "dut_tx_copied_per_byte", "B/B", -1,
	  "bytes the DUT's sends copied from user memory per payload byte (tcp_sendmsg_locked)" },
	{ "dut_bpf_cost_share", "cores", 0,
	  "DUT CPU time in every role's accounting programs / DUT busy time (ZC_BPF_STATS=1)" },
};
const size_t zc_nmetrics = ZC_ARRAY_SIZE(zc_metrics);

int zc_json_write_atomic(json_t *root, const char *path)
{
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	size_t n;
	int ret;

	if (!text)
		return -ENOMEM;
	n = strlen(text);
	text[n] = '\n'; /* json_dumps leaves room: the string's NUL becomes the newline */
	ret = zc_an_write_atomic(path, text, n + 1);
	free(text);
	return ret;
}

json_t *zc_results_load(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *v;

	if (!root) {
		snprintf(err, errlen, "%s:%d: not valid JSON: %s", path, je.line, je.text);
		return NULL;
	}
	v = json_object_get(root, "schema_version");
	if (!json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "zcbench-results") ||
	    !json_is_string(v)) {
		snprintf(err, errlen, "%s: not a zcbench results file (no schema/schema_version)",
			 path);
		json_decref(root);
		return NULL;
	}
	if (atoi(json_string_value(v)) != ZC_SCHEMA_MAJOR) {
		snprintf(err, errlen, "%s: schema version %s, this zcbench reads %d.x", path,
			 json_string_value(v), ZC_SCHEMA_MAJOR);
		json_decref(root);
		return NULL;
	}
	if (!json_is_array(json_object_get(root, "runs"))) {
		snprintf(err, errlen, "%s: key 'runs': missing or not an array", path);
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *zc_run_summary(json_t *samples)
{
	json_t *o = json_object();
	size_t n = json_array_size(samples);
	double *v = calloc(n ? n : 1, sizeof(*v));

	for (size_t m = 0; m < zc_nmetrics; m++) {
		size_t k = 0;
		struct zc_summary s;
		json_t *so;

		for (size_t i = 0; i < n; i++) {
			json_t *smp = json_array_get(samples, i);
			json_t *x = json_object_get(smp, zc_metrics[m].key);

			if (json_is_number(x) && !strcmp(json_string_value(json_object_get(smp, "status")), "ok"))
				v[k++] = json_number_value(x);
		}
		if (!k)
			continue;
		zc_summarize(v, k, &s);
		so = json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s.n, "median", s.median,
			       "min", s.min, "max", s.max, "mean", s.mean, "stddev", s.stddev);
		json_object_set_new(o, zc_metrics[m].key, so);
	}
	free(v);
	return o;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

void zc_run_key(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");

	snprintf(out, len, "%s/%s/%s/%s/chunk=%lld/pipe=%lld", jstr(k, "topology"),
		 jstr(k, "source"), jstr(k, "proxy"), jstr(k, "sink"),
		 (long long)json_integer_value(json_object_get(k, "chunk")),
		 (long long)json_integer_value(json_object_get(k, "pipe_size")));
}

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

		if (!strcmp(jstr(k, "topology"), "proxy"))
			snprintf(path, sizeof(path), "%s>%s>%s", jstr(k, "source"), jstr(k, "proxy"),
				 jstr(k, "sink"));
		else
			snprintf(path, sizeof(path), "%s>%s", jstr(k, "source"), jstr(k, "sink"));
		zc_an_size(json_integer_value(json_object_get(k, "chunk")), chunk, sizeof(chunk));
		zc_an_size(json_integer_value(json_object_get(k, "pipe_size")), pipe, sizeof(pipe));
		if (gpc)
			snprintf(range, sizeof(range), "%6.2f [%.2f-%.2f]", g,
				 json_number_value(json_object_get(gpc, "min")),
				 json_number_value(json_object_get(gpc, "max")));
		fprintf(f, "%-22.22s %-6s %-26.26s %6s %5s %8.2f %9.2f %19s %7.1f %8.3f",
			jstr(run, "name"), jstr(k, "topology"), path, chunk, pipe, med(run, "gbps"),
			med(run, "dut_busy_cores"), range,
			gpc ? 100 * json_number_value(json_object_get(gpc, "stddev")) / g : NAN,
			med(run, "service_demand_us_per_kb"));
		if (ctr)
			print_counter_cols(f, run);
		fprintf(f, "  %s%s%s\n", jstr(run, "status"),
			json_is_true(json_object_get(run, "emulated")) ? " emulated" : "",
			json_is_false(json_object_get(run, "verified")) ? " unverified" : "");
		if (json_is_string(json_object_get(run, "reason")))
			fprintf(f, "%-22s   reason: %s\n", "", jstr(run, "reason"));
	}
}

struct ratio_def {
	const char *name, *topology, *role, *num, *den;
};

static const struct ratio_def ratio_defs[] = {
	{ "splice/copy proxy", "proxy", "proxy", "splice", "copy" },
	{ "tee/send source", "direct", "source", "tee", "send" },
	{ "vmsplice/send source", "direct", "source", "vmsplice", "send" },
	{ "vmsplice-gift/send source", "direct", "source", "vmsplice-gift", "send" },
	{ "sendfile/send source", "direct", "source", "sendfile", "send" },
	{ "splice-file/send source", "direct", "source", "splice-file", "send" },
	{ "msg-zerocopy/send source", "direct", "source", "msg-zerocopy", "send" },
	{ "uring-send-zc/send source", "direct", "source", "uring-send-zc", "send" },
	{ "uring-splice/copy proxy", "proxy", "proxy", "uring-splice", "copy" },
};

/* Same key as run but with role's mode replaced by mode. */
static json_t *find_peer(json_t *runs, json_t *run, const char *role, const char *mode)
{
	json_t *k = json_object_get(run, "key"), *r;
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *q = json_object_get(r, "key");
		const char *keys[] = { "topology", "source", "proxy", "sink" };
		bool same = json_equal(json_object_get(q, "chunk"), json_object_get(k, "chunk")) &&
			    json_equal(json_object_get(q, "pipe_size"), json_object_get(k, "pipe_size"));

		for (size_t j = 0; j < 4 && same; j++) {
			if (!strcmp(keys[j], role))
				same = !strcmp(jstr(q, role), mode);
			else if (!strcmp(keys[j], "proxy") && !strcmp(jstr(k, "topology"), "direct"))
				continue;
			else
				same = !strcmp(jstr(q, keys[j]), jstr(k, keys[j]));
		}
		if (same)
			return r;
	}
	return NULL;
}

json_t *zc_headline(json_t *runs)
{
	json_t *out = json_array(), *run;
	size_t i;

	for (size_t d = 0; d < ZC_ARRAY_SIZE(ratio_defs); d++) {
		const struct ratio_def *rd = &ratio_defs[d];

		json_array_foreach(runs, i, run) {
			json_t *k = json_object_get(run, "key"), *den;
			double a, b;

			if (strcmp(jstr(k, "topology"), rd->topology) || strcmp(jstr(k, rd->role), rd->num))
				continue;
			den = find_peer(runs, run, rd->role, rd->den);
			if (!den)
				continue;
			a = med(run, "gbps_per_core");
			b = med(den, "gbps_per_core");
			/* A side without a successful sample is null, never a 0. */
			json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:o}",
				"ratio", rd->name, "numerator", jstr(run, "name"),
				"denominator", jstr(den, "name"),
				"chunk", json_integer_value(json_object_get(k, "chunk")),
				"pipe_size", json_integer_value(json_object_get(k, "pipe_size")),
				"numerator_gbps_per_core", isnan(a) ? json_null() : json_real(a),
				"denominator_gbps_per_core", isnan(b) ? json_null() : json_real(b),
				"value", isnan(a) || isnan(b) || b == 0 ? json_null() : json_real(a / b)));
		}
	}
	return out;
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

		zc_an_size(json_integer_value(json_object_get(h, "chunk")), chunk, sizeof(chunk));
		zc_an_size(json_integer_value(json_object_get(h, "pipe_size")), pipe, sizeof(pipe));
		if (json_is_number(v))
			fprintf(f, "  %-27s chunk %-5s pipe %-5s %6.2fx  (%.2f vs %.2f Gbps/core)\n",
				jstr(h, "ratio"), chunk, pipe, json_number_value(v),
				json_number_value(json_object_get(h, "numerator_gbps_per_core")),
				json_number_value(json_object_get(h, "denominator_gbps_per_core")));
		else
			fprintf(f, "  %-27s chunk %-5s pipe %-5s    n/a  (a side has no successful sample)\n",
				jstr(h, "ratio"), chunk, pipe);
	}
}
