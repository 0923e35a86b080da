// SPDX-License-Identifier: MIT
/*
 * struct link_ops over rtnetlink (libmnl): the host bridge that is a lab
 * link, its two tap ports, silent drop through the port state and the
 * taps' host-side carrier. Every name must carry the lab prefix "ml-":
 * this code never touches anything else.
 */
#include "hostnet.h"

#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PREFIX "ml-"
/* The kernel's IFALIASZ, IF_OPER_UNKNOWN and IF_OPER_UP (RFC 2863):
 * linux/if.h clashes with net/if.h. */
#define ALIAS_LEN 256
#define OPER_UNKNOWN 0
#define OPER_UP 6

/* 1 s, in the centiseconds of IFLA_BR_AGEING_TIME: a port learns from
 * its tap joining the bridge (libvirt) until hn_setup_port turns that
 * off, and flushes what it learned then. */
#define LINK_AGEING_CS 100

static bool ours(const char *name, struct errbuf *err)
{
	if (strncmp(name, PREFIX, strlen(PREFIX)) == 0 &&
	    strlen(name) < IFNAMSIZ)
		return true;
	errbuf_set(err, "refusing to touch '%s': not an mstlab "
		   "interface", name);
	return false;
}

/* Sends one request and waits for its ack (and replies, to cb);
 * errno-style result. */
static int talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned portid = mnl_socket_get_portid(nl);
	ssize_t n;
	int rc;

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = (unsigned)time(NULL);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)n, nlh->nlmsg_seq, portid, cb,
				data);
	} while (rc > 0);
	return rc < 0 ? -errno : 0;
}

/* One request on its own socket: 0 or -errno (err says why). */
static int request_rc(struct nlmsghdr *nlh, struct errbuf *err,
		      const char *what,
		      const char *name, mnl_cb_t cb, void *data)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	int rc;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		errbuf_set(err, "rtnetlink: %s", strerror(errno));
		if (nl)
			mnl_socket_close(nl);
		return rc;
	}
	rc = talk(nl, nlh, cb, data);
	mnl_socket_close(nl);
	if (rc)
		errbuf_set(err, "cannot %s %s: %s", what, name, strerror(-rc));
	return rc;
}

static int request(struct nlmsghdr *nlh, struct errbuf *err, const char *what,
		   const char *name, int ok_errno)
{
	int rc = request_rc(nlh, err, what, name, NULL, NULL);

	return rc == 0 || (ok_errno && rc == -ok_errno) ? 0 : -1;
}

static struct nlmsghdr *link_msg(char *buf, int type, int flags,
				 unsigned char family, const char *name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = (uint16_t)flags;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = family;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

/* No IPv6 on our interfaces: the host must not talk into a link. */
static void no_ipv6(const char *ifname)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 ifname);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;	/* no IPv6 on this host: nothing to silence */
	if (write(fd, "1", 1) < 0) {
		/* best effort: a host ND frame is noise, not a failure */
	}
	close(fd);
}

static int new_bridge(const char *bridge, struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;
	struct ifinfomsg *ifm;

	nlh = link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, AF_UNSPEC,
		       bridge);
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	/* A wire: no spanning tree, nothing learned, everything floods,
	 * VLAN-transparent (vlan_filtering stays at its default, off: the
	 * host kernel may not even have it),
	 * link-local groups forwarded (DESIGN.md, "Links on the host"). */
	mnl_attr_put_u32(nlh, IFLA_BR_STP_STATE, 0);
	/* Not 0: the FDB garbage collector runs once per ageing time, at
	 * least every 10 ms, which cost ~7% of a host core per link
	 * (measured, 3 links). */
	mnl_attr_put_u32(nlh, IFLA_BR_AGEING_TIME, LINK_AGEING_CS);
	mnl_attr_put_u8(nlh, IFLA_BR_MCAST_SNOOPING, 0);
	mnl_attr_put_u16(nlh, IFLA_BR_GROUP_FWD_MASK, 0xfff8);
	mnl_attr_put_u8(nlh, IFLA_BR_NF_CALL_IPTABLES, 0);
	mnl_attr_put_u8(nlh, IFLA_BR_NF_CALL_IP6TABLES, 0);
	mnl_attr_put_u8(nlh, IFLA_BR_NF_CALL_ARPTABLES, 0);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return request_rc(nlh, err, "create bridge", bridge, NULL, NULL);
}

/* The alias is our signature: a later run knows the bridge as its own. */
static int set_alias(const char *ifname, const char *alias, struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, RTM_SETLINK, 0, AF_UNSPEC,
					ifname);

	mnl_attr_put_strz(nlh, IFLA_IFALIAS, alias);
	return request(nlh, err, "label", ifname, 0);
}

static int alias_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == IFLA_IFALIAS &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		snprintf(data, ALIAS_LEN, "%s", mnl_attr_get_str(a));
	return MNL_CB_OK;
}

static int alias_reply(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), alias_attr, data);
}

/* The alias of an existing interface ("" if it has none). */
static int get_alias(const char *ifname, char alias[ALIAS_LEN],
		     struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	alias[0] = '\0';
	return request_rc(link_msg(buf, RTM_GETLINK, 0, AF_UNSPEC, ifname),
			  err, "read", ifname, alias_reply, alias) ? -1 : 0;
}

static int hn_remove(void *ctx, const char *ifname, struct errbuf *err);

static int hn_create(void *ctx, const char *bridge, const char *owner,
		     struct errbuf *err)
{
	char alias[ALIAS_LEN];
	int rc, replaced = 0;

