// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench report --mail FILE [BASE]: a report to paste into a mail, at most
 * 72 columns, shaped like the 0-day robot's: the kernel and what its
 * fingerprint says, the machine, the headline ratios with their intervals
 * and n, the patched paths before and after (before-after's rows: BASE
 * against FILE, or FILE's emulated after-modes), and the command that
 * reproduces the runs, from the results file.
 */
#include "report/report.h"
#include "report/report_int.h"
#include "report/beforeafter.h"
#include "report/saturation.h"
#include "results/results.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAIL_WIDTH 72

/* A line of at most MAIL_WIDTH: printed into buf, cut with the mark. */
static void line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(FILE *f, const char *fmt, ...)
{
	char buf[1024], fit[sizeof(buf)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	zc_elide(fit, sizeof(fit), buf, MAIL_WIDTH);
	fprintf(f, "%s\n", fit);
}

/* "key: text", the text broken at spaces under the key's column. */
static void field(FILE *f, const char *key, const char *text)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%-13s%s", key, text);
	zc_put_fitted(f, buf, MAIL_WIDTH, 13);
}

static void kernel_part(FILE *f, json_t *root, const char *what)
{
	json_t *fp = json_object_get(root, "fingerprint"), *v;
	char fpl[2048], id[512], buf[512];
	const char *side = zc_an_kernel_side(root);
	size_t i;

	snprintf(buf, sizeof(buf), "%s (%s)", zc_an_kernel(root), what);
	field(f, "kernel:", buf);
	zc_an_fingerprint(root, fpl, sizeof(fpl), id, sizeof(id));
	field(f, "fingerprint:", json_is_object(fp) ? id : "none recorded (no zcbench probe)");
	if (side) {
		snprintf(buf, sizeof(buf), "behaves like the %s side of the 2026 vmsplice/splice "
			 "patches (vmsplice_state)", side);
		field(f, "", buf);
	}
	json_array_foreach(json_object_get(fp, "verdicts"), i, v)
		if (json_is_string(v)) {
			snprintf(buf, sizeof(buf), "- %s", json_string_value(v));
			field(f, "", buf);
		}
}

/* The roles' interfaces from the host metadata, or loopback. */
static void network(json_t *root, char *out, size_t len)
{
	json_t *host = json_object_get(root, "host"), *roles = json_object_get(host, "roles"), *r;
	const char *role;
	size_t k = 0;

	out[0] = 0;
	json_object_foreach(roles, role, r) {
		json_t *nic = json_object_get(r, "nic");
		const char *ifname = zc_an_str(r, "interface");
		char speed[32] = "";

		if (!*ifname || (k && strstr(out, ifname)))
			continue;
		if (json_is_integer(json_object_get(nic, "speed_mbps")))
			snprintf(speed, sizeof(speed), ", %lld Mbit/s", zc_an_int(nic, "speed_mbps"));
		k += snprintf(out + k, len - k, "%s%s %s (%s%s%s%s)", k ? "; " : "", role, ifname,
			      *zc_an_str(nic, "driver") ? zc_an_str(nic, "driver") : "driver ?", speed,
			      json_is_true(json_object_get(nic, "virtual")) ? ", virtual" : "",
			      "");
		if (k >= len)
			break;
	}
	if (!out[0])
		snprintf(out, len, "loopback (127.0.0.1)");
	snprintf(out + strlen(out), len - strlen(out), "; host %s, transport %s",
		 *zc_an_str(host, "name") ? zc_an_str(host, "name") : "?",
		 *zc_an_str(host, "transport") ? zc_an_str(host, "transport") : "?");
}

static void machine_part(FILE *f, json_t *root)
{
	json_t *meta = json_object_get(root, "meta"), *topo = json_object_get(meta, "topology");
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s, %lld cores (%lld CPUs online, %lld package%s, "
		 "%lld NUMA node%s)", *zc_an_str(meta, "cpu_model") ? zc_an_str(meta, "cpu_model") : "?",
		 zc_an_int(topo, "cores"), zc_an_int(meta, "online_cpus"), zc_an_int(topo, "packages"),
		 zc_an_int(topo, "packages") == 1 ? "" : "s", zc_an_int(topo, "numa_nodes"),
		 zc_an_int(topo, "numa_nodes") == 1 ? "" : "s");
	field(f, "machine:", buf);
	network(root, buf, sizeof(buf));
	field(f, "network:", buf);
	/* Every figure quoted with the machine's load (results 1.9). */
	field(f, "load:", zc_report_load_text(json_object_get(meta, "load_avg"),
		json_object_get(json_object_get(meta, "steal"), "frac"), buf, sizeof(buf)));
}

/* A ratio's answer against 1.0 in at most 10 columns, from its answer key
 * (zc_answer_key's) and value; "no answer" without an interval. */
static const char *answer_short(const char *answer, double value, bool interval)
{
	if (!interval || isnan(value))
		return "no answer";
	return !strcmp(answer, "changed") ? (value > 1 ? "above 1" : "below 1") :
	       !strcmp(answer, "unchanged") ? "about 1" : "can't tell";
}

static void ratio_row(FILE *f, const struct zc_pair *p, const char *side)
{
	json_t *num = p->run, *den = p->peer_run;
	struct zc_ratio r;
	char size[48], chunk[24], pipe[24], val[16] = "-", ci[32] = "";
	const char *name = p->name;

	zc_an_ratio(num, den, &r);
	snprintf(size, sizeof(size), "%s/%s", zc_an_fmt_size(p->chunk, chunk, sizeof(chunk)),
		 zc_an_fmt_size(p->pipe_size, pipe, sizeof(pipe)));
	if (!isnan(r.value))
		snprintf(val, sizeof(val), "%.2fx", r.value);
	if (!isnan(r.lo))
		snprintf(ci, sizeof(ci), "[%.2f-%.2f]", r.lo, r.hi);
	else if (!isnan(r.value))
		snprintf(ci, sizeof(ci), "(n=%zu)", r.paired ? r.npairs : r.nn < r.nd ? r.nn : r.nd);
	line(f, "  %-25s %-4s %-9s %6s %-11s %s%s", name, side, size, val, ci,
	     answer_short(zc_answer_key(r.vd.answer), r.value, r.ch.ok),
	     json_is_true(json_object_get(num, "verified")) &&
		     json_is_true(json_object_get(den, "verified")) ? "" : " UNVERIFIED");
	zc_print_busy_pair(f, zc_an_busy_frac(num), zc_an_busy_frac(den), MAIL_WIDTH, true);
}

/* Each side at its best size among those run: the fair question, first. */
static void best_part(FILE *f, json_t *root)
{
	json_t *best = zc_headline_best(json_object_get(root, "runs")), *h;
	size_t i;

	if (!json_array_size(best)) {
		json_decref(best);
		return;
	}
	fprintf(f, "\nEach side at its best size among those run (best median\n"
		   "Gbit/s per core; the interval leaves the choice out):\n\n");
	json_array_foreach(best, i, h) {
		json_t *num = json_object_get(h, "numerator"), *den = json_object_get(h, "denominator");
		char ns[48], ds[48], sizes[100], val[16] = "-", ci[32] = "";

		snprintf(sizes, sizeof(sizes), "%s vs %s", zc_an_size_of(num, ns, sizeof(ns)),
			 zc_an_size_of(den, ds, sizeof(ds)));
		if (json_is_number(json_object_get(h, "value")))
			snprintf(val, sizeof(val), "%.2fx", zc_an_real(h, "value"));
		if (json_is_number(json_object_get(h, "lo")))
			snprintf(ci, sizeof(ci), "[%.2f-%.2f]", zc_an_real(h, "lo"), zc_an_real(h, "hi"));
		line(f, "  %-18s %-18s %6s %-11s %s", zc_an_str(h, "ratio"), sizes, val, ci,
		     answer_short(zc_an_str(h, "answer"), zc_an_real(h, "value"),
				  json_is_number(json_object_get(h, "lo"))));
		zc_print_busy_pair(f, zc_an_real(h, "numerator_busy_frac"),
				   zc_an_real(h, "denominator_busy_frac"), MAIL_WIDTH, false);
	}
	json_decref(best);
}

static void headline_part(FILE *f, json_t *root)
{
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), ZC_PAIRS_AFTER, &pv), shown = 0;

	fprintf(f, "\nHeadline at each size: Gbit/s per core of the device under\n"
		   "test, one path over another: the geometric mean of the\n"
		   "per-round ratios, its 95%% interval (t on the logs; none\n"
		   "below 3 rounds), and what the interval says against\n"
		   "1.0+-%g%%: above, below, about 1, or can't tell. side: this\n"
		   "kernel, or emul (the path's emulated after-mode). size:\n"
		   "chunk/pipe.\n\n", 100 * ZC_RATIO_THRESHOLD);
	line(f, "  %-25s %-4s %-9s %6s %-11s %s", "ratio", "side", "size", "value", "95% intvl",
	     "vs 1.0");
	for (size_t i = 0; i < n; i++) {
		if (!pv[i].run || !pv[i].peer_run)
			continue;
		ratio_row(f, &pv[i], pv[i].kind == ZC_PAIR_HEADLINE ? "this" : "emul");
		shown++;
	}
	if (!shown)
		fprintf(f, "  (no pair of runs for a headline ratio in this file)\n");
	free(pv);
}

