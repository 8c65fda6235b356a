// SPDX-License-Identifier: GPL-2.0
/*
 * The profile library without sampling: perf script text folded, folded
 * files read and written, the buckets of hand-made stacks, the summary's
 * shares worked out by hand, the flame graph's SVG, and what one path saves
 * over another per byte (report/breakdown.c) on a hand-made results file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zc_test.h"

#include "report/breakdown.h"
#include "profile/profile.h"

static const char perf_script[] =
	"Warning: a line perf prints before the samples\n"
	"zcbench  1234/1234\n"
	"\tffffffff81badf3d _copy_to_iter ([kernel.kallsyms])\n"
	"\tffffffff81baea83 tcp_recvmsg_locked ([kernel.kallsyms])\n"
	"\t           d4ad7 __libc_recv (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\t            1234 [unknown] (/work/bench/zcbench)\n"
	"\n"
	"kworker/1:1H-kb  77/77\n"
	"\tffffffff81000100 worker_thread ([kernel.kallsyms])\n"
	"\n"
	"zcbench  1234/1234\n"
	"\tffffffff81badf3d _copy_to_iter ([kernel.kallsyms])\n"
	"\tffffffff81baea83 tcp_recvmsg_locked ([kernel.kallsyms])\n"
	"\t           d4ad7 __libc_recv (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\t            1234 [unknown] (/work/bench/zcbench)\n"
	"\n"
	"my prog  9/10\n"
	"\t            5678 operator new(unsigned long) (/usr/lib/libstdc++.so.6)\n";

static json_int_t count(struct zc_stacks *s, const char *stack)
{
	return json_integer_value(json_object_get(s->counts, stack));
}

static void test_perf_script(void **state)
{
	struct zc_stacks s;
	FILE *f = fmemopen((void *)perf_script, sizeof(perf_script) - 1, "r");

	(void)state;
	assert_int_equal(zc_stacks_init(&s), 0);
	assert_int_equal(zc_stacks_from_perf_script(&s, f), 0);
	fclose(f);
	assert_int_equal(s.total, 4);
	/* Root first, comm-pid at the root, kernel frames marked, an unknown
	 * symbol named by its file, a comm with a space kept apart. */
	assert_int_equal(count(&s, "zcbench-1234;[zcbench];__libc_recv;tcp_recvmsg_locked_[k];"
				   "_copy_to_iter_[k]"), 2);
	assert_int_equal(count(&s, "kworker/1:1H-kb-77;worker_thread_[k]"), 1);
	assert_int_equal(count(&s, "my_prog-9;operator new(unsigned long)"), 1);
	zc_stacks_free(&s);
}

static void test_folded_roundtrip(void **state)
{
	char path[] = "/tmp/zc-test-folded.XXXXXX";
	struct zc_stacks a, b;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(zc_stacks_init(&a), 0);
	assert_int_equal(zc_stacks_add(&a, "p-1;main;work", 3), 0);
	assert_int_equal(zc_stacks_add(&a, "p-1;main;work", 2), 0);
	assert_int_equal(zc_stacks_add(&a, "p-1;main", 1), 0);
	assert_int_equal(a.total, 6);
	assert_int_equal(zc_stacks_write(&a, path), 0);
	assert_int_equal(zc_stacks_init(&b), 0);
	assert_int_equal(zc_stacks_read(&b, path), 0);
	assert_int_equal(b.total, 6);
	assert_int_equal(count(&b, "p-1;main;work"), 5);
	zc_stacks_free(&b);
	/* Not folded stacks: said, not half read. */
	f = fopen(path, "w");
	fputs("p-1;main;work five\n", f);
	fclose(f);
	assert_int_equal(zc_stacks_init(&b), 0);
	assert_int_equal(zc_stacks_read(&b, path), -EPROTO);
	zc_stacks_free(&b);
	zc_stacks_free(&a);
	unlink(path);
}

static enum zc_bucket bucket(const char *stack, bool *idle)
{
	char *copy = strdup(stack), *frames[64];
	size_t n = 0;
	enum zc_bucket b;

	for (char *p = strtok(copy, ";"); p && n < 64; p = strtok(NULL, ";"))
		frames[n++] = p;
	b = zc_bucket_of((const char *const *)frames, n, idle);
	free(copy);
	return b;
}

