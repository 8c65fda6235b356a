// SPDX-License-Identifier: GPL-2.0
/* kernel-ab's pieces that need no qemu: image check, ldd lines, modules.dep. */
#include "zc_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/guest.h"
#include "lib/zcbench.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/zc-test-guest-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static void write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void test_bzimage(void **state)
{
	unsigned char img[0x800] = { 0 };
	char path[128], version[256], err[512];
	const char *v = "6.1.0-test (me@here) #1 SMP";

	(void)state;
	snprintf(path, sizeof(path), "%s/bzImage", tmpdir);
	memcpy(img + 0x202, "HdrS", 4);
	/* kernel_version is an offset from 0x200: put the string at 0x600. */
	img[0x20e] = 0x00;
	img[0x20f] = 0x04;
	memcpy(img + 0x600, v, strlen(v));
	write_file(path, img, sizeof(img));
	assert_int_equal(zc_bzimage_check(path, version, sizeof(version), err, sizeof(err)), 0);
	assert_string_equal(version, v);

	memcpy(img + 0x202, "ELF!", 4);
	write_file(path, img, sizeof(img));
	assert_int_equal(zc_bzimage_check(path, version, sizeof(version), err, sizeof(err)),
			 -ENOEXEC);
	assert_non_null(strstr(err, "not an x86 bzImage"));

	write_file(path, "short", 5);
	assert_int_equal(zc_bzimage_check(path, version, sizeof(version), err, sizeof(err)),
			 -ENOEXEC);

	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	assert_int_equal(zc_bzimage_check(path, version, sizeof(version), err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "missing"));
	assert_int_equal(zc_bzimage_check(tmpdir, version, sizeof(version), err, sizeof(err)),
			 -ENOEXEC);
}

static void test_ldd_lines(void **state)
{
	char p[256];

	(void)state;
	assert_int_equal(zc_ldd_line_path("\tlinux-vdso.so.1 (0x00007ffd)\n", p, sizeof(p)),
			 -ENOENT);
	assert_int_equal(zc_ldd_line_path("\tlibjansson.so.4 => /lib/x86_64-linux-gnu/"
					  "libjansson.so.4 (0x00007f)\n", p, sizeof(p)), 0);
	assert_string_equal(p, "/lib/x86_64-linux-gnu/libjansson.so.4");
	assert_int_equal(zc_ldd_line_path("\t/lib64/ld-linux-x86-64.so.2 (0x00007f)\n", p,
					  sizeof(p)), 0);
	assert_string_equal(p, "/lib64/ld-linux-x86-64.so.2");
	assert_int_equal(zc_ldd_line_path("\tlibfoo.so => not found\n", p, sizeof(p)), -ENOENT);
	assert_int_equal(zc_ldd_line_path("\tstatically linked\n", p, sizeof(p)), -ENOENT);
}

static void test_modules_resolve(void **state)
{
	char path[128], out[16][256], missing[128];
	const char *dep =
		"kernel/drivers/virtio/virtio.ko:\n"
		"kernel/drivers/virtio/virtio_ring.ko:\n"
		"kernel/drivers/char/virtio_console.ko: kernel/drivers/virtio/virtio.ko "
		"kernel/drivers/virtio/virtio_ring.ko\n"
		"kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_modern_dev.ko "
		"kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
		"kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
		"# Aliases extracted from modules themselves.\n"
		"alias virtio:d00000003v* virtio_console.ko: junk\n";
	const char *builtin = "kernel/drivers/net/veth.ko\n";
	const char *names[] = { "virtio_pci", "virtio_console", "veth", "nine_p" };
	int n;

	(void)state;
	snprintf(path, sizeof(path), "%s/modules.dep", tmpdir);
	write_file(path, dep, strlen(dep));
	snprintf(path, sizeof(path), "%s/modules.builtin", tmpdir);
	write_file(path, builtin, strlen(builtin));
	n = zc_modules_resolve(tmpdir, names, 4, out, 16, missing, sizeof(missing));
	/* Dependencies first, each once: ring, virtio, modern_dev, pci, console. */
	assert_int_equal(n, 5);
	assert_string_equal(out[0], "kernel/drivers/virtio/virtio_ring.ko");
	assert_string_equal(out[1], "kernel/drivers/virtio/virtio.ko");
	assert_string_equal(out[2], "kernel/drivers/virtio/virtio_pci_modern_dev.ko");
	assert_string_equal(out[3], "kernel/drivers/virtio/virtio_pci.ko");
	assert_string_equal(out[4], "kernel/drivers/char/virtio_console.ko");
	assert_string_equal(missing, "nine_p"); /* veth is built in */
	assert_int_equal(zc_modules_resolve(tmpdir, names, 4, out, 3, missing, sizeof(missing)),
			 -E2BIG);
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	assert_int_equal(zc_modules_resolve(path, names, 4, out, 16, missing, sizeof(missing)),
			 -ENOENT);
}

static void test_mkdir_p(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/a/b/c", tmpdir);
	assert_int_equal(zc_mkdir_p(path, 0755), 0);
	assert_int_equal(access(path, W_OK), 0);
	assert_int_equal(zc_mkdir_p(path, 0755), 0);
}

/* kernel-ab --boots: A B B A A B B A ..., each pair of boots one a side. */
static void test_boot_order(void **state)
{
	const int want[] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 };
	int count[2] = { 0, 0 };

	(void)state;
	for (int k = 0; k < 10; k++) {
		assert_int_equal(zc_kab_side_of(k), want[k]);
		count[zc_kab_side_of(k)]++;
		if (k % 2)
			assert_int_equal(count[0], count[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bzimage),
		cmocka_unit_test(test_ldd_lines),
		cmocka_unit_test(test_modules_resolve),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_boot_order),
	};

	return zc_run_tests(tests, setup, teardown);
}
