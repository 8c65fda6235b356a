// SPDX-License-Identifier: GPL-2.0
/*
 * transport = netns: every role in its own network namespace, so sender and
 * receiver run separate stacks joined by veth "NICs", as on a proxy box:
 *
 *   source 198.18.1.1 --zc-dut/zc-src-- 198.18.1.2 dut 198.18.2.1 --zc-snk/zc-dut-- 198.18.2.2 sink
 *   source 198.18.3.1 ---------------zc-snk/zc-src----------------- 198.18.3.2 sink
 *
 * The third pair is the direct topology's link: the source reaches the sink's
 * address (198.18.2.2, a /32 route) over it, so a source under test is not
 * measured through a router namespace it would not have on a real load
 * generator. 198.18.0.0/15 is the benchmark range (RFC 2544); it exists only
 * inside these namespaces, which have no route out.
 *
 * Names are zcb-PID-{src,dut,snk}: unique per controller, and a controller
 * killed by SIGKILL leaves names whose PID is gone (or is not zcbench),
 * which the next netns run removes (zc_netns_reap_stale).
 */
#include "transport/host.h"
#include "transport/steer_int.h"
#include "transport/netem_int.h"
#include "lib/cpu.h"
#include "lib/proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NETNS_DIR "/run/netns"

enum { LINK_SRC_DUT, LINK_DUT_SINK, LINK_SRC_SINK, LINK_NR };
static const char *const link_names[LINK_NR] = { "source-dut", "dut-sink", "source-sink" };

/* The transport's keys (netns_keys) and what setup made (h->priv). */
struct netns {
	int mtu;			/* 0: the veth default */
	int gro, gso, tso;		/* -1 unchanged, 0 off, 1 on */
	int queues;			/* rx and tx queues per veth, 0: default (1) */
	int rps;			/* steer each veth's receive work to its role's CPU */
	char netem_delay[32];		/* tc netem "delay" argument, "" none */
	char netem_loss[32];		/* tc netem "loss" argument, "" none */
	bool netem_on[LINK_NR];		/* which links get the netem qdisc */
	char ns[ZC_ROLE_NR][64];	/* namespace of each role (proxy: the dut) */
	bool created[ZC_ROLE_NR];
	char loss_method[48];		/* "tc netem", or the fallback used */
	char notes[1024];		/* what setup did or could not do */
};

static struct netns *priv(struct zc_host *h)
{
	return (struct netns *)h->priv;
}

static const struct netns *cpriv(const struct zc_host *h)
{
	return (const struct netns *)h->priv;
}

static const char *const ns_suffix[ZC_ROLE_NR] = { "src", "dut", "snk" };

struct link_def {
	int a, b;			/* roles at each end (the data flows a -> b) */
	const char *dev_a, *dev_b;	/* device names inside each namespace */
	const char *addr_a, *addr_b;
};

static const struct link_def links[LINK_NR] = {
	[LINK_SRC_DUT] = { ZC_ROLE_SOURCE, ZC_ROLE_PROXY, "zc-dut", "zc-src",
			      "198.18.1.1/24", "198.18.1.2/24" },
	[LINK_DUT_SINK] = { ZC_ROLE_PROXY, ZC_ROLE_SINK, "zc-snk", "zc-dut",
			       "198.18.2.1/24", "198.18.2.2/24" },
	[LINK_SRC_SINK] = { ZC_ROLE_SOURCE, ZC_ROLE_SINK, "zc-snk", "zc-src",
			       "198.18.3.1/24", "198.18.3.2/24" },
};
static const char *const role_addr[ZC_ROLE_NR] = { "198.18.1.1", "198.18.1.2", "198.18.2.2" };
static const char *const role_iface[ZC_ROLE_NR] = { "zc-dut", "zc-src", "zc-dut" };

/* Run argv (NULL-terminated); on failure "`cmd ...` failed: output" in err. */
static int cmdv(char *err, size_t errlen, char **argv)
{
	char out[512], line[512];
	int ret, len = 0;

	ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .out = out, .outlen = sizeof(out),
						       .null_stdin = true, .own_group = true });
	if (!ret)
		return 0;
	for (int i = 0; argv[i] && len < (int)sizeof(line) - 1; i++)
		len += snprintf(line + len, sizeof(line) - len, "%s%s", i ? " " : "", argv[i]);
	snprintf(err, errlen, "netns: `%s` failed (%s): %s", line,
		 ret < 0 ? strerror(-ret) : "exit status", out[0] ? out : "no output");
	return ret < 0 ? ret : -EIO;
}

