// SPDX-License-Identifier: GPL-2.0
/*
 * A role's window report, built by every producer from fixed edges through
 * the function it calls itself: the stream role (zc_role_window_json), the
 * request/response role (zc_rr_window_json), a program in a stream role's
 * place and one in a request/response role's place, server and client
 * (zc_hp_window_json). On the ok path and the failure paths (a CPU's
 * /proc/stat not read, a window of 0 s, no CPU time of the process) each
 * prints exactly the keys of wire.h's ZC_WINDOW_KEYS, in that order, null
 * where it measured nothing; the table of what each printed goes to stdout.
 */
#include "zc_test.h"

#include "peers/rr_peer_int.h"
#include "role/role_int.h"
#include "rr/rr_int.h"
#include "wire/wire.h"

#include <string.h>

enum { C_OK, C_NOCS, C_WIN0, C_NORUSAGE, C_NR };
static const char *const case_name[C_NR] = { "ok", "cpustat not read", "window 0 s",
					      "no rusage" };

enum { P_STREAM, P_RR, P_PEER, P_PEER_RR, P_PEER_RR_CLIENT, P_NR };
static const char *const producer[P_NR] = { "stream", "rr", "peer-stream", "peer-rr",
					    "peer-rr-client" };

static void edge_cs(struct zc_cpustat *a, struct zc_cpustat *b, double busy)
{
	*a = (struct zc_cpustat){ .user = 10, .system = 10, .idle = 10 };
	*b = (struct zc_cpustat){ .user = 10 + busy / 2, .nice = 0.25, .system = 10 + busy / 4,
				  .softirq = busy / 4 - 0.25, .idle = 11, .iowait = 0.5 };
}

static double win_of(int c)
{
	return c == C_WIN0 ? 0 : 2;
}

