// SPDX-License-Identifier: GPL-2.0
/*
 * Host files and the transports' shared parts: parsing (every value that may
 * reach a command line is checked against a plain character set and refused
 * with file:line), the local transport, running helper commands without a
 * shell, and the placement/IRQ policy that depends on the NIC.
 */
#include "transport/host.h"
#include "lib/ini.h"
#include "transport/nic.h"
#include "lib/cpu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

static const struct zc_transport transport_local = {
	.name = "local",
	.setup = local_setup,
	.prefix = local_prefix,
};

static const struct zc_transport *const transports[] = {
	&transport_local, &zc_transport_netns, &zc_transport_ssh,
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
	h->transport = &transport_local;
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

int zc_xrun(char *const argv[], char *out, size_t outlen)
{
	int pfd[2], status;
	size_t len = 0;
	pid_t pid;

	if (outlen)
		out[0] = 0;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		/* Out of the terminal's process group: a Ctrl-C is the controller's
		 * to handle, and must not kill the `ip netns del` of its teardown. */
		setpgid(0, 0);

		dup2(devnull, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char tmp[512];
		ssize_t k = read(pfd[0], tmp, sizeof(tmp));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		for (ssize_t i = 0; i < k && outlen && len < outlen - 1; i++)
			out[len++] = tmp[i];
	}
	if (outlen)
		out[len] = 0;
	/* The last line is what an error message needs. */
	while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = 0;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The interface the DUT uses, known here (local and netns transports). */
static const char *dut_iface(const struct zc_host *h, int dut, char *buf, size_t len)
{
	if (h->ssh[dut][0])
		return NULL;
	if (h->iface[dut][0])
		return h->iface[dut];
	if (h->transport == &transport_local && !zc_nic_of_addr(h->address[dut], buf, len))
		return buf;
	return NULL;
}

int zc_host_dut_node(const struct zc_host *h, int dut, char *why, size_t len)
{
	char buf[IF_NAMESIZE];
	const char *ifn = dut_iface(h, dut, buf, sizeof(buf));
	int nic_node = ifn ? zc_nic_numa_node(ifn) : -1;
	int nodes = numa_available() < 0 ? 1 : numa_num_configured_nodes();

	why[0] = 0;
	if (!h->placement_remote) {
		snprintf(why, len, "local: %s%s%s", ifn ? ifn : "NIC unknown",
			 nic_node >= 0 ? " on NUMA node " : " has no NUMA locality (virtual or unknown)",
			 "");
		if (nic_node >= 0)
			snprintf(why + strlen(why), len - strlen(why), "%d", nic_node);
		return nic_node;
	}
	if (nodes < 2) {
		snprintf(why, len, "placement = remote: not applicable, this machine has one NUMA node");
		return -EOPNOTSUPP;
	}
	if (nic_node < 0) {
		snprintf(why, len, "placement = remote: not applicable, %s has no NUMA locality",
			 ifn ? ifn : "the DUT's NIC");
		return -EOPNOTSUPP;
	}
	/* Any node but the NIC's: the cross-node penalty is what is asked for. */
	for (int n = 0; n < nodes; n++)
		if (n != nic_node && numa_bitmask_isbitset(numa_all_nodes_ptr, n)) {
			snprintf(why, len, "remote: DUT on node %d, %s on node %d", n, ifn, nic_node);
			return n;
		}
	snprintf(why, len, "placement = remote: no other node has memory");
	return -EOPNOTSUPP;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The CPU irq_cpu names, relative to the DUT's CPU; -errno with why. */
static int irq_target(const struct zc_host *h, int dut_cpu, char *why, size_t len)
{
	long n;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (!zc_parse_long(h->irq_cpu, &n))
		return (int)n;
	if (!strcmp(h->irq_cpu, "same"))
		return dut_cpu;
	for (int c = 0; c < ncpu; c++) {
		char path[128], buf[64];
		long core_a, core_b;

		if (c == dut_cpu)
			continue;
		if (!strcmp(h->irq_cpu, "other-node")) {
			if (zc_cpu_node(c) != zc_cpu_node(dut_cpu))
				return c;
			continue;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
		if (zc_read_file_trim(path, buf, sizeof(buf)) || zc_parse_long(buf, &core_b))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", dut_cpu);
		if (zc_read_file_trim(path, buf, sizeof(buf)) || zc_parse_long(buf, &core_a))
			continue;
		if (core_a == core_b && zc_cpu_node(c) == zc_cpu_node(dut_cpu))
			return c;
	}
	snprintf(why, len, "irq_cpu = %s: not applicable, CPU %d has no %s", h->irq_cpu, dut_cpu,
		 !strcmp(h->irq_cpu, "sibling") ? "SMT sibling" : "CPU on another NUMA node");
	return -EOPNOTSUPP;
}

/*
 * Pinned affinities are also written to IRQ_STATE_DIR/irq-PID before they
 * change, so a controller killed by SIGKILL cannot leave them changed for
 * good: the next run restores them (zc_host_irqs_reap_stale).
 */
#define IRQ_STATE_DIR "/run/zcbench"

static void irq_state_path(char *buf, size_t len, long pid)
{
	snprintf(buf, len, IRQ_STATE_DIR "/irq-%ld", pid);
}

static void irq_state_save(const struct zc_host *h)
{
	char path[128];
	FILE *f;

	mkdir(IRQ_STATE_DIR, 0755);
	irq_state_path(path, sizeof(path), getpid());
	if (!(f = fopen(path, "we")))
		return;
	for (int i = 0; i < h->nirq_saved; i++)
		fprintf(f, "%d %s\n", h->irq_saved[i].irq, h->irq_saved[i].affinity);
	fclose(f);
}

int zc_host_irqs_reap_stale(void)
{
	DIR *d = opendir(IRQ_STATE_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], comm[64], aff[256], irqpath[64];
		long pid;
		int irq;
		FILE *f;

		if (sscanf(e->d_name, "irq-%ld", &pid) != 1 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		if (!zc_read_file_trim(path, comm, sizeof(comm)) && !strncmp(comm, "zcbench", 7))
			continue;
		snprintf(path, sizeof(path), IRQ_STATE_DIR "/%s", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		while (fscanf(f, "%d %255s", &irq, aff) == 2) {
			snprintf(irqpath, sizeof(irqpath), "/proc/irq/%d/smp_affinity_list", irq);
			if (!write_str(irqpath, aff))
				n++;
		}
		fclose(f);
		unlink(path);
		rmdir(IRQ_STATE_DIR);
		zc_warn("restored IRQ affinities left pinned by a dead zcbench (pid %ld)", pid);
	}
	closedir(d);
	return n;
}

static json_t *irqs_pin(struct zc_host *h, int dut, const struct zc_placement *pl)
{
	char buf[IF_NAMESIZE], why[256] = "", cpu_s[16];
	const char *ifn;
	int irqs[64], n, target;
	json_t *list, *o;

	if (!h->irq_cpu[0])
		return json_null();
	o = json_object();
	json_object_set_new(o, "requested", json_string(h->irq_cpu));
	ifn = dut_iface(h, dut, buf, sizeof(buf));
	if (!ifn) {
		snprintf(why, sizeof(why), "irq_cpu: the DUT's NIC is not known here (name interface =)");
		goto out;
	}
	n = zc_nic_irqs(ifn, irqs, 64);
	if (n <= 0) {
		snprintf(why, sizeof(why), "irq_cpu: not applicable, %s has no IRQs%s", ifn,
			 zc_nic_is_virtual(ifn) ? " (virtual device)" : "");
		goto out;
	}
	target = irq_target(h, pl->cpu[dut], why, sizeof(why));
	if (target < 0)
		goto out;
	snprintf(cpu_s, sizeof(cpu_s), "%d", target);
	json_object_set_new(o, "interface", json_string(ifn));
	json_object_set_new(o, "cpu", json_integer(target));
	zc_host_irqs_reap_stale();
	for (int i = 0; i < n && h->nirq_saved < (int)ZC_ARRAY_SIZE(h->irq_saved); i++) {
		struct zc_irq_save *s = &h->irq_saved[h->nirq_saved];
		char path[128];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		if (zc_read_file_trim(path, s->affinity, sizeof(s->affinity)))
			continue;
		s->irq = irqs[i];
		h->nirq_saved++;
	}
	irq_state_save(h);
	list = json_array();
	for (int i = 0; i < h->nirq_saved; i++) {
		char path[128];
		int ret;

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", h->irq_saved[i].irq);
		/* Some vectors (a virtio config IRQ, managed IRQs) refuse: say which. */
		ret = write_str(path, cpu_s);
		json_array_append_new(list, json_pack("{s:i,s:s,s:s*}", "irq", h->irq_saved[i].irq,
						      "previous_affinity", h->irq_saved[i].affinity,
						      "error", ret ? strerror(-ret) : NULL));
		if (ret && !why[0])
			snprintf(why, sizeof(why), "irq %d: %s", h->irq_saved[i].irq, strerror(-ret));
	}
	json_object_set_new(o, "irqs", list);
out:
	json_object_set_new(o, "applied", json_boolean(!why[0]));
	json_object_set_new(o, "note", why[0] ? json_string(why) : json_null());
	return o;
}

void zc_host_run_begin(struct zc_host *h, int dut, const struct zc_placement *pl, json_t *place)
{
	json_object_set_new(place, "irqs", irqs_pin(h, dut, pl));
	if (h->transport->placed)
		h->transport->placed(h, pl, place);
}

void zc_host_run_end(struct zc_host *h)
{
	zc_host_irqs_restore(h);
}

void zc_host_irqs_restore(struct zc_host *h)
{
	for (int i = 0; i < h->nirq_saved; i++) {
		char path[128];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", h->irq_saved[i].irq);
		if (write_str(path, h->irq_saved[i].affinity))
			zc_warn("could not restore IRQ %d affinity to %s", h->irq_saved[i].irq,
				h->irq_saved[i].affinity);
	}
	if (h->nirq_saved) {
		char path[128];

		irq_state_path(path, sizeof(path), getpid());
		unlink(path);
		rmdir(IRQ_STATE_DIR);	/* only when no other run's state is in it */
	}
	h->nirq_saved = 0;
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
