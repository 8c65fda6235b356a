// SPDX-License-Identifier: GPL-2.0
/*
 * "verified" is what the sink measured (run/verify.c): a sample is verified
 * only when the sink checked every byte of every connection and those are
 * the bytes the source sent; a foreign sink exiting 0, a sink mode that does
 * not look, a foreign source, or a count that disagrees make it unverified
 * with the reason; a run is verified only when all its ok samples are.
 */
#include "zc_test.h"

#include "lib/zcbench.h"
#include "run/verify.h"

#include <string.h>

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	if (!j)
		fail_msg("test JSON: %s (%s)", je.text, text);
	return j;
}

#define SRC "\"source\":{\"status\":\"ok\",\"connections\":[{\"id\":0,\"bytes\":100},{\"id\":1,\"bytes\":50}]}"

static void test_sample(void **state)
{
	static const struct {
		const char *roles;
		bool checked;		/* the controller checked the totals */
		bool want;
		const char *why;
	} cases[] = {
		/* Every byte checked on both connections. */
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"mode\":\"recv\",\"verified\":true,\"connections\":"
		  "[{\"id\":1,\"bytes\":50,\"verified_bytes\":50},{\"id\":0,\"bytes\":100,\"verified_bytes\":100}]}}",
		  true, true, NULL },
		/* The old bug: a foreign sink that exited 0 counted as verified. */
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"foreign\":\"/bin/cat\",\"exit\":\"exit code 0\"}}",
		  false, false, "the sink is a foreign program" },
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"mode\":\"splice-null\",\"verified\":false,"
		  "\"connections\":[{\"id\":0,\"bytes\":100,\"verified_bytes\":0},{\"id\":1,\"bytes\":50,"
		  "\"verified_bytes\":0}]}}",
		  true, false, "sink mode splice-null does not check" },
		/* A sink that says verified but checked fewer bytes than were sent. */
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"mode\":\"recv\",\"verified\":true,\"connections\":"
		  "[{\"id\":0,\"bytes\":100,\"verified_bytes\":100},{\"id\":1,\"bytes\":50,\"verified_bytes\":49}]}}",
		  true, false, "connection 1: the sink checked 49 of the 50 payload bytes" },
		/* No verified_bytes at all (a sink from before 1.3). */
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"mode\":\"recv\",\"verified\":true,\"connections\":"
		  "[{\"id\":0,\"bytes\":100},{\"id\":1,\"bytes\":50}]}}",
		  true, false, "connection 0: the sink checked -1 of the 100" },
		/* A foreign source: nothing to hold the sink's count against. */
		{ "{\"source\":{\"status\":\"ok\",\"foreign\":\"x\"},\"sink\":{\"status\":\"ok\",\"mode\":"
		  "\"recv\",\"verified\":true,\"connections\":[{\"id\":0,\"bytes\":9,\"verified_bytes\":9}]}}",
		  false, false, "the source reported no byte counts" },
		/* Totals not checked (the controller found no connections to compare). */
		{ "{" SRC ",\"sink\":{\"status\":\"ok\",\"mode\":\"recv\",\"verified\":true,\"connections\":"
		  "[{\"id\":0,\"bytes\":100,\"verified_bytes\":100},{\"id\":1,\"bytes\":50,\"verified_bytes\":50}]}}",
		  false, false, "totals were not checked" },
	};

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		json_t *roles = parse(cases[i].roles), *sample = json_object();
		const char *why;

		if (cases[i].checked)
			json_object_set_new(sample, "connections_checked", json_integer(2));
		zc_sample_verified(sample, roles);
		if (json_is_true(json_object_get(sample, "verified")) != cases[i].want)
			fail_msg("case %zu: verified should be %d", i, cases[i].want);
		why = json_string_value(json_object_get(sample, "unverified"));
		if (cases[i].why ? !why || !strstr(why, cases[i].why) : why != NULL)
			fail_msg("case %zu: unverified '%s', wanted '%s'", i, why ? why : "(none)",
				 cases[i].why ? cases[i].why : "(none)");
		json_decref(roles);
		json_decref(sample);
	}
}

static void test_run(void **state)
{
	static const struct {
		const char *samples;
		bool want;
		const char *why;
	} cases[] = {
		{ "[{\"status\":\"ok\",\"verified\":true},{\"status\":\"failed\"}]", true, NULL },
		{ "[{\"status\":\"ok\",\"verified\":true},{\"status\":\"ok\",\"verified\":false,"
		  "\"unverified\":\"the sink is a foreign program\"}]", false, "foreign program" },
		{ "[{\"status\":\"failed\"}]", false, "no ok sample" },
		{ "[]", false, "no ok sample" },
	};

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		json_t *run = json_pack("{s:b,s:o}", "verified", 1, "samples", parse(cases[i].samples));
		const char *why;

		zc_run_verified(run);
		if (json_is_true(json_object_get(run, "verified")) != cases[i].want)
			fail_msg("case %zu: run verified should be %d", i, cases[i].want);
		why = json_string_value(json_object_get(run, "unverified"));
		if (cases[i].why ? !why || !strstr(why, cases[i].why) : why != NULL)
			fail_msg("case %zu: unverified '%s'", i, why ? why : "(none)");
		json_decref(run);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_run),
	};

	return zc_run_tests(tests, NULL, NULL);
}
