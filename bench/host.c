// SPDX-License-Identifier: GPL-2.0
#include "host.h"
#include "ini.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static int local_prefix(const struct zc_host *h, int role, char **argv, int max)
{
	(void)h, (void)role, (void)argv, (void)max;
	return 0;
}

static const struct zc_transport transport_local = {
	.name = "local",
	.prefix = local_prefix,
};

static const struct zc_transport *const transports[] = { &transport_local };

struct hparse {
	struct zc_host *h;
	char *err;
	size_t errlen;
	bool failed;
};

static int set_cpu(int *cpu, const char *v)
{
	long c;

	if (!strcmp(v, "auto")) {
		*cpu = -1;
		return 0;
	}
	if (zc_parse_long(v, &c) || c < 0 || c > 4095)
		return -EINVAL;
	*cpu = (int)c;
	return 0;
}

static int hhandler(void *user, const char *section, const char *key, const char *value,
		    int line)
{
	struct hparse *p = user;
	struct zc_host *h = p->h;
	int role = -1;

	if (p->failed)
		return 0;
#define BAD(...)                                                                     \
	do {                                                                         \
		int n_ = snprintf(p->err, p->errlen, "%s:%d: ", h->path, line);        \
		snprintf(p->err + n_, p->errlen - n_, __VA_ARGS__);                  \
		p->failed = true;                                                    \
		return 0;                                                            \
	} while (0)
	if (strcmp(section, "host") && (role = zc_role_from_name(section)) < 0)
		BAD("unknown section [%s] (expected [host], [source], [proxy], [sink])", section);
	if (role < 0 && !strcmp(key, "name")) {
		snprintf(h->name, sizeof(h->name), "%s", value);
	} else if (role < 0 && !strcmp(key, "transport")) {
		h->transport = NULL;
		for (size_t i = 0; i < ZC_ARRAY_SIZE(transports); i++)
			if (!strcmp(transports[i]->name, value))
				h->transport = transports[i];
		if (!h->transport)
			BAD("key 'transport': '%s' is not a transport (local)", value);
	} else if (!strcmp(key, "address")) {
		if (strlen(value) >= sizeof(h->address[0]) || strpbrk(value, " \t;|&$`'\"\\<>()"))
			BAD("key 'address': '%s' is not an address", value);
		for (int r = 0; r < ZC_ROLE_NR; r++)
			if (role < 0 || r == role)
				snprintf(h->address[r], sizeof(h->address[r]), "%s", value);
	} else if (role >= 0 && !strcmp(key, "cpu")) {
		if (set_cpu(&h->cpu[role], value))
			BAD("key 'cpu': '%s' is not a CPU number or auto", value);
	} else {
		BAD("unknown key '%s' in [%s]", key, section);
	}
	return 1;
#undef BAD
}

static void defaults(struct zc_host *h)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "loopback");
	h->transport = &transport_local;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		snprintf(h->address[r], sizeof(h->address[r]), "127.0.0.1");
		h->cpu[r] = -1;
		if (readlink("/proc/self/exe", h->exe[r], sizeof(h->exe[r]) - 1) < 0)
			snprintf(h->exe[r], sizeof(h->exe[r]), "zcbench");
	}
}

int zc_host_load(const char *path, struct zc_host *h, char *err, size_t errlen)
{
	struct hparse p = { .h = h, .err = err, .errlen = errlen };
	int ret;

	defaults(h);
	if (!path)
		return 0;
	snprintf(h->path, sizeof(h->path), "%s", path);
	ret = zc_ini_parse(path, hhandler, &p);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (p.failed)
		return -EINVAL;
	if (ret > 0) {
		snprintf(err, errlen, "%s:%d: syntax error", path, ret);
		return -EINVAL;
	}
	return 0;
}

json_t *zc_host_json(const struct zc_host *h)
{
	json_t *o = json_object(), *roles = json_object();

	json_object_set_new(o, "file", h->path[0] ? json_string(h->path) : json_null());
	json_object_set_new(o, "name", json_string(h->name));
	json_object_set_new(o, "transport", json_string(h->transport->name));
	for (int r = 0; r < ZC_ROLE_NR; r++)
		json_object_set_new(roles, zc_role_names[r],
				    json_pack("{s:s,s:i}", "address", h->address[r], "cpu", h->cpu[r]));
	json_object_set_new(o, "roles", roles);
	return o;
}