struct ba_ctx {
	FILE *f;
	int rows, slower, faster, within, cant;
	double could_see;	/* the smallest drop a can't-tell row could see */
	char slower_which[256], faster_which[256];	/* their before modes, ", "-separated */
};

/* Add name to a ", "-separated list that fits len (else "..." once). */
static void list_add(char *list, size_t len, const char *name)
{
	size_t k = strlen(list);

	if (k && !strcmp(list + k - 3, "..."))
		return;
	if (k + strlen(name) + 6 >= len) {
		snprintf(list + k, len - k, "%s...", k ? ", " : "");
		return;
	}
	snprintf(list + k, len - k, "%s%s", k ? ", " : "", name);
}

static void ba_row(const struct zc_ba_row *r, void *user)
{
	struct ba_ctx *x = user;
	char chunk[24], pipe[24], size[48], b[16] = "-", a[16] = "-", ch[96], vs[320];

	zc_an_fmt_size(r->chunk, chunk, sizeof(chunk));
	zc_an_fmt_size(r->pipe_size, pipe, sizeof(pipe));
	snprintf(size, sizeof(size), "%s/%s", chunk, pipe);
	if (isfinite(r->before_gpc))
		snprintf(b, sizeof(b), "%.2f", r->before_gpc);
	if (isfinite(r->after_gpc))
		snprintf(a, sizeof(a), "%.2f", r->after_gpc);
	line(x->f, "  %-19s %-19s %-9s %7s %7s", r->before_mode, r->after_mode, size, b, a);
	zc_change_fmt(&r->ch, ch, sizeof(ch));
	zc_verdict_fmt(&r->ch, &r->vd, vs, sizeof(vs));
	/* The change and its answer under the row, broken to the mail's width. */
	zc_change_method(&r->ch, ch, sizeof(ch));
	{
		char buf[512];

		snprintf(buf, sizeof(buf), "    %s (%s)", vs, ch);
		zc_put_fitted(x->f, buf, MAIL_WIDTH, 6);
	}
	x->rows++;
	if (r->vd.answer == ZC_ANSWER_CHANGED) {
		char name[96];

		snprintf(name, sizeof(name), "%s %s", r->before_mode, size);
		*(r->vd.direction < 0 ? &x->slower : &x->faster) += 1;
		if (r->vd.direction < 0)
			list_add(x->slower_which, sizeof(x->slower_which), name);
		else
			list_add(x->faster_which, sizeof(x->faster_which), name);
	}
	else if (r->vd.answer == ZC_ANSWER_UNCHANGED)
		x->within++;
	else {
		x->cant++;
		if (isfinite(r->vd.can_see_down) && !(100 * r->vd.can_see_down >= x->could_see))
			x->could_see = 100 * r->vd.can_see_down;
	}
}

