// SPDX-License-Identifier: GPL-2.0
/* The fingerprint; every probe's verdict, the one-line label, and the sysctl lock. */
#include "probe/probe_int.h"
#include "results/meta.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <sys/file.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Probes that set fs.splice_needs_write change the whole system for a moment:
 * concurrent probes (two `zcbench run` side by side) serialise on this lock,
 * and the value to restore is written down first, so a probe SIGKILLed
 * between set and restore is repaired by the next one (which, holding the
 * lock, knows nobody else is in the middle of a change).
 */
#define PROBE_LOCK	"/run/zcbench-probe.lock"
#define SNW_RESTORE	"/run/zcbench-snw.restore"

static int zc_write_sysctl_value(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	if (fprintf(f, "%s\n", v) < 0) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

static int probe_lock(void)
{
	int fd = open(PROBE_LOCK, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	double give_up = zc_now() + 5;

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || zc_now() > give_up) {
			close(fd);
			return -1;
		}
		usleep(10000);
	}
	return fd;
}

/*
 * The note a probe leaves before it changes the sysctl: the value to put
 * back and the value it set. A probe SIGKILLed in between leaves it; the next
 * one (holding the lock) puts the old value back only if the sysctl still
 * holds what the dead probe set: anything else is an administrator's change
 * made since, and wins. A note of the old format (just the value) was left
 * by a probe that set 1.
 */
int zc_snw_repair(const char *note_path, const char *sysctl_path, char *said, size_t len)
{
	char note[64], now[32], restore[32] = "", set[32] = "1";
	int ret = zc_read_file_trim(note_path, note, sizeof(note));

	said[0] = 0;
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	if (sscanf(note, "restore=%31s set=%31s", restore, set) != 2 &&
	    sscanf(note, "%31s", restore) != 1) {
		snprintf(said, len, "%s: unreadable note '%s', removed", note_path, note);
		unlink(note_path);
		return -EINVAL;
	}
	ret = zc_read_file_trim(sysctl_path, now, sizeof(now));
	if (ret)
		return ret;	/* the note stays for a probe that can read it */
	if (strcmp(now, set)) {
		snprintf(said, len, "fs.splice_needs_write is %s, not the %s an interrupted probe "
			 "set: left as it is (someone changed it since; %s not restored)", now, set,
			 restore);
		unlink(note_path);
		return 0;
	}
	ret = zc_write_sysctl_value(sysctl_path, restore);
	if (ret)
		return ret;
	snprintf(said, len, "restored fs.splice_needs_write=%s left at %s by an interrupted probe",
		 restore, set);
	unlink(note_path);
	return 1;
}

static void snw_repair(void)
{
	char said[256];

	zc_snw_repair(SNW_RESTORE, SNW_PATH, said, sizeof(said));
	if (said[0])
		zc_warn("%s", said);
}

/* ---- the fingerprint ---------------------------------------------------- */

static json_t *res_json(const char *what, const struct zc_probe_res *r)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:f}", "what", what, "verdict", r->verdict, "detail",
			      r->detail, "elapsed_ms", r->elapsed_ms);

	return o;
}

static const char *verdict_of(json_t *probes, const char *name)
{
	return json_string_value(json_object_get(json_object_get(probes, name), "verdict")) ?: "";
}