static int cmd(char *err, size_t errlen, const char *first, ...)
{
	char *argv[48];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)first;
	va_start(ap, first);
	while (n < 47 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return cmdv(err, errlen, argv);
}

/* Namespaces left by dead zcbench controllers: removed; count. */
static int zc_netns_reap_stale(void)
{
	DIR *d = opendir(NETNS_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char sfx[8], err[256];
		long pid;
		int used;

		if (sscanf(e->d_name, "zcb-%ld-%3s%n", &pid, sfx, &used) != 2 ||
		    e->d_name[used] || pid <= 0 || pid == getpid() || zc_pid_is_zcbench(pid))
			continue;
		if (!cmd(err, sizeof(err), "ip", "netns", "del", e->d_name, NULL)) {
			zc_warn("removed network namespace %s left by a dead zcbench (pid %ld)",
				e->d_name, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}

static void netns_teardown(struct zc_host *h)
{
	struct netns *ns = priv(h);
	char err[512];

	zc_host_irqs_restore(h);
	zc_steer_restore();
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (!ns->created[r])
			continue;
		/* The veth pairs go with their namespaces. */
		if (cmd(err, sizeof(err), "ip", "netns", "del", ns->ns[r], NULL))
			zc_warn("%s", err);
		ns->created[r] = false;
	}
}

static void note(struct netns *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct netns *ns, const char *fmt, ...)
{
	size_t n = strlen(ns->notes);
	va_list ap;

	if (n && n < sizeof(ns->notes) - 2) {
		ns->notes[n++] = ';';
		ns->notes[n++] = ' ';
		ns->notes[n] = 0;
	}
	va_start(ap, fmt);
	vsnprintf(ns->notes + n, sizeof(ns->notes) - n, fmt, ap);
	va_end(ap);
}

/*
 * Random loss without sch_netem: the statistic match drops packets as they
 * arrive at the receiving end, which TCP sees as loss on the wire (a drop
 * in the sender's OUTPUT chain would be a local error instead). Recorded
 * as the loss method; the rule goes with the namespace.
 */
static int loss_by_iptables(struct zc_host *h, int l, char *err, size_t errlen)
{
	struct netns *ns = priv(h);
	const struct link_def *ld = &links[l];
	char prob[32];
	double pct;
	int ret;

	/* Checked as the host file was read (netem.c): never here. */
	if (zc_netem_pct(ns->netem_loss, &pct)) {
		snprintf(err, errlen, "netns: netem_loss = %s: not a percentage in 0..100",
			 ns->netem_loss);
		return -EINVAL;
	}
	snprintf(prob, sizeof(prob), "%.6f", pct / 100);
	ret = cmd(err, errlen, "ip", "netns", "exec", ns->ns[ld->b], "iptables", "-w", "-A", "INPUT",
		  "-i", ld->dev_b, "-m", "statistic", "--mode", "random", "--probability", prob,
		  "-j", "DROP", NULL);
	if (ret) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " (no sch_netem in this kernel, and the iptables "
			 "statistic match fallback failed too)");
		return ret;
	}
	note(ns, "%s: loss %s by iptables statistic match on %s ingress (kernel has no sch_netem)",
	     ns->ns[ld->b], ns->netem_loss, ld->dev_b);
	snprintf(ns->loss_method, sizeof(ns->loss_method), "iptables statistic (no sch_netem)");
	return 0;
}