static void before_after_part(FILE *f, json_t *root, json_t *base)
{
	struct ba_ctx x = { .f = f, .could_see = NAN };
	char buf[1024];
	int k;

	if (base)
		fprintf(f, "\nPatched paths, before (BASE) and after (this file): Gbit/s\n"
			   "per core of the device under test, medians (zcbench\n"
			   "before-after BASE --after FILE); under each, the change with\n"
			   "its 95%% interval and what it says at +-%g%%.\n\n",
			100 * ZC_RATIO_THRESHOLD);
	else
		fprintf(f, "\nPatched paths, before and after as emulated in this file:\n"
			   "Gbit/s per core of the device under test, medians (zcbench\n"
			   "before-after FILE); under each, the change with its 95%%\n"
			   "interval and what it says at +-%g%%.\n\n", 100 * ZC_RATIO_THRESHOLD);
	line(f, "  %-19s %-19s %-9s %7s %7s", "before mode", "after mode", "size", "before",
	     "after");
	if (base)
		zc_ba_tcp_rows(&base, 1, &root, 1, ba_row, &x);
	else
		zc_ba_tcp_rows(&root, 1, NULL, 0, ba_row, &x);
	if (!x.rows) {
		fprintf(f, "  (no path with a run before and after)\n");
		return;
	}
	/* Three answers, never two: slower and faster only beyond the threshold. */
	k = snprintf(buf, sizeof(buf), "of %d patched path%s, per core after: %d slower by more "
		     "than %g%%%s%s%s, %d faster by more than %g%%%s%s%s, %d within +-%g%%, %d can't tell",
		     x.rows, x.rows == 1 ? "" : "s", x.slower, 100 * ZC_RATIO_THRESHOLD,
		     x.slower ? " (" : "", x.slower_which, x.slower ? ")" : "", x.faster,
		     100 * ZC_RATIO_THRESHOLD, x.faster ? " (" : "", x.faster_which, x.faster ? ")" : "",
		     x.within, 100 * ZC_RATIO_THRESHOLD, x.cant);
	if (x.cant && isfinite(x.could_see) && k > 0 && (size_t)k < sizeof(buf))
		k += snprintf(buf + k, sizeof(buf) - k, " (the most precise of them could see a "
			      "drop of %.0f%%; more rounds would see less)", x.could_see);
	if (base && k > 0 && (size_t)k < sizeof(buf))
		snprintf(buf + k, sizeof(buf) - k, "; two invocations, one a side: each path held to "
			 "a stated spread between invocations of %.0f%%, not measured here (compare "
			 "with folders of several invocations a side, or --profile, measures it)",
			 100 * ZC_BETWEEN_DEFAULT_SD);
	fprintf(f, "\n");
	field(f, "verdict:", buf);
}