	if (!ours(bridge, err))
		return -1;
	rc = new_bridge(bridge, err);
	if (rc == -EEXIST) {
		if (get_alias(bridge, alias, err))
			return -1;
		if (strcmp(alias, owner))
			return errbuf_set(err, "cannot create bridge %s: an "
					  "interface of that name exists "
					  "without this lab's label (its "
					  "alias: '%s'), so it is left alone; "
					  "if it is a leftover, 'ip link del "
					  "%s'", bridge, alias, bridge);
		/* Left by a run that died with its state: ours to replace. */
		if (hn_remove(ctx, bridge, err))
			return -1;
		rc = new_bridge(bridge, err);
		replaced = 1;
	}
	if (rc)
		return -1;
	if (set_alias(bridge, owner, err)) {
		struct errbuf ignored;

		/* Ours, but the caller forgets it on failure: remove it. */
		hn_remove(ctx, bridge, &ignored);
		return -1;
	}
	no_ipv6(bridge);
	return replaced;
}

static int port_attrs(const char *tap, int learning, int state,
		      struct errbuf *err,
		      const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *pi;
	unsigned ifindex;

	if (!ours(tap, err))
		return -1;
	ifindex = if_nametoindex(tap);
	if (!ifindex)
		return errbuf_set(err, "cannot %s %s: %s", what, tap,
				  strerror(errno));
	/* AF_BRIDGE setlink finds the port by index only. */
	nlh = link_msg(buf, RTM_SETLINK, 0, AF_BRIDGE, tap);
	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_index =
		(int)ifindex;
	pi = mnl_attr_nest_start(nlh, IFLA_PROTINFO);
	if (learning >= 0) {
		mnl_attr_put_u8(nlh, IFLA_BRPORT_LEARNING, (uint8_t)learning);
		/* What the port learned before: a wire forgets at once. */
		if (!learning)
			mnl_attr_put(nlh, IFLA_BRPORT_FLUSH, 0, NULL);
		mnl_attr_put_u16(nlh, IFLA_BRPORT_GROUP_FWD_MASK, 0xfffd);
	}
	if (state >= 0)
		mnl_attr_put_u8(nlh, IFLA_BRPORT_STATE, (uint8_t)state);
	mnl_attr_nest_end(nlh, pi);
	return request(nlh, err, what, tap, 0);
}

static int hn_setup_port(void *ctx, const char *tap, struct errbuf *err)
{
	(void)ctx;
	if (port_attrs(tap, 0, -1, err, "set up link port"))
		return -1;
	no_ipv6(tap);
	return 0;
}

/*
 * The host side's carrier of a tap. A disabled bridge port comes back
 * forwarding whenever the kernel re-checks it with carrier on, and a
 * guest makes it do so (its first XDP program changes the NIC's queues):
 * without carrier the port stays disabled. The guest does not see it.
 */
static int tap_carrier(const char *tap, bool on, struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!ours(tap, err))
		return -1;
	nlh = link_msg(buf, RTM_SETLINK, 0, AF_UNSPEC, tap);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, on);
	/* EPERM: no guest holds the tap, which has no carrier anyway. */
	return request(nlh, err, on ? "restore" : "silence", tap,
		       on ? EPERM : 0);
}

static int operstate_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == IFLA_OPERSTATE &&
	    mnl_attr_validate(a, MNL_TYPE_U8) == 0)
		*(int *)data = mnl_attr_get_u8(a);
	return MNL_CB_OK;
}

static int operstate_reply(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), operstate_attr,
			      data);
}

/* The kernel takes a carrier up later (linkwatch, up to a second when
 * other links changed just before), and the bridge refuses to forward on
 * a port until it has: wait for it, 1 ms at a time, at most 2 s. */
static int wait_oper_up(const char *tap, struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 2000; i++) {
		int state = -1;

		if (request_rc(link_msg(buf, RTM_GETLINK, 0, AF_UNSPEC, tap),
			       err, "read", tap, operstate_reply, &state))
			return -1;
		if (state == OPER_UP || state == OPER_UNKNOWN)
			return 0;
		nanosleep(&ms, NULL);
	}
	return errbuf_set(err, "cannot restore %s: its carrier is not up "
			  "after 2 s", tap);
}

/* Silence: both ports disabled first (at once), then their carriers. */
static int silence(const char *const tap[2], struct errbuf *err)
{
	for (int e = 0; e < 2; e++)
		if (port_attrs(tap[e], -1, BR_STATE_DISABLED, err, "silence"))
			return -1;
	for (int e = 0; e < 2; e++)
		if (tap_carrier(tap[e], false, err))
			return -1;
	return 0;
}

/* Restore: both carriers up together, so neither end forwards into a
 * link whose other end still drops; then both ports forwarding. */
static int restore(const char *const tap[2], struct errbuf *err)
{
	for (int e = 0; e < 2; e++)
		if (tap_carrier(tap[e], true, err))
			return -1;
	for (int e = 0; e < 2; e++)
		if (wait_oper_up(tap[e], err) ||
		    port_attrs(tap[e], -1, BR_STATE_FORWARDING, err, "restore"))
			return -1;
	return 0;
}

static int hn_port_forward(void *ctx, const char *const tap[2], bool on,
			   struct errbuf *err)
{
	(void)ctx;
	return on ? restore(tap, err) : silence(tap, err);
}

static int hn_remove(void *ctx, const char *ifname, struct errbuf *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	(void)ctx;
	if (!ours(ifname, err))
		return -1;
	return request(link_msg(buf, RTM_DELLINK, 0, AF_UNSPEC, ifname), err,
		       "delete", ifname, ENODEV);
}

const struct link_ops hostnet_ops = {
	.create = hn_create,
	.setup_port = hn_setup_port,
	.port_forward = hn_port_forward,
	.remove = hn_remove,
};