static void add_verdict(json_t *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_verdict(json_t *arr, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_array_append_new(arr, json_string(line));
}

static void verdicts(json_t *fp)
{
	json_t *p = json_object_get(fp, "probes"), *v = json_array(), *modes;
	const char *vm = verdict_of(p, "vmsplice_to_pipe"), *nb = verdict_of(p, "vmsplice_nonblock_pipe");
	const char *ov = verdict_of(p, "vmsplice_overfill_poll"), *snw = verdict_of(p, "splice_needs_write");
	const char *fs = verdict_of(p, "splice_file_unpriv"), *sf = verdict_of(p, "sendfile_file");
	const char *sr = verdict_of(p, "splice_file"), *te = verdict_of(p, "tee_pipe");
	const char *fs1 = verdict_of(p, "splice_file_unpriv_snw1"), *sf1 = verdict_of(p, "sendfile_file_unpriv_snw1");
	const char *vp = verdict_of(p, "vmsplice_file_page_unpriv");
	const char *vp1 = verdict_of(p, "vmsplice_file_page_unpriv_snw1");
	const char *ff = verdict_of(p, "vmsplice_fifo_nonblock");
	const char *user = json_string_value(json_object_get(fp, "user")) ?: "?";
	char label[256], vpw[32];
	const char *key;
	json_t *val;
	int emu = 0, emu_copy = 0;

	if (!strcmp(vm, "zero-copy"))
		add_verdict(v, "vmsplice: zero-copy (pre-Safin)");
	else if (!strcmp(vm, "copy"))
		add_verdict(v, "vmsplice: copy (pwritev2 semantics)");
	else
		add_verdict(v, "vmsplice: %s", vm);
	if (!strcmp(nb, "blocks"))
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: O_NONBLOCK ignored, blocks (pre-Safin)");
	else if (!strcmp(nb, "EAGAIN"))
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: O_NONBLOCK honoured, EAGAIN (Safin)");
	else
		add_verdict(v, "vmsplice on an O_NONBLOCK pipe: %s", nb);
	if (!strcmp(ov, "partial"))
		add_verdict(v, "vmsplice beyond the free space after poll: partial write (pre-Safin)");
	else if (!strcmp(ov, "blocks"))
		add_verdict(v, "vmsplice beyond the free space after poll: blocks (pwritev2; LTP vmsplice01 hangs)");
	else
		add_verdict(v, "vmsplice beyond the free space after poll: %s", ov);
	add_verdict(v, "splice_needs_write: %s", snw);
	/* Behaviour only: the same commit degrades splice to a copy and
	 * refuses vmsplice, so no series version can be told from one verdict. */
	if (!strcmp(fs, "skipped"))
		add_verdict(v, "splice of a read-only file as %s: skipped (%s)", user,
			    json_string_value(json_object_get(json_object_get(p, "splice_file_unpriv"), "detail")) ?: "");
	else
		add_verdict(v, "splice of a read-only file as %s: %s%s", user, fs,
			    !strcmp(fs, "copy") ? " (degraded to a copy)" :
			    !strcmp(fs, "refused") ? " (refused with an error)" : "");
	if (strcmp(fs1, "skipped"))
		add_verdict(v, "with fs.splice_needs_write=1, splice/sendfile of it as %s: %s / %s", user,
			    fs1, sf1);
	add_verdict(v, "vmsplice of a shared mapping of it as %s: %s%s", user, vp,
		    !strcmp(vp, "returns 0") ? " (refused without an error: a loop until done spins)" : "");
	if (strcmp(vp1, "skipped"))
		add_verdict(v, "with fs.splice_needs_write=1, that vmsplice: %s%s", vp1,
			    !strcmp(vp1, "returns 0") ? " (refused without an error)" : "");
	add_verdict(v, "vmsplice SPLICE_F_NONBLOCK into a FIFO: %s%s", ff,
		    !strcmp(ff, "EOPNOTSUPP") ? " (RWF_NOWAIT on a file without FMODE_NOWAIT, Safin)" : "");
	add_verdict(v, "splice/sendfile of a file: %s / %s", sr, sf);
	add_verdict(v, "tee: %s", te);
	modes = json_object_get(fp, "modes");
	json_object_foreach(modes, key, val) {
		if (!json_is_true(json_object_get(val, "emulated")))
			continue;
		emu++;
		emu_copy += !strcmp(json_string_value(json_object_get(val, "verdict")) ?: "", "copy");
	}
	if (emu)
		add_verdict(v, "emulated after-modes: %d of %d classify as a copy%s", emu_copy, emu,
			    emu_copy == emu ? " (faithful)" : " (NOT faithful: see modes)");
	json_object_set_new(fp, "verdicts", v);
	/* The label is space-separated key=value: "returns 0" becomes returns-0. */
	snprintf(vpw, sizeof(vpw), "%s", vp);
	for (char *c = vpw; (c = strchr(c, ' ')); c++)
		*c = '-';
	snprintf(label, sizeof(label), "%svmsplice=%s nonblock=%s snw=%s file-splice=%s sendfile=%s "
		 "after-poll=%s ro-splice=%s ro-vmsplice=%s fifo-nonblock=%s",
		 json_is_string(json_object_get(fp, "emulated")) ? "EMULATED(safin) " : "", vm, nb, snw,
		 sr, sf, ov, fs, vpw, ff);
	json_object_set_new(fp, "label", json_string(label));
	/* before/after in one word, from behaviour alone */
	json_object_set_new(fp, "vmsplice_state",
			    json_string(!strcmp(vm, "zero-copy") ? "before" :
					!strcmp(vm, "copy") ? "after" : "unknown"));
}

json_t *zc_probe_collect(const struct zc_probe_opts *o)
{
	json_t *fp = json_object(), *probes = json_object(), *modes = json_object();
	struct zc_probe_creds nob = { 0 }, *as_user = NULL;
	struct zc_probe_res r;
	char user_why[160] = "", snw[32] = "", path[300];
	struct kctx k = { .o = o, .wfd = -1,
			  .vms = o->emulate_safin ? zc_safin_vmsplice : zc_real_vmsplice };
	struct passwd *pw;
	double t0 = zc_now();
	struct utsname u;
	int ret, file_err = 0, lock = probe_lock();
	bool restored = false;

	if (lock >= 0)
		snw_repair();
	uname(&u);
	json_object_set_new(fp, "kernel_release", json_string(u.release));
	json_object_set_new(fp, "euid", json_integer(geteuid()));
	json_object_set_new(fp, "user", json_string(o->user));
	json_object_set_new(fp, "block_ms", json_integer(o->block_ms));
	/* Never in a results file: only `zcbench probe --emulate-safin`. */
	json_object_set_new(fp, "emulated", o->emulate_safin ? json_string("safin-vmsplice")
							      : json_false());

#define KPROBE(name, what, fn, ...)                                              \
	do {                                                                     \
		struct kctx kc_ = k;                                             \
		__VA_ARGS__;                                                     \
		zc_probe_bounded(fn, &kc_, o->timeout_ms, NULL, &r);            \
		json_object_set_new(probes, name, res_json(what, &r));           \
	} while (0)

	KPROBE("vmsplice_to_pipe", "vmsplice user pages into a pipe, change them, read the pipe",
	       zc_p_vmsplice_to_pipe, kc_.flags = 0);
	KPROBE("vmsplice_gift", "the same with SPLICE_F_GIFT: accepted? anything different?",
	       zc_p_vmsplice_to_pipe, kc_.flags = SPLICE_F_GIFT);
	KPROBE("vmsplice_overfill_poll", "64 KiB into a pipe with 32 KiB free, after poll(POLLOUT)",
	       zc_p_overfill, kc_.how = 0);
	KPROBE("vmsplice_overfill_nonblock", "64 KiB into a pipe with 32 KiB free, SPLICE_F_NONBLOCK",
	       zc_p_overfill, kc_.how = 1);
	KPROBE("vmsplice_overfill_flags0", "64 KiB into a pipe with 32 KiB free, flags 0",
	       zc_p_overfill, kc_.how = 2);
	KPROBE("vmsplice_nonblock_pipe", "flags 0 on a full pipe opened O_NONBLOCK",
	       zc_p_nonblock_pipe, (void)0);
	KPROBE("vmsplice_to_user", "vmsplice from a pipe's read end into user memory",
	       zc_p_vmsplice_to_user, (void)0);
	KPROBE("vmsplice_fifo_nonblock", "vmsplice with SPLICE_F_NONBLOCK into a FIFO opened with open(2)",
	       zc_p_vmsplice_fifo_nonblock, (void)0);

	memset(&r, 0, sizeof(r));
	ret = zc_read_file_trim(SNW_PATH, snw, sizeof(snw));
	if (ret == -ENOENT)
		zc_probe_set(&r, "absent", "%s does not exist", SNW_PATH);
	else if (ret)
		zc_probe_set(&r, "skipped", "%s: %s", SNW_PATH, strerror(-ret));
	else
		zc_probe_set(&r, snw, "%s = %s", SNW_PATH, snw);
	json_object_set_new(probes, "splice_needs_write",
			    res_json("is fs.splice_needs_write there, and its value", &r));

	/* The probe file: root's, mode 0644, unlinked at once (nothing left behind). */
	snprintf(path, sizeof(path), "%s/zcbench-probe-XXXXXX", o->file_dir);
	k.wfd = mkostemp(path, O_CLOEXEC);
	file_err = errno;
	if (k.wfd >= 0) {
		unlink(path);
		if (fchmod(k.wfd, 0644)) {
			file_err = errno;
			close(k.wfd);
			k.wfd = -1;
		}
	}
	if (geteuid() != 0)
		snprintf(user_why, sizeof(user_why), "not root: cannot drop to an unprivileged user, "
			 "and the caller owns the probe file");
	else if (!(pw = getpwnam(o->user)))
		snprintf(user_why, sizeof(user_why), "no user '%s' (--user)", o->user);
	else if (pw->pw_uid == 0)
		snprintf(user_why, sizeof(user_why), "user '%s' is root", o->user);
	else {
		nob.uid = pw->pw_uid;
		nob.gid = pw->pw_gid;
		as_user = &nob;
	}

#define FPROBE(name, what, how_, as, why) FPROBE_FN(name, what, zc_p_file, how_, as, why)
#define FPROBE_FN(name, what, fn, how_, as, why)                                  \
	do {                                                                     \
		struct kctx kc_ = k;                                             \
		kc_.how = how_;                                                  \
		memset(&r, 0, sizeof(r));                                        \
		if (k.wfd < 0)                                                   \
			zc_probe_set(&r, "skipped", "cannot create a file in %s: %s",    \
			    o->file_dir, strerror(file_err));                    \
		else if ((why)[0])                                               \
			zc_probe_set(&r, "skipped", "%s", why);                           \
		else                                                             \
			zc_probe_bounded(fn, &kc_, o->timeout_ms, as, &r);         \
		json_object_set_new(probes, name, res_json(what, &r));           \
	} while (0)

	FPROBE("splice_file", "splice a file into a pipe as the caller (root: the owner), change the file, read the pipe",
	       0, NULL, "");
	FPROBE("sendfile_file", "sendfile a file into a pipe as the caller, change the file, read the pipe",
	       1, NULL, "");
	FPROBE("splice_file_unpriv", "the same as the unprivileged user, on a file it cannot write",
	       0, as_user, user_why);
	FPROBE("sendfile_file_unpriv", "sendfile as the unprivileged user, on a file it cannot write",
	       1, as_user, user_why);
	FPROBE_FN("vmsplice_file_page_unpriv", "vmsplice a shared mapping of that file as the "
		  "unprivileged user", zc_p_vmsplice_file_page, 0, as_user, user_why);
	{
		/*
		 * Falcato's check only acts when the sysctl is 1: with it at 0,
		 * set it to 1 for the two probes and put it back, with the
		 * signals that could stop us in between blocked.
		 */
		char why[200] = "";
		bool changed = false;
		sigset_t block, old;

		if (ret == -ENOENT)
			snprintf(why, sizeof(why), "fs.splice_needs_write absent");
		else if (ret)
			snprintf(why, sizeof(why), "fs.splice_needs_write unreadable");
		else if (user_why[0])
			snprintf(why, sizeof(why), "%s", user_why);
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigaddset(&block, SIGQUIT);
		sigprocmask(SIG_BLOCK, &block, &old);
		if (!why[0] && !strcmp(snw, "0") && lock < 0)
			snprintf(why, sizeof(why), "not changing fs.splice_needs_write without "
				 PROBE_LOCK " (another probe holds it, or /run is not writable)");
		if (!why[0] && !strcmp(snw, "0")) {
			if (zc_write_sysctl_value(SNW_RESTORE, "restore=0 set=1") ||
			    (ret = zc_write_sysctl_value(SNW_PATH, "1"))) {
				snprintf(why, sizeof(why), "cannot set fs.splice_needs_write=1: %s",
					 strerror(errno));
				unlink(SNW_RESTORE);
			} else {
				changed = true;
			}
		}
		FPROBE("splice_file_unpriv_snw1", "splice of the read-only file with fs.splice_needs_write=1",
		       0, as_user, why);
		FPROBE("sendfile_file_unpriv_snw1", "sendfile of the read-only file with fs.splice_needs_write=1",
		       1, as_user, why);
		FPROBE_FN("vmsplice_file_page_unpriv_snw1", "vmsplice of a shared mapping of the "
			  "read-only file with fs.splice_needs_write=1", zc_p_vmsplice_file_page, 0,
			  as_user, why);
		if (changed) {
			ret = zc_write_sysctl_value(SNW_PATH, "0");
			if (ret)
				zc_warn("could not restore fs.splice_needs_write=0: %s (%s keeps the "
					"value for the next probe)", strerror(-ret), SNW_RESTORE);
			else
				unlink(SNW_RESTORE);
			restored = ret == 0;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		json_object_set_new(fp, "sysctl_changed_and_restored", json_boolean(changed && restored));
	}
	KPROBE("tee_pipe", "tee a pipe into another, change the master's pages, read the copy",
	       zc_p_tee, (void)0);
	if (k.wfd >= 0)
		close(k.wfd);
#undef KPROBE
#undef FPROBE
#undef FPROBE_FN
	json_object_set_new(fp, "probes", probes);

	if (o->modes) {
		for (size_t i = 0; i < zc_nmodes; i++) {
			const struct zc_mode *m = zc_modes[i];

			if (!zc_mode_probeable(m))
				continue;
			zc_probe_mode(m, o, &r);
			json_object_set_new(modes, m->name,
					    json_pack("{s:s,s:b,s:s,s:s,s:f}", "role",
						      zc_role_names[m->role], "emulated",
						      !!(m->flags & ZC_MODE_EMULATED), "verdict",
						      r.verdict, "detail", r.detail, "elapsed_ms",
						      r.elapsed_ms));
		}
	}
	json_object_set_new(fp, "modes", modes);
	verdicts(fp);
	json_object_set_new(fp, "elapsed_s", json_real(zc_now() - t0));
	if (lock >= 0)
		close(lock);
	return fp;
}

json_t *zc_fingerprint_collect(void)
{
	struct zc_probe_opts o;

	zc_probe_opts_default(&o);
	return zc_probe_collect(&o);
}

static void print_res(FILE *f, const char *name, json_t *p)
{
	const char *v = json_string_value(json_object_get(p, "verdict")) ?: "?";
	const char *d = json_string_value(json_object_get(p, "detail")) ?: "";

	if (!strcmp(v, "skipped"))
		fprintf(f, "  %-32s skipped: %s\n", name, d);
	else
		fprintf(f, "  %-32s %-15s %s\n", name, v, d);
}

static void probe_print(FILE *f, json_t *fp)
{
	const char *key;
	json_t *val, *v;
	size_t i;

	if (json_is_string(json_object_get(fp, "emulated")))
		fprintf(f, "EMULATED: vmsplice replaced by Safin's pwritev2/preadv2 wrapper in the "
			   "vmsplice probes\n");
	fprintf(f, "kernel fingerprint: %s, probed as euid %lld in %.2f s\n",
		json_string_value(json_object_get(fp, "kernel_release")) ?: "?",
		(long long)json_integer_value(json_object_get(fp, "euid")),
		json_real_value(json_object_get(fp, "elapsed_s")));
	json_object_foreach(json_object_get(fp, "probes"), key, val)
		print_res(f, key, val);
	if (json_object_size(json_object_get(fp, "modes"))) {
		fprintf(f, "\nmode data paths (each mode's step, same page-change test):\n");
		json_object_foreach(json_object_get(fp, "modes"), key, val) {
			char name[64];

			snprintf(name, sizeof(name), "%s %s%s",
				 json_string_value(json_object_get(val, "role")) ?: "?", key,
				 json_is_true(json_object_get(val, "emulated")) ? " [emu]" : "");
			print_res(f, name, val);
		}
	}
	fprintf(f, "\nverdicts:\n");
	json_array_foreach(json_object_get(fp, "verdicts"), i, v)
		fprintf(f, "  %s\n", json_string_value(v));
}

/* Each probe's line broken at spaces to the terminal's width, its detail
 * continued under the name. */
void zc_probe_print(FILE *f, json_t *fp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		probe_print(f, fp);
		return;
	}
	probe_print(m, fp);
	fclose(m);
	zc_put_fitted(f, text, zc_term_width(fileno(f)), 6);
	free(text);
}

void zc_fingerprint_print_brief(FILE *f, json_t *fp)
{
	if (!json_is_object(fp))
		return;
	fprintf(f, "kernel fingerprint: %s\n", json_string_value(json_object_get(fp, "label")) ?: "?");
}
