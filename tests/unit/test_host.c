// SPDX-License-Identifier: GPL-2.0
/* Host files: keys per role, refused values with file:line, ssh quoting. */
#include "zc_test.h"

#include "transport/host.h"
#include "transport/nic.h"

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

/* A key's value for role r as text (the transports keep theirs private). */
static const char *get(const struct zc_host *h, int r, const char *key)
{
	static char buf[256];

	assert_int_equal(zc_host_get(h, r, key, buf, sizeof(buf)), 0);
	return buf;
}

static void test_ssh_keys(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	assert_int_equal(load("[host]\ntransport = ssh\n[sink]\nssh = bob@box-2.lab\nssh_port = 2222\n"
			      "exe = /opt/zc/zcbench\naddress = 10.0.0.2\n", &h, err, sizeof(err)), 0);
	assert_string_equal(h.transport->name, "ssh");
	assert_string_equal(get(&h, ZC_ROLE_SINK, "ssh"), "bob@box-2.lab");
	assert_string_equal(get(&h, ZC_ROLE_SOURCE, "ssh"), "");
	assert_string_equal(get(&h, ZC_ROLE_SINK, "ssh_port"), "2222");
	assert_true(zc_host_remote(&h, ZC_ROLE_SINK));
	assert_false(zc_host_remote(&h, ZC_ROLE_PROXY));
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
	assert_non_null(strstr(err, ":2: key 'ssh' needs transport = ssh"));
	assert_int_equal(load("[host]\ntransport = netns\nnetem_delay = 1ms|x\n", &h, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":3: key 'netem_delay'"));
}

/* Where a key may stand, and what is unknown. */
static void test_sections(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	assert_int_equal(load("[host]\ncpu = 1\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: key 'cpu' belongs in [source], [proxy] or [sink]"));
	assert_int_equal(load("[sink]\nplacement = remote\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: key 'placement' belongs in [host]"));
	assert_int_equal(load("[host]\ncolour = red\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: unknown key 'colour' in [host]"));
	assert_int_equal(load("[host]\ntransport = pigeon\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: key 'transport': 'pigeon' is not a transport (local, netns, ssh)"));
	/* [host] sets every role, a role section one; cpu = auto is -1. */
	assert_int_equal(load("[host]\naddress = 10.1.1.1\n[proxy]\naddress = 10.2.2.2\ncpu = 0\n"
			      "[sink]\ncpu = auto\n", &h, err, sizeof(err)), 0);
	assert_string_equal(h.address[ZC_ROLE_SOURCE], "10.1.1.1");
	assert_string_equal(h.address[ZC_ROLE_PROXY], "10.2.2.2");
	assert_true(h.address_set[ZC_ROLE_SINK]);
	assert_int_equal(h.cpu[ZC_ROLE_PROXY], 0);
	assert_int_equal(h.cpu[ZC_ROLE_SINK], -1);
	assert_int_equal(load("[sink]\ninterface = lo\n", &h, err, sizeof(err)), 0);
	assert_false(h.address_set[ZC_ROLE_SINK]);
	assert_string_equal(h.address[ZC_ROLE_SINK], "127.0.0.1");
}