static int setup_link(struct zc_host *h, int l, char *err, size_t errlen)
{
	struct netns *ns = priv(h);
	const struct link_def *ld = &links[l];
	char q[16], mtu[16];
	int ret;

	snprintf(q, sizeof(q), "%d", ns->queues ? ns->queues : 1);
	snprintf(mtu, sizeof(mtu), "%d", ns->mtu ? ns->mtu : 1500);
	/* Created straight inside both namespaces: nothing shows in the root one. */
	ret = cmd(err, errlen, "ip", "link", "add", "name", ld->dev_a, "netns", ns->ns[ld->a],
		  "numtxqueues", q, "numrxqueues", q, "mtu", mtu, "type", "veth", "peer", "name",
		  ld->dev_b, "netns", ns->ns[ld->b], "numtxqueues", q, "numrxqueues", q, "mtu", mtu,
		  NULL);
	for (int side = 0; !ret && side < 2; side++) {
		const char *n = ns->ns[side ? ld->b : ld->a], *dev = side ? ld->dev_b : ld->dev_a;

		ret = cmd(err, errlen, "ip", "-n", n, "addr", "add", side ? ld->addr_b : ld->addr_a,
			  "dev", dev, NULL);
		if (!ret && (ns->gro >= 0 || ns->gso >= 0 || ns->tso >= 0)) {
			char *argv[16] = { "ip", "netns", "exec", (char *)n, "ethtool", "-K",
					   (char *)dev };
			int k = 7;

			if (ns->gro >= 0)
				argv[k++] = "gro", argv[k++] = ns->gro ? "on" : "off";
			if (ns->gso >= 0)
				argv[k++] = "gso", argv[k++] = ns->gso ? "on" : "off";
			if (ns->tso >= 0)
				argv[k++] = "tso", argv[k++] = ns->tso ? "on" : "off";
			argv[k] = NULL;
			ret = cmdv(err, errlen, argv);
		}
		if (!ret)
			ret = cmd(err, errlen, "ip", "-n", n, "link", "set", dev, "up", NULL);
	}
	if (!ret && ns->netem_on[l] && (ns->netem_delay[0] || ns->netem_loss[0])) {
		/* On the sending end's egress: the data direction. */
		char *argv[16] = { "tc", "-n", ns->ns[ld->a], "qdisc", "add", "dev",
				   (char *)ld->dev_a, "root", "netem" };
		int k = 9;

		if (ns->netem_delay[0])
			argv[k++] = "delay", argv[k++] = ns->netem_delay;
		if (ns->netem_loss[0])
			argv[k++] = "loss", argv[k++] = ns->netem_loss;
		argv[k] = NULL;
		ret = cmdv(err, errlen, argv);
		if (ret && strstr(err, "qdisc kind is unknown")) {
			size_t n = strlen(err);

			if (!ns->netem_delay[0])
				return loss_by_iptables(h, l, err, errlen);
			snprintf(err + n, errlen - n, " (this kernel has no sch_netem: netem "
				 "delay is unavailable here)");
		} else if (!ret) {
			note(ns, "%s: tc netem%s%s%s%s on %s egress", ns->ns[ld->a],
			     ns->netem_delay[0] ? " delay " : "", ns->netem_delay,
			     ns->netem_loss[0] ? " loss " : "", ns->netem_loss, ld->dev_a);
			snprintf(ns->loss_method, sizeof(ns->loss_method), "tc netem");
		}
	}
	return ret;
}

static int netns_setup(struct zc_host *h, char *err, size_t errlen)
{
	struct netns *ns = priv(h);
	int ret, reaped;

	if (geteuid() != 0) {
		snprintf(err, errlen, "netns transport: creating network namespaces needs root "
			 "(CAP_SYS_ADMIN); run as root or use hosts/loopback.ini");
		return -EPERM;
	}
	zc_host_irqs_reap_stale();
	zc_steer_reap_stale();
	reaped = zc_netns_reap_stale();
	if (reaped)
		note(ns, "removed %d stale namespace(s) of dead controllers", reaped);
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		snprintf(ns->ns[r], sizeof(ns->ns[r]), "zcb-%d-%s", (int)getpid(), ns_suffix[r]);
		if ((ret = cmd(err, errlen, "ip", "netns", "add", ns->ns[r], NULL)))
			goto fail;
		ns->created[r] = true;
		if ((ret = cmd(err, errlen, "ip", "-n", ns->ns[r], "link", "set", "lo", "up", NULL)))
			goto fail;
	}
	for (int l = 0; l < LINK_NR; l++)
		if ((ret = setup_link(h, l, err, errlen)))
			goto fail;
	ret = cmd(err, errlen, "ip", "-n", ns->ns[ZC_ROLE_SOURCE], "route", "add", "198.18.2.2/32",
		  "dev", "zc-snk", "src", "198.18.3.1", NULL);
	if (ret)
		goto fail;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (h->address_set[r] && strcmp(h->address[r], role_addr[r]))
			note(ns, "[%s] address %s ignored: the netns transport assigns %s",
			     zc_role_names[r], h->address[r], role_addr[r]);
		snprintf(h->address[r], sizeof(h->address[r]), "%s", role_addr[r]);
		snprintf(h->iface[r], sizeof(h->iface[r]), "%s", role_iface[r]);
	}
	note(ns, "direct topology: source reaches the sink over its own veth pair (source-sink)");
	return 0;
fail:
	netns_teardown(h);
	return ret;
}

