// SPDX-License-Identifier: GPL-2.0
/*
 * Host files and the transports' shared parts: the generic keys as a table,
 * each transport's keys from its own table (read in a second pass, once
 * transport = is known), every value that may reach a command line checked
 * against a plain character set and refused with file:line; the results
 * "host" object; running helper commands without a shell. The DUT's
 * placement against its NIC is in placement.c.
 */
#include "transport/host.h"
#include "lib/ini.h"
#include "transport/nic.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct zc_transport *const transports[] = {
#define ZC_TRANSPORT_PTR(ident) &zc_transport_##ident,
	ZC_TRANSPORTS(ZC_TRANSPORT_PTR)
#undef ZC_TRANSPORT_PTR
};

static int parse_transport(const struct zc_opt *o, void *base, const char *v, char *why,
			   size_t len)
{
	const void *const *rows = (const void *const *)transports;
	const struct zc_transport *t = zc_row_find(rows, ZC_ARRAY_SIZE(transports), v);
	char names[256];

	(void)o;
	if (t) {
		((struct zc_host *)base)->transport = t;
		return 0;
	}
	zc_row_names(rows, ZC_ARRAY_SIZE(transports), names, sizeof(names), ", ");
	snprintf(why, len, "'%s' is not a transport (%s)", v, names);
	return -EINVAL;
}

static int format_transport(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	const struct zc_host *h = base;

	(void)o;
	return snprintf(buf, len, "%s", h->transport->name);
}

static int check_irq_cpu(const char *v, char *why, size_t len)
{
	long n;

	if (!strcmp(v, "same") || !strcmp(v, "sibling") || !strcmp(v, "other-node") ||
	    !strcmp(v, "workers") ||
	    (!zc_parse_long(v, &n) && n >= 0 && n <= 4095))
		return 0;
	snprintf(why, len, "'%s' is not same, sibling, other-node, workers or a CPU", v);
	return -EINVAL;
}

#define AT(field) ZC_OPT_AT(struct zc_host, field)
#define HOST ZC_HOST_KEY
#define ROLE ZC_ROLE_KEY

/* The keys every transport has. Values that may reach a command line are
 * restricted to plain characters (lib/opt.c: plain). */
static const struct zc_opt host_keys[] = {
	{ "name", ZC_OPT_STR, "loopback", AT(name), HOST, .plain = "._-",
	  .what = "a name ([A-Za-z0-9._-])", .meta = "NAME", .help = "names the results file" },
	{ "transport", ZC_OPT_CUSTOM, .flags = HOST, .parse = parse_transport,
	  .format = format_transport, .meta = "NAME",
	  .help = "how roles are started: one of the transports below (default local)" },
	{ "address", ZC_OPT_STR, NULL, AT(address[0]), HOST | ROLE, .plain = ".:%_-",
	  .what = "an address", .meta = "ADDRESS",
	  .help = "what the role listens on / is reached at (default 127.0.0.1, or the interface's)" },
	{ "interface", ZC_OPT_STR, NULL, AT(iface[0]), HOST | ROLE, .plain = "._-",
	  .what = "an interface name", .meta = "IFACE",
	  .help = "the role's NIC; alone, its address is used" },
	{ "bind_device", ZC_OPT_BOOL, "no", AT(bind_device[0]), HOST | ROLE,
	  .help = "SO_BINDTODEVICE every socket to interface" },
	{ "cpu", ZC_OPT_INT, "auto", 0, 4095, AT(cpu[0]), ROLE, .names = "auto=-1",
	  .help = "pin the role; auto: placed by hwloc (on its own host for a remote role)" },
	{ "exe", ZC_OPT_STR, NULL, AT(exe[0]), HOST | ROLE, ZC_OPT_ABS_PATH,
	  .help = "zcbench on that machine; it must answer --version like this one "
		  "(default: this binary)" },
	{ "placement", ZC_OPT_CHOICE, "local", AT(placement), HOST, .choices = "local|remote",
	  .help = "DUT on its NIC's NUMA node, or off it (not applicable: one node, or a NIC "
		  "without locality)" },
	{ "irq_cpu", ZC_OPT_STR, NULL, AT(irq_cpu), HOST, .check = check_irq_cpu,
	  .meta = "same|sibling|other-node|workers|N",
	  .help = "pin the DUT NIC's IRQs relative to the DUT's CPU (workers: spread over the DUT's "
		  "worker CPUs), restored after each run" },
};

