/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network interface a role ran on, as that role sees it on its own host
 * (sysfs and the ethtool ioctl): driver, firmware, speed, MTU, queues,
 * offloads, IRQs and their affinity, NUMA node. veth and loopback are
 * described the same way and marked virtual.
 */
#ifndef ZC_NIC_H
#define ZC_NIC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Interface that holds local address addr: 0 or -ENOENT. */
int zc_nic_of_addr(const char *addr, char *ifname, size_t len);
/* First IPv4 (else IPv6) address of ifname: 0 or -ENOENT. */
int zc_nic_addr(const char *ifname, char *addr, size_t len);
/* NUMA node of a physical NIC; -1 for virtual ones or when unknown. */
int zc_nic_numa_node(const char *ifname);
bool zc_nic_is_virtual(const char *ifname);
/* The full description of ifname: a new object (with "error" if absent). */
json_t *zc_nic_json(const char *ifname);
/* {"in": NIC of in_fd's local address, "out": ...}; -1 fds are skipped. */
json_t *zc_nic_of_sockets(int in_fd, int out_fd);

/* IRQs of ifname (MSI vectors, else the legacy line): count (<= max) or -errno. */
int zc_nic_irqs(const char *ifname, int *irqs, int max);

#endif
