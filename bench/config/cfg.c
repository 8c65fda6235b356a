// SPDX-License-Identifier: GPL-2.0
#include "config/cfg.h"
#include "counters/counters.h"
#include "modes/mode.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#define F(field) offsetof(struct zc_cfg, field), sizeof(((struct zc_cfg *)0)->field)

const struct zc_opt zc_opts[] = {
	{ "topology", ZC_OPT_TOPO, "proxy", 0, 0, F(topology), -1, 0,
	  "proxy: source -> proxy -> sink (proxy is the device under test); "
	  "direct: source -> sink (source is the device under test)" },
	{ "source", ZC_OPT_MODE, "send", 0, 0, F(mode[ZC_ROLE_SOURCE]), ZC_ROLE_SOURCE, 0,
	  "source mode (zcbench list)" },
	{ "proxy", ZC_OPT_MODE, "copy", 0, 0, F(mode[ZC_ROLE_PROXY]), ZC_ROLE_PROXY, 0,
	  "proxy mode, used when topology = proxy" },
	{ "sink", ZC_OPT_MODE, "recv", 0, 0, F(mode[ZC_ROLE_SINK]), ZC_ROLE_SINK, 0,
	  "sink mode" },
	{ "chunk", ZC_OPT_SIZE, "64k", 1, 1 << 30, F(chunk), -1, ZC_OPT_LIST,
	  "bytes per data call (list: 4k,64k,1M)" },
	{ "pipe_size", ZC_OPT_SIZE, "1M", 4096, 1 << 30, F(pipe_size), -1, ZC_OPT_LIST,
	  "pipe capacity set with F_SETPIPE_SZ (list allowed)" },
	{ "period", ZC_OPT_SIZE, "1M", 1, 1 << 30, F(period), -1, 0,
	  "pattern period; modes re-sending one chunk (tee) use the chunk" },
	{ "warmup", ZC_OPT_DOUBLE, "1", 0, 3600, F(warmup_s), -1, 0,
	  "seconds of traffic before the measured window" },
	{ "duration", ZC_OPT_DOUBLE, "4", 0.05, 86400, F(duration_s), -1, 0,
	  "seconds in the measured window" },
	{ "tail", ZC_OPT_DOUBLE, "0.3", 0, 60, F(tail_s), -1, 0,
	  "seconds the source keeps sending after the window, so the sink's window is full" },
	{ "timeout", ZC_OPT_DOUBLE, "15", 1, 86400, F(timeout_s), -1, 0,
	  "seconds past warmup+duration+tail before a role counts as stalled" },
	{ "repetitions", ZC_OPT_LONG, "3", 1, 1000, F(repetitions), -1, 0,
	  "samples per run" },
	{ "seed", ZC_OPT_LONG, "1", 0, 1e15, F(seed), -1, 0,
	  "pattern seed" },
	{ "sink_seed", ZC_OPT_LONG, "-1", -1, 1e15, F(sink_seed), -1, 0,
	  "seed the sink expects (-1: same as seed); set it to test the verifier" },
	{ "file_dir", ZC_OPT_STR, "/var/tmp", 0, 0, F(file_dir), -1, 0,
	  "directory for the payload file of file modes (page cache, not tmpfs)" },
	{ "counters", ZC_OPT_STR, "none", 0, 0, F(counters), -1, 0,
	  "per-role counters: none, perf (perf_event_open), bpf (syscalls, softirq, "
	  "copied bytes), all" },
	{ "counters_roles", ZC_OPT_STR, "dut", 0, 0, F(counters_roles), -1, 0,
	  "roles that load the BPF programs: dut (the device under test only: every role's "
	  "programs run on every event of the host), all" },
	{ "mode_opts", ZC_OPT_STR, "", 0, 0, F(mode_opts), -1, 0,
	  "the modes' own options, KEY=VALUE[,KEY=VALUE] (listed below and by zcbench list); "
	  "each run's modes take the keys they declare" },
};
const size_t zc_nopts = ZC_ARRAY_SIZE(zc_opts);

static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return !*a && !*b;
}

const struct zc_opt *zc_opt_find(const char *key)
{
	for (size_t i = 0; i < zc_nopts; i++)
		if (key_eq(zc_opts[i].key, key))
			return &zc_opts[i];
	return NULL;
}

void zc_cfg_defaults(struct zc_cfg *cfg)
{
	char err[256];

	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < zc_nopts; i++)
		if (zc_opt_set(cfg, &zc_opts[i], zc_opts[i].def, err, sizeof(err)))
			zc_die("built-in default of %s: %s", zc_opts[i].key, err);
}