struct hparse {
	struct zc_host *h;
	bool first_pass;	/* only transport = (its keys' table depends on it) */
	char *err;
	size_t errlen;
	int cpu_line[ZC_ROLE_NR];	/* where cpu = was set, for the check against this machine */
	int iface_line[ZC_ROLE_NR];	/* where interface = was set ([host]: every role's) */
};

#define hbad(p, line, ...) zc_ini_fault((p)->err, (p)->errlen, (p)->h->path, line, __VA_ARGS__)

/* The row for key: the host's, or the transport's (base: its state). */
static const struct zc_opt *host_key(const struct zc_host *h, const char *key, bool *priv)
{
	const struct zc_opt *o = zc_opt_lookup(host_keys, ZC_ARRAY_SIZE(host_keys), key);

	*priv = !o;
	if (!o)
		o = zc_opt_lookup(h->transport->keys, h->transport->nkeys, key);
	return o;
}

/* Store v into every role's element (role < 0) or one role's. */
static int store_roles(const struct zc_opt *o, void *base, int role, const char *v, char *why,
		       size_t len)
{
	if (!(o->flags & ZC_ROLE_KEY))
		return zc_opt_store(o, base, v, why, len);
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if ((role < 0 || r == role) && zc_opt_store(o, (char *)base + r * o->size, v, why, len))
			return -EINVAL;
	return 0;
}

static int hhandler(void *user, const char *section, const char *key, const char *value,
		    int line)
{
	struct hparse *p = user;
	struct zc_host *h = p->h;
	const struct zc_opt *o;
	int role = -1;
	char why[512];
	bool priv;

	if (strcmp(section, "host") && (role = zc_role_from_name(section)) < 0)
		return hbad(p, line, "unknown section [%s] (expected [host], [source], [proxy], "
			    "[sink])", section);
	if (!key)
		return 0;
	if (p->first_pass) {
		if (!strcmp(section, "host") && !strcmp(key, "transport") &&
		    parse_transport(NULL, h, value, why, sizeof(why)))
			return hbad(p, line, "key 'transport': %s", why);
		return 0;
	}
	o = host_key(h, key, &priv);
	if (!o) {
		for (size_t i = 0; i < ZC_ARRAY_SIZE(transports); i++)
			if (zc_opt_lookup(transports[i]->keys, transports[i]->nkeys, key))
				return hbad(p, line, "key '%s' needs transport = %s in [host] (this "
					    "file's transport is %s)", key, transports[i]->name,
					    h->transport->name);
		return hbad(p, line, "unknown key '%s' in [%s] (zcbench keys lists them)", key,
			    section);
	}
	if (role < 0 && !(o->flags & ZC_HOST_KEY))
		return hbad(p, line, "key '%s' belongs in [source], [proxy] or [sink]", key);
	if (role >= 0 && !(o->flags & ZC_ROLE_KEY))
		return hbad(p, line, "key '%s' belongs in [host]", key);
	if (o->type == ZC_OPT_CUSTOM && o->parse == parse_transport)
		return 0;	/* set by the first pass */
	if (store_roles(o, priv ? (void *)h->priv : (void *)h, role, value, why, sizeof(why)))
		return hbad(p, line, "key '%s': %s", key, why);
	if (!priv && !strcmp(o->key, "cpu"))
		p->cpu_line[role] = line;
	for (int r = 0; !priv && !strcmp(o->key, "interface") && r < ZC_ROLE_NR; r++)
		if (role < 0 || r == role)
			p->iface_line[r] = line;
	return 0;
}

/* A role on this machine named by its interface alone gets that interface's
 * address when the run starts (local.c): an interface that is not here, or
 * has no address, is refused now with its line, before anything starts. */
static int check_ifaces(struct hparse *p)
{
	struct zc_host *h = p->h;

	for (int r = 0; r < ZC_ROLE_NR; r++) {
		char addr[128];

		if (!h->iface[r][0] || h->address[r][0] || zc_host_remote(h, r) ||
		    h->transport->own_netns || !zc_nic_addr(h->iface[r], addr, sizeof(addr)))
			continue;
		if (!if_nametoindex(h->iface[r]))
			return hbad(p, p->iface_line[r], "[%s] key 'interface': no interface %s "
				    "here", zc_role_names[r], h->iface[r]);
		return hbad(p, p->iface_line[r], "[%s] key 'interface': %s has no address here "
			    "(give the role's address = too)", zc_role_names[r], h->iface[r]);
	}
	return 0;
}

