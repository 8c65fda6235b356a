// SPDX-License-Identifier: GPL-2.0
/* Derivations of the per-role counters (counters.c), from synthetic snapshots. */
#include "zc_test.h"

#include "config/cfg.h"
#include "counters/counters.h"
#include "metrics/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

static void test_parse(void **st)
{
	(void)st;
	assert_int_equal(zc_counters_parse("none"), 0);
	assert_int_equal(zc_counters_parse("perf"), ZC_CTR_PERF);
	assert_int_equal(zc_counters_parse("bpf"), ZC_CTR_BPF);
	assert_int_equal(zc_counters_parse("all"), ZC_CTR_PERF | ZC_CTR_BPF);
	assert_int_equal(zc_counters_parse("All"), -EINVAL);
	assert_int_equal(zc_counters_parse(""), -EINVAL);
}

static void test_cfg_rejects_bad_counters(void **st)
{
	struct zc_cfg cfg;
	char err[256];
	const char *bad = NULL;

	(void)st;
	zc_cfg_defaults(&cfg);
	assert_string_equal(cfg.counters, "none");
	assert_int_equal(zc_cfg_validate(&cfg, err, sizeof(err), &bad), 0);
	assert_int_equal(zc_opt_set(&cfg, zc_opt_find("counters"), "bogus", err, sizeof(err)), 0);
	assert_int_equal(zc_cfg_validate(&cfg, err, sizeof(err), &bad), -EINVAL);
	assert_string_equal(bad, "counters");
	assert_non_null(strstr(err, "bogus"));
}

static void test_counters_for_role(void **st)
{
	struct zc_cfg cfg;
	char err[256];

	(void)st;
	zc_cfg_defaults(&cfg);
	assert_string_equal(cfg.counters_roles, "dut");
	zc_opt_set(&cfg, zc_opt_find("counters"), "all", err, sizeof(err));
	/* proxy topology: the proxy is the DUT and alone loads BPF */
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_PROXY), "all");
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SOURCE), "perf");
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SINK), "perf");
	zc_opt_set(&cfg, zc_opt_find("topology"), "direct", err, sizeof(err));
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SOURCE), "all");
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SINK), "perf");
	zc_opt_set(&cfg, zc_opt_find("counters"), "bpf", err, sizeof(err));
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SINK), "none");
	zc_opt_set(&cfg, zc_opt_find("counters_roles"), "all", err, sizeof(err));
	assert_string_equal(zc_counters_for_role(&cfg, ZC_ROLE_SINK), "bpf");
	zc_opt_set(&cfg, zc_opt_find("counters_roles"), "some", err, sizeof(err));
	{
		const char *bad = NULL;

		assert_int_equal(zc_cfg_validate(&cfg, err, sizeof(err), &bad), -EINVAL);
		assert_string_equal(bad, "counters_roles");
	}
}

static void test_perf_delta(void **st)
{
	struct zc_perf_snap a = { 0 }, b = { 0 };
	double v = -1;

	(void)st;
	a.ok[ZC_PERF_CYCLES] = b.ok[ZC_PERF_CYCLES] = true;
	a.value[ZC_PERF_CYCLES] = 1000;
	b.value[ZC_PERF_CYCLES] = 5000;
	a.enabled_ns[ZC_PERF_CYCLES] = a.running_ns[ZC_PERF_CYCLES] = 10;
	b.enabled_ns[ZC_PERF_CYCLES] = b.running_ns[ZC_PERF_CYCLES] = 110;
	assert_true(zc_perf_delta(&a, &b, ZC_PERF_CYCLES, &v));
	assert_true(v == 4000);
	/* multiplexed: on the PMU half the time it was enabled -> doubled */
	b.running_ns[ZC_PERF_CYCLES] = 60;
	assert_true(zc_perf_delta(&a, &b, ZC_PERF_CYCLES, &v));
	assert_true(fabs(v - 8000) < 1e-6);
	/* never scheduled: no figure rather than a zero */
	b.running_ns[ZC_PERF_CYCLES] = 10;
	assert_false(zc_perf_delta(&a, &b, ZC_PERF_CYCLES, &v));
	/* a side missing */
	b.running_ns[ZC_PERF_CYCLES] = 110;
	a.ok[ZC_PERF_CYCLES] = false;
	assert_false(zc_perf_delta(&a, &b, ZC_PERF_CYCLES, &v));
}

