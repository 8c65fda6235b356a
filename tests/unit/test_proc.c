// SPDX-License-Identifier: GPL-2.0
/* lib/proc.c: the one way zcbench starts programs. What the child inherits
 * (stdin, stdout/stderr, cwd, process group) and what happens to it when we
 * die are the callers' contracts (robust.sh, netns teardown, qemu guests). */
#include "zc_test.h"

#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/zc-test-proc.XXXXXX";

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char *rm[] = { "rm", "-rf", dir, NULL };

	(void)st;
	return zc_run_argv(rm, NULL);
}

static void test_exit_status(void **st)
{
	char *t[] = { "true", NULL }, *f[] = { "false", NULL };
	char *three[] = { "sh", "-c", "exit 3", NULL };
	char *killed[] = { "sh", "-c", "kill -9 $$", NULL };

	(void)st;
	assert_int_equal(zc_run_argv(t, NULL), 0);
	assert_int_equal(zc_run_argv(f, NULL), 1);
	assert_int_equal(zc_run_argv(three, NULL), 3);
	assert_int_equal(zc_run_argv(killed, NULL), 128 + SIGKILL);
}

/* stdout and stderr both land in the buffer, trailing newlines cut. */
static void test_capture(void **st)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; echo; echo", NULL };
	char out[64], small[4];

	(void)st;
	assert_int_equal(zc_run_argv(argv, &(struct zc_spawn_opts){ .out = out,
					     .outlen = sizeof(out) }), 0);
	assert_string_equal(out, "out\nerr");
	assert_int_equal(zc_run_argv(argv, &(struct zc_spawn_opts){ .out = small,
					     .outlen = sizeof(small) }), 0);
	assert_string_equal(small, "out");
}

static void test_missing_program(void **st)
{
	char *argv[] = { "/nonexistent/zc-no-such-program", NULL };
	char out[256];

	(void)st;
	assert_int_equal(zc_run_argv(argv, &(struct zc_spawn_opts){ .out = out,
					     .outlen = sizeof(out) }), 127);
	assert_non_null(strstr(out, "exec /nonexistent/zc-no-such-program"));
}

/* cwd is the child's; out_path is ours (opened before the child moves). */
static void test_cwd_and_out_path(void **st)
{
	char sub[64], log[64], *pwd[] = { "pwd", NULL }, *got;

	(void)st;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(log, sizeof(log), "%s/pwd.log", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(zc_run_argv(pwd, &(struct zc_spawn_opts){ .cwd = sub,
					     .out_path = log }), 0);
	got = zc_read_file(log, 4096, NULL);
	assert_non_null(got);
	assert_int_equal(strncmp(got, sub, strlen(sub)), 0);
	free(got);
	snprintf(log, sizeof(log), "%s/no/such/folder/x.log", dir);
	assert_int_equal(zc_run_argv(pwd, &(struct zc_spawn_opts){ .out_path = log }), -ENOENT);
}

/* cat on /dev/null ends at once; on our stdin it would wait. */
static void test_null_stdin(void **st)
{
	char *cat[] = { "cat", NULL }, out[16] = "x";

	(void)st;
	assert_int_equal(zc_run_argv(cat, &(struct zc_spawn_opts){ .null_stdin = true,
					     .out = out, .outlen = sizeof(out) }), 0);
	assert_string_equal(out, "");
}

static void test_process_group(void **st)
{
	char *argv[] = { "sleep", "30", NULL };
	pid_t own = zc_spawn(argv, &(struct zc_spawn_opts){ .own_group = true });
	pid_t ours = zc_spawn(argv, NULL);

	(void)st;
	assert_true(own > 0 && ours > 0);
	assert_int_equal(getpgid(own), own);
	assert_int_equal(getpgid(ours), getpgrp());
	kill(-own, SIGKILL);
	kill(ours, SIGKILL);
	waitpid(own, NULL, 0);
	waitpid(ours, NULL, 0);
}

static bool gone(pid_t pid)
{
	char path[64], *stat;
	bool zombie;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = zc_read_file(path, 4096, NULL);
	zombie = stat && strstr(stat, ") Z ");
	free(stat);
	return zombie;
}

/* A child with die_with_us goes when its parent does; one without stays. */
static void test_die_with_us(void **st)
{
	char *argv[] = { "sleep", "30", NULL };
	pid_t kids[2], middle;
	int pfd[2];

	(void)st;
	assert_int_equal(pipe(pfd), 0);
	middle = fork();
	assert_true(middle >= 0);
	if (!middle) {
		kids[0] = zc_spawn(argv, &(struct zc_spawn_opts){ .die_with_us = true });
		kids[1] = zc_spawn(argv, NULL);
		_exit(write(pfd[1], kids, sizeof(kids)) == sizeof(kids) ? 0 : 1);
	}
	assert_int_equal(read(pfd[0], kids, sizeof(kids)), sizeof(kids));
	waitpid(middle, NULL, 0);
	for (int i = 0; i < 300 && !gone(kids[0]); i++)
		usleep(10000);
	assert_true(gone(kids[0]));
	assert_false(gone(kids[1]));
	kill(kids[1], SIGKILL);
	close(pfd[0]);
	close(pfd[1]);
}

/* exec_errno: a program not in PATH is -ENOENT from the call, no 127. */
static void test_exec_errno(void **st)
{
	char *none[] = { "zc-no-such-program", NULL }, *t[] = { "true", NULL };
	struct zc_spawn_opts how = { .exec_errno = true, .null_stdin = true };
	pid_t pid;
	int status;

	(void)st;
	assert_int_equal(zc_spawn(none, &how), -ENOENT);
	assert_int_equal(zc_run_argv(none, &how), -ENOENT);
	/* and nothing of it is left to reap */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	pid = zc_spawn(t, &how);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* a bad chdir is the child's failure too, reported the same way */
	how.cwd = "/nonexistent/zc";
	assert_int_equal(zc_run_argv(t, &how), -ENOENT);
}

/* timeout_s: killed at the deadline, its output so far kept; wait_status raw. */
static void test_timeout(void **st)
{
	char *slow[] = { "sh", "-c", "echo started; exec sleep 30", NULL };
	char *quick[] = { "sh", "-c", "exit 5", NULL };
	char *quiet[] = { "sleep", "30", NULL };
	char out[64];
	int status = 0;
	double t0 = zc_now();

	(void)st;
	assert_int_equal(zc_run_argv(slow, &(struct zc_spawn_opts){ .out = out,
					     .outlen = sizeof(out), .timeout_s = 0.3,
					     .own_group = true, .wait_status = &status }),
			 -ETIMEDOUT);
	assert_string_equal(out, "started");
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* without captured output the deadline holds as well */
	assert_int_equal(zc_run_argv(quiet, &(struct zc_spawn_opts){ .timeout_s = 0.3 }),
			 -ETIMEDOUT);
	assert_true(zc_now() - t0 < 20);
	assert_int_equal(zc_run_argv(quick, &(struct zc_spawn_opts){ .timeout_s = 30,
					     .wait_status = &status }), 5);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 5);
}