/* A role pinned by hand on this machine must get a CPU it may run on here
 * (a remote role's CPUs are its machine's: checked there). */
static int check_cpus(struct hparse *p)
{
	struct zc_host *h = p->h;
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		char list[64] = "";
		int o = 0;

		if (h->cpu[r] < 0 || zc_host_remote(h, r) || CPU_ISSET(h->cpu[r], &allowed))
			continue;
		for (int c = 0; c < CPU_SETSIZE && o < (int)sizeof(list) - 8; c++)
			if (CPU_ISSET(c, &allowed))
				o += snprintf(list + o, sizeof(list) - o, "%s%d", o ? "," : "", c);
		return hbad(p, p->cpu_line[r], "[%s] key 'cpu': CPU %d is not one zcbench may run "
			    "on here (allowed: %s)", zc_role_names[r], h->cpu[r], list);
	}
	return 0;
}

/* Defaults of rows over base: every role's element of a per-role row. */
static void defaults_of(const struct zc_opt *opts, size_t n, void *base)
{
	char why[256];

	for (size_t i = 0; i < n; i++)
		if (opts[i].def && store_roles(&opts[i], base, -1, opts[i].def, why, sizeof(why)))
			zc_die("built-in default of host key %s: %s", opts[i].key, why);
}

static void transport_defaults(struct zc_host *h)
{
	const struct zc_transport *t = h->transport;

	if (t->priv_size > sizeof(h->priv))
		zc_die("transport %s: %zu bytes of state, at most %zu", t->name, t->priv_size,
		       sizeof(h->priv));
	memset(h->priv, 0, sizeof(h->priv));
	if (t->init)
		t->init(h);
	defaults_of(t->keys, t->nkeys, h->priv);
}

static void defaults(struct zc_host *h)
{
	memset(h, 0, sizeof(*h));
	h->transport = &zc_transport_local;
	defaults_of(host_keys, ZC_ARRAY_SIZE(host_keys), h);
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (readlink("/proc/self/exe", h->exe[r], sizeof(h->exe[r]) - 1) < 0)
			snprintf(h->exe[r], sizeof(h->exe[r]), "zcbench");
	transport_defaults(h);
}

/* Once the file is read: what was not given, and checks across keys. */
static int finish_load(struct zc_host *h, char *err, size_t errlen)
{
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		h->address_set[r] = h->address[r][0];
		if (!h->address_set[r])
			snprintf(h->address[r], sizeof(h->address[r]), "127.0.0.1");
		if (h->bind_device[r] && !h->iface[r][0]) {
			snprintf(err, errlen, "%s: [%s] bind_device = yes needs interface = NAME",
				 h->path, zc_role_names[r]);
			return -EINVAL;
		}
	}
	return h->transport->check ? h->transport->check(h, err, errlen) : 0;
}

int zc_host_load(const char *path, struct zc_host *h, char *err, size_t errlen)
{
	struct hparse p = { .h = h, .err = err, .errlen = errlen, .first_pass = true };

	defaults(h);
	if (!path)
		return finish_load(h, err, errlen);
	/* The path goes into the results file: whole, and UTF-8. */
	if (strlen(path) >= sizeof(h->path) || zc_utf8_bad(path, strlen(path)) >= 0) {
		snprintf(err, errlen, "host file name: %s", zc_utf8_bad(path, strlen(path)) >= 0 ?
			 "not UTF-8" : "longer than 511 bytes");
		return -EINVAL;
	}
	strcpy(h->path, path);
	for (int pass = 0; pass < 2; pass++) {
		if (zc_ini_parse(path, hhandler, &p, err, errlen))
			return -EINVAL;
		if (p.first_pass)
			transport_defaults(h);
		p.first_pass = false;
	}
	if (check_cpus(&p) || check_ifaces(&p))
		return -EINVAL;
	return finish_load(h, err, errlen);
}

int zc_host_get(const struct zc_host *h, int role, const char *key, char *buf, size_t len)
{
	bool priv;
	const struct zc_opt *o = host_key(h, key, &priv);
	const char *base = priv ? (const char *)h->priv : (const char *)h;

	if (!o)
		return -ENOENT;
	if ((o->flags & ZC_ROLE_KEY) && role >= 0)
		base += role * o->size;
	return zc_opt_format(o, base, buf, len) < 0 ? -E2BIG : 0;
}