/* Two workers on CPUs 3 and 3 (counted once) and 5. */
static json_t *stream(int c)
{
	static struct role_worker w[3];
	static struct role r;

	memset(w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	r.nworkers = 3;
	r.w = w;
	for (int i = 0; i < 3; i++) {
		struct wsnap *a = &w[i].s[PH_WARMUP], *b = &w[i].s[PH_WINDOW];

		w[i].cpu = i < 2 ? 3 : 5;
		a->t = 100;
		b->t = 100 + win_of(c);
		b->bytes = 1000;
		b->calls = 10;
		edge_cs(&a->cs, &b->cs, 1);
		a->cs_ok = b->cs_ok = !(c == C_NOCS && i == 2);
	}
	r.ru_self[PH_WINDOW].ru_utime.tv_sec = 1;
	r.ru_self[PH_WINDOW].ru_stime.tv_usec = 500000;
	r.ru_self[PH_WINDOW].ru_nvcsw = 7;
	return zc_role_window_json(&r);
}

/* Two workers, CPUs 4 and 6, each with its thread's rusage. */
static json_t *rr(int c)
{
	static struct rr_worker w[2];
	static struct rr rr;

	memset(w, 0, sizeof(w));
	memset(&rr, 0, sizeof(rr));
	rr.nw = 2;
	rr.w = w;
	rr.role = ZC_ROLE_SINK;
	for (int i = 0; i < 2; i++) {
		struct rr_snap *a = &w[i].s[RR_WARMUP], *b = &w[i].s[RR_WINDOW];

		w[i].cpu = 4 + 2 * i;
		a->t = 50;
		b->t = 50 + win_of(c);
		b->bytes = 4096;
		b->calls = 8;
		b->tx = 4;
		b->ru.ru_utime.tv_sec = 1;
		b->ru.ru_nivcsw = 3;
		edge_cs(&a->cs, &b->cs, 1);
		a->cs_ok = b->cs_ok = !(c == C_NOCS && i == 1);
	}
	return zc_rr_window_json(&rr);
}

/* A program on CPUs 2 and 7: its sockets wrote (read: read) 5000 bytes. */
static json_t *peer(int c, int traffic, int role)
{
	static struct zc_role_args ra;
	static struct hp h;
	int64_t tx = -1;
	json_t *o;

	memset(&ra, 0, sizeof(ra));
	memset(&h, 0, sizeof(h));
	ra.role = role;
	ra.cfg.traffic = traffic;
	ra.cfg.object_size = 100;
	h.ra = &ra;
	h.ncpus = 2;
	h.cpus[0] = 2;
	h.cpus[1] = 7;
	h.read = role == ZC_ROLE_SOURCE;
	h.group = role == ZC_ROLE_SINK;
	h.e[HP_WARMUP].t = 20;
	h.e[HP_WINDOW].t = 20 + win_of(c);
	for (int e = 0; e < HP_NR; e++) {
		h.e[e].tcp = (struct zc_peer_tcp){ .written = 1000 + e * 5000, .read = 2000 + e * 5000,
						   .nsocks = 4 };
		h.e[e].cs_ok = c != C_NOCS;
		h.e[e].cpu_ok = c != C_NORUSAGE;
		h.e[e].user_s = 3 + e;
		h.e[e].sys_s = 1 + e * 0.5;
	}
	for (int i = 0; i < 2; i++)
		edge_cs(&h.e[HP_WARMUP].cs[i], &h.e[HP_WINDOW].cs[i], 1);
	/* The client said: 100 responses, 10000 bytes read over its run. */
	o = zc_hp_window_json(&h, 100, 10000, &tx);
	if (role == ZC_ROLE_SOURCE)
		assert_int_equal(tx, 50);
	return o;
}

static json_t *build(int p, int c)
{
	switch (p) {
	case P_STREAM:
		return stream(c);
	case P_RR:
		return rr(c);
	case P_PEER:
		return peer(c, ZC_TRAFFIC_STREAM, ZC_ROLE_PROXY);
	case P_PEER_RR:
		return peer(c, ZC_TRAFFIC_RR, ZC_ROLE_SINK);
	default:
		return peer(c, ZC_TRAFFIC_RR, ZC_ROLE_SOURCE);
	}
}

static char kind(const json_t *v)
{
	return json_is_null(v) ? 'n' : json_is_integer(v) ? 'i' : json_is_real(v) ? 'r' :
	       json_is_string(v) ? 's' : json_is_array(v) ? 'a' : json_is_object(v) ? 'o' : '?';
}

/* Exactly the list's keys, in its order; cpustat, when there, exactly its. */
static void same_keys(json_t *o, const char *const *keys, size_t n, const char *who)
{
	const char *k;
	json_t *v;
	size_t i = 0;

	assert_non_null(o);
	json_object_foreach(o, k, v) {
		if (i >= n || strcmp(k, keys[i]))
			fail_msg("%s: key %zu is %s, the list has %s", who, i, k, i < n ? keys[i] : "none");
		i++;
	}
	if (i != n)
		fail_msg("%s: %zu keys, the list has %zu", who, i, n);
}

static void every_producer_prints_the_list(void **state)
{
	char table[ZC_WK_NR][P_NR][C_NR + 1];

	(void)state;
	for (int p = 0; p < P_NR; p++)
		for (int c = 0; c < C_NR; c++) {
			char who[64];
			json_t *o, *cs;

			/* A zcbench role's getrusage cannot fail: no such path. */
			if (c == C_NORUSAGE && p <= P_RR) {
				for (int k = 0; k < ZC_WK_NR; k++)
					table[k][p][c] = '-';
				continue;
			}
			o = build(p, c);
			cs = json_object_get(o, "cpustat");
			snprintf(who, sizeof(who), "%s, %s", producer[p], case_name[c]);
			same_keys(o, zc_window_keys, ZC_WK_NR, who);
			if (json_is_object(cs))
				same_keys(cs, zc_cpustat_keys, ZC_CK_NR, who);
			for (int k = 0; k < ZC_WK_NR; k++)
				table[k][p][c] = kind(json_object_get(o, zc_window_keys[k]));
			json_decref(o);
		}
	for (int k = 0; k < ZC_WK_NR; k++)
		for (int p = 0; p < P_NR; p++)
			table[k][p][C_NR] = 0;
	printf("window keys by producer; per case (%s, %s, %s, %s): i integer, r real, "
	       "s text, a array, o object, n null, - no such path\n", case_name[0], case_name[1], case_name[2],
	       case_name[3]);
	printf("%-20s", "key");
	for (int p = 0; p < P_NR; p++)
		printf(" %-14s", producer[p]);
	printf("\n");
	for (int k = 0; k < ZC_WK_NR; k++) {
		printf("%-20s", zc_window_keys[k]);
		for (int p = 0; p < P_NR; p++)
			printf(" %-14s", table[k][p]);
		printf("\n");
	}
}

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* What the keys hold: sums over workers, distinct CPUs once, derived busy. */
static void figures(void **state)
{
	json_t *o = stream(C_OK);

	(void)state;
	/* CPUs 3, 3, 5: two distinct, busy 1 s each. */
	assert_int_equal(json_array_size(json_object_get(o, "cpus")), 2);
	assert_close(num(o, "busy_s"), 2, 1e-9);
	assert_close(num(o, "busy_frac"), 1, 1e-9);
	assert_close(num(json_object_get(o, "cpustat"), "iowait_s"), 1, 1e-9);
	assert_int_equal(num(o, "bytes"), 3000);
	assert_close(num(o, "rusage_sys_s"), 0.5, 1e-9);
	assert_int_equal(num(o, "vol_ctx_switches"), 7);
	assert_true(json_is_null(json_object_get(o, "transactions")));
	json_decref(o);
	/* rr: its threads' rusage summed, context switches too. */
	o = rr(C_OK);
	assert_close(num(o, "rusage_user_s"), 2, 1e-9);
	assert_int_equal(num(o, "invol_ctx_switches"), 6);
	assert_int_equal(num(o, "transactions"), 8);
	assert_close(num(json_object_get(o, "cpustat"), "nice_s"), 0.5, 1e-9);
	json_decref(o);
	/* Not measured: null, never absent, never 0. */
	o = rr(C_NOCS);
	assert_true(json_is_null(json_object_get(o, "cpustat")));
	assert_true(json_is_null(json_object_get(o, "busy_frac")));
	json_decref(o);
	o = stream(C_WIN0);
	assert_true(json_is_null(json_object_get(o, "busy_frac")));
	assert_close(num(o, "busy_s"), 2, 1e-9);
	json_decref(o);
	o = peer(C_NORUSAGE, ZC_TRAFFIC_STREAM, ZC_ROLE_PROXY);
	assert_true(json_is_null(json_object_get(o, "rusage_user_s")));
	assert_int_equal(num(o, "bytes"), 5000);
	json_decref(o);
	/* A peer's CPU time; HAProxy in a request/response run has no bytes. */
	o = peer(C_OK, ZC_TRAFFIC_RR, ZC_ROLE_PROXY);
	assert_close(num(o, "rusage_sys_s"), 0.5, 1e-9);
	assert_true(json_is_null(json_object_get(o, "bytes")));
	assert_int_equal(num(o, "tcp_bytes"), 5000);
	json_decref(o);
	/* The client: half its bytes in the window, so half its 100 responses. */
	o = peer(C_OK, ZC_TRAFFIC_RR, ZC_ROLE_SOURCE);
	assert_int_equal(num(o, "transactions"), 50);
	assert_int_equal(num(o, "bytes"), 5000);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_producer_prints_the_list),
		cmocka_unit_test(figures),
	};

	return zc_run_tests(tests, NULL, NULL);
}
