// SPDX-License-Identifier: GPL-2.0
/*
 * Host files and the transports' shared parts: parsing (every value that may
 * reach a command line is checked against a plain character set and refused
 * with file:line), the local transport, and running helper commands without
 * a shell. The DUT's placement against its NIC is in placement.c.
 */
#include "transport/host.h"
#include "lib/ini.h"
#include "transport/nic.h"
#include "lib/cpu.h"

#include <dirent.h>
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int local_prefix(const struct zc_host *h, int role, char **argv, int max)
{
	(void)h, (void)role, (void)argv, (void)max;
	return 0;
}

/* A role named by interface only gets that interface's address. */
static int local_setup(struct zc_host *h, char *err, size_t errlen)
{
	zc_host_irqs_reap_stale();
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (!h->iface[r][0] || h->address_set[r] || h->ssh[r][0])
			continue;
		if (zc_nic_addr(h->iface[r], h->address[r], sizeof(h->address[r]))) {
			snprintf(err, errlen, "%s: [%s] interface %s has no address here",
				 h->path, zc_role_names[r], h->iface[r]);
			return -ENOENT;
		}
	}
	return 0;
}

const struct zc_transport zc_transport_local = {
	.name = "local",
	.setup = local_setup,
	.prefix = local_prefix,
};

static const struct zc_transport *const transports[] = {
	&zc_transport_local, &zc_transport_netns, &zc_transport_ssh,
};

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

/* First character of v outside allowed, or 0. Host-file values reach ssh's
 * remote shell and ip/tc argv: only plain characters get through. */
