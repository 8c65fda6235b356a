/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the guest room: how guest.c gets its initramfs. */
#ifndef ZC_INITRAMFS_H
#define ZC_INITRAMFS_H

#include "guest/guest.h"

#include <stddef.h>

/* The name the guest's init looks for in /sys/class/virtio-ports. */
#define ZC_PORT_NAME "org.zcbench.out"

/* Copy src's content (symlinks followed) to dst, keeping the mode bits. 0/-errno */
int zc_copy_file(const char *src, const char *dst);
/* The binary exe and every library ldd names, at the same paths under root
 * (exe itself as `as` when not NULL). 0 or -errno, why in err. */
int zc_copy_with_libs(const char *exe, const char *root, const char *as, char *err,
		      size_t errlen);
/* The folder holding modules.dep for o->moddir (.../lib/modules/REL). */
int zc_find_moddep(const struct zc_guest_opts *o, char *depdir, size_t len, char *err,
		   size_t errlen);
/* Stage root/ and pack it to cpio newc with cpio(1). */
int zc_build_initramfs(const struct zc_guest_opts *o, const char *cpio_path, char *note,
		       size_t nlen, char *err, size_t errlen);

#endif
