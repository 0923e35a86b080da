// SPDX-License-Identifier: MIT
/*
 * struct link_ops over rtnetlink (libmst's mstnl, which builds the
 * requests and reads the kernel's acks): the host bridge that is a lab
 * link, its two tap ports (or one and a VXLAN tunnel to the host of the
 * other end), silent drop through the port state and the taps'
 * host-side carrier, one-way drop through a port's flooding. Every name
 * must carry the lab prefix "ml-": this code never touches anything
 * else.
 */
#include "hostnet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_bridge.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mstnl.h"
#include "plan.h"

#define PREFIX "ml-"
/* IF_OPER_UNKNOWN and IF_OPER_UP (RFC 2863): linux/if.h clashes with
 * net/if.h. */
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

/* One rtnetlink socket (mstnl) for the requests of one call. */
static struct mstnl *nl_open(struct errbuf *err)
{
	int e = 0;
	struct mstnl *nl = mstnl_open(&e);

	if (!nl)
		errbuf_set(err, "rtnetlink: %s", strerror(-e));
	return nl;
}

/* After a request: 0, or -1 with "cannot WHAT NAME: why" in err; an
 * error ok_errno (if not 0) counts as done. */
static int done(int rc, const struct mstnl_err *e, struct errbuf *err,
		const char *what, const char *name, int ok_errno)
{
	char why[MSTNL_MSG_MAX + 64];

	if (rc == 0 || (ok_errno && rc == -ok_errno))
		return 0;
	return errbuf_set(err, "cannot %s %s: %s", what, name,
			  mstnl_err_text(e, why, sizeof(why)));
}

/* The link's state as the kernel reports it (alias, operstate). */
static int get_link(struct mstnl *nl, const char *ifname,
		    struct mstnl_link *link, struct errbuf *err)
{
	struct mstnl_err e = { 0 };
	unsigned ifindex = if_nametoindex(ifname);

	if (!ifindex)
		return errbuf_set(err, "cannot read %s: %s", ifname,
				  strerror(errno));
	return done(mstnl_link_get(nl, (int)ifindex, link, &e), &e, err,
		    "read", ifname, 0);
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

/* 0, or -1 with err; -EEXIST (err set too) when the name is taken. */
static int new_bridge(struct mstnl *nl, const char *bridge,
		      struct errbuf *err)
{
	/* A wire: no spanning tree, nothing learned, everything floods,
	 * VLAN-transparent (vlan_filtering stays at its default, off: the
	 * host kernel may not even have it),
	 * link-local groups forwarded (docs/design/orchestrator.md).
	 * Ageing not 0: the FDB garbage collector runs once per ageing
	 * time, at least every 10 ms, which cost ~7% of a host core per
	 * link (measured, 3 links). */
	static const struct mstnl_bridge_conf wire = {
		.stp_state = 0,
		.ageing_time = LINK_AGEING_CS,
		.mcast_snooping = 0,
		.group_fwd_mask = 0xfff8,
		.nf_call = 0,
	};
	struct mstnl_err e;
	int rc = mstnl_bridge_new(nl, bridge, &wire, &e);

	done(rc, &e, err, "create bridge", bridge, 0);
	return rc == -EEXIST ? rc : rc ? -1 : 0;
}

/* Absent is not an error. */
static int remove_link(struct mstnl *nl, const char *ifname,
		       struct errbuf *err)
{
	struct mstnl_err e;

	return done(mstnl_link_del(nl, ifname, &e), &e, err, "delete", ifname,
		    ENODEV);
}

/* The alias is our signature: a later run knows the bridge as its own. */
static int create(struct mstnl *nl, const char *bridge, const char *owner,
		  struct errbuf *err)
{
	struct mstnl_link link;
	struct mstnl_err e;
	int rc, replaced = 0;

	if (!ours(bridge, err))
		return -1;
	rc = new_bridge(nl, bridge, err);
	if (rc == -EEXIST) {
		if (get_link(nl, bridge, &link, err))
			return -1;
		if (strcmp(link.alias, owner))
			return errbuf_set(err, "cannot create bridge %s: an "
					  "interface of that name exists "
					  "without this lab's label (its "
					  "alias: '%s'), so it is left alone; "
					  "if it is a leftover, 'ip link del "
					  "%s'", bridge, link.alias, bridge);
		/* Left by a run that died with its state: ours to replace. */
		if (remove_link(nl, bridge, err))
			return -1;
		rc = new_bridge(nl, bridge, err);
		replaced = 1;
	}
	if (rc)
		return -1;
	if (done(mstnl_link_alias_set(nl, bridge, owner, &e), &e, err,
		 "label", bridge, 0)) {
		struct errbuf ignored;

		/* Ours, but the caller forgets it on failure: remove it. */
		remove_link(nl, bridge, &ignored);
		return -1;
	}
	no_ipv6(bridge);
	return replaced;
}

static int hn_create(void *ctx, const char *bridge, const char *owner,
		     struct errbuf *err)
{
	struct mstnl *nl = nl_open(err);
	int rc = nl ? create(nl, bridge, owner, err) : -1;

