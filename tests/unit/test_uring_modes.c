// SPDX-License-Identifier: GPL-2.0
/*
 * The MSG_ZEROCOPY and io_uring modes under a storm of SIGALRMs: pump() is
 * interrupted every few milliseconds and called again, the way role.c does at
 * the window edges, with sends in flight and cut short. A reader thread
 * checks every byte against the pattern at its stream offset, so a wrong
 * fill_off/pending after an interrupted or partial send fails the test.
 */
#include "zc_test.h"

#include "modes/mode.h"
#include "lib/net.h"
#include "lib/pattern.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define PERIOD (1u << 20)
#define ROUNDS 80		/* pump() calls, each ended by a SIGALRM */
#define TICK_US 3000

static volatile sig_atomic_t stop;
static uint8_t *pattern;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

static void ticks(long us)
{
	struct itimerval it = { .it_interval = { 0, us }, .it_value = { 0, us } };

	setitimer(ITIMER_REAL, &it, NULL);
}

struct reader {
	int fd;
	uint64_t bytes, mismatch;
};

static void *reader_main(void *p)
{
	struct reader *r = p;
	size_t len = 256 << 10;
	uint8_t *b = malloc(len);

	r->mismatch = UINT64_MAX;
	for (;;) {
		ssize_t n = recv(r->fd, b, len, 0);
		uint64_t m;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		m = zc_pattern_check(pattern, PERIOD, r->bytes, b, n);
		if (m != UINT64_MAX && r->mismatch == UINT64_MAX)
			r->mismatch = m;
		r->bytes += n;
	}
	free(b);
	return NULL;
}

struct writer {
	int fd;
	volatile bool done;
	uint64_t bytes;
};