static char bad_char(const char *v, const char *allowed)
{
	for (const char *p = v; *p; p++)
		if (!strchr(allowed, *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			return *p;
	return 0;
}

static int set_bool(int *out, const char *v)
{
	if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static int set_links(bool on[ZC_LINK_NR], const char *v)
{
	static const char *const names[] = { "source-dut", "dut-sink", "source-sink" };
	char buf[128], *save, *tok;

	memset(on, 0, sizeof(bool) * ZC_LINK_NR);
	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		bool found = false;

		for (int l = 0; l < ZC_LINK_NR; l++) {
			if (!strcmp(tok, names[l]) || !strcmp(tok, "all")) {
				on[l] = true;
				found = true;
			}
		}
		if (!found)
			return -EINVAL;
	}
	return 0;
}

static int hhandler(void *user, const char *section, const char *key, const char *value,
		    int line)
{
	struct hparse *p = user;
	struct zc_host *h = p->h;
	struct zc_netns *ns = &h->netns;
	int role = -1, b;
	long n;
	char c;

	if (p->failed)
		return 0;
#define BAD(...)                                                                     \
	do {                                                                         \
		int n_ = snprintf(p->err, p->errlen, "%s:%d: ", h->path, line);        \
		snprintf(p->err + n_, p->errlen - n_, __VA_ARGS__);                  \
		p->failed = true;                                                    \
		return 0;                                                            \
	} while (0)
#define PLAIN(allowed, what)                                                         \
	do {                                                                         \
		if (!value[0] || (c = bad_char(value, allowed)))                     \
			BAD("key '%s': '%s' is not %s%s%c%s", key, value, what,      \
			    c ? " (character '" : "", c ? c : ' ', c ? "' not allowed)" : ""); \
	} while (0)
#define ROLES_DO(stmt)                                                               \
	for (int r = 0; r < ZC_ROLE_NR; r++)                                         \
		if (role < 0 || r == role)                                           \
			stmt
	c = 0;
	if (strcmp(section, "host") && (role = zc_role_from_name(section)) < 0)
		BAD("unknown section [%s] (expected [host], [source], [proxy], [sink])", section);
	if (role < 0 && !strcmp(key, "name")) {
		PLAIN("._-", "a name ([A-Za-z0-9._-])");
		if (strlen(value) >= sizeof(h->name))
			BAD("key 'name': longer than %zu characters", sizeof(h->name) - 1);
		snprintf(h->name, sizeof(h->name), "%s", value);
	} else if (role < 0 && !strcmp(key, "transport")) {
		h->transport = NULL;
		for (size_t i = 0; i < ZC_ARRAY_SIZE(transports); i++)
			if (!strcmp(transports[i]->name, value))
				h->transport = transports[i];
		if (!h->transport)
			BAD("key 'transport': '%s' is not a transport (local, netns, ssh)", value);
	} else if (!strcmp(key, "address")) {
		PLAIN(".:%_-", "an address");
		if (strlen(value) >= sizeof(h->address[0]))
			BAD("key 'address': '%s' is not an address", value);
		ROLES_DO({
			snprintf(h->address[r], sizeof(h->address[r]), "%s", value);
			h->address_set[r] = true;
		});
	} else if (!strcmp(key, "interface")) {
		PLAIN("._-", "an interface name");
		if (strlen(value) >= IF_NAMESIZE)
			BAD("key 'interface': '%s' is longer than %d characters", value, IF_NAMESIZE - 1);
		ROLES_DO(snprintf(h->iface[r], sizeof(h->iface[r]), "%s", value));
	} else if (!strcmp(key, "bind_device")) {
		if (set_bool(&b, value))
			BAD("key 'bind_device': '%s' is not yes or no", value);
		ROLES_DO(h->bind_device[r] = b);
	} else if (role >= 0 && !strcmp(key, "cpu")) {
		if (set_cpu(&h->cpu[role], value))
			BAD("key 'cpu': '%s' is not a CPU number or auto", value);
	} else if (!strcmp(key, "ssh")) {
		/* user@host; a leading '-' would be read by ssh as an option. */
		PLAIN("@._:-", "user@host (letters, digits, . _ - : @)");
		if (value[0] == '-' || strchr(value, '@') != strrchr(value, '@') ||
		    strlen(value) >= sizeof(h->ssh[0]))
			BAD("key 'ssh': '%s' is not user@host", value);
		ROLES_DO(snprintf(h->ssh[r], sizeof(h->ssh[r]), "%s", value));
	} else if (!strcmp(key, "ssh_port")) {
		if (zc_parse_long(value, &n) || n < 1 || n > 65535)
			BAD("key 'ssh_port': '%s' is not a port", value);
		ROLES_DO(h->ssh_port[r] = (int)n);
	} else if (!strcmp(key, "ssh_identity") || !strcmp(key, "ssh_known_hosts") ||
		   !strcmp(key, "exe")) {
		PLAIN("/._+-", "an absolute path ([A-Za-z0-9/._+-])");
		if (value[0] != '/' || strlen(value) >= sizeof(h->ssh_identity[0]))
			BAD("key '%s': '%s' is not an absolute path", key, value);
		ROLES_DO({
			if (key[0] == 'e')
				snprintf(h->exe[r], sizeof(h->exe[r]), "%s", value);
			else if (!strcmp(key, "ssh_identity"))
				snprintf(h->ssh_identity[r], sizeof(h->ssh_identity[r]), "%s", value);
			else
				snprintf(h->ssh_known_hosts[r], sizeof(h->ssh_known_hosts[r]), "%s",
					 value);
		});
	} else if (role < 0 && !strcmp(key, "placement")) {
		if (strcmp(value, "local") && strcmp(value, "remote"))
			BAD("key 'placement': '%s' is not local or remote", value);
		h->placement_remote = !strcmp(value, "remote");
	} else if (role < 0 && !strcmp(key, "irq_cpu")) {
		if (strcmp(value, "same") && strcmp(value, "sibling") && strcmp(value, "other-node") &&
		    (zc_parse_long(value, &n) || n < 0 || n > 4095))
			BAD("key 'irq_cpu': '%s' is not same, sibling, other-node or a CPU", value);
		snprintf(h->irq_cpu, sizeof(h->irq_cpu), "%s", value);
	} else if (role < 0 && !strcmp(key, "mtu")) {
		if (zc_parse_long(value, &n) || n < 68 || n > 65535)
			BAD("key 'mtu': '%s' is not an MTU (68..65535)", value);
		ns->mtu = (int)n;
	} else if (role < 0 && (!strcmp(key, "gro") || !strcmp(key, "gso") || !strcmp(key, "tso"))) {
		if (set_bool(&b, value))
			BAD("key '%s': '%s' is not on or off", key, value);
		*(key[1] == 'r' ? &ns->gro : key[1] == 's' && key[0] == 'g' ? &ns->gso : &ns->tso) = b;
	} else if (role < 0 && !strcmp(key, "rps")) {
		if (set_bool(&b, value))
			BAD("key 'rps': '%s' is not on or off", value);
		ns->rps = b;
	} else if (role < 0 && !strcmp(key, "queues")) {
		if (zc_parse_long(value, &n) || n < 1 || n > 64)
			BAD("key 'queues': '%s' is not a queue count (1..64)", value);
		ns->queues = (int)n;
	} else if (role < 0 && (!strcmp(key, "netem_delay") || !strcmp(key, "netem_loss"))) {
		/* tc's own syntax ("1ms", "0.5%"), restricted so it stays one argument. */
		PLAIN(".%", "a tc netem value like 2ms or 1%");
		if (strlen(value) >= sizeof(ns->netem_delay))
			BAD("key '%s': '%s' is too long", key, value);
		snprintf(!strcmp(key, "netem_delay") ? ns->netem_delay : ns->netem_loss,
			 sizeof(ns->netem_delay), "%s", value);
	} else if (role < 0 && !strcmp(key, "netem_links")) {
		if (set_links(ns->netem_on, value))
			BAD("key 'netem_links': '%s' is not a list of source-dut, dut-sink, "
			    "source-sink, all", value);
	} else {
		BAD("unknown key '%s' in [%s]", key, section);
	}
	return 1;
#undef ROLES_DO
#undef PLAIN
#undef BAD
}

static void defaults(struct zc_host *h)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "loopback");
	h->transport = &zc_transport_local;
	h->netns.gro = h->netns.gso = h->netns.tso = -1;
	for (int l = 0; l < ZC_LINK_NR; l++)
		h->netns.netem_on[l] = true;
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
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (h->ssh[r][0] && h->transport != &zc_transport_ssh) {
			snprintf(err, errlen, "%s: [%s] ssh = %s needs transport = ssh in [host]",
				 path, zc_role_names[r], h->ssh[r]);
			return -EINVAL;
		}
		if (h->bind_device[r] && h->transport == &zc_transport_netns) {
			snprintf(err, errlen, "%s: [%s] bind_device: the netns transport routes each "
				 "role over its own veth already", path, zc_role_names[r]);
			return -EINVAL;
		}
		if (h->bind_device[r] && !h->iface[r][0]) {
			snprintf(err, errlen, "%s: [%s] bind_device = yes needs interface = NAME",
				 path, zc_role_names[r]);
			return -EINVAL;
		}
	}
	return 0;
}