/* A word as the shell reads it back: as is, or in single quotes. */
static void shell_word(const char *w, char *out, size_t len)
{
	size_t k = 0;

	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    "_./=,:@%+-") == strlen(w)) {
		snprintf(out, len, "%s", w);
		return;
	}
	out[k++] = '\'';
	for (; *w && k + 5 < len; w++) {
		if (*w == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *w;
		}
	}
	out[k++] = '\'';
	out[k] = 0;
}

/* The command, broken before a word with " \" so that every line fits
 * and the shell reads it back as one command; a word too long for a line
 * is cut into pieces quoted on their own, joined by a bare "\" newline. */
static void reproduce_part(FILE *f, json_t *root)
{
	json_t *meta = json_object_get(root, "meta"), *cmd = json_object_get(root, "command");
	json_t *git = json_object_get(meta, "git"), *w;
	const char *sha = zc_an_str(git, "sha");
	int col;
	size_t i;

	fprintf(f, "\nTo reproduce (zcbench %s):\n\n",
		*zc_an_str(meta, "zcbench_version") ? zc_an_str(meta, "zcbench_version") : "?");
	if (*sha && strcmp(sha, "unknown"))
		line(f, "  git checkout %s && make", sha);
	if (json_is_true(json_object_get(git, "dirty")))
		fprintf(f, "  # the tree had changes not committed: the same sha may differ\n");
	if (!json_array_size(cmd)) {
		fprintf(f, "  (this results file carries no command line)\n");
		return;
	}
	fprintf(f, "  bench/zcbench");
	col = 15;
	json_array_foreach(cmd, i, w) {
		const char *s = json_string_value(w) ?: "";
		char q[2048];
		int n;

		if (!i && !strcmp(s, "zcbench"))
			continue;	/* argv[0] recorded too */
		shell_word(s, q, sizeof(q));
		n = (int)strlen(q);
		if (col + 1 + n + 2 > MAIL_WIDTH) {
			fprintf(f, " \\\n   ");
			col = 3;
		}
		if (col + 1 + n + 2 <= MAIL_WIDTH) {
			fprintf(f, " %s", q);
			col += 1 + n;
			continue;
		}
		/* One word wider than a line: pieces, each quoted, joined by "\" newline. */
		fputc(' ', f);
		col++;
		for (size_t off = 0, len = strlen(s); off < len;) {
			char piece[32], pq[160];
			size_t take = len - off < 24 ? len - off : 24;

			snprintf(piece, sizeof(piece), "%.*s", (int)take, s + off);
			shell_word(piece, pq, sizeof(pq));
			if (col + (int)strlen(pq) + 1 > MAIL_WIDTH) {
				fprintf(f, "\\\n");
				col = 0;
			}
			fprintf(f, "%s", pq);
			col += (int)strlen(pq);
			off += take;
		}
	}
	fprintf(f, "\n");
	if (*zc_an_str(json_object_get(root, "workload"), "file"))
		line(f, "  # workload file: %s", zc_an_str(json_object_get(root, "workload"), "file"));
}

void zc_report_mail(FILE *f, const char *path, json_t *root, const char *base_path, json_t *base)
{
	char buf[1024];

	line(f, "zcbench report: %s, kernel %s", *zc_an_str(json_object_get(root, "workload"), "name") ?
	     zc_an_str(json_object_get(root, "workload"), "name") : "runs", zc_an_kernel(root));
	fprintf(f, "\n");
	field(f, "results:", path);
	snprintf(buf, sizeof(buf), "%s on %s, status %s%s%s%s", zc_an_date(root),
		 zc_an_hostname(root), zc_an_str(root, "status"),
		 *zc_an_str(root, "status_reason") ? " (" : "", zc_an_str(root, "status_reason"),
		 *zc_an_str(root, "status_reason") ? ")" : "");
	field(f, "taken:", buf);
	kernel_part(f, root, base ? "after: this file" : "this file");
	if (base) {
		field(f, "base:", base_path);
		kernel_part(f, base, "before: BASE");
	}
	machine_part(f, root);
	best_part(f, root);
	headline_part(f, root);
	before_after_part(f, root, base);
	reproduce_part(f, root);
}
