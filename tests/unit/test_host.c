// SPDX-License-Identifier: GPL-2.0
/* Host files: keys per role, refused values with file:line, ssh quoting. */
#include "zc_test.h"

#include "transport/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static int load(const char *text, struct zc_host *h, char *err, size_t len)
{
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/zc-test-host-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	fd = zc_host_load(path, h, err, len);
	unlink(path);
	return fd;
}

static void test_ssh_keys(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	assert_int_equal(load("[host]\ntransport = ssh\n[sink]\nssh = bob@box-2.lab\nssh_port = 2222\n"
			      "exe = /opt/zc/zcbench\naddress = 10.0.0.2\n", &h, err, sizeof(err)), 0);
	assert_string_equal(h.transport->name, "ssh");
	assert_string_equal(h.ssh[ZC_ROLE_SINK], "bob@box-2.lab");
	assert_string_equal(h.ssh[ZC_ROLE_SOURCE], "");
	assert_int_equal(h.ssh_port[ZC_ROLE_SINK], 2222);
	assert_string_equal(h.exe[ZC_ROLE_SINK], "/opt/zc/zcbench");
	assert_string_equal(h.address[ZC_ROLE_SINK], "10.0.0.2");
	assert_string_equal(h.address[ZC_ROLE_PROXY], "127.0.0.1");
}

static void test_metachar_refused(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	assert_int_equal(load("[host]\ntransport = ssh\n\n[proxy]\nssh = a@b`id`\n", &h, err,
			      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":5: key 'ssh'"));
	assert_non_null(strstr(err, "character '`' not allowed"));
	assert_int_equal(load("[host]\ntransport = ssh\n[sink]\nssh = a@b\n", &h, err, sizeof(err)), 0);
	assert_int_equal(load("[sink]\nssh = a@b\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "needs transport = ssh"));
	assert_int_equal(load("[host]\nnetem_delay = 1ms|x\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: key 'netem_delay'"));
}

static void test_netns_keys(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	assert_int_equal(load("[host]\ntransport = netns\nmtu = 9000\ngro = off\ntso = on\nqueues = 4\n"
			      "netem_loss = 0.5%\nnetem_links = dut-sink\n", &h, err, sizeof(err)), 0);
	assert_int_equal(h.netns.mtu, 9000);
	assert_int_equal(h.netns.gro, 0);
	assert_int_equal(h.netns.gso, -1);
	assert_int_equal(h.netns.tso, 1);
	assert_int_equal(h.netns.queues, 4);
	assert_string_equal(h.netns.netem_loss, "0.5%");
	assert_false(h.netns.netem_on[ZC_LINK_SRC_DUT]);
	assert_true(h.netns.netem_on[ZC_LINK_DUT_SINK]);
	assert_int_equal(load("[host]\nqueues = 0\n", &h, err, sizeof(err)), -EINVAL);
	assert_int_equal(load("[host]\nnetem_links = moon\n", &h, err, sizeof(err)), -EINVAL);
}

/* What the remote shell gets must split back into exactly the argv given. */
static void test_ssh_quoting(void **state)
{
	static struct zc_host h;
	char err[512], store[2048];
	char *cmd[] = { "/opt/zcbench", "sink", "--file-dir=/tmp/it's a dir", "--x=$(reboot);`id`", NULL };
	char *argv[64];
	int n;

	(void)state;
	assert_int_equal(load("[host]\ntransport = ssh\n[sink]\nssh = u@h\nssh_port = 22\n", &h, err,
			      sizeof(err)), 0);
	n = zc_host_argv(&h, ZC_ROLE_SINK, cmd, argv, 64, store, sizeof(store));
	assert_true(n > 3);
	assert_string_equal(argv[0], "ssh");
	assert_string_equal(argv[n - 2], "u@h");
	assert_string_equal(argv[n - 3], "--");
	assert_string_equal(argv[n - 1], "'/opt/zcbench' 'sink' '--file-dir=/tmp/it'\\''s a dir' "
					 "'--x=$(reboot);`id`'");
	assert_null(argv[n]);
	/* A role without ssh runs here, unquoted. */
	n = zc_host_argv(&h, ZC_ROLE_SOURCE, cmd, argv, 64, store, sizeof(store));
	assert_int_equal(n, 4);
	assert_string_equal(argv[2], "--file-dir=/tmp/it's a dir");
	/* Too small a buffer is an error, not a truncated command. */
	n = zc_host_argv(&h, ZC_ROLE_SINK, cmd, argv, 64, store, 20);
	assert_int_equal(n, -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ssh_keys),
		cmocka_unit_test(test_metachar_refused),
		cmocka_unit_test(test_netns_keys),
		cmocka_unit_test(test_ssh_quoting),
	};

	return zc_run_tests(tests, NULL, NULL);
}