static int set_scalar(struct zc_cfg *cfg, const struct zc_opt *o, const char *v,
		      char *err, size_t errlen)
{
	char *p = (char *)cfg + o->off;
	uint64_t u;
	double d;
	long l;

	switch (o->type) {
	case ZC_OPT_SIZE:
		if (zc_parse_size(v, &u)) {
			snprintf(err, errlen, "'%s' is not a size (examples: 4096, 64k, 1M)", v);
			return -EINVAL;
		}
		if (u < o->min || u > o->max) {
			snprintf(err, errlen, "%s is out of range [%.0f, %.0f]", v, o->min, o->max);
			return -EINVAL;
		}
		*(uint64_t *)p = u;
		return 0;
	case ZC_OPT_DOUBLE:
		if (zc_parse_double(v, &d)) {
			snprintf(err, errlen, "'%s' is not a number", v);
			return -EINVAL;
		}
		if (d < o->min || d > o->max) {
			snprintf(err, errlen, "%s is out of range [%g, %g]", v, o->min, o->max);
			return -EINVAL;
		}
		*(double *)p = d;
		return 0;
	case ZC_OPT_LONG:
		if (zc_parse_long(v, &l)) {
			snprintf(err, errlen, "'%s' is not an integer", v);
			return -EINVAL;
		}
		if (l < o->min || l > o->max) {
			snprintf(err, errlen, "%s is out of range [%.0f, %.0f]", v, o->min, o->max);
			return -EINVAL;
		}
		*(long *)p = l;
		return 0;
	case ZC_OPT_STR:
		if (strlen(v) >= o->size) {
			snprintf(err, errlen, "value is longer than %zu characters", o->size - 1);
			return -EINVAL;
		}
		strcpy(p, v);
		return 0;
	case ZC_OPT_TOPO:
		for (int i = 0; i < 2; i++)
			if (!strcmp(v, zc_topo_names[i])) {
				*(int *)p = i;
				return 0;
			}
		snprintf(err, errlen, "'%s' is not a topology (proxy, direct)", v);
		return -EINVAL;
	case ZC_OPT_MODE:
		if (!zc_mode_find(o->role, v)) {
			int n = snprintf(err, errlen, "'%s' is not a %s mode (", v,
					 zc_role_names[o->role]);
			const char *sep = "";

			for (size_t i = 0; i < zc_nmodes && n > 0 && (size_t)n < errlen; i++) {
				if (zc_modes[i]->role != (enum zc_role)o->role)
					continue;
				n += snprintf(err + n, errlen - n, "%s%s", sep, zc_modes[i]->name);
				sep = ", ";
			}
			if (n > 0 && (size_t)n < errlen)
				snprintf(err + n, errlen - n, ")");
			return -EINVAL;
		}
		snprintf(p, o->size, "%s", v);
		return 0;
	}
	return -EINVAL;
}

int zc_opt_set(struct zc_cfg *cfg, const struct zc_opt *o, const char *value,
	       char *err, size_t errlen)
{
	uint64_t *list;
	int *n;
	char buf[512], *save, *tok;

	if (!(o->flags & ZC_OPT_LIST))
		return set_scalar(cfg, o, value, err, errlen);
	if (!strcmp(o->key, "chunk")) {
		list = cfg->chunks;
		n = &cfg->nchunks;
	} else {
		list = cfg->pipe_sizes;
		n = &cfg->npipe_sizes;
	}
	if (strlen(value) >= sizeof(buf)) {
		snprintf(err, errlen, "list is too long");
		return -EINVAL;
	}
	strcpy(buf, value);
	*n = 0;
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (*n == ZC_LIST_MAX) {
			snprintf(err, errlen, "more than %d values", ZC_LIST_MAX);
			return -EINVAL;
		}
		if (set_scalar(cfg, o, tok, err, errlen))
			return -EINVAL;
		list[(*n)++] = *(uint64_t *)((char *)cfg + o->off);
	}
	if (!*n) {
		snprintf(err, errlen, "empty list");
		return -EINVAL;
	}
	return 0;
}

uint64_t zc_cfg_period(const struct zc_cfg *cfg)
{
	const struct zc_mode *m = zc_mode_find(ZC_ROLE_SOURCE, cfg->mode[ZC_ROLE_SOURCE]);

	if (m && (m->flags & ZC_MODE_STATIC_CHUNK))
		return cfg->chunk;
	return cfg->period;
}

int zc_cfg_validate(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey)
{
	long page = sysconf(_SC_PAGESIZE);

	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

		if (!m) {
			snprintf(err, errlen, "key '%s': unknown mode '%s'", zc_role_names[r],
				 cfg->mode[r]);
			*badkey = zc_role_names[r];
			return -EINVAL;
		}
		if (r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT)
			continue;
		if ((m->flags & ZC_MODE_PAGE_CHUNK) && cfg->chunk % page) {
			snprintf(err, errlen,
				 "key 'chunk': %s mode '%s' needs a multiple of the page size (%ld), got %llu",
				 zc_role_names[r], m->name, page, (unsigned long long)cfg->chunk);
			*badkey = "chunk";
			return -EINVAL;
		}
	}
	if (zc_counters_parse(cfg->counters) < 0) {
		snprintf(err, errlen, "key 'counters': '%s' is not one of %s", cfg->counters,
			 zc_counters_choices);
		*badkey = "counters";
		return -EINVAL;
	}
	if (strcmp(cfg->counters_roles, "dut") && strcmp(cfg->counters_roles, "all")) {
		snprintf(err, errlen, "key 'counters_roles': '%s' is not one of dut, all",
			 cfg->counters_roles);
		*badkey = "counters_roles";
		return -EINVAL;
	}
	if (zc_mode_opts_check(cfg->mode_opts, err, errlen)) {
		*badkey = "mode_opts";
		return -EINVAL;
	}
	if (cfg->period % 8 || cfg->period % page) {
		snprintf(err, errlen, "key 'period': must be a multiple of the page size (%ld)", page);
		*badkey = "period";
		return -EINVAL;
	}
	return 0;
}

void zc_opts_help(FILE *f)
{
	for (size_t i = 0; i < zc_nopts; i++)
		fprintf(f, "  --%-14s %-8s default %-9s %s\n", zc_opts[i].key,
			zc_opts[i].flags & ZC_OPT_LIST ? "list" : "",
			zc_opts[i].def, zc_opts[i].help);
	zc_mode_opts_help(f);
}

const char *zc_counters_for_role(const struct zc_cfg *cfg, int role)
{
	int dut = cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
	int mask = zc_counters_parse(cfg->counters);

	if (mask < 0 || role == dut || !strcmp(cfg->counters_roles, "all"))
		return cfg->counters;
	return mask & ZC_CTR_PERF ? "perf" : "none";
}