static void test_netns_keys(void **state)
{
	static struct zc_host h;
	char err[512];

	(void)state;
	/* Transport keys before transport = are fine: the file is read twice. */
	assert_int_equal(load("[host]\nmtu = 9000\ntransport = netns\ngro = off\ntso = on\nqueues = 4\n"
			      "netem_loss = 0.5%\nnetem_links = dut-sink\n", &h, err, sizeof(err)), 0);
	assert_string_equal(get(&h, -1, "mtu"), "9000");
	assert_string_equal(get(&h, -1, "gro"), "no");
	assert_string_equal(get(&h, -1, "gso"), "");	/* unset: the driver's default */
	assert_string_equal(get(&h, -1, "tso"), "yes");
	assert_string_equal(get(&h, -1, "queues"), "4");
	assert_string_equal(get(&h, -1, "netem_loss"), "0.5%");
	assert_string_equal(get(&h, -1, "netem_links"), "dut-sink");
	assert_int_equal(load("[host]\ntransport = netns\nqueues = 0\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":3: key 'queues'"));
	assert_int_equal(load("[host]\ntransport = netns\nnetem_links = moon\n", &h, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":3: key 'netem_links'"));
	/* A key of another transport names the one it belongs to. */
	assert_int_equal(load("[host]\nmtu = 9000\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: key 'mtu' needs transport = netns"));
	assert_int_equal(load("[host]\ntransport = netns\n[sink]\nbind_device = yes\ninterface = x\n", &h,
			      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "own veth"));
}

/* Every netem value is refused with file:line and key as the host file is
 * read, before namespaces or tc (issue 30 M4): finite, plain, in range. */
static void test_netem_values(void **state)
{
	static const struct { const char *key, *v; bool ok; } cases[] = {
		{ "netem_loss", "1%", true }, { "netem_loss", "0.5%", true },
		{ "netem_loss", "0%", true }, { "netem_loss", "100%", true },
		{ "netem_loss", "2", true },	/* tc: percent without the sign */
		{ "netem_loss", "nan%", false }, { "netem_loss", "inf%", false },
		{ "netem_loss", "NaN", false }, { "netem_loss", "1e1%", false },
		{ "netem_loss", "0x10%", false }, { "netem_loss", "101%", false },
		{ "netem_loss", "1.2.3%", false }, { "netem_loss", "%", false },
		{ "netem_loss", "1%%", false }, { "netem_loss", ".%", false },
		{ "netem_delay", "2ms", true }, { "netem_delay", "0.5ms", true },
		{ "netem_delay", "100us", true }, { "netem_delay", "1s", true },
		{ "netem_delay", "60s", true }, { "netem_delay", "1000", true },
		{ "netem_delay", "nanms", false }, { "netem_delay", "infs", false },
		{ "netem_delay", "1e3ms", false }, { "netem_delay", "61s", false },
		{ "netem_delay", "2parsecs", false }, { "netem_delay", "ms", false },
		{ "netem_delay", "2%", false },
	};
	static struct zc_host h;
	char text[128], err[512], want[64];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		int ret;

		snprintf(text, sizeof(text), "[host]\ntransport = netns\n%s = %s\n", cases[i].key,
			 cases[i].v);
		ret = load(text, &h, err, sizeof(err));
		snprintf(want, sizeof(want), ":3: key '%s'", cases[i].key);
		if (cases[i].ok ? ret != 0 : ret != -EINVAL || !strstr(err, want))
			fail_msg("%s = %s: %d (%s), wanted %s", cases[i].key, cases[i].v, ret,
				 ret ? err : "taken", cases[i].ok ? "taken" : want);
	}
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

/* Issue 13: a pinned CPU this machine does not have, duplicate keys, and
 * the NIC object of an interface that does not exist (ASan: no leak). */
static void test_strict(void **state)
{
	static struct zc_host h;
	char err[512];
	json_t *nic;

	(void)state;
	assert_int_equal(load("[source]\ncpu = 4095\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: [source] key 'cpu': CPU 4095 is not one zcbench may run on"));
	assert_int_equal(load("[sink]\ncpu = 0\ncpu = 1\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":3: key 'cpu' appears twice in [sink] (first on line 2)"));
	assert_int_equal(load("[host]\nname = caf\xc3\xa9\n", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "(character '\xc3\xa9' not allowed)"));
	assert_int_equal(zc_host_load("/dev/zero", &h, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/zero: is a character device, not a regular file"));
	/* An interface alone must give its role an address on this machine:
	 * refused with its line, not when the run starts (issue 30 M4). */
	assert_int_equal(load("[host]\nname = x\n[sink]\ninterface = zcnosuch0\n", &h, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":4: [sink] key 'interface': no interface zcnosuch0 here"));
	assert_int_equal(load("[sink]\ninterface = zcnosuch0\naddress = 127.0.0.1\n", &h, err,
			      sizeof(err)), 0);	/* an address given: the interface is the NIC's name */
	nic = zc_nic_json("zcnosuch0");
	assert_string_equal(json_string_value(json_object_get(nic, "error")), "no such interface");
	json_decref(nic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ssh_keys),
		cmocka_unit_test(test_metachar_refused),
		cmocka_unit_test(test_netns_keys),
		cmocka_unit_test(test_netem_values),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_ssh_quoting),
		cmocka_unit_test(test_strict),
	};

	return zc_run_tests(tests, NULL, NULL);
}