	(void)ctx;
	mstnl_close(nl);
	return rc;
}

static int port_set(struct mstnl *nl, const char *tap,
		    const struct mstnl_port_conf *conf, struct errbuf *err,
		    const char *what)
{
	struct mstnl_err e;
	unsigned ifindex;

	if (!ours(tap, err))
		return -1;
	ifindex = if_nametoindex(tap);
	if (!ifindex)
		return errbuf_set(err, "cannot %s %s: %s", what, tap,
				  strerror(errno));
	return done(mstnl_port_set(nl, (int)ifindex, conf, &e), &e, err, what,
		    tap, 0);
}

/* A port's state alone (silent drop and back). */
static int port_state(struct mstnl *nl, const char *tap, int state,
		      struct errbuf *err, const char *what)
{
	struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1, .state = state,
	};

	return port_set(nl, tap, &conf, err, what);
}

/*
 * Whether frames leave by a port. A link bridge learns nothing, so every
 * frame it forwards is flooded: with flooding off on one port, that
 * port's guest hears nothing while the other still hears it, and both
 * keep carrier. The capture, on the bridge device, still shows what
 * the deaf end's peer sent.
 */
static int port_flood(struct mstnl *nl, const char *tap, bool on,
		      struct errbuf *err, const char *what)
{
	struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1, .state = -1,
		.flood = on ? MSTNL_FLOOD_ON : MSTNL_FLOOD_OFF,
	};

	return port_set(nl, tap, &conf, err, what);
}

static int hn_setup_port(void *ctx, const char *tap, struct errbuf *err)
{
	/* Learning off, and what the port learned before forgotten: a
	 * wire forgets at once. */
	static const struct mstnl_port_conf wire_port = {
		.learning = 0, .flush = true, .group_fwd_mask = 0xfffd,
		.state = -1,
	};
	struct mstnl *nl = nl_open(err);
	int rc = nl ? port_set(nl, tap, &wire_port, err, "set up link port") :
		 -1;

	(void)ctx;
	mstnl_close(nl);
	if (rc == 0)
		no_ipv6(tap);
	return rc;
}

/*
 * The host side's carrier of a tap. A disabled bridge port comes back
 * forwarding whenever the kernel re-checks it with carrier on, and a
 * guest makes it do so (its first XDP program changes the NIC's queues):
 * without carrier the port stays disabled. The guest does not see it.
 */
static int tap_carrier(struct mstnl *nl, const char *tap, bool on,
		       struct errbuf *err)
{
	struct mstnl_err e;

	if (!ours(tap, err))
		return -1;
	/* EPERM: no guest holds the tap, which has no carrier anyway. */
	return done(mstnl_link_carrier_set(nl, tap, on, &e), &e, err,
		    on ? "restore" : "silence", tap, on ? EPERM : 0);
}

/* The kernel takes a carrier up later (linkwatch, up to a second when
 * other links changed just before), and the bridge refuses to forward on
 * a port until it has: wait for it, 1 ms at a time, at most 2 s. */
static int wait_oper_up(struct mstnl *nl, const char *tap,
			struct errbuf *err)
{
	struct timespec ms = { 0, 1000000 };
	struct mstnl_link link;

	for (int i = 0; i < 2000; i++) {
		if (get_link(nl, tap, &link, err))
			return -1;
		if (link.operstate == OPER_UP ||
		    link.operstate == OPER_UNKNOWN)
			return 0;
		nanosleep(&ms, NULL);
	}
	return errbuf_set(err, "cannot restore %s: its carrier is not up "
			  "after 2 s", tap);
}

/* Silence: the ports disabled first (at once), then their carriers;
 * one way: the deaf port floods nothing. */
