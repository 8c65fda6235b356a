// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench report --mail FILE [BASE]: a report to paste into a mail, at most
 * 72 columns, shaped like the 0-day robot's: the kernel and what its
 * fingerprint says, the machine, the headline ratios with their intervals
 * and n, the patched paths before and after (before-after's rows: BASE
 * against FILE, or FILE's emulated after-modes), and the command that
 * reproduces the runs, from the results file.
 */
#include "output/report.h"
#include "output/beforeafter.h"
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
}

static void ratio_row(FILE *f, const char *name, const char *side, json_t *num, json_t *den)
{
	struct zc_ratio r;
	json_t *k = json_object_get(num, "key");
	char chunk[24], pipe[24], ci[48] = "", val[16] = "n/a";

	zc_an_ratio(num, den, &r);
	zc_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
	zc_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
	if (!isnan(r.value))
		snprintf(val, sizeof(val), "%.2fx", r.value);
	if (!isnan(r.lo))
		snprintf(ci, sizeof(ci), "[%.2f-%.2f]", r.lo, r.hi);
	else if (!isnan(r.value))
		snprintf(ci, sizeof(ci), "(no interval)");
	line(f, "  %-25s %-4s %5s %5s %6s %-13s %zu/%zu%s", name, side, chunk, pipe, val, ci, r.nn,
	     r.nd, json_is_true(json_object_get(num, "verified")) &&
		   json_is_true(json_object_get(den, "verified")) ? "" : " UNVERIFIED");
}

static void headline_part(FILE *f, json_t *root)
{
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), ZC_PAIRS_AFTER, &pv), shown = 0;

	fprintf(f, "\nHeadline: Gbit/s per core of the device under test, one path\n"
		   "over another; median, 95%% bootstrap interval, n = ok samples.\n"
		   "side: this kernel, or emul (the path's emulated after-mode).\n\n");
	line(f, "  %-25s %-4s %5s %5s %6s %-13s %s", "ratio", "side", "chunk", "pipe", "value",
	     "95% interval", "n");
	for (size_t i = 0; i < n; i++) {
		if (!pv[i].run || !pv[i].peer_run)
			continue;
		ratio_row(f, pv[i].name, pv[i].kind == ZC_PAIR_HEADLINE ? "this" : "emul", pv[i].run,
			  pv[i].peer_run);
		shown++;
	}
	if (!shown)
		fprintf(f, "  (no pair of runs for a headline ratio in this file)\n");
	free(pv);
}

struct ba_ctx {
	FILE *f;
	int rows, worse;
};

static void ba_row(const struct zc_ba_row *r, void *user)
{
	struct ba_ctx *x = user;
	char chunk[24], b[16] = "-", a[16] = "-", ch[16] = "-";

	zc_fmt_size(r->chunk, chunk, sizeof(chunk));
	if (isfinite(r->before_gpc))
		snprintf(b, sizeof(b), "%.2f", r->before_gpc);
	if (isfinite(r->after_gpc))
		snprintf(a, sizeof(a), "%.2f", r->after_gpc);
	if (isfinite(r->change_pct))
		snprintf(ch, sizeof(ch), "%+.1f%%", r->change_pct);
	line(x->f, "  %-19s %-19s %5s %7s %7s %7s", r->before_mode, r->after_mode, chunk, b, a, ch);
	x->rows++;
	x->worse += isfinite(r->change_pct) && r->change_pct < 0;
}

static void before_after_part(FILE *f, json_t *root, json_t *base)
{
	struct ba_ctx x = { .f = f };

	if (base)
		fprintf(f, "\nPatched paths, before (BASE) and after (this file): Gbit/s\n"
			   "per core of the device under test, medians (zcbench\n"
			   "before-after BASE --after FILE).\n\n");
	else
		fprintf(f, "\nPatched paths, before and after as emulated in this file:\n"
			   "Gbit/s per core of the device under test, medians (zcbench\n"
			   "before-after FILE).\n\n");
	line(f, "  %-19s %-19s %5s %7s %7s %7s", "before mode", "after mode", "chunk", "before",
	     "after", "change");
	if (base)
		zc_ba_tcp_rows(&base, 1, &root, 1, ba_row, &x);
	else
		zc_ba_tcp_rows(&root, 1, NULL, 0, ba_row, &x);
	if (!x.rows)
		fprintf(f, "  (no path with a run before and after)\n");
	else
		fprintf(f, "\nverdict: %d of %d patched path%s slower per core after.\n", x.worse,
			x.rows, x.rows == 1 ? "" : "s");
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
	snprintf(buf, sizeof(buf), "%s on %s, status %s", zc_an_date(root), zc_an_hostname(root),
		 zc_an_str(root, "status"));
	field(f, "taken:", buf);
	kernel_part(f, root, base ? "after: this file" : "this file");
	if (base) {
		field(f, "base:", base_path);
		kernel_part(f, base, "before: BASE");
	}
	machine_part(f, root);
	headline_part(f, root);
	before_after_part(f, root, base);
	reproduce_part(f, root);
}
