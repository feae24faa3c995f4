/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's network namespace over rtnetlink: see network.h. */
#include "network.h"

#include <errno.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kcontainer.h"

#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C
#endif

#include "cleanup.h"

/* ---------- a minimal rtnetlink client ---------- */

struct nl_message {
	union {
		struct nlmsghdr header;
		char buf[1024];
	};
};

/* Starts a request: header + the fixed family struct (ifinfomsg or
 * ifaddrmsg) of size body_len, zeroed; returns a pointer to the body. */
static void *nl_start(struct nl_message *msg, uint16_t type, uint16_t flags, size_t body_len)
{
	memset(msg, 0, sizeof(*msg));
	msg->header.nlmsg_len = NLMSG_LENGTH(body_len);
	msg->header.nlmsg_type = type;
	msg->header.nlmsg_flags = NLM_F_REQUEST | flags;
	return NLMSG_DATA(&msg->header);
}

static int nl_add_attr(struct nl_message *msg, uint16_t type, const void *data, size_t len)
{
	size_t offset = NLMSG_ALIGN(msg->header.nlmsg_len);
	struct rtattr *attr = (struct rtattr *)(msg->buf + offset);

	if (offset + RTA_SPACE(len) > sizeof(msg->buf))
		return -E2BIG;
	attr->rta_type = type;
	attr->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(attr), data, len);
	msg->header.nlmsg_len = offset + RTA_SPACE(len);
	return 0;
}

/* Called for each reply message that is not the final ACK/DONE. */
typedef int (*nl_reply_fn)(const struct nlmsghdr *reply, void *data);

/* Sends msg and reads until its ACK (or NLMSG_DONE for a dump), passing
 * other replies to on_reply.  Returns 0 or -errno (the kernel's). */