static void test_ratios(void **st)
{
	(void)st;
	assert_true(fabs(zc_per_mb(50, 2000000) - 25) < 1e-12);
	assert_true(isnan(zc_per_mb(50, 0)));
	assert_true(isnan(zc_per_mb(NAN, 10)));
	assert_true(fabs(zc_ratio(3, 4) - 0.75) < 1e-12);
	assert_true(isnan(zc_ratio(3, 0)));
	assert_true(isnan(zc_ratio(NAN, 1)));
}

static void test_syscall_names(void **st)
{
	char buf[24];

	(void)st;
	assert_string_equal(zc_syscall_name(SYS_splice, buf, sizeof(buf)), "splice");
	assert_string_equal(zc_syscall_name(SYS_recvfrom, buf, sizeof(buf)), "recvfrom");
	assert_string_equal(zc_syscall_name(499, buf, sizeof(buf)), "nr_499");
	assert_true(zc_syscall_returns_bytes(SYS_splice));
	assert_true(zc_syscall_returns_bytes(SYS_vmsplice));
	assert_true(zc_syscall_returns_bytes(SYS_sendto));
	assert_false(zc_syscall_returns_bytes(SYS_close));
	assert_false(zc_syscall_returns_bytes(SYS_recvmmsg)); /* returns messages */
	assert_int_equal(zc_syscall_pipe_dir(SYS_writev), 1);
	assert_int_equal(zc_syscall_pipe_dir(SYS_pwritev2), 1);
	assert_int_equal(zc_syscall_pipe_dir(SYS_read), 2);
	assert_int_equal(zc_syscall_pipe_dir(SYS_sendto), 0);
	assert_int_equal(zc_syscall_pipe_dir(SYS_vmsplice), 0);
	assert_string_equal(zc_softirq_name(3), "NET_RX");
	assert_string_equal(zc_softirq_name(2), "NET_TX");
}

static void test_acct_delta(void **st)
{
	struct zc_acct *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *d = calloc(1, sizeof(*d));

	(void)st;
	a->sys_total = 10;
	b->sys_total = 35;
	a->sys[SYS_splice].count = 4;
	b->sys[SYS_splice].count = 24;
	b->softirq[3].time_ns = 700;
	b->softirq[2].time_ns = 300;
	b->rx_copy_bytes = 99;
	zc_acct_delta(a, b, d);
	assert_int_equal(d->sys_total, 25);
	assert_int_equal(d->sys[SYS_splice].count, 20);
	assert_int_equal(d->rx_copy_bytes, 99);
	assert_int_equal(zc_acct_softirq_ns(d), 1000);
	free(a), free(b), free(d);
}

