// SPDX-License-Identifier: GPL-2.0
/*
 * Many connections on many cores, the pure parts: rates, the sizing of a
 * known curve, placement of workers on this machine's cores, the expansion
 * of connections x workers (ladder), and sysfs CPU masks.
 */
#include "zc_test.h"

#include "config/cfg.h"
#include "lib/cpu.h"
#include "modes/mode.h"
#include "report/scale.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void rates(void **state)
{
	double g;

	(void)state;
	assert_int_equal(zc_parse_rate("100G", &g), 0);
	assert_true(g == 100);
	assert_int_equal(zc_parse_rate("40gbit/s", &g), 0);
	assert_true(g == 40);
	assert_int_equal(zc_parse_rate("2500M", &g), 0);
	assert_true(fabs(g - 2.5) < 1e-9);
	assert_int_equal(zc_parse_rate("1.5T", &g), 0);
	assert_true(g == 1500);
	assert_int_equal(zc_parse_rate("25", &g), 0);
	assert_int_equal(zc_parse_rate("fast", &g), -EINVAL);
	assert_int_equal(zc_parse_rate("-1G", &g), -EINVAL);
	assert_int_equal(zc_parse_rate("10Q", &g), -EINVAL);
}

/* A curve's Gbit/s is the DUT's own (dut_gbps of the ok, undisturbed
 * samples), not the sink's summary gbps; files without it keep the summary. */
static void curve_uses_dut_gbps(void **state)
{
	json_t *root = json_pack(
		"{s:{s:s},s:[{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i},"
		"s:{s:{s:f,s:f,s:f,s:i},s:{s:f},s:{s:f,s:f,s:f}},"
		"s:[{s:s,s:f},{s:s,s:f},{s:s,s:f,s:b},{s:s,s:f}]}]}",
		"host", "name", "h", "runs", "status", "ok", "dut", "proxy", "key", "topology",
		"proxy", "source", "send", "proxy", "copy", "sink", "recv", "chunk", 65536,
		"pipe_size", 1048576, "connections", 16, "workers", 1, "summary", "gbps", "median",
		1.0, "min", 1.0, "max", 1.0, "n", 3, "dut_busy_cores", "median", 1.0,
		"gbps_per_core", "median", 5.0, "min", 4.0, "max", 6.0, "samples", "status", "ok",
		"dut_gbps", 4.0, "status", "ok", "dut_gbps", 6.0, "status", "ok", "dut_gbps", 99.0,
		"disturbed", true, "status", "ok", "dut_gbps", 5.0);
	struct zc_curve c[2];
	json_t *samples;

	(void)state;
	assert_non_null(root);
	assert_int_equal(zc_curves(&root, 1, c, 2), 1);
	assert_true(fabs(c[0].pt[0].gbps - 5) < 1e-9);
	assert_true(fabs(c[0].pt[0].gbps_min - 4) < 1e-9 && fabs(c[0].pt[0].gbps_max - 6) < 1e-9);
	samples = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "samples");
	json_array_clear(samples);
	assert_int_equal(zc_curves(&root, 1, c, 2), 1);
	assert_true(fabs(c[0].pt[0].gbps - 1) < 1e-9);
	json_decref(root);
}

static void sizing(void **state)
{
	struct zc_curve c = { .npts = 3, .pt = {
		{ .workers = 1, .gbps = 10, .cores = 1, .gpc = 10, .gpc_min = 9, .gpc_max = 11 },
		{ .workers = 2, .gbps = 18, .cores = 2, .gpc = 9, .gpc_min = 8.5, .gpc_max = 9.5 },
		{ .workers = 4, .gbps = 32, .cores = 4, .gpc = 8, .gpc_min = 7.5, .gpc_max = 8.5 } } };
	struct zc_size s;

	(void)state;
	zc_curve_size(&c, 5, &s);		/* below the first point: its rate */
	assert_true(fabs(s.cores - 0.5) < 1e-9 && !s.extrapolated);
	zc_curve_size(&c, 18, &s);		/* on a point */
	assert_true(fabs(s.cores - 2) < 1e-9 && !s.extrapolated);
	zc_curve_size(&c, 25, &s);		/* rate 8.5 halfway from 18 to 32 */
	assert_true(fabs(s.cores - 25 / 8.5) < 1e-9);
	assert_true(fabs(s.lo - 25 / 9.0) < 1e-9 && fabs(s.hi - 25 / 8.0) < 1e-9);
	zc_curve_size(&c, 100, &s);		/* past the last: its rate held */
	assert_true(fabs(s.cores - 12.5) < 1e-9 && s.extrapolated);
	assert_true(fabs(s.lo - 100 / 8.5) < 1e-9 && fabs(s.hi - 100 / 7.5) < 1e-9);
	assert_true(fabs(zc_curve_efficiency(&c, 2) - 0.8) < 1e-9);
	c.npts = 0;
	zc_curve_size(&c, 100, &s);
	assert_true(isnan(s.cores));
}

