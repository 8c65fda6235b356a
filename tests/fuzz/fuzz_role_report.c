// SPDX-License-Identifier: GPL-2.0
/* A role's stdout: the report parser, then the metrics derived from it. */
#include "fuzz.h"
#include "metrics/metrics.h"
#include "run/report_parse.h"
#include "lib/zcbench.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[256];
	json_t *rj = zc_role_report_parse((const char *)data, size, why, sizeof(why));

	if (!rj)
		return 0;
	/* The same report as every role's, derived with either DUT. */
	for (int dut = ZC_ROLE_SOURCE; dut <= ZC_ROLE_PROXY; dut++) {
		json_t *sample = json_object(), *roles = json_object();

		for (int r = 0; r < ZC_ROLE_NR; r++)
			json_object_set(roles, zc_role_names[r], rj);
		json_t *samples = json_array();

		/* As zc_run_sample does: derived only for an ok sample. */
		json_object_set_new(sample, "status", json_string("ok"));
		json_object_set_new(sample, "roles", roles);
		zc_sample_derive(sample, dut, 1.0);
		json_array_append_new(samples, sample);
		json_decref(zc_run_summary(samples));
		json_decref(samples);
	}
	json_decref(rj);
	return 0;
}