/* A copy proxy's window: 2 MB in, 2 MB out, 64 recv + 64 send. */
static void test_json_and_sample_metrics(void **st)
{
	struct zc_counters c;
	struct zc_counters_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	json_t *j, *bpf, *perf, *sample = json_object(), *rep = json_object();
	const uint64_t bytes = 2000000;

	(void)st;
	memset(&c, 0, sizeof(c));
	c.mask = ZC_CTR_PERF | ZC_CTR_BPF;
	c.cpu = 1;
	for (int e = 0; e < ZC_PERF_NR; e++) {
		c.perf_fd[e] = -1;
		snprintf(c.perf_why[e], sizeof(c.perf_why[e]), "not supported: test");
	}
	/* cycles and instructions counted, the rest refused */
	c.perf_fd[ZC_PERF_CYCLES] = c.perf_fd[ZC_PERF_INSTRUCTIONS] = 100;
	a->perf.ok[ZC_PERF_CYCLES] = b->perf.ok[ZC_PERF_CYCLES] = true;
	a->perf.ok[ZC_PERF_INSTRUCTIONS] = b->perf.ok[ZC_PERF_INSTRUCTIONS] = true;
	b->perf.value[ZC_PERF_CYCLES] = 3000000;
	b->perf.value[ZC_PERF_INSTRUCTIONS] = 1500000;
	b->perf.enabled_ns[ZC_PERF_CYCLES] = b->perf.running_ns[ZC_PERF_CYCLES] = 5;
	b->perf.enabled_ns[ZC_PERF_INSTRUCTIONS] = b->perf.running_ns[ZC_PERF_INSTRUCTIONS] = 5;
	a->acct_ok = b->acct_ok = true;
	b->acct.sys_total = 130;
	b->acct.sys[SYS_recvfrom].count = 64;
	b->acct.sys[SYS_recvfrom].time_ns = 64000;
	b->acct.sys[SYS_recvfrom].bytes = bytes;
	b->acct.softirq[3].count = 10;
	b->acct.softirq[3].time_ns = 250000000; /* 0.25 s of NET_RX in a 0.5 s window */
	b->acct.rx_copy_bytes = bytes;
	/* half into skbs by send(), a quarter into a pipe, a quarter into a file */
	b->acct.tx_copy_bytes = bytes / 2;
	b->acct.tx_pipe_copy_bytes = bytes / 4;
	b->acct.tx_file_copy_bytes = bytes / 4;
	snprintf(c.copy_iter_why, sizeof(c.copy_iter_why), "not available: no kprobes");

	j = zc_counters_json(&c, a, b, bytes, 0.5);
	assert_string_equal(json_string_value(json_object_get(j, "requested")), "all");
	perf = json_object_get(j, "perf");
	assert_string_equal(json_string_value(json_object_get(perf, "status")), "partial");
	assert_true(fabs(json_number_value(json_object_get(perf, "cycles_per_byte")) - 1.5) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(perf, "ipc")) - 0.5) < 1e-9);
	assert_true(json_is_null(json_object_get(json_object_get(perf, "events"), "page_faults")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(perf, "reasons"),
							      "page_faults")), "not supported: test");
	bpf = json_object_get(j, "bpf");
	assert_non_null(bpf);
	assert_true(fabs(json_number_value(json_object_get(bpf, "syscalls_per_mb")) - 65) < 1e-9);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(bpf, "syscalls"), "recvfrom"), "count")), 64);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(
		json_object_get(bpf, "syscalls"), "recvfrom"), "mean_ns")) - 1000) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(bpf, "softirq"),
							   "share_of_core")) - 0.5) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(bpf, "rx_copied_per_payload_byte")) - 1) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(bpf, "tx_copied_per_payload_byte")) - 1) < 1e-9);
	assert_int_equal(json_integer_value(json_object_get(bpf, "tx_skb_copied_bytes")), bytes / 2);
	assert_int_equal(json_integer_value(json_object_get(bpf, "tx_pipe_copied_bytes")), bytes / 4);
	assert_true(json_is_null(json_object_get(bpf, "copy_iter")));
	assert_string_equal(json_string_value(json_object_get(bpf, "copy_iter_reason")),
			    "not available: no kprobes");

	json_object_set(rep, "counters", j);
	{
		json_t *roles = json_pack("{s:O}", "proxy", rep);

		zc_counters_sample_metrics(sample, roles, "proxy");
		json_decref(roles);
	}
	assert_true(fabs(json_number_value(json_object_get(sample, "dut_syscalls_per_mb")) - 65) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(sample, "dut_cycles_per_byte")) - 1.5) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(sample, "dut_softirq_share")) - 0.5) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(sample, "dut_rx_copied_per_byte")) - 1) < 1e-9);
	json_decref(j);
	json_decref(rep);
	json_decref(sample);
	free(a), free(b);
}

/* Without BPF snapshots the report says why, and the sample gets nothing. */
static void test_json_bpf_unavailable(void **st)
{
	struct zc_counters c;
	struct zc_counters_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	json_t *j, *sample = json_object(), *rep = json_object();

	(void)st;
	memset(&c, 0, sizeof(c));
	c.mask = ZC_CTR_BPF;
	snprintf(c.bpf_why, sizeof(c.bpf_why), "cannot load the BPF programs: Operation not permitted");
	j = zc_counters_json(&c, a, b, 1000, 1);
	assert_true(json_is_null(json_object_get(j, "bpf")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "bpf_reason")), "not permitted"));
	assert_true(json_is_null(json_object_get(j, "perf")));
	json_object_set_new(rep, "counters", j);
	{
		json_t *roles = json_pack("{s:O}", "proxy", rep);

		zc_counters_sample_metrics(sample, roles, "proxy");
		json_decref(roles);
	}
	assert_int_equal(json_object_size(sample), 0);
	json_decref(rep);
	json_decref(sample);
	free(a), free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_cfg_rejects_bad_counters),
		cmocka_unit_test(test_counters_for_role),
		cmocka_unit_test(test_perf_delta),
		cmocka_unit_test(test_ratios),
		cmocka_unit_test(test_syscall_names),
		cmocka_unit_test(test_acct_delta),
		cmocka_unit_test(test_json_and_sample_metrics),
		cmocka_unit_test(test_json_bpf_unavailable),
	};

	return zc_run_tests(tests, NULL, NULL);
}
