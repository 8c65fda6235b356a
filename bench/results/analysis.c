// SPDX-License-Identifier: GPL-2.0
#include "results/analysis.h"
#include "lib/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

json_t *zc_an_load(const char *cmd, const char *path)
{
	char err[1200];
	json_t *root = zc_results_load(path, err, sizeof(err));

	if (!root)
		zc_err("%s: %s", cmd, err);
	return root;
}

const char *zc_an_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

long long zc_an_int(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) :
	       json_is_real(v)	  ? (long long)json_real_value(v) : 0;
}

void zc_an_size(long long v, char *out, size_t len)
{
	if (v >= (1 << 20) && v % (1 << 20) == 0)
		snprintf(out, len, "%lldM", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(out, len, "%lldk", v >> 10);
	else
		snprintf(out, len, "%lld", v);
}

void zc_an_key(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");
	long long conn = zc_an_int(k, "connections");

	if (!strcmp(zc_an_str(k, "topology"), "proxy"))
		snprintf(out, len, "proxy %s>%s>%s chunk=%lld pipe=%lld conn=%lld",
			 zc_an_str(k, "source"), zc_an_str(k, "proxy"), zc_an_str(k, "sink"),
			 zc_an_int(k, "chunk"), zc_an_int(k, "pipe_size"), conn ? conn : 1);
	else
		snprintf(out, len, "%s %s>%s chunk=%lld pipe=%lld conn=%lld",
			 zc_an_str(k, "topology"), zc_an_str(k, "source"), zc_an_str(k, "sink"),
			 zc_an_int(k, "chunk"), zc_an_int(k, "pipe_size"), conn ? conn : 1);
}

const char *zc_an_dut_mode(json_t *run)
{
	json_t *k = json_object_get(run, "key");
	const char *dut = zc_an_str(run, "dut");

	if (!*dut)
		dut = strcmp(zc_an_str(k, "topology"), "proxy") ? "source" : "proxy";
	/* The run's own "dut" says which role the per-core figures belong to. */
	return zc_an_str(k, dut);
}

void zc_an_label(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");
	const char *topo = zc_an_str(k, "topology");

	if (!strcmp(topo, "proxy"))
		snprintf(out, len, "proxy:%s", zc_an_str(k, "proxy"));
	else if (strcmp(zc_an_str(k, "sink"), "recv"))
		snprintf(out, len, "%s>%s", zc_an_str(k, "source"), zc_an_str(k, "sink"));
	else
		snprintf(out, len, "%s", zc_an_str(k, "source"));
}

size_t zc_an_values(json_t *run, const char *metric, double *out, size_t max)
{
	json_t *smp;
	size_t i, n = 0;

	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *x = json_object_get(smp, metric);

		if (n < max && json_is_number(x) && !strcmp(zc_an_str(smp, "status"), "ok") &&
		    isfinite(json_number_value(x)))
			out[n++] = json_number_value(x);
	}
	return n;
}

const struct zc_metric *zc_an_metric(const char *key)
{
	for (size_t m = 0; m < zc_nmetrics; m++)
		if (!strcmp(zc_metrics[m].key, key))
			return &zc_metrics[m];
	return NULL;
}

bool zc_an_metric_is_pct(const struct zc_metric *m)
{
	size_t l = strlen(m->key);

	return (m->unit && (!strcmp(m->unit, "%") || !strcmp(m->unit, "percent"))) ||
	       (l > 4 && !strcmp(m->key + l - 4, "_pct"));
}

const char *zc_an_kernel(json_t *root)
{
	const char *s = zc_an_str(json_object_get(json_object_get(root, "meta"), "kernel"),
				  "release");

	return *s ? s : "unknown-kernel";
}

const char *zc_an_hostname(json_t *root)
{
	const char *s = zc_an_str(json_object_get(root, "meta"), "hostname");

	return *s ? s : "unknown-host";
}

const char *zc_an_date(json_t *root)
{
	return zc_an_str(json_object_get(root, "meta"), "date");
}