static void placement(void **state)
{
	int cpus[1024], n = zc_usable_cpus(false, cpus, 1024);
	int want[ZC_ROLE_NR] = { 0, 1, 0 };
	struct zc_placement p;

	(void)state;
	if (n < 1)
		zc_skip("no hwloc topology here");
	assert_int_equal(zc_place_workers(ZC_ROLE_PROXY, NULL, -1, want, false, 16, &p), 0);
	/* The DUT on the last core; the others share what is left. */
	assert_int_equal(p.wcpu[ZC_ROLE_PROXY][0], cpus[n - 1]);
	assert_true(p.nworkers[ZC_ROLE_SOURCE] >= 1 && p.nworkers[ZC_ROLE_SINK] >= 1);
	assert_true(p.dut_alone == (n > 1));
	want[ZC_ROLE_PROXY] = n;	/* every core: the others share the DUT's */
	assert_int_equal(zc_place_workers(ZC_ROLE_PROXY, NULL, -1, want, false, 16, &p), 0);
	assert_int_equal(p.nworkers[ZC_ROLE_PROXY], n);
	for (int w = 1; w < n; w++)
		assert_int_not_equal(p.wcpu[ZC_ROLE_PROXY][w], p.wcpu[ZC_ROLE_PROXY][w - 1]);
	assert_false(p.dut_alone);
	assert_int_equal(p.nworkers[ZC_ROLE_SOURCE], 1);
	want[ZC_ROLE_PROXY] = n + 1;
	assert_int_equal(zc_place_workers(ZC_ROLE_PROXY, NULL, -1, want, false, 16, &p), -ERANGE);
	/* A direct run has no proxy. */
	want[ZC_ROLE_PROXY] = -1;
	want[ZC_ROLE_SOURCE] = 1;
	assert_int_equal(zc_place_workers(ZC_ROLE_SOURCE, NULL, -1, want, false, 1, &p), 0);
	assert_int_equal(p.nworkers[ZC_ROLE_PROXY], 0);
	assert_int_equal(p.cpu[ZC_ROLE_PROXY], -1);
}

static void expansion(void **state)
{
	static struct zc_cfg base, out[64];
	char why[256];
	int cores, n;

	(void)state;
	zc_cfg_defaults(&base);
	assert_int_equal(zc_opt_set(&base, zc_opt_find("connections"), "1, 16", why, sizeof(why)), 0);
	assert_int_equal(zc_opt_set(&base, zc_opt_find("workers"), "ladder", why, sizeof(why)), 0);
	cores = zc_cfg_usable_cores(&base);
	n = zc_cfg_expand(&base, out, 64);
	/* 1 connection: one worker only (a sweep leaves idle workers out);
	 * 16: 1, 2, 4, ... up to the cores, and the cores themselves. */
	assert_int_equal(out[0].connections, 1);
	assert_int_equal(out[0].workers, 1);
	assert_int_equal(out[1].connections, 16);
	assert_int_equal(out[1].workers, 1);
	assert_int_equal(out[n - 1].workers, cores < 16 ? cores : out[n - 1].workers);
	for (int i = 2; i < n; i++)
		assert_true(out[i].workers > out[i - 1].workers);
	assert_int_equal(zc_opt_set(&base, zc_opt_find("connections"), "0", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
}

/* Every mode serves many connections per worker: a step or fill for the
 * event loop, or a loop of its own across connections with its shared state. */
static void every_mode_many(void **state)
{
	(void)state;
	for (size_t i = 0; i < zc_nmodes; i++) {
		const struct zc_mode *m = zc_modes[i];

		if (zc_conns_unsupported(m, 2))
			fail_msg("%s: %s", m->name, zc_conns_unsupported(m, 2));
		if (m->pump_conns && !(m->shared_size && m->shared_setup && m->shared_teardown))
			fail_msg("%s: pump_conns without its shared state", m->name);
		assert_null(zc_conns_unsupported(m, 1));
	}
}

static void masks(void **state)
{
	char buf[64];
	int a[] = { 2 }, b[] = { 0, 1, 33 };

	(void)state;
	assert_int_equal(zc_cpu_mask(a, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "4");
	assert_int_equal(zc_cpu_mask(b, 3, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2,00000003");
	assert_int_equal(zc_cpu_mask(b, 3, buf, 4), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rates),
		cmocka_unit_test(sizing),
		cmocka_unit_test(curve_uses_dut_gbps),
		cmocka_unit_test(placement),
		cmocka_unit_test(expansion),
		cmocka_unit_test(masks),
		cmocka_unit_test(every_mode_many),
	};

	return zc_run_tests(tests, NULL, NULL);
}