static void test_buckets(void **state)
{
	static const struct {
		const char *stack;
		enum zc_bucket want;
		bool idle;
	} cases[] = {
		/* the leaf copies, whatever called it */
		{ "__libc_recv;entry_SYSCALL_64_[k];tcp_recvmsg_[k];_copy_to_iter_[k]",
		  ZC_BUCKET_KERNEL_COPY, false },
		{ "main;__memmove_avx_unaligned_erms", ZC_BUCKET_USER_COPY, false },
		/* a user-space memcpy is not a kernel copy, nor the other way */
		{ "main;memcpy_[k]", ZC_BUCKET_KERNEL_COPY, false },
		{ "cpu_startup_entry_[k];do_idle_[k];default_idle_[k]", ZC_BUCKET_SCHED_IDLE, true },
		/* softirq anywhere beats the TCP frames under it */
		{ "__send;tcp_sendmsg_[k];__dev_queue_xmit_[k];do_softirq_[k];handle_softirqs_[k];"
		  "net_rx_action_[k];tcp_v4_rcv_[k];kmem_cache_free_[k]", ZC_BUCKET_SOFTIRQ, false },
		/* the nearest frame from the leaf up decides */
		{ "__send;entry_SYSCALL_64_[k];__x64_sys_sendto_[k];tcp_sendmsg_locked_[k];"
		  "kmem_cache_alloc_node_[k]", ZC_BUCKET_TCP_TX, false },
		{ "splice;entry_SYSCALL_64_[k];__do_sys_splice_[k];tcp_splice_read_[k];"
		  "tcp_read_sock_[k];skb_splice_bits_[k];__folio_put_[k]", ZC_BUCKET_PIPE_SPLICE, false },
		{ "recv;entry_SYSCALL_64_[k];__sys_recvfrom_[k];tcp_recvmsg_[k];release_sock_[k];"
		  "tcp_v4_do_rcv_[k];tcp_rcv_established_[k];kfree_skb_[k]", ZC_BUCKET_TCP_RX, false },
		{ "epoll_wait;entry_SYSCALL_64_[k];do_epoll_wait_[k];schedule_[k];__schedule_[k];"
		  "finish_task_switch.isra.0_[k]", ZC_BUCKET_SCHED_IDLE, false },
		{ "write;entry_SYSCALL_64_[k];__fdget_pos_[k]", ZC_BUCKET_SYSCALL, false },
		{ "main;zc_pump;step", ZC_BUCKET_OTHER, false },
		{ "", ZC_BUCKET_OTHER, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool idle;
		enum zc_bucket b = bucket(cases[i].stack, &idle);

		if (b != cases[i].want || idle != cases[i].idle)
			fail_msg("%s: bucket %s (idle %d), want %s", cases[i].stack,
				 zc_buckets[b].key, idle, zc_buckets[cases[i].want].key);
	}
}

static double num(json_t *o, const char *group, const char *key)
{
	json_t *v = json_object_get(group ? json_object_get(o, group) : o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void test_summary(void **state)
{
	struct zc_stacks s;
	json_t *sum, *v;
	const char *k;
	double total = 0, last = 1e9;

	(void)state;
	zc_stacks_init(&s);
	/* 10 samples: 5 copy (one chain recursing through tcp_recvmsg), 3
	 * splice, 2 idle of the swapper. */
	zc_stacks_add(&s, "zcbench-1;recv;tcp_recvmsg_[k];tcp_recvmsg_[k];_copy_to_iter_[k]", 4);
	zc_stacks_add(&s, "zcbench-1;recv;tcp_recvmsg_[k];_copy_to_iter_[k]", 1);
	zc_stacks_add(&s, "zcbench-1;splice;__do_sys_splice_[k];splice_to_socket_[k]", 3);
	zc_stacks_add(&s, "swapper-0;do_idle_[k];default_idle_[k]", 2);
	sum = zc_profile_summarise(&s, 3, NULL);
	assert_non_null(sum);
	assert_int_equal(json_integer_value(json_object_get(sum, "samples")), 10);
	assert_float_equal(num(sum, NULL, "idle_pct"), 20, 1e-9);
	assert_float_equal(num(sum, "self", "perf-profile.self.cycles-pp._copy_to_iter"), 50, 1e-9);
	assert_float_equal(num(sum, "self", "perf-profile.self.cycles-pp.splice_to_socket"), 30, 1e-9);
	/* Recursion counts a sample once for its symbol. */
	assert_float_equal(num(sum, "children", "perf-profile.children.cycles-pp.tcp_recvmsg"), 50,
			   1e-9);
	/* top 3: only three symbols kept, largest first */
	assert_int_equal(json_object_size(json_object_get(sum, "self")), 3);
	json_object_foreach(json_object_get(sum, "self"), k, v) {
		assert_true(json_number_value(v) <= last);
		last = json_number_value(v);
	}
	assert_float_equal(num(sum, "buckets", "kernel_copy"), 50, 1e-9);
	assert_float_equal(num(sum, "buckets", "pipe_splice"), 30, 1e-9);
	assert_float_equal(num(sum, "buckets", "sched_idle"), 20, 1e-9);
	json_object_foreach(json_object_get(sum, "buckets"), k, v)
		total += json_number_value(v);
	assert_float_equal(total, 100, 1e-9);
	assert_float_equal(num(sum, "comms", "zcbench"), 80, 1e-9);
	json_decref(sum);
	/* Only the DUT's process: by pid, and by name. */
	sum = zc_profile_summarise(&s, 0, "1");
	assert_int_equal(json_integer_value(json_object_get(sum, "samples")), 8);
	assert_float_equal(num(sum, "buckets", "kernel_copy"), 62.5, 1e-9);
	json_decref(sum);
	sum = zc_profile_summarise(&s, 0, "swapper");
	assert_int_equal(json_integer_value(json_object_get(sum, "samples")), 2);
	json_decref(sum);
	zc_stacks_free(&s);
}

static void test_flamegraph(void **state)
{
	struct zc_stacks s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rects = 0;

	(void)state;
	zc_stacks_init(&s);
	zc_stacks_add(&s, "a&b-1;main;operator<(x, y);_copy_to_iter_[k]", 3);
	zc_stacks_add(&s, "a&b-1;main;other", 1);
	assert_int_equal(zc_flamegraph_write(&s, "t <1>", f), 0);
	fclose(f);
	/* all, comm, main, two callees, one leaf below one, legend squares */
	for (const char *p = buf; (p = strstr(p, "<rect")); p++)
		rects++;
	assert_int_equal(rects, 1 + 6 + ZC_BUCKET_NR);
	assert_non_null(strstr(buf, "operator&lt;(x, y) (3 samples, 75.00%)"));
	assert_non_null(strstr(buf, "a&amp;b-1"));
	assert_non_null(strstr(buf, "t &lt;1&gt;"));
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "a&b"));
	free(buf);
	zc_stacks_free(&s);
}

/* A run with Gbps-per-core samples and a profile's buckets. */
static json_t *run(const char *proxy, double gpc, double copy, double tcp)
{
	return json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i},s:[{s:s,s:f},{s:s,s:f},{s:s,s:f}],"
			 "s:{s:f,s:{s:f,s:f,s:f,s:f}}}",
			 "name", proxy, "dut", "proxy", "key", "topology", "proxy", "source", "send",
			 "proxy", proxy, "sink", "recv", "chunk", 65536, "pipe_size", 1048576,
			 "connections", 1, "samples", "status", "ok", "gbps_per_core", gpc, "status",
			 "ok", "gbps_per_core", gpc, "status", "ok", "gbps_per_core", gpc,
			 "profile", "idle_pct", 0.0, "buckets", "kernel_copy", copy, "tcp_tx", tcp,
			 "sched_idle", 0.0, "other", 100 - copy - tcp);
}