long long zc_an_epoch(json_t *root)
{
	struct tm tm = { 0 };
	const char *d = zc_an_date(root), *end;

	end = strptime(d, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return -1;
	return (long long)timegm(&tm);
}

void zc_an_fingerprint(json_t *root, char *line, size_t len, char *id, size_t idlen)
{
	json_t *fp = json_object_get(root, "fingerprint");
	char *dump;
	uint32_t h = 2166136261u; /* FNV-1a: a short label that changes with the behaviour */

	if (!fp || json_is_null(fp)) {
		snprintf(line, len, "none");
		snprintf(id, idlen, "none");
		return;
	}
	dump = json_dumps(fp, JSON_COMPACT | JSON_SORT_KEYS);
	/* zcbench probe writes a one-line "label" of the behaviours: the best id. */
	if (json_is_string(json_object_get(fp, "label")) && dump) {
		snprintf(line, len, "%s", dump);
		snprintf(id, idlen, "%s", json_string_value(json_object_get(fp, "label")));
		free(dump);
		return;
	}
	if (!dump) {
		snprintf(line, len, "(unprintable)");
		snprintf(id, idlen, "unknown");
		return;
	}
	for (const char *p = dump; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(line, len, "%s", dump);
	snprintf(id, idlen, "fp-%08x", h);
	free(dump);
}

const struct zc_ratio_def zc_ratio_defs[] = {
	{ "splice/copy proxy", "proxy", "proxy", "splice", "copy", true },
	{ "tee/send source", "direct", "source", "tee", "send", true },
	{ "vmsplice/send source", "direct", "source", "vmsplice", "send", false },
	{ "vmsplice-gift/send source", "direct", "source", "vmsplice-gift", "send", false },
	{ "sendfile/send source", "direct", "source", "sendfile", "send", false },
	{ "splice-file/send source", "direct", "source", "splice-file", "send", false },
};
const size_t zc_nratio_defs = ZC_ARRAY_SIZE(zc_ratio_defs);

static bool mode_matches(const char *have, const char *want, bool prefix)
{
	if (!prefix)
		return !strcmp(have, want);
	return !strncmp(have, want, strlen(want)) && strlen(have) > strlen(want);
}

json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode, bool prefix)
{
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key"), *r;
	bool direct = !strcmp(zc_an_str(k, "topology"), "direct");
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *q = json_object_get(r, "key");
		bool same = zc_an_int(q, "chunk") == zc_an_int(k, "chunk") &&
			    zc_an_int(q, "pipe_size") == zc_an_int(k, "pipe_size") &&
			    zc_an_int(q, "connections") == zc_an_int(k, "connections");

		for (size_t j = 0; j < ZC_ARRAY_SIZE(fields) && same; j++) {
			if (!strcmp(fields[j], role))
				same = mode_matches(zc_an_str(q, role), mode, prefix);
			else if (!(direct && !strcmp(fields[j], "proxy")))
				same = !strcmp(zc_an_str(q, fields[j]), zc_an_str(k, fields[j]));
		}
		if (same)
			return r;
	}
	return NULL;
}

#define ZC_MAX_SAMPLES 4096

void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r)
{
	static double a[ZC_MAX_SAMPLES], b[ZC_MAX_SAMPLES];

	r->nn = zc_an_values(num, "gbps_per_core", a, ZC_MAX_SAMPLES);
	r->nd = zc_an_values(den, "gbps_per_core", b, ZC_MAX_SAMPLES);
	r->num_gpc = zc_median(a, r->nn);
	r->den_gpc = zc_median(b, r->nd);
	r->value = r->nn && r->nd && r->den_gpc != 0 ? r->num_gpc / r->den_gpc : NAN;
	r->lo = r->hi = NAN;
	if (!isnan(r->value))
		zc_bootstrap_ratio_ci(a, r->nn, b, r->nd, ZC_BOOT_ROUNDS, ZC_BOOT_SEED, 0.95,
				      &r->lo, &r->hi);
}

int zc_an_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	const char *slash = strrchr(path, '/');
	int fd, ret = 0;

	if (slash)
		snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		snprintf(tmp, sizeof(tmp), ".%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (size_t off = 0; off < len && !ret;) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno != EINTR)
			ret = -errno;
		else if (w > 0)
			off += w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	/* Collectors and web servers read it as another user. */
	if (!ret && fchmod(fd, 0644))
		ret = -errno;
	close(fd);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

const char *zc_an_kernel_side(json_t *root)
{
	const char *s = json_string_value(
		json_object_get(json_object_get(root, "fingerprint"), "vmsplice_state"));

	return s && (!strcmp(s, "before") || !strcmp(s, "after")) ? s : NULL;
}