/* The proxy's upstream: plain send() of the pattern, an odd size per call. */
static void *writer_main(void *p)
{
	struct writer *w = p;

	while (!w->done) {
		uint64_t pos = w->bytes % PERIOD, n = PERIOD - pos;
		ssize_t k = send(w->fd, pattern + pos, n < 100003 ? n : 100003, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		w->bytes += k;
	}
	shutdown(w->fd, SHUT_WR);
	return NULL;
}

static void tcp_pair(int *a, int *b)
{
	int port, l = zc_listen("127.0.0.1", &port);

	assert_true(l >= 0);
	*a = zc_connect("127.0.0.1", port);
	assert_true(*a >= 0);
	*b = zc_accept(l);
	assert_true(*b >= 0);
	close(l);
}

/* Threads started with SIGALRM blocked: only the pumping thread takes it. */
static void start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t s, old;

	sigemptyset(&s);
	sigaddset(&s, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	assert_int_equal(pthread_create(t, NULL, fn, arg), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static const struct zc_mode *mode_or_skip(enum zc_role role, const char *name)
{
	const struct zc_mode *m = zc_mode_find(role, name);
	const char *why;

	assert_non_null(m);
	if (m->unavailable && (why = m->unavailable())) {
		zc_skip("%s: %s", name, why);
	}
	return m;
}

static void io_init(struct zc_io *io, uint64_t chunk, uint64_t pipe)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	*io = (struct zc_io){ ZC_IO_INIT, .chunk = chunk, .pipe_size = pipe, .file_dir = "/var/tmp",
			      .stop = &stop, .period = PERIOD };
	sigaction(SIGALRM, &sa, NULL);
}

/* The role's way: private state, default options, the mode's setup. */
static void setup(const struct zc_mode *m, struct zc_io *io)
{
	char err[256] = "";
	int ret = zc_mode_setup(m, io, NULL, err, sizeof(err));

	if (ret)
		fail_msg("%s: %s: %s", m->name, err, strerror(-ret));
}

static void run_source(const char *name, uint64_t chunk)
{
	const struct zc_mode *m = mode_or_skip(ZC_ROLE_SOURCE, name);
	struct reader r = { 0 };
	struct zc_io io;
	pthread_t t;
	int sndbuf = 128 << 10;

	io_init(&io, chunk, 64 << 10);
	io.buf = pattern;
	io.buf_len = PERIOD;
	tcp_pair(&io.out_fd, &r.fd);
	/* A small send buffer: sends come back short and wait for room. */
	setsockopt(io.out_fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	start(&t, reader_main, &r);
	setup(m, &io);
	ticks(TICK_US);
	for (int i = 0; i < ROUNDS; i++) {
		stop = 0;
		assert_int_equal(zc_mode_pump(m, &io), 0);
	}
	ticks(0);
	shutdown(io.out_fd, SHUT_WR);
	zc_mode_teardown(m, &io);
	pthread_join(t, NULL);
	assert_true(io.bytes > 0);
	assert_true(io.calls > 0);
	assert_true(r.mismatch == UINT64_MAX);
	/* A send still in flight at shutdown may land after the count. */
	assert_true(r.bytes >= io.bytes);
	assert_non_null(io.mode_report);
	json_decref(io.mode_report);
	close(io.out_fd);
	close(r.fd);
}

static void run_proxy(const char *name, uint64_t chunk, uint64_t pipe)
{
	const struct zc_mode *m = mode_or_skip(ZC_ROLE_PROXY, name);
	struct writer w = { 0 };
	struct reader r = { 0 };
	struct zc_io io;
	pthread_t tw, tr;
	int ret, guard = 0;

	io_init(&io, chunk, pipe);
	io.buf_len = chunk;
	io.buf = malloc(chunk);
	assert_non_null(io.buf);
	tcp_pair(&w.fd, &io.in_fd);
	tcp_pair(&io.out_fd, &r.fd);
	start(&tr, reader_main, &r);
	start(&tw, writer_main, &w);
	setup(m, &io);
	ticks(TICK_US);
	for (int i = 0; i < ROUNDS; i++) {
		stop = 0;
		assert_int_equal(zc_mode_pump(m, &io), 0);
	}
	/* Upstream ends: the proxy must drain everything, then pass EOF on. */
	w.done = true;
	do {
		stop = 0;
		ret = zc_mode_pump(m, &io);
	} while (ret == 0 && ++guard < 100000);
	ticks(0);
	assert_int_equal(ret, 1);
	zc_mode_teardown(m, &io);
	pthread_join(tw, NULL);
	pthread_join(tr, NULL);
	assert_true(w.bytes > 0);
	assert_true(r.mismatch == UINT64_MAX);
	assert_true(r.bytes == w.bytes);
	assert_true(io.bytes == w.bytes);
	assert_non_null(io.mode_report);
	json_decref(io.mode_report);
	free(io.buf);
	close(w.fd);
	close(io.in_fd);
	close(io.out_fd);
	close(r.fd);
}

static void test_msg_zerocopy(void **st)
{
	(void)st;
	run_source("msg-zerocopy", 1 << 20);
}

static void test_msg_zerocopy_copied_on_loopback(void **st)
{
	const struct zc_mode *m = mode_or_skip(ZC_ROLE_SOURCE, "msg-zerocopy");
	struct reader r = { 0 };
	struct zc_io io;
	pthread_t t;
	json_t *f;

	(void)st;
	io_init(&io, 64 << 10, 64 << 10);
	io.buf = pattern;
	tcp_pair(&io.out_fd, &r.fd);
	start(&t, reader_main, &r);
	setup(m, &io);
	stop = 0;
	ticks(50000);
	assert_int_equal(zc_mode_pump(m, &io), 0);
	ticks(0);
	shutdown(io.out_fd, SHUT_WR);
	zc_mode_teardown(m, &io);
	pthread_join(t, NULL);
	/* Local delivery copies every MSG_ZEROCOPY send: the report must say so. */
	f = json_object_get(io.mode_report, "copied_fraction");
	assert_true(json_is_number(f));
	assert_true(json_number_value(f) > 0.99);
	assert_true(json_integer_value(json_object_get(io.mode_report, "notified_sends")) > 0);
	assert_non_null(json_object_get(io.mode_report, "note"));
	json_decref(io.mode_report);
	close(io.out_fd);
	close(r.fd);
}

static void test_uring_send(void **st)
{
	(void)st;
	run_source("uring-send", 1 << 20);
}

static void test_uring_send_zc(void **st)
{
	(void)st;
	run_source("uring-send-zc", 1 << 20);
}

static void test_uring_vmsplice(void **st)
{
	(void)st;
	run_source("uring-vmsplice", 1 << 20);
}

static void test_uring_copy(void **st)
{
	(void)st;
	run_proxy("uring-copy", 64 << 10, 64 << 10);
}

static void test_uring_splice(void **st)
{
	(void)st;
	run_proxy("uring-splice", 64 << 10, 64 << 10);
}

static void test_uring_splice_chunk_over_pipe(void **st)
{
	(void)st;
	run_proxy("uring-splice", 1 << 20, 16 << 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msg_zerocopy),
		cmocka_unit_test(test_msg_zerocopy_copied_on_loopback),
		cmocka_unit_test(test_uring_send),
		cmocka_unit_test(test_uring_send_zc),
		cmocka_unit_test(test_uring_vmsplice),
		cmocka_unit_test(test_uring_copy),
		cmocka_unit_test(test_uring_splice),
		cmocka_unit_test(test_uring_splice_chunk_over_pipe),
	};

	signal(SIGPIPE, SIG_IGN);
	pattern = malloc(PERIOD);
	zc_pattern_fill(pattern, PERIOD, 1);
	return zc_run_tests(tests, NULL, NULL);
}
