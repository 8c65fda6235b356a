/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the guest room: kernel-ab's helpers (kab_util.c). */
#ifndef ZC_KAB_INT_H
#define ZC_KAB_INT_H

#include "guest/guest.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* "0-1,3": count, or -EINVAL. */
int zc_kab_parse_cpulist(const char *s, int *out, int max);
bool zc_kab_in_path(const char *prog);
/* `zcbench compare base new` into outdir/comparison.txt (TCG warning first).
 * true when compare printed a comparison; its exit code in *rc_out. */
bool zc_kab_compare(const char *outdir, bool tcg, const char *base, const char *new_,
		    int *rc_out);
/* .../boot/vmlinuz-REL -> .../lib/modules/REL when that folder exists, else "". */
void zc_kab_guess_moddir(const char *image, char *out, size_t len);
/* Option checks: 0 or -EINVAL with why. */
int zc_kab_check_mem(const char *v, char *why, size_t len);
int zc_kab_check_cpulist(const char *v, char *why, size_t len);
int zc_kab_check_accel(const char *v, char *why, size_t len);
int zc_kab_check_sysctl(const char *v, char *why, size_t len);
/* {"K": "V"} of "K=V" strings (NULL-terminated; NULL: empty). */
json_t *zc_kab_sysctls(char *const *kv);
/* Each asked sysctl as the guest read it ("K VALUE" lines in seen) into
 * *out; 0, or -EINVAL when one differs (why says which). */
int zc_kab_sysctls_seen(char *const *kv, const char *seen, json_t **out, char *why, size_t len);
/* Copy the guest's results file src to dst with "accel" and "guest" (this
 * side: image, release, vCPUs, append, sysctls ...) added. 0 or -errno. */
int zc_kab_annotate(const char *src, const char *dst, const struct zc_guest_opts *o,
		    const struct zc_guest_result *r, const char *side, const char *user_append);
/* IMAGE.json (kernel-build's record) when it exists and describes this very
 * image (sha256), else NULL with why in note ("" when there is none). */
json_t *zc_kab_build_record(const char *image, char *note, size_t len);
/* Split --pipebench's flags into argv (NULL-terminated, words in store) and
 * check them with this binary's pipebench parser. 0 or -errno, why set. */
int zc_kab_pipebench_args(const char *flags, char *store, size_t slen, char **argv, int max,
			  char *why, size_t len);

#endif