static int nl_transact(int sock, struct nl_message *msg, nl_reply_fn on_reply, void *data)
{
	static uint32_t sequence;
	char reply_buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	bool dump = (msg->header.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	uint32_t seq = ++sequence;

	msg->header.nlmsg_seq = seq;
	if (!dump)
		msg->header.nlmsg_flags |= NLM_F_ACK;
	if (sendto(sock, msg->buf, msg->header.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		ssize_t len = recv(sock, reply_buf, sizeof(reply_buf), 0);
		struct nlmsghdr *reply;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return -errno;
		for (reply = (struct nlmsghdr *)reply_buf; NLMSG_OK(reply, (size_t)len);
		     reply = NLMSG_NEXT(reply, len)) {
			if (reply->nlmsg_seq != seq)
				continue;
			if (reply->nlmsg_type == NLMSG_DONE)
				return 0;
			if (reply->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *error = NLMSG_DATA(reply);

				return error->error; /* 0 for an ACK, -errno otherwise */
			}
			if (on_reply) {
				int rc = on_reply(reply, data);

				if (rc < 0)
					return rc;
			}
		}
	}
}

/* ---------- links ---------- */

/* Sets IFF_UP on the link named ifname (looked up by name: ifi_index 0). */
static int link_set_up_by_name(int sock, const char *ifname)
{
	struct nl_message msg;
	struct ifinfomsg *ifi = nl_start(&msg, RTM_NEWLINK, 0, sizeof(*ifi));
	int rc;

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	rc = nl_add_attr(&msg, IFLA_IFNAME, ifname, strlen(ifname) + 1);
	return rc < 0 ? rc : nl_transact(sock, &msg, NULL, NULL);
}

struct link_info {
	int index;
	unsigned int flags;
};

static int store_link_info(const struct nlmsghdr *reply, void *data)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(reply);
	struct link_info *info = data;

	if (reply->nlmsg_type == RTM_NEWLINK) {
		info->index = ifi->ifi_index;
		info->flags = ifi->ifi_flags;
	}
	return 0;
}

static int link_get_by_name(int sock, const char *ifname, struct link_info *info)
{
	struct nl_message msg;
	struct ifinfomsg *ifi = nl_start(&msg, RTM_GETLINK, 0, sizeof(*ifi));
	uint32_t ext_mask = RTEXT_FILTER_SKIP_STATS;
	int rc;

	ifi->ifi_family = AF_UNSPEC;
	info->index = 0;
	rc = nl_add_attr(&msg, IFLA_IFNAME, ifname, strlen(ifname) + 1);
	if (rc == 0)
		rc = nl_add_attr(&msg, IFLA_EXT_MASK, &ext_mask, sizeof(ext_mask));
	if (rc == 0)
		rc = nl_transact(sock, &msg, store_link_info, info);
	if (rc == 0 && info->index <= 0)
		rc = -ENODEV;
	return rc;
}

/* ---------- addresses ---------- */

/* One address of a device, kept as the kernel gave it so it can be
 * re-added unchanged after the move. */
struct saved_address {
	struct ifaddrmsg ifa;
	unsigned char local[16], address[16], broadcast[16];
	size_t addr_len;
	bool has_local, has_address, has_broadcast;
};

struct address_list {
	int ifindex;
	struct saved_address *entries;
	size_t len;
};

static int store_permanent_address(const struct nlmsghdr *reply, void *data)
{
	struct address_list *list = data;
	const struct ifaddrmsg *ifa = NLMSG_DATA(reply);
	struct saved_address saved = { .ifa = *ifa };
	unsigned int flags = ifa->ifa_flags;
	int attrs_len = IFA_PAYLOAD(reply);
	const struct rtattr *attr;
	struct saved_address *bigger;

	if (reply->nlmsg_type != RTM_NEWADDR || (int)ifa->ifa_index != list->ifindex)
		return 0;
	for (attr = IFA_RTA(ifa); RTA_OK(attr, attrs_len); attr = RTA_NEXT(attr, attrs_len)) {
		size_t len = RTA_PAYLOAD(attr);

		if (attr->rta_type == IFA_FLAGS && len >= sizeof(uint32_t))
			memcpy(&flags, RTA_DATA(attr), sizeof(uint32_t));
		if (len > sizeof(saved.local))
			continue;
		switch (attr->rta_type) {
		case IFA_LOCAL:
			memcpy(saved.local, RTA_DATA(attr), len);
			saved.has_local = true;
			saved.addr_len = len;
			break;
		case IFA_ADDRESS:
			memcpy(saved.address, RTA_DATA(attr), len);
			saved.has_address = true;
			saved.addr_len = len;
			break;
		case IFA_BROADCAST:
			memcpy(saved.broadcast, RTA_DATA(attr), len);
			saved.has_broadcast = true;
			break;
		}
	}
	/* Only permanent addresses: not the ones SLAAC/DHCP-like mechanisms
	 * or the kernel (IPv6 link-local) manage themselves. */
	if (!(flags & IFA_F_PERMANENT))
		return 0;
	bigger = realloc(list->entries, (list->len + 1) * sizeof(*bigger));
	if (bigger == NULL)
		return -ENOMEM;
	list->entries = bigger;
	list->entries[list->len++] = saved;
	return 0;
}

static int addresses_of(int sock, int ifindex, struct address_list *list)
{
	struct nl_message msg;
	struct ifaddrmsg *ifa = nl_start(&msg, RTM_GETADDR, NLM_F_DUMP, sizeof(*ifa));

	ifa->ifa_family = AF_UNSPEC;
	list->ifindex = ifindex;
	return nl_transact(sock, &msg, store_permanent_address, list);
}

static int add_address(int sock, int ifindex, const struct saved_address *saved)
{
	struct nl_message msg;
	struct ifaddrmsg *ifa = nl_start(&msg, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifa));
	int rc = 0;

	*ifa = saved->ifa;
	ifa->ifa_index = ifindex;
	if (saved->has_local)
		rc = nl_add_attr(&msg, IFA_LOCAL, saved->local, saved->addr_len);
	if (rc == 0 && saved->has_address)
		rc = nl_add_attr(&msg, IFA_ADDRESS, saved->address, saved->addr_len);
	if (rc == 0 && saved->has_broadcast)
		rc = nl_add_attr(&msg, IFA_BROADCAST, saved->broadcast, saved->addr_len);
	if (rc == 0)
		rc = nl_transact(sock, &msg, NULL, NULL);
	return rc == -EEXIST ? 0 : rc;
}

/* ---------- netDevices ---------- */