/* err_path apart from out_path; cpus pins; clean leaves no fd of ours. */
static void test_err_path_cpus_clean(void **st)
{
	char out_p[128], err_p[128], *text, cpu[32], want[32];
	char *sh[] = { "sh", "-c", "echo o; echo e >&2", NULL };
	char *aff[] = { "sh", "-c", "grep Cpus_allowed_list /proc/self/status | cut -f2", NULL };
	char *fds[] = { "sh", "-c", "ls /proc/self/fd | wc -l", NULL };
	char count_clean[16], count_ours[16];
	cpu_set_t set;
	int first = -1, keep;

	(void)st;
	snprintf(out_p, sizeof(out_p), "%s/o.txt", dir);
	snprintf(err_p, sizeof(err_p), "%s/e.txt", dir);
	assert_int_equal(zc_run_argv(sh, &(struct zc_spawn_opts){ .out_path = out_p,
					     .err_path = err_p }), 0);
	text = zc_read_file(out_p, 4096, NULL);
	assert_string_equal(text, "o\n");
	free(text);
	text = zc_read_file(err_p, 4096, NULL);
	assert_string_equal(text, "e\n");
	free(text);

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &set))
			first = i;
	CPU_ZERO(&set);
	CPU_SET(first, &set);
	snprintf(want, sizeof(want), "%d", first);
	assert_int_equal(zc_run_argv(aff, &(struct zc_spawn_opts){ .out = cpu,
					     .outlen = sizeof(cpu), .cpus = &set }), 0);
	assert_string_equal(cpu, want);

	/* an fd of ours without O_CLOEXEC reaches a program, unless clean */
	keep = open("/dev/null", O_RDONLY);
	assert_true(keep >= 0);
	assert_int_equal(zc_run_argv(fds, &(struct zc_spawn_opts){ .out = count_ours,
					     .outlen = sizeof(count_ours) }), 0);
	assert_int_equal(zc_run_argv(fds, &(struct zc_spawn_opts){ .out = count_clean,
					     .outlen = sizeof(count_clean), .clean = true }), 0);
	close(keep);
	assert_true(atoi(count_clean) < atoi(count_ours));
}

/* The role spawner: stdin and stdout are ours to talk on. */
static void test_role_child(void **st)
{
	char *argv[] = { "sh", "-c", "read p; echo READY port=$p; read go; echo \"{$go}\"", NULL };
	static struct zc_child c;
	char desc[64];
	int port = 0;

	(void)st;
	assert_int_equal(zc_child_spawn(&c, argv), 0);
	assert_int_equal(getpgid(c.pid), c.pid);
	assert_int_equal(zc_child_send(&c, "4242\n"), 0);
	assert_int_equal(zc_child_ready(&c, zc_now() + 10, "READY port=%d", &port), 0);
	assert_int_equal(port, 4242);
	assert_int_equal(zc_child_send(&c, "GO\n"), 0);
	zc_child_drain(&c, zc_now() + 10);
	assert_true(c.eof);
	assert_string_equal(c.buf, "{GO}\n");
	zc_child_reap(&c);
	zc_child_describe(&c, desc, sizeof(desc));
	assert_string_equal(desc, "exit code 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_cwd_and_out_path),
		cmocka_unit_test(test_null_stdin),
		cmocka_unit_test(test_process_group),
		cmocka_unit_test(test_die_with_us),
		cmocka_unit_test(test_role_child),
		cmocka_unit_test(test_exec_errno),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_err_path_cpus_clean),
	};

	return zc_run_tests(tests, setup, teardown);
}