/*
 * Write paths[i] = vals[i] (sysfs of the namespace name). sysfs shows the
 * namespace of whoever mounted it, so (like `ip netns exec`) a child enters
 * the namespace with a private mount table and mounts its own /sys. What
 * it writes goes with the namespace. 0 or -errno.
 */
static int write_sysfs(const char *name, char (*paths)[160], char (*vals)[600], int n)
{
	char path[128];
	int status, fd;
	pid_t pid;

	snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount("", "/", NULL, MS_SLAVE | MS_REC, NULL) ||
		    setns(fd, CLONE_NEWNET))
			_exit(1);
		umount2("/sys", MNT_DETACH);
		if (mount(name, "/sys", "sysfs", 0, NULL))
			_exit(2);
		for (int i = 0; i < n; i++) {
			int w = open(paths[i], O_WRONLY | O_CLOEXEC);

			if (w < 0 || write(w, vals[i], strlen(vals[i])) < 0)
				_exit(3);
			close(w);
		}
		_exit(0);
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/*
 * veth has no IRQ: the receiving side's softirq runs on the sending CPU
 * (netif_rx / NAPI scheduled where veth_xmit ran), which folds receive work
 * onto the sender's core as loopback does. rps = on steers each namespace's
 * receive processing to its own role's worker CPUs, as a NIC's IRQs on the
 * receiving machine would; with several workers, RFS brings each flow's to
 * the worker reading it and XPS gives each worker its transmit queue
 * (queues = workers makes them one each): each connection's work then lands
 * on its worker's core (steer.c).
 */
static void netns_placed(struct zc_host *h, const struct zc_placement *pl, json_t *place)
{
	static const char *const devs[ZC_ROLE_NR][2] = {
		{ "zc-dut", "zc-snk" }, { "zc-src", "zc-snk" }, { "zc-dut", "zc-src" },
	};
	static char paths[128][160], vals[128][600];
	int q = priv(h)->queues ? priv(h)->queues : 1;
	json_t *o, *rfs, *st;

	if (!priv(h)->rps) {
		json_object_set_new(place, "rps", json_string("off: receive work runs on the sender's CPU"));
		return;
	}
	o = json_object();
	st = json_object();
	rfs = zc_steer_rfs(pl);
	json_object_set_new(st, "method", json_string(json_is_null(rfs) ? "rps" : "rps+rfs+xps"));
	json_object_set_new(st, "rfs", rfs);
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		char mask[600];
		int n = 0, ret;

		if (!pl->nworkers[r])
			continue;
		for (int d = 0; d < 2; d++)
			n += zc_steer_queue_writes(pl, r, devs[r][d], q, pl->nworkers[r] > 1 ? q : 1,
						   pl->nworkers[r] > 1, paths + n, vals + n, 128 - n);
		ret = write_sysfs(priv(h)->ns[r], paths, vals, n);
		zc_cpu_mask(pl->wcpu[r], pl->nworkers[r], mask, sizeof(mask));
		json_object_set_new(o, zc_role_names[r],
				    ret ? json_sprintf("failed: %s", strerror(-ret))
					: json_sprintf("cpu %d (mask %s)", pl->cpu[r], mask));
		json_object_set_new(st, zc_role_names[r], json_pack("{s:s,s:i,s:b,s:s*}", "cpus", mask,
			"writes", n, "xps", pl->nworkers[r] > 1 && q > 1, "error", ret ? strerror(-ret) : NULL));
	}
	json_object_set_new(place, "rps", o);
	json_object_set_new(place, "steering", st);
}

static int netns_prefix(const struct zc_host *h, int role, char **argv, int max)
{
	if (max < 5)
		return -E2BIG;
	argv[0] = "ip";
	argv[1] = "netns";
	argv[2] = "exec";
	argv[3] = (char *)cpriv(h)->ns[role];
	return 4;
}

static int parse_links(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	bool *on = (bool *)((char *)base + o->off);
	char buf[128], *items[16];
	int n = zc_list_split(v, buf, sizeof(buf), items, (int)ZC_ARRAY_SIZE(items), why, len);

	memset(on, 0, sizeof(bool) * LINK_NR);
	for (int i = 0; i < n; i++) {
		const char *tok = items[i];
		bool found = false;

		for (int l = 0; l < LINK_NR; l++) {
			if (!strcmp(tok, link_names[l]) || !strcmp(tok, "all")) {
				on[l] = true;
				found = true;
			}
		}
		if (!found) {
			snprintf(why, len, "'%s' is not a list of source-dut, dut-sink, source-sink, all",
				 v);
			return -EINVAL;
		}
	}
	return n < 0 ? n : 0;
}