int zc_host_argv(const struct zc_host *h, int role, char *const cmd[], char **argv, int max,
		 char *store, size_t storelen)
{
	int n = h->transport->prefix(h, role, argv, max), first = n;

	if (n < 0)
		return n;
	for (int i = 0; cmd[i]; i++) {
		if (n >= max - 1)
			return -E2BIG;
		argv[n++] = cmd[i];
	}
	if (h->transport->finish)
		n = h->transport->finish(h, role, argv, first, n, store, storelen);
	if (n < 0 || n >= max)
		return -E2BIG;
	argv[n] = NULL;
	return n;
}

const char *zc_host_explain_exit(const struct zc_host *h, int role, int status)
{
	return h->transport->explain_exit ? h->transport->explain_exit(h, role, status) : NULL;
}

json_t *zc_host_json(const struct zc_host *h)
{
	json_t *o = json_object(), *roles = json_object();
	const struct zc_netns *ns = &h->netns;

	json_object_set_new(o, "file", h->path[0] ? json_string(h->path) : json_null());
	json_object_set_new(o, "name", json_string(h->name));
	json_object_set_new(o, "transport", json_string(h->transport->name));
	json_object_set_new(o, "placement", json_string(h->placement_remote ? "remote" : "local"));
	json_object_set_new(o, "irq_cpu", h->irq_cpu[0] ? json_string(h->irq_cpu) : json_null());
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		json_t *rj = json_pack("{s:s,s:i}", "address", h->address[r], "cpu", h->cpu[r]);

		json_object_set_new(rj, "interface", h->iface[r][0] ? json_string(h->iface[r])
								  : json_null());
		json_object_set_new(rj, "bind_device", json_boolean(h->bind_device[r]));
		/* A named NIC of this machine, as the controller sees it (the roles
		 * report the NICs their connections really used). */
		if (h->iface[r][0] && !h->ssh[r][0] && h->transport != &zc_transport_netns)
			json_object_set_new(rj, "nic", zc_nic_json(h->iface[r]));
		if (h->ssh[r][0]) {
			json_object_set_new(rj, "ssh", json_string(h->ssh[r]));
			json_object_set_new(rj, "exe", json_string(h->exe[r]));
			json_object_set_new(rj, "remote_version", json_string(h->remote_version[r]));
		}
		if (h->transport == &zc_transport_netns)
			json_object_set_new(rj, "netns", json_string(ns->ns[r]));
		json_object_set_new(roles, zc_role_names[r], rj);
	}
	json_object_set_new(o, "roles", roles);
	if (h->transport == &zc_transport_netns) {
		json_t *n = json_object(), *links = json_array();
		static const char *const lnames[] = { "source-dut", "dut-sink", "source-sink" };

		json_object_set_new(n, "mtu", ns->mtu ? json_integer(ns->mtu) : json_null());
		json_object_set_new(n, "gro", ns->gro < 0 ? json_null() : json_boolean(ns->gro));
		json_object_set_new(n, "gso", ns->gso < 0 ? json_null() : json_boolean(ns->gso));
		json_object_set_new(n, "tso", ns->tso < 0 ? json_null() : json_boolean(ns->tso));
		json_object_set_new(n, "queues", json_integer(ns->queues ? ns->queues : 1));
		json_object_set_new(n, "rps", json_boolean(ns->rps));
		json_object_set_new(n, "netem_delay", ns->netem_delay[0] ? json_string(ns->netem_delay)
									 : json_null());
		json_object_set_new(n, "netem_loss", ns->netem_loss[0] ? json_string(ns->netem_loss)
								       : json_null());
		for (int l = 0; l < ZC_LINK_NR; l++)
			if (ns->netem_on[l] && (ns->netem_delay[0] || ns->netem_loss[0]))
				json_array_append_new(links, json_string(lnames[l]));
		json_object_set_new(n, "netem_links", links);
		json_object_set_new(n, "loss_method", ns->loss_method[0] ? json_string(ns->loss_method)
									 : json_null());
		json_object_set_new(n, "notes", json_string(ns->notes));
		json_object_set_new(o, "netns", n);
	}
	return o;
}