static void keys_where(FILE *f, const struct zc_opt *opts, size_t n)
{
	static const struct {
		unsigned flags;
		const char *title;
	} where[] = {
		{ ZC_HOST_KEY, "  in [host]:" },
		{ ZC_HOST_KEY | ZC_ROLE_KEY, "  in [host] (every role) or [source], [proxy], [sink]:" },
		{ ZC_ROLE_KEY, "  in [source], [proxy], [sink]:" },
	};

	for (size_t w = 0; w < ZC_ARRAY_SIZE(where); w++) {
		bool title = false;

		for (size_t i = 0; i < n; i++) {
			if ((opts[i].flags & (ZC_HOST_KEY | ZC_ROLE_KEY)) != where[w].flags)
				continue;
			if (!title)
				fprintf(f, "%s\n", where[w].title);
			title = true;
			zc_opt_help(f, &opts[i], 1, false);
		}
	}
}

void zc_host_keys_help(FILE *f)
{
	fprintf(f, "host file keys (hosts/README.md):\n");
	keys_where(f, host_keys, ZC_ARRAY_SIZE(host_keys));
	for (size_t i = 0; i < ZC_ARRAY_SIZE(transports); i++) {
		fprintf(f, "transport = %s: %s\n", transports[i]->name, transports[i]->summary);
		keys_where(f, transports[i]->keys, transports[i]->nkeys);
	}
}

/* A host file's keys as JSON: one array, each row with the transport it
 * belongs to (null: every one) and the sections it may be in. */
static void keys_json(json_t *out, const struct zc_opt *opts, size_t n, const char *transport)
{
	for (size_t i = 0; i < n; i++) {
		json_t *j = zc_opt_row_json(&opts[i]), *sec = json_array();

		if (opts[i].flags & ZC_HOST_KEY)
			json_array_append_new(sec, json_string("host"));
		for (int r = 0; r < ZC_ROLE_NR && (opts[i].flags & ZC_ROLE_KEY); r++)
			json_array_append_new(sec, json_string(zc_role_names[r]));
		json_object_set_new(j, "sections", sec);
		json_object_set_new(j, "transport", transport ? json_string(transport) : json_null());
		json_array_append_new(out, j);
	}
}

int zc_host_key_table(size_t i, const struct zc_opt **opts, size_t *n, const char **transport,
		      const char **summary)
{
	if (i == 0) {
		*opts = host_keys;
		*n = ZC_ARRAY_SIZE(host_keys);
		*transport = *summary = NULL;
		return 0;
	}
	if (i > ZC_ARRAY_SIZE(transports))
		return -ENOENT;
	*opts = transports[i - 1]->keys;
	*n = transports[i - 1]->nkeys;
	*transport = transports[i - 1]->name;
	*summary = transports[i - 1]->summary;
	return 0;
}

json_t *zc_host_keys_json(void)
{
	json_t *a = json_array();

	keys_json(a, host_keys, ZC_ARRAY_SIZE(host_keys), NULL);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(transports); i++)
		keys_json(a, transports[i]->keys, transports[i]->nkeys, transports[i]->name);
	return a;
}

json_t *zc_host_json(const struct zc_host *h)
{
	json_t *o = json_object(), *roles = json_object(), *rj[ZC_ROLE_NR];

	json_object_set_new(o, "file", h->path[0] ? json_string(h->path) : json_null());
	json_object_set_new(o, "name", json_string(h->name));
	json_object_set_new(o, "transport", json_string(h->transport->name));
	json_object_set_new(o, "placement", json_string(h->placement ? "remote" : "local"));
	json_object_set_new(o, "irq_cpu", h->irq_cpu[0] ? json_string(h->irq_cpu) : json_null());
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		rj[r] = json_pack("{s:s,s:i}", "address", h->address[r], "cpu", h->cpu[r]);
		json_object_set_new(rj[r], "interface", h->iface[r][0] ? json_string(h->iface[r])
								      : json_null());
		json_object_set_new(rj[r], "bind_device", json_boolean(h->bind_device[r]));
		/* A named NIC of this machine, as the controller sees it (the roles
		 * report the NICs their connections really used). */
		if (h->iface[r][0] && !zc_host_remote(h, r) && !h->transport->own_netns)
			json_object_set_new(rj[r], "nic", zc_nic_json(h->iface[r]));
		json_object_set_new(roles, zc_role_names[r], rj[r]);
	}
	json_object_set_new(o, "roles", roles);
	if (h->transport->json)
		h->transport->json(h, o, rj);
	return o;
}