static int format_links(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	const bool *on = (const bool *)((const char *)base + o->off);
	size_t k = 0;

	if (len)
		buf[0] = 0;
	for (int l = 0; l < LINK_NR; l++)
		if (on[l] && k < len)
			k += snprintf(buf + k, len - k, "%s%s", k ? "," : "", link_names[l]);
	return k < len ? (int)k : -E2BIG;
}

#define AT(field) ZC_OPT_AT(struct netns, field)

static const struct zc_opt netns_keys[] = {
	{ "mtu", ZC_OPT_INT, NULL, 68, 65535, AT(mtu), ZC_HOST_KEY, .help = "veth MTU, 1500 unless set" },
	{ "gro", ZC_OPT_BOOL, NULL, AT(gro), ZC_HOST_KEY,
	  .help = "veth offload (ethtool -K; unset: the driver's default)" },
	{ "gso", ZC_OPT_BOOL, NULL, AT(gso), ZC_HOST_KEY, .help = "veth offload" },
	{ "tso", ZC_OPT_BOOL, NULL, AT(tso), ZC_HOST_KEY, .help = "veth offload" },
	{ "queues", ZC_OPT_INT, NULL, 1, 64, AT(queues), ZC_HOST_KEY,
	  .help = "rx and tx queues per veth, 1 unless set" },
	{ "rps", ZC_OPT_BOOL, "off", AT(rps), ZC_HOST_KEY,
	  .help = "steer each namespace's receive work to its role's CPU" },
	/* tc's own syntax ("1ms", "0.5%"), restricted so it stays one argument. */
	{ "netem_delay", ZC_OPT_STR, NULL, AT(netem_delay), ZC_HOST_KEY, .plain = ".%",
	  .what = "a tc netem value like 2ms or 1%", .check = zc_netem_check_delay, .meta = "DELAY",
	  .help = "tc netem delay on the data direction: a number and us, ms or s, 0..60s" },
	{ "netem_loss", ZC_OPT_STR, NULL, AT(netem_loss), ZC_HOST_KEY, .plain = ".%",
	  .what = "a tc netem value like 2ms or 1%", .check = zc_netem_check_loss, .meta = "PERCENT",
	  .help = "tc netem loss, 0..100%; the iptables statistic match where the kernel lacks "
		  "sch_netem" },
	{ "netem_links", ZC_OPT_CUSTOM, "all", AT(netem_on), ZC_HOST_KEY, .parse = parse_links,
	  .format = format_links, .meta = "source-dut,dut-sink,source-sink|all",
	  .help = "links that get netem" },
};

static void netns_init(struct zc_host *h)
{
	priv(h)->gro = priv(h)->gso = priv(h)->tso = -1;
}

static int netns_check(const struct zc_host *h, char *err, size_t errlen)
{
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (h->bind_device[r]) {
			snprintf(err, errlen, "%s: [%s] bind_device: the netns transport routes each "
				 "role over its own veth already", h->path, zc_role_names[r]);
			return -EINVAL;
		}
	return 0;
}

static void netns_json(const struct zc_host *h, json_t *host, json_t *const roles[ZC_ROLE_NR])
{
	const struct netns *ns = cpriv(h);
	json_t *n = json_object(), *links = json_array();

	for (int r = 0; r < ZC_ROLE_NR; r++)
		json_object_set_new(roles[r], "netns", json_string(ns->ns[r]));
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
	for (int l = 0; l < LINK_NR; l++)
		if (ns->netem_on[l] && (ns->netem_delay[0] || ns->netem_loss[0]))
			json_array_append_new(links, json_string(link_names[l]));
	json_object_set_new(n, "netem_links", links);
	json_object_set_new(n, "loss_method", ns->loss_method[0] ? json_string(ns->loss_method)
								 : json_null());
	json_object_set_new(n, "notes", json_string(ns->notes));
	json_object_set_new(host, "netns", n);
}

const struct zc_transport zc_transport_netns = {
	.name = "netns",
	.summary = "each role in its own network namespace, joined by veth pairs (root)",
	.keys = netns_keys,
	.nkeys = ZC_ARRAY_SIZE(netns_keys),
	.priv_size = sizeof(struct netns),
	.init = netns_init,
	.check = netns_check,
	.own_netns = true,
	.json = netns_json,
	.setup = netns_setup,
	.prefix = netns_prefix,
	.placed = netns_placed,
	.teardown = netns_teardown,
};
