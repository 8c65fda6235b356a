/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels booted under qemu: check an image, build the initramfs that runs
 * zcbench inside the guest, boot it, pin its vCPUs, and collect what the
 * guest sent back over a virtio-serial port (a tar of its /out folder).
 * kernel-ab (kernel_ab.c) drives qemu directly rather than through the
 * host.c transport table: a guest runs a whole `zcbench run` by itself and
 * only its results file crosses the boundary, so no per-role prefix fits.
 */
#ifndef ZC_GUEST_H
#define ZC_GUEST_H

#include "lib/proc.h"

#include <stdbool.h>
#include <stddef.h>

int zc_cmd_kernel_ab(int argc, char **argv);
int zc_cmd_kernel_build(int argc, char **argv);

/*
 * Is path a bootable x86 bzImage? 0 with the kernel's version string (the
 * setup header's kernel_version, "6.1.0-57-cloud-amd64 (debian...) #1 ...")
 * in version, or -errno (-ENOEXEC: not a bzImage) with the reason in err.
 */
int zc_bzimage_check(const char *path, char *version, size_t vlen, char *err, size_t errlen);

/* From one line of ldd output, the absolute path of the library it names
 * (the "=> /path" part, or the loader's own path). 0 or -ENOENT (none, e.g.
 * linux-vdso). */
int zc_ldd_line_path(const char *line, char *path, size_t len);

/*
 * Resolve modules (names like "virtio_console") against moddir/modules.dep
 * into load order, dependencies first, without duplicates: out[i] are paths
 * relative to moddir. A name listed in modules.builtin is skipped (nothing
 * to load); a name in neither is reported in missing (comma list).
 * Count (>= 0) or -errno.
 */
int zc_modules_resolve(const char *moddir, const char *const *names, int nnames,
		       char out[][256], int max, char *missing, size_t mlen);

struct zc_guest_opts {
	const char *image;	/* bzImage */
	const char *moddir;	/* lib/modules/RELEASE of the image, or NULL */
	const char *workload;	/* workload .ini copied into the guest */
	char *const *run_args;	/* extra `zcbench run` flags, NULL terminated */
	const char *accel;	/* "kvm" or "tcg" */
	int cpus;		/* guest vCPUs */
	const char *mem;	/* qemu -m value, "1G" */
	const int *host_cpus;	/* vCPU i is pinned to host_cpus[i] when nhost >= cpus */
	int nhost;
	double timeout_s;	/* whole boot + run */
	const char *dir;	/* this side's folder (created) */
	const char *qemu;	/* qemu-system-x86_64 */
	const char *append;	/* more kernel command line, or NULL (sysctls included) */
	char *const *sysctls;	/* "K=V" asked for with sysctl.K=V, NULL terminated, or NULL */
	char *const *pipebench_args; /* run zcbench pipebench with these, or NULL: not at all */
};

struct zc_guest_result {
	bool ok;		/* results came back */
	char reason[512];	/* why not */
	char release[128];	/* guest uname -r */
	char results[600];	/* extracted results JSON, "" when none */
	char probe[600];	/* extracted probe JSON, "" when none */
	char probe_note[256];	/* "probe unavailable ..." */
	char pipebench[600];	/* extracted pipebench JSON, "" when none */
	char sysctls_seen[1024];/* "K V" lines: each asked sysctl as the guest read it */
	int run_rc, probe_rc;	/* in-guest exit codes, -1 unknown */
	double boot_run_s;	/* qemu start to exit */
	bool pinned;
	char pin_note[256];
};

/* Make o->dir and the initramfs in it (before any guest boots, so setup
 * errors come first). 0, or -errno with err set; note: a warning or "". */
int zc_guest_prepare(const struct zc_guest_opts *o, char *note, size_t nlen, char *err,
		     size_t errlen);
/* Boot one prepared guest and wait for it. 0 when qemu could be started
 * (look at r->ok), -errno otherwise with r->reason set. */
int zc_guest_run(const struct zc_guest_opts *o, struct zc_guest_result *r);

/* Does KVM work here? A short test boot of image (8 s at most), looking for
 * the kernel's banner on the serial console. true, or false with why. */
bool zc_guest_kvm_works(const char *qemu, const char *image, char *why, size_t len);


/* kernel-ab --boots: the side (0 base, 1 new) of boot k of 2N, A B B A A B ... */
int zc_kab_side_of(int k);

/* kernel-ab: both sides' fingerprints, a row per behaviour, * where they
 * differ; columns headed by side and image. */
void zc_print_fingerprints(FILE *f, const struct zc_guest_opts *o,
			   const struct zc_guest_result *res);

#endif