static int silence(struct mstnl *nl, const char *const tap[], size_t n,
		   int deaf, struct errbuf *err)
{
	if (deaf >= 0 && (size_t)deaf < n)
		return port_flood(nl, tap[deaf], false, err, "silence");
	for (size_t e = 0; e < n; e++)
		if (port_state(nl, tap[e], BR_STATE_DISABLED, err, "silence"))
			return -1;
	for (size_t e = 0; e < n; e++)
		if (tap_carrier(nl, tap[e], false, err))
			return -1;
	return 0;
}

/* Restore: both carriers up together, so neither end forwards into a
 * link whose other end still drops; then the ports forwarding and
 * flooding (what a one-way failure turned off). */
static int restore(struct mstnl *nl, const char *const tap[], size_t n,
		   struct errbuf *err)
{
	for (size_t e = 0; e < n; e++)
		if (tap_carrier(nl, tap[e], true, err))
			return -1;
	for (size_t e = 0; e < n; e++)
		if (wait_oper_up(nl, tap[e], err) ||
		    port_state(nl, tap[e], BR_STATE_FORWARDING, err,
			       "restore") ||
		    port_flood(nl, tap[e], true, err, "restore"))
			return -1;
	return 0;
}

static int hn_port_forward(void *ctx, const char *const tap[], size_t n,
			   bool on, int deaf, struct errbuf *err)
{
	struct mstnl *nl = nl_open(err);
	int rc = !nl ? -1 : on ? restore(nl, tap, n, err) :
				 silence(nl, tap, n, deaf, err);

	(void)ctx;
	mstnl_close(nl);
	return rc;
}

static int hn_remove(void *ctx, const char *ifname, struct errbuf *err)
{
	struct mstnl *nl = ours(ifname, err) ? nl_open(err) : NULL;
	int rc = nl ? remove_link(nl, ifname, err) : -1;

	(void)ctx;
	mstnl_close(nl);
	return rc;
}

/* "10.0.0.1" or "fd00::1" → family and 4 or 16 bytes. */
static int address(const char *text, int *family, uint8_t bin[16],
		   struct errbuf *err)
{
	*family = strchr(text, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(*family, text, bin) != 1)
		return errbuf_set(err, "'%.60s' is no IPv4 or IPv6 address",
				  text);
	return 0;
}

/*
 * The tunnel joins the link bridge at its creation (IFLA_MASTER), so no
 * frame of the far end ever crosses a host-side interface of its own;
 * then the port is set up as a tap's is: a wire learns nothing.
 */
static int hn_tunnel(void *ctx, const char *name, const char *bridge,
		     uint32_t vni, const char *local, const char *remote,
		     struct errbuf *err)
{
	struct mstnl_vxlan_conf conf = { .vni = vni, .port = PLAN_VXLAN_PORT };
	struct mstnl_err e;
	struct mstnl *nl;
	int family, rc;

	if (!ours(name, err) || !ours(bridge, err) ||
	    address(local, &conf.family, conf.local, err) ||
	    address(remote, &family, conf.remote, err))
		return -1;
	if (family != conf.family)
		return errbuf_set(err, "tunnel %s: %s and %s are of two "
				  "families", name, local, remote);
	conf.master = (int)if_nametoindex(bridge);
	if (!conf.master)
		return errbuf_set(err, "cannot create tunnel %s: bridge %s: "
				  "%s", name, bridge, strerror(errno));
	nl = nl_open(err);
	if (!nl)
		return -1;
	rc = done(mstnl_vxlan_new(nl, name, &conf, &e), &e, err,
		  "create tunnel", name, 0);
	mstnl_close(nl);
	if (!rc)
		rc = hn_setup_port(ctx, name, err);
	return rc;
}

static int hn_path_mtu(void *ctx, const char *to, unsigned *mtu,
		       struct errbuf *err)
{
	struct mstnl_link link;
	struct mstnl_err e;
	uint8_t bin[16];
	struct mstnl *nl;
	int family, oif = 0, rc;

	(void)ctx;
	if (address(to, &family, bin, err))
		return -1;
	nl = nl_open(err);
	if (!nl)
		return -1;
	rc = done(mstnl_route_oif(nl, family, bin, &oif, &e), &e, err,
		  "find the route to", to, 0);
	if (!rc)
		rc = done(mstnl_link_get(nl, oif, &link, &e), &e, err,
			  "read the interface towards", to, 0);
	mstnl_close(nl);
	*mtu = rc ? 0 : link.mtu;
	return rc;
}

const struct link_ops hostnet_ops = {
	.create = hn_create,
	.setup_port = hn_setup_port,
	.port_forward = hn_port_forward,
	.remove = hn_remove,
	.tunnel = hn_tunnel,
	.path_mtu = hn_path_mtu,
};
