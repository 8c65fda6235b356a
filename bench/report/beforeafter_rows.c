// SPDX-License-Identifier: GPL-2.0
/* before-after's rows: each native run against its emulated after-mode, or
 * the same mode measured on a patched kernel (--after); the text
 * (beforeafter.c) and the JSON (beforeafter_json.c) print them. */
#include "report/beforeafter.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double zc_ba_med(json_t *run, const char *metric)
{
	if (strcmp(json_string_value(json_object_get(run, "status")) ?: "", "ok") &&
	    strcmp(json_string_value(json_object_get(run, "status")) ?: "", "partial"))
		return NAN;
	return zc_an_real(json_object_get(json_object_get(run, "summary"), metric), "median");
}

/* "measured", or "measured (guest, tcg)" for a file kernel-ab brought back
 * from a qemu guest (its "guest" and "accel" keys). */
const char *zc_ba_measured_kind(json_t *root, char *buf, size_t len)
{
	const char *accel = json_string_value(json_object_get(root, "accel"));

	if (json_is_object(json_object_get(root, "guest")) || accel)
		snprintf(buf, len, "measured (guest, %s)", accel ?: "?");
	else
		snprintf(buf, len, "measured");
	return buf;
}

double zc_ba_change_pct(double before, double after)
{
	return isfinite(before) && isfinite(after) && before > 0 ? (after / before - 1) * 100 : NAN;
}

/* Did an earlier pair already show run (its measured row)? Remembers it in
 * seen (a set by address: a file of many runs stays linear). */
static bool shown(json_t *seen, json_t *run)
{
	char key[32];

	snprintf(key, sizeof(key), "%p", (void *)run);
	if (json_object_get(seen, key))
		return true;
	json_object_set_new(seen, key, json_true());
	return false;
}

int zc_ba_tcp_rows(json_t **files, int nfiles, json_t **after, int nafter,
		   void (*fn)(const struct zc_ba_row *row, void *user), void *user)
{
	int rows = 0;
	struct zc_run_index *idx[32] = { 0 };

	nafter = nafter < 32 ? nafter : 32;
	for (int k = 0; k < nafter; k++)
		idx[k] = zc_run_index_new(json_object_get(after[k], "runs"));
	for (int f = 0; f < nfiles; f++) {
		struct zc_pair *pv;
		size_t n = zc_before_after_pairs(json_object_get(files[f], "runs"),
						 nafter ? ZC_PAIRS_UNPAIRED : 0, &pv);
		json_t *seen = json_object();

		for (size_t i = 0; i < n; i++) {
			const struct zc_pair *p = &pv[i];
			const char *kind = "emulated", *amode = p->peer->name;
			json_t *a = NULL, *afile = NULL;
			char kbuf[48];
			struct zc_ba_row row;

			/* The same mode measured on a patched kernel beats any emulation:
			 * one row per native run then, whatever its after-modes. */
			for (int k = 0; k < nafter && !a; k++) {
				a = idx[k] ? zc_run_index_peer(idx[k], p->run, p->role, p->mode->name)
					   : zc_an_peer(json_object_get(after[k], "runs"), p->run,
							p->role, p->mode->name);
				if (a)
					afile = after[k];
			}
			if (a && shown(seen, p->run))
				continue;
			if (a) {
				kind = zc_ba_measured_kind(afile, kbuf, sizeof(kbuf));
				amode = p->mode->name;
			} else if (!(a = p->peer_run)) {
				continue;
			}
			row = (struct zc_ba_row){
				.path = p->mode->path ? p->mode->path : p->mode->summary,
				.chunk = zc_an_int(json_object_get(p->run, "key"), "chunk"),
				.pipe_size = zc_an_int(json_object_get(p->run, "key"), "pipe_size"),
				.before_mode = p->mode->name, .after_mode = amode, .kind = kind,
				.before_run = zc_an_str(p->run, "name"), .after_run = zc_an_str(a, "name"),
				.before_gpc = zc_ba_med(p->run, "gbps_per_core"),
				.after_gpc = zc_ba_med(a, "gbps_per_core"),
				.before_calls_per_mb = zc_ba_med(p->run, "dut_calls_per_mb"),
				.after_calls_per_mb = zc_ba_med(a, "dut_calls_per_mb"),
				.before_file = files[f], .after_file = afile,
			};
			row.change_pct = zc_ba_change_pct(row.before_gpc, row.after_gpc);
			zc_an_change(files[f], p->run, afile ? afile : files[f], a, "gbps_per_core",
				     ZC_LEVEL, &row.ch);
			zc_verdict_judge(&row.ch, ZC_RATIO_THRESHOLD, &row.vd);
			fn(&row, user);
			rows++;
		}
		json_decref(seen);
		free(pv);
	}
	for (int k = 0; k < nafter; k++)
		zc_run_index_free(idx[k]);
	return rows;
}
