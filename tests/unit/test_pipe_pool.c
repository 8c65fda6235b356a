// SPDX-License-Identifier: GPL-2.0
/* The pipe pool of connections that come and go (modes/pipe.c, traffic =
 * rr's proxy): empty pipes go back and are handed out again, a pipe with
 * data in it or past the pool's size is closed, every pipe is counted, and
 * the splice mode's own setup and teardown take and give back through it. */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "zc_test.h"

#include "modes/mode.h"

static void io_init(struct zc_io *io, struct zc_pipe_pool *pool)
{
	*io = (struct zc_io){ ZC_IO_INIT };
	io->pipe_size = 65536;
	io->chunk = 65536;
	io->pipe_pool = pool;
}

static void test_reuse(void **state)
{
	struct zc_pipe_pool pool;
	struct zc_io io;
	int r, w;

	(void)state;
	assert_int_equal(zc_pipe_pool_init(&pool, 1), 0);
	io_init(&io, &pool);
	assert_int_equal(zc_pipe_open(&io, &io.pipe_r, &io.pipe_w, io.pipe_size, true), 0);
	r = io.pipe_r;
	w = io.pipe_w;
	assert_int_equal(pool.created, 1);
	/* a second pipe (tee's master) is never pooled */
	assert_int_equal(zc_pipe_open(&io, &io.aux_r, &io.aux_w, io.pipe_size, true), 0);
	assert_int_equal(pool.created, 1);
	zc_io_teardown_pipes(&io);
	assert_int_equal(pool.returned, 1);
	assert_int_equal(pool.n, 1);
	assert_int_equal(io.pipe_r, -1);
	/* the same pipe again, still of its size */
	io_init(&io, &pool);
	assert_int_equal(zc_pipe_open(&io, &io.pipe_r, &io.pipe_w, io.pipe_size, true), 0);
	assert_int_equal(io.pipe_r, r);
	assert_int_equal(io.pipe_w, w);
	assert_int_equal(pool.reused, 1);
	assert_int_equal(fcntl(w, F_GETPIPE_SZ), 65536);
	/* with data in it, it is closed, not given back */
	assert_int_equal(write(io.pipe_w, "abc", 3), 3);
	io.pending = 3;
	zc_io_teardown_pipes(&io);
	assert_int_equal(pool.closed, 1);
	assert_int_equal(pool.n, 0);
	assert_int_equal(fcntl(r, F_GETFD), -1);
	zc_pipe_pool_free(&pool);
}

static void test_full_and_none(void **state)
{
	struct zc_pipe_pool pool;
	struct zc_io a, b;

	(void)state;
	/* max 0: a pipe per connection, each counted */
	assert_int_equal(zc_pipe_pool_init(&pool, 0), 0);
	io_init(&a, &pool);
	assert_int_equal(zc_pipe_open(&a, &a.pipe_r, &a.pipe_w, a.pipe_size, false), 0);
	zc_io_teardown_pipes(&a);
	assert_int_equal(pool.created, 1);
	assert_int_equal(pool.closed, 1);
	assert_int_equal(pool.n, 0);
	zc_pipe_pool_free(&pool);
	/* max 1, two connections end: one kept, one closed */
	assert_int_equal(zc_pipe_pool_init(&pool, 1), 0);
	io_init(&a, &pool);
	io_init(&b, &pool);
	assert_int_equal(zc_pipe_open(&a, &a.pipe_r, &a.pipe_w, a.pipe_size, false), 0);
	assert_int_equal(zc_pipe_open(&b, &b.pipe_r, &b.pipe_w, b.pipe_size, false), 0);
	zc_io_teardown_pipes(&a);
	zc_io_teardown_pipes(&b);
	assert_int_equal(pool.created, 2);
	assert_int_equal(pool.returned, 1);
	assert_int_equal(pool.closed, 1);
	zc_pipe_pool_free(&pool);
	assert_int_equal(pool.n, 0);
}

/* The splice mode's own setup takes its pipe from the pool, its teardown gives it back. */
static void test_splice_mode(void **state)
{
	const struct zc_mode *m = zc_mode_find(ZC_ROLE_PROXY, "splice");
	struct zc_pipe_pool pool;
	struct zc_io io;
	char err[256];
	int sp[2];

	(void)state;
	assert_non_null(m);
	assert_int_equal(zc_pipe_pool_init(&pool, 4), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	for (int round = 0; round < 3; round++) {
		io_init(&io, &pool);
		io.in_fd = sp[0];
		io.out_fd = sp[1];
		io.evloop = true;
		assert_int_equal(zc_mode_setup(m, &io, NULL, err, sizeof(err)), 0);
		assert_true(io.pipe_r >= 0);
		zc_mode_teardown(m, &io);
	}
	assert_int_equal(pool.created, 1);
	assert_int_equal(pool.reused, 2);
	assert_int_equal(pool.returned, 3);
	zc_pipe_pool_free(&pool);
	close(sp[0]);
	close(sp[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_full_and_none),
		cmocka_unit_test(test_splice_mode),
	};

	return zc_run_tests(tests, NULL, NULL);
}
