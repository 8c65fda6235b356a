// SPDX-License-Identifier: GPL-2.0
#include "transport/nic.h"
#include "lib/zcbench.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	if (!a || !b || a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	return false;
}

static int nic_of_sockaddr(const struct sockaddr *sa, char *ifname, size_t len)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENOENT;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (same_addr(i->ifa_addr, sa)) {
			snprintf(ifname, len, "%s", i->ifa_name);
			ret = 0;
			break;
		}
	}
	freeifaddrs(ifa);
	return ret;
}

int zc_nic_of_addr(const char *addr, char *ifname, size_t len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *ai;
	int ret;

	if (getaddrinfo(addr, NULL, &hints, &ai))
		return -ENOENT;
	ret = nic_of_sockaddr(ai->ai_addr, ifname, len);
	freeaddrinfo(ai);
	return ret;
}

int zc_nic_addr(const char *ifname, char *addr, size_t len)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENOENT;

	if (getifaddrs(&ifa))
		return -errno;
	for (int fam = 0; fam < 2 && ret; fam++) {
		for (i = ifa; i; i = i->ifa_next) {
			if (!i->ifa_addr || strcmp(i->ifa_name, ifname) ||
			    i->ifa_addr->sa_family != (fam ? AF_INET6 : AF_INET))
				continue;
			if (!getnameinfo(i->ifa_addr, fam ? sizeof(struct sockaddr_in6)
							  : sizeof(struct sockaddr_in),
					 addr, len, NULL, 0, NI_NUMERICHOST)) {
				ret = 0;
				break;
			}
		}
	}
	freeifaddrs(ifa);
	return ret;
}

static int sysfs_str(const char *ifname, const char *leaf, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, leaf);
	return zc_read_file_trim(path, buf, len);
}

static json_t *sysfs_int(const char *ifname, const char *leaf)
{
	char buf[64];
	long v;

	if (sysfs_str(ifname, leaf, buf, sizeof(buf)) || zc_parse_long(buf, &v))
		return json_null();
	return json_integer(v);
}

bool zc_nic_is_virtual(const char *ifname)
{
	char path[256];

	/* Physical devices have a bus device behind them; veth, lo, bridges do not. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	return access(path, F_OK) != 0;
}

/*
 * A bus attribute of ifname's device, or of its parent: a virtio NIC's
 * device is the virtio device, whose PCI function (IRQs, NUMA node) is one
 * level up. 0 or -errno; path in out.
 */
static int dev_attr(const char *ifname, const char *leaf, char *out, size_t len)
{
	snprintf(out, len, "/sys/class/net/%s/device/%s", ifname, leaf);
	if (!access(out, F_OK))
		return 0;
	snprintf(out, len, "/sys/class/net/%s/device/../%s", ifname, leaf);
	return access(out, F_OK) ? -ENOENT : 0;
}

int zc_nic_numa_node(const char *ifname)
{
	char path[256], buf[32];
	long v;

	if (zc_nic_is_virtual(ifname) || dev_attr(ifname, "numa_node", path, sizeof(path)) ||
	    zc_read_file_trim(path, buf, sizeof(buf)) || zc_parse_long(buf, &v))
		return -1;
	return (int)v;
}

static int ethtool(int fd, const char *ifname, void *data)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static json_t *ethtool_flag(int fd, const char *ifname, uint32_t cmd)
{
	struct ethtool_value v = { .cmd = cmd };

	return ethtool(fd, ifname, &v) ? json_null() : json_boolean(v.data);
}

static int count_dir(const char *ifname, const char *leaf, const char *prefix)
{
	char path[256];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, leaf);
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

int zc_nic_irqs(const char *ifname, int *irqs, int max)
{
	char path[256], buf[32];
	struct dirent *e;
	DIR *d;
	long v;
	int n = 0;

	if (!dev_attr(ifname, "msi_irqs", path, sizeof(path)) && (d = opendir(path))) {
		while ((e = readdir(d)) && n < max)
			if (!zc_parse_long(e->d_name, &v))
				irqs[n++] = (int)v;
		closedir(d);
		return n;
	}
	if (!dev_attr(ifname, "irq", path, sizeof(path)) &&
	    !zc_read_file_trim(path, buf, sizeof(buf)) && !zc_parse_long(buf, &v) && v > 0 &&
	    max > 0) {
		irqs[0] = (int)v;
		return 1;
	}
	return zc_nic_is_virtual(ifname) ? 0 : -ENOENT;
}

static json_t *irqs_json(const char *ifname)
{
	int irqs[256], n = zc_nic_irqs(ifname, irqs, 256);
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		char path[128], aff[256], eff[256];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		if (zc_read_file_trim(path, aff, sizeof(aff)))
			snprintf(aff, sizeof(aff), "unknown");
		snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", irqs[i]);
		if (zc_read_file_trim(path, eff, sizeof(eff)))
			snprintf(eff, sizeof(eff), "unknown");
		json_array_append_new(a, json_pack("{s:i,s:s,s:s}", "irq", irqs[i], "affinity", aff,
						   "effective_affinity", eff));
	}
	return a;
}

