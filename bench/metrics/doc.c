// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics section of results/README.md, written from the list so the
 * documented keys cannot drift from the ones a run writes
 * (tests/unit/test_metrics.c compares the two).
 */
#include "metrics/metrics.h"

static const char *better_text(enum zc_better b)
{
	return b == ZC_BETTER_HIGHER ? "higher is better" :
	       b == ZC_BETTER_LOWER ? "lower is better" : "neither way is better";
}

void zc_metrics_markdown(FILE *f)
{
	fprintf(f, "%s\n", ZC_METRICS_MD_BEGIN);
	fprintf(f, "<!-- Do not edit: `make build/tests/test_metrics && build/tests/test_metrics "
		   "--update-readme` rewrites it. -->\n\n");
	zc_for_each_metric(m) {
		fprintf(f, "- `%s` (%s, %s): %s.", m->key, m->unit, better_text(m->better), m->help);
		if (m->source)
			fprintf(f, " From `%s` in the DUT's report.", m->source);
		else if (m->how)
			fprintf(f, " Derived: %s.", m->how);
		if (m->optional)
			fprintf(f, " Absent when the DUT's role did not collect it.");
		if (m->col.show == ZC_COL_ALWAYS)
			fprintf(f, " Run table: `%s`.", m->col.head);
		else if (m->col.show == ZC_COL_RR)
			fprintf(f, " Run table: `%s`, when a run is request/response.", m->col.head);
		else if (m->col.show == ZC_COL_PRESENT)
			fprintf(f, " Run table: `%s`, when a run has a counter column.", m->col.head);
		if (m->sample_only)
			fprintf(f, " In samples only: not in `summary` or export; compare shows it when "
				   "`--metrics` names it.");
		fprintf(f, "\n");
	}
	fprintf(f, "\n%s\n", ZC_METRICS_MD_END);
}