static int move_device(int host_sock, int container_sock, int netns_fd,
		       const struct oci_net_device *device, kc_error_t *err)
{
	const char *host_name = device->host_name;
	const char *name = device->name && device->name[0] ? device->name : host_name;
	struct address_list addresses = { 0 };
	struct link_info host_link, moved_link;
	struct nl_message msg;
	struct ifinfomsg *ifi;
	size_t i;
	int rc;

	if (strlen(name) >= IFNAMSIZ || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return kc_error_set(err, EINVAL, "linux.netDevices.\"%s\".name: \"%s\" is not a valid interface name",
				    host_name, name);
	rc = link_get_by_name(host_sock, host_name, &host_link);
	if (rc < 0)
		return kc_error_set(err, -rc, "linux.netDevices.\"%s\": find the device on the host", host_name);
	rc = addresses_of(host_sock, host_link.index, &addresses);
	if (rc < 0)
		return kc_error_set(err, -rc, "linux.netDevices.\"%s\": read its addresses", host_name);

	ifi = nl_start(&msg, RTM_NEWLINK, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = host_link.index;
	rc = nl_add_attr(&msg, IFLA_NET_NS_FD, &netns_fd, sizeof(netns_fd));
	if (rc == 0)
		rc = nl_transact(host_sock, &msg, NULL, NULL);
	if (rc < 0) {
		free(addresses.entries);
		return kc_error_set(err, -rc, "linux.netDevices.\"%s\": move into the container's network namespace",
				    host_name);
	}

	/* Inside: its index may have changed; find it by name, rename. */
	rc = link_get_by_name(container_sock, host_name, &moved_link);
	if (rc == 0 && strcmp(name, host_name) != 0) {
		ifi = nl_start(&msg, RTM_NEWLINK, 0, sizeof(*ifi));
		ifi->ifi_family = AF_UNSPEC;
		ifi->ifi_index = moved_link.index;
		rc = nl_add_attr(&msg, IFLA_IFNAME, name, strlen(name) + 1);
		if (rc == 0)
			rc = nl_transact(container_sock, &msg, NULL, NULL);
		if (rc < 0) {
			free(addresses.entries);
			return kc_error_set(err, -rc, "linux.netDevices.\"%s\": rename to \"%s\" in the container",
					    host_name, name);
		}
	}
	if (rc < 0) {
		free(addresses.entries);
		return kc_error_set(err, -rc, "linux.netDevices.\"%s\": find it in the container", host_name);
	}
	for (i = 0; i < addresses.len; i++) {
		rc = add_address(container_sock, moved_link.index, &addresses.entries[i]);
		if (rc < 0) {
			free(addresses.entries);
			return kc_error_set(err, -rc, "linux.netDevices.\"%s\": restore address #%zu in the container",
					    host_name, i);
		}
	}
	free(addresses.entries);
	if (host_link.flags & IFF_UP) {
		rc = link_set_up_by_name(container_sock, name);
		if (rc < 0)
			return kc_error_set(err, -rc, "linux.netDevices.\"%s\": bring \"%s\" up in the container",
					    host_name, name);
	}
	return 0;
}

int kc_network_setup(int container_fd, const struct oci_spec *spec, kc_error_t *err)
{
	const struct oci_linux *linux_ = spec->linux_;
	const struct oci_namespace *netns;
	cleanup_close int container_sock = -1, host_sock = -1, netns_fd = -1;
	size_t i;
	int rc;

	netns = linux_ ? oci_linux_find_namespace(linux_, OCI_NS_NETWORK) : NULL;
	if (netns == NULL || netns->path != NULL)
		return 0;

	container_sock = kc_container_socket(container_fd, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
					     NETLINK_ROUTE);
	if (container_sock < 0)
		return kc_error_set(err, errno, "open a netlink socket in the container's network namespace");
	rc = link_set_up_by_name(container_sock, "lo");
	if (rc < 0)
		return kc_error_set(err, -rc, "bring lo up in the container");

	if (linux_->net_devices_len == 0)
		return 0;
	host_sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (host_sock < 0)
		return kc_error_set(err, errno, "linux.netDevices: open a netlink socket");
	netns_fd = ioctl(container_sock, SIOCGSKNS);
	if (netns_fd < 0)
		return kc_error_set(err, errno, "linux.netDevices: get the container's network namespace (SIOCGSKNS)");
	for (i = 0; i < linux_->net_devices_len; i++) {
		if (move_device(host_sock, container_sock, netns_fd, &linux_->net_devices[i], err) < 0)
			return -1;
	}
	return 0;
}
