// SPDX-License-Identifier: GPL-2.0
/* The machine state of a run set, and tune = on with its restore (tune.h). */
#include "run/tune.h"
#include "lib/zcbench.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_DIR "/sys/devices/system/cpu"

void zc_tune_init(struct zc_tune *t)
{
	const char *root = getenv("ZC_SYSFS_ROOT");

	memset(t, 0, sizeof(*t));
	snprintf(t->root, sizeof(t->root), "%s", root ? root : "");
	snprintf(t->state_dir, sizeof(t->state_dir), "%s", zc_state_dir());
}

/* ROOT/sys/devices/system/cpu/ + the rest. */
static void cpu_path(const struct zc_tune *t, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void cpu_path(const struct zc_tune *t, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s" CPU_DIR "/", t->root);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < len)
		vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* The trimmed text of a sysfs file, or NULL when it cannot be read. */
static const char *read_val(const char *path, char *buf, size_t len)
{
	return zc_read_file_trim(path, buf, len) ? NULL : buf;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static int write_val(const char *path, const char *v) /* 0 or -errno */
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static bool has_cpufreq(const struct zc_tune *t, int cpu)
{
	char p[320];
	struct stat st;

	cpu_path(t, p, sizeof(p), "cpu%d/cpufreq", cpu);
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* Index of the shallowest idle state that really idles (not POLL): it and
 * the ones above stay, deeper ones are what tune disables. -1: none. */
static int idle_keep(const struct zc_tune *t, int cpu, int *nstates)
{
	char p[320], b[64];
	int keep = -1, k;

	for (k = 0;; k++) {
		cpu_path(t, p, sizeof(p), "cpu%d/cpuidle/state%d/name", cpu, k);
		if (!read_val(p, b, sizeof(b)))
			break;
		if (keep < 0 && strcmp(b, "POLL"))
			keep = k;
	}
	*nstates = k;
	return keep;
}

json_t *zc_machine_state(const struct zc_tune *t, const int *cpus, int n)
{
	json_t *o = json_object(), *freq = json_object(), *idle = json_object(), *fc, *ic;
	char p[320], b[256];
	bool any_freq = false, any_idle = false;

	fc = json_object();
	ic = json_object();
	for (int i = 0; i < n; i++) {
		char id[16];
		int nstates;
		json_t *states = json_array();

		snprintf(id, sizeof(id), "%d", cpus[i]);
		if (has_cpufreq(t, cpus[i])) {
			static const char *const keys[] = { "scaling_driver", "scaling_governor",
				"scaling_available_governors", "scaling_min_freq", "scaling_max_freq",
				"cpuinfo_max_freq", "energy_performance_preference" };
			json_t *c = json_object();

			any_freq = true;
			for (size_t k = 0; k < ZC_ARRAY_SIZE(keys); k++) {
				cpu_path(t, p, sizeof(p), "cpu%d/cpufreq/%s", cpus[i], keys[k]);
				json_object_set_new(c, keys[k], str_or_null(read_val(p, b, sizeof(b))));
			}
			json_object_set_new(fc, id, c);
		}
		idle_keep(t, cpus[i], &nstates);
		for (int k = 0; k < nstates; k++) {
			char name[64] = "", lat[32] = "", dis[8] = "";

			cpu_path(t, p, sizeof(p), "cpu%d/cpuidle/state%d/name", cpus[i], k);
			read_val(p, name, sizeof(name));
			cpu_path(t, p, sizeof(p), "cpu%d/cpuidle/state%d/latency", cpus[i], k);
			read_val(p, lat, sizeof(lat));
			cpu_path(t, p, sizeof(p), "cpu%d/cpuidle/state%d/disable", cpus[i], k);
			read_val(p, dis, sizeof(dis));
			json_array_append_new(states, json_pack("{s:i,s:s,s:i,s:b}", "state", k,
				"name", name, "latency_us", atoi(lat), "disabled", atoi(dis) != 0));
		}
		any_idle |= nstates > 0;
		json_object_set_new(ic, id, states);
	}
	if (any_freq) {
		cpu_path(t, p, sizeof(p), "cpufreq/boost");
		json_object_set_new(freq, "boost", str_or_null(read_val(p, b, sizeof(b))));
		cpu_path(t, p, sizeof(p), "intel_pstate/status");
		json_object_set_new(freq, "intel_pstate", str_or_null(read_val(p, b, sizeof(b))));
		cpu_path(t, p, sizeof(p), "intel_pstate/no_turbo");
		json_object_set_new(freq, "no_turbo", str_or_null(read_val(p, b, sizeof(b))));
		json_object_set_new(freq, "cpus", fc);
	} else {
		json_decref(fc);
		json_object_set_new(freq, "note", json_string("not available: no cpufreq in sysfs "
							      "(a VM, or frequency scaling off)"));
	}
	cpu_path(t, p, sizeof(p), "cpuidle/current_driver");
	json_object_set_new(idle, "driver", str_or_null(read_val(p, b, sizeof(b))));
	cpu_path(t, p, sizeof(p), "cpuidle/current_governor_ro");
	if (!read_val(p, b, sizeof(b)))
		cpu_path(t, p, sizeof(p), "cpuidle/current_governor");
	json_object_set_new(idle, "governor", str_or_null(read_val(p, b, sizeof(b))));
	if (any_idle) {
		json_object_set_new(idle, "cpus", ic);
	} else {
		json_decref(ic);
		json_object_set_new(idle, "note", json_string("not available: no cpuidle states in sysfs"));
	}
	json_object_set_new(o, "cpus", json_array());
	for (int i = 0; i < n; i++)
		json_array_append_new(json_object_get(o, "cpus"), json_integer(cpus[i]));
	json_object_set_new(o, "cpufreq", freq);
	json_object_set_new(o, "cpuidle", idle);
	return o;
}

static void state_path(const struct zc_tune *t, char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/tune-%ld", t->state_dir, pid);
}

/* A planned change: path, old value, new value. */
struct change {
	char path[320], from[64], to[64];
};

static int plan_add(struct change *c, int *n, int max, const char *path, const char *from,
		    const char *to)
{
	if (*n >= max)
		return -ENOSPC;
	snprintf(c[*n].path, sizeof(c[*n].path), "%s", path);
	snprintf(c[*n].from, sizeof(c[*n].from), "%s", from);
	snprintf(c[*n].to, sizeof(c[*n].to), "%s", to);
	(*n)++;
	return 0;
}

/* "PATH\tOLD\tNEW" per line, synced before anything changes. 0 or -errno */
static int state_write(const struct zc_tune *t, const struct change *c, int n)
{
	char path[320];
	FILE *f;
	int ret = 0;

	mkdir(t->state_dir, 0755);
	state_path(t, path, sizeof(path), getpid());
	if (!(f = fopen(path, "we")))
		return -errno;
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\t%s\t%s\n", c[i].path, c[i].from, c[i].to);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int zc_tune_apply(struct zc_tune *t, const int *cpus, int n, json_t *report)
{
	static struct change plan[ZC_TUNE_SAVED_MAX];
	char p[320], b[256], gov[512] = "", idle[512] = "";
	size_t gl = 0, il = 0;
	int np = 0, ret;
	json_t *changes = json_array();

	for (int i = 0; i < n; i++) {
		int keep, nstates;

		if (!has_cpufreq(t, cpus[i])) {
			gl += snprintf(gov + gl, sizeof(gov) - gl, "%sCPU %d: not available (no cpufreq: "
				       "a VM, or frequency scaling off)", gl ? "; " : "", cpus[i]);
		} else {
			cpu_path(t, p, sizeof(p), "cpu%d/cpufreq/scaling_available_governors", cpus[i]);
			if (!read_val(p, b, sizeof(b)) || !strstr(b, "performance")) {
				gl += snprintf(gov + gl, sizeof(gov) - gl, "%sCPU %d: not available (no "
					       "performance governor)", gl ? "; " : "", cpus[i]);
			} else {
				cpu_path(t, p, sizeof(p), "cpu%d/cpufreq/scaling_governor", cpus[i]);
				if (read_val(p, b, sizeof(b)) && strcmp(b, "performance"))
					plan_add(plan, &np, ZC_TUNE_SAVED_MAX, p, b, "performance");
				gl += snprintf(gov + gl, sizeof(gov) - gl, "%sCPU %d: performance%s",
					       gl ? "; " : "", cpus[i],
					       strcmp(b, "performance") ? "" : " already");
			}
		}
		gl = gl < sizeof(gov) ? gl : sizeof(gov) - 1;
		keep = idle_keep(t, cpus[i], &nstates);
		if (!nstates) {
			il += snprintf(idle + il, sizeof(idle) - il, "%sCPU %d: not available (no "
				       "cpuidle states)", il ? "; " : "", cpus[i]);
		} else {
			int disabled = 0;

			for (int k = keep < 0 ? nstates : keep + 1; k < nstates; k++) {
				cpu_path(t, p, sizeof(p), "cpu%d/cpuidle/state%d/disable", cpus[i], k);
				if (read_val(p, b, sizeof(b)) && strcmp(b, "1")) {
					plan_add(plan, &np, ZC_TUNE_SAVED_MAX, p, b, "1");
					disabled++;
				}
			}
			il += snprintf(idle + il, sizeof(idle) - il, "%sCPU %d: %s", il ? "; " : "",
				       cpus[i], disabled ? "deep states disabled" :
				       "no deep idle state to disable");
		}
		il = il < sizeof(idle) ? il : sizeof(idle) - 1;
	}
	json_object_set_new(report, "governor", json_string(gov));
	json_object_set_new(report, "idle", json_string(idle));
	if (np && (ret = state_write(t, plan, np))) {
		json_object_set_new(report, "changes", changes);
		json_object_set_new(report, "applied", json_false());
		json_object_set_new(report, "note", json_sprintf("cannot save the old values in %s: %s; "
								 "nothing changed", t->state_dir,
								 strerror(-ret)));
		return ret;
	}
	t->nsaved = 0;
	for (int i = 0; i < np; i++) {
		int r = write_val(plan[i].path, plan[i].to);

		json_array_append_new(changes, json_pack("{s:s,s:s,s:s,s:s*}", "path", plan[i].path,
			"from", plan[i].from, "to", plan[i].to, "error", r ? strerror(-r) : NULL));
		_Static_assert(sizeof(plan[0].path) == sizeof(t->saved[0].path), "path sizes");
		_Static_assert(sizeof(plan[0].from) == sizeof(t->saved[0].value), "value sizes");
		memcpy(t->saved[t->nsaved].path, plan[i].path, sizeof(plan[i].path));
		memcpy(t->saved[t->nsaved].value, plan[i].from, sizeof(plan[i].from));
		t->nsaved++;
	}
	json_object_set_new(report, "changes", changes);
	json_object_set_new(report, "applied", json_boolean(np > 0));
	return 0;
}

int zc_tune_restore(struct zc_tune *t)
{
	char path[320];
	int bad = 0;

	for (int i = 0; i < t->nsaved; i++)
		if (write_val(t->saved[i].path, t->saved[i].value)) {
			zc_warn("tune: could not restore %s to %s", t->saved[i].path, t->saved[i].value);
			bad++;
		}
	if (t->nsaved) {
		state_path(t, path, sizeof(path), getpid());
		unlink(path);
		rmdir(t->state_dir);	/* only when no other run's state is in it */
	}
	t->nsaved = 0;
	return bad;
}

int zc_tune_reap_stale(const struct zc_tune *t, int *pids)
{
	DIR *d = opendir(t->state_dir);
	struct dirent *e;
	int n = 0, np = 0;

	if (pids)
		*pids = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[600], line[800], cur[64];
		long pid;
		int done = 0;
		FILE *f;

		if (sscanf(e->d_name, "tune-%ld", &pid) != 1 || pid == getpid() || zc_pid_is_zcbench(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->state_dir, e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		np++;
		while (fgets(line, sizeof(line), f)) {
			char *from, *to = NULL, *nl = strchr(line, '\n');

			if (nl)
				*nl = 0;
			from = strchr(line, '\t');
			if (from) {
				*from++ = 0;
				to = strchr(from, '\t');
			}
			if (!to)
				continue;
			*to++ = 0;
			/* Someone changed it since: theirs, not ours to undo. */
			cur[0] = 0;
			if (zc_read_file_trim(line, cur, sizeof(cur)) || strcmp(cur, to)) {
				zc_warn("tune: %s is '%s', not the '%s' a dead zcbench (pid %ld) set: "
					"left alone", line, cur, to, pid);
				continue;
			}
			if (!write_val(line, from))
				done++;
		}
		fclose(f);
		unlink(path);
		n += done;
		zc_warn("tune: restored %d value(s) left by a dead zcbench (pid %ld)", done, pid);
	}
	closedir(d);
	rmdir(t->state_dir);
	if (pids)
		*pids = np;
	return n;
}

json_t *zc_tune_run_set(struct zc_tune *t, const int *cpus, int n, bool on)
{
	json_t *ms = zc_machine_state(t, cpus, n), *rep = json_object();

	json_object_set_new(rep, "requested", json_string(on ? "on" : "off"));
	if (on && !n) {
		json_object_set_new(rep, "applied", json_false());
		json_object_set_new(rep, "note", json_string("not available: no DUT on this host"));
		printf("tune: not available: no DUT on this host\n");
	} else if (on) {
		zc_tune_apply(t, cpus, n, rep);
		printf("tune: governor: %s; idle: %s%s%s\n",
		       json_string_value(json_object_get(rep, "governor")),
		       json_string_value(json_object_get(rep, "idle")),
		       json_is_string(json_object_get(rep, "note")) ? "; " : "",
		       json_is_string(json_object_get(rep, "note")) ?
		       json_string_value(json_object_get(rep, "note")) : "");
	}
	json_object_set_new(ms, "tune", rep);
	return ms;
}