json_t *zc_nic_json(const char *ifname)
{
	json_t *o = json_object(), *off = json_object();
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ethtool_value lro = { .cmd = ETHTOOL_GFLAGS };
	char buf[64];
	bool virt = zc_nic_is_virtual(ifname);
	int fd, nrx, ntx;

	json_object_set_new(o, "name", json_string(ifname));
	if (!if_nametoindex(ifname)) {
		json_object_set_new(o, "error", json_string("no such interface"));
		json_decref(off);	/* not filled: the offloads of no interface */
		return o;
	}
	json_object_set_new(o, "virtual", json_boolean(virt));
	json_object_set_new(o, "mtu", sysfs_int(ifname, "mtu"));
	/* Virtual devices report no speed (EINVAL) or -1: null, not a number. */
	json_object_set_new(o, "speed_mbps", sysfs_int(ifname, "speed"));
	if (json_integer_value(json_object_get(o, "speed_mbps")) < 0)
		json_object_set_new(o, "speed_mbps", json_null());
	json_object_set_new(o, "operstate", sysfs_str(ifname, "operstate", buf, sizeof(buf))
						? json_null() : json_string(buf));
	nrx = count_dir(ifname, "queues", "rx-");
	ntx = count_dir(ifname, "queues", "tx-");
	json_object_set_new(o, "rx_queues", nrx >= 0 ? json_integer(nrx) : json_null());
	json_object_set_new(o, "tx_queues", ntx >= 0 ? json_integer(ntx) : json_null());
	json_object_set_new(o, "numa_node", json_integer(zc_nic_numa_node(ifname)));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !ethtool(fd, ifname, &di)) {
		json_object_set_new(o, "driver", json_string(di.driver));
		json_object_set_new(o, "driver_version", json_string(di.version));
		json_object_set_new(o, "firmware", json_string(di.fw_version));
		json_object_set_new(o, "bus", json_string(di.bus_info));
	} else {
		json_object_set_new(o, "driver", json_null());
	}
	if (fd >= 0 && !ethtool(fd, ifname, &ch))
		json_object_set_new(o, "channels",
				    json_pack("{s:i,s:i,s:i}", "rx", ch.rx_count, "tx", ch.tx_count,
					      "combined", ch.combined_count));
	else
		json_object_set_new(o, "channels", json_null());
	json_object_set_new(off, "gro", fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GGRO));
	json_object_set_new(off, "gso", fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GGSO));
	json_object_set_new(off, "tso", fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GTSO));
	json_object_set_new(off, "sg", fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GSG));
	json_object_set_new(off, "rx_checksum",
			    fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GRXCSUM));
	json_object_set_new(off, "tx_checksum",
			    fd < 0 ? json_null() : ethtool_flag(fd, ifname, ETHTOOL_GTXCSUM));
	json_object_set_new(off, "lro", fd >= 0 && !ethtool(fd, ifname, &lro)
						? json_boolean(lro.data & ETH_FLAG_LRO) : json_null());
	json_object_set_new(o, "offloads", off);
	if (fd >= 0)
		close(fd);
	json_object_set_new(o, "irqs", irqs_json(ifname));
	if (virt)
		json_object_set_new(o, "irq_note", json_string("virtual device: no IRQs of its own"));
	return o;
}

/*
 * The interface the kernel routes to peer through (RTM_GETROUTE's output
 * interface): on a host with several links this is the NIC a connection
 * uses, even when its local address lives on another interface (weak host
 * model). 0 or -errno.
 */
static int nic_of_route(const struct sockaddr *peer, char *ifname)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		char attrs[64];
	} req = { 0 };
	char buf[4096];
	struct rtattr *a;
	int fd, len, alen = peer->sa_family == AF_INET ? 4 : 16, oif = 0;
	const void *addr = peer->sa_family == AF_INET
				   ? (const void *)&((const struct sockaddr_in *)peer)->sin_addr
				   : (const void *)&((const struct sockaddr_in6 *)peer)->sin6_addr;

	if (peer->sa_family != AF_INET && peer->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.rt.rtm_family = peer->sa_family;
	req.rt.rtm_dst_len = alen * 8;
	a = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	a->rta_type = RTA_DST;
	a->rta_len = RTA_LENGTH(alen);
	memcpy(RTA_DATA(a), addr, alen);
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(a->rta_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0 || (len = recv(fd, buf, sizeof(buf), 0)) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (unsigned)len);
	     nh = NLMSG_NEXT(nh, len)) {
		struct rtmsg *rt;
		int rlen;

		if (nh->nlmsg_type != RTM_NEWROUTE)
			continue;
		rt = NLMSG_DATA(nh);
		rlen = RTM_PAYLOAD(nh);
		for (a = RTM_RTA(rt); RTA_OK(a, rlen); a = RTA_NEXT(a, rlen))
			if (a->rta_type == RTA_OIF)
				oif = *(int *)RTA_DATA(a);
	}
	if (!oif || !if_indextoname(oif, ifname))
		return -ENOENT;
	return 0;
}

static json_t *nic_of_fd(int fd)
{
	struct sockaddr_storage ss, peer;
	socklen_t sl = sizeof(ss), pl = sizeof(peer);
	char ifname[IF_NAMESIZE + 1], addr[INET6_ADDRSTRLEN] = "";
	json_t *o;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return json_pack("{s:s}", "error", strerror(errno));
	getnameinfo((struct sockaddr *)&ss, sl, addr, sizeof(addr), NULL, 0, NI_NUMERICHOST);
	if ((getpeername(fd, (struct sockaddr *)&peer, &pl) ||
	     nic_of_route((struct sockaddr *)&peer, ifname)) &&
	    nic_of_sockaddr((struct sockaddr *)&ss, ifname, sizeof(ifname)))
		return json_pack("{s:s,s:s}", "local_address", addr, "error",
				 "no interface holds this address");
	o = zc_nic_json(ifname);
	json_object_set_new(o, "local_address", json_string(addr));
	return o;
}

json_t *zc_nic_of_sockets(int in_fd, int out_fd)
{
	json_t *o = json_object();

	if (in_fd >= 0)
		json_object_set_new(o, "in", nic_of_fd(in_fd));
	if (out_fd >= 0)
		json_object_set_new(o, "out", nic_of_fd(out_fd));
	return o;
}