static void test_saving(void **state)
{
	/* copy: 1 Gbit/s per core, half of it copying; splice: 2 Gbit/s per
	 * core, no copy. Per byte splice spends half: saves 50%, all of the
	 * copy's 50 points gone, TCP transmit +10, other -10. */
	json_t *copy = run("copy", 1, 50, 30), *splice = run("splice", 2, 0, 80);
	struct zc_saving s;
	double sum = 0, ms[ZC_BUCKET_NR];

	(void)state;
	assert_int_equal(zc_an_saving(splice, copy, &s), 0);
	assert_float_equal(s.saves_pct, 50, 1e-9);
	assert_float_equal(s.delta_pts[ZC_BUCKET_KERNEL_COPY], -50, 1e-9);
	assert_float_equal(s.delta_pts[ZC_BUCKET_TCP_TX], 10, 1e-9);
	assert_float_equal(s.delta_pts[ZC_BUCKET_OTHER], -10, 1e-9);
	for (int b = 0; b < ZC_BUCKET_NR; b++)
		sum += s.delta_pts[b];
	assert_float_equal(sum, -50, 1e-9);
	assert_false(s.own);
	/* 1 Gbit/s per core: 8000 core ms per GB, half of it copying. */
	assert_int_equal(zc_an_bucket_cost(copy, ms, NULL), 0);
	assert_float_equal(ms[ZC_BUCKET_KERNEL_COPY], 4000, 1e-9);
	json_object_del(splice, "profile");
	assert_int_equal(zc_an_saving(splice, copy, &s), -ENODATA);
	json_decref(copy);
	json_decref(splice);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_script), cmocka_unit_test(test_folded_roundtrip),
		cmocka_unit_test(test_buckets),	    cmocka_unit_test(test_summary),
		cmocka_unit_test(test_flamegraph),  cmocka_unit_test(test_saving),
	};

	return zc_run_tests(tests, NULL, NULL);
}
