// SPDX-License-Identifier: MIT
/*
 * The bridge side of mstd, all through libmst's mstnl: checks at start,
 * the VID -> MSTI mapping, per-tree port states, FDB flushes, and the
 * link/VLAN notifications.  The kernel sends no notification when an MSTI
 * state changes, so mstd keeps what it set (port->kstate) and re-applies
 * it whenever a VLAN appears on a port (a new port-VLAN starts disabled).
 */
#include "daemon.h"

#include <errno.h>
#include <net/if.h>	/* before linux/if.h: libc-compat guards */
#include <linux/if.h>
#include <linux/if_bridge.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define KSTATE_UNSET 0xff

static const char *tree_name(const struct mstd *d, unsigned int slot,
			     char buf[8])
{
	if (slot == 0)
		return "cist";
	snprintf(buf, 8, "%u", d->conf.mstids[slot - 1]);
	return buf;
}

/* /sys/class/net/BR/bridge/stp_state: 2 = user-space STP. */
static int stp_state(const char *br)
{
	char path[96], buf[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/bridge/stp_state", br);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return atoi(buf);
}

int kernel_check_bridge(struct mstd *d)
{
	const char *name = d->conf.bridge;
	struct mstnl_link link;
	struct mstnl_err err = { 0 };
	struct ifreq ifr = { 0 };
	int fd, st;

	d->br_ifindex = (int)if_nametoindex(name);
	if (!d->br_ifindex) {
		fprintf(stderr, "mstd: no device \"%s\"\n", name);
		return -ENODEV;
	}
	if (mstnl_link_get(d->nl, d->br_ifindex, &link, &err) < 0) {
		fprintf(stderr, "mstd: cannot read %s: %s\n", name,
			err.msg[0] ? err.msg : strerror(-err.code));
		return -EIO;
	}
	if (!link.is_bridge) {
		fprintf(stderr, "mstd: %s is not a bridge\n", name);
		return -EINVAL;
	}
	if (!link.vlan_filtering) {
		fprintf(stderr, "mstd: %s has vlan_filtering 0: MST mode blocks nothing without it; set vlan_filtering 1\n",
			name);
		return -EINVAL;
	}
	if (!link.mst_supported) {
		fprintf(stderr, "mstd: the kernel bridge has no MST mode\n");
		return -EOPNOTSUPP;
	}
	if (!link.mst_enabled &&
	    mstnl_mst_set(d->nl, d->br_ifindex, true, &err) < 0) {
		fprintf(stderr, "mstd: cannot enable MST mode on %s: %s (%s)\n",
			name, err.msg[0] ? err.msg : "refused",
			strerror(-err.code));
		return -EINVAL;
	}
	st = stp_state(name);
	if (st != 2) {
		fprintf(stderr,
			"mstd: %s has stp_state %d, want 2 (user-space STP): run \"ip link set dev %s type bridge stp_state 1\" with /sbin/bridge-stp exiting 0, in the initial network namespace\n",
			name, st, name);
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "mstd: cannot read the MAC of %s: %s\n", name,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	close(fd);
	memcpy(d->br_mac, ifr.ifr_hwaddr.sa_data, 6);
	d->ageing_cs = link.ageing_time;
	return 0;
}

struct scan {
	struct mstd *d;
	struct { int ifindex; char name[MSTD_IFNAMSIZ]; } found[MSTD_MAX_PORTS];
	unsigned int n;
};

static int scan_cb(const struct mstnl_port *port, void *data)
{
	struct scan *s = data;

	if (port->master != s->d->br_ifindex || s->n == MSTD_MAX_PORTS)
		return 0;
	s->found[s->n].ifindex = port->ifindex;
	snprintf(s->found[s->n].name, MSTD_IFNAMSIZ, "%s", port->ifname);
	s->n++;
	return 0;
}

static bool oper_up(uint8_t operstate)
{
	/* What the bridge itself calls up (netif_oper_up). */
	return operstate == IF_OPER_UP || operstate == IF_OPER_UNKNOWN;
}

int kernel_scan_ports(struct mstd *d)
{
	const struct mstd_conf *c = &d->conf;
	struct mstnl_err err = { 0 };
	struct scan *s = calloc(1, sizeof(*s));
	unsigned int n = 0;

	if (!s)
		return -ENOMEM;
	s->d = d;
	if (mstnl_port_dump(d->nl, scan_cb, s, &err) < 0) {
		fprintf(stderr, "mstd: cannot list the ports of %s: %s\n",
			c->bridge, err.msg[0] ? err.msg : strerror(-err.code));
		free(s);
		return -EIO;
	}
	d->ports = calloc(c->nports + s->n + 1, sizeof(*d->ports));
	if (!d->ports) {
		free(s);
		return -ENOMEM;
	}
	/* Configured ports first (in file order), then the bridge's others. */
	for (size_t i = 0; i < c->nports; i++)
		snprintf(d->ports[n++].name, MSTD_IFNAMSIZ, "%s",
			 c->ports[i].name);
	d->nports = n;
	for (unsigned int k = 0; k < s->n; k++) {
		int i = mstd_port_by_name(d, s->found[k].name);

		if (i < 0) {
			i = (int)n++;
			d->nports = n;
			snprintf(d->ports[i].name, MSTD_IFNAMSIZ, "%s",
				 s->found[k].name);
		}
		d->ports[i].ifindex = s->found[k].ifindex;
	}
	free(s);
	if (n == 0) {
		fprintf(stderr, "mstd: %s has no ports and the configuration names none\n",
			c->bridge);
		return -EINVAL;
	}
	d->nports = n;
	for (unsigned int i = 0; i < n; i++) {
		struct mstd_port *p = &d->ports[i];
		struct mstnl_link link;

		p->fd = -1;
		memset(p->kstate, KSTATE_UNSET, sizeof(p->kstate));
		if (!p->ifindex) {
			fprintf(stderr, "mstd: warning: port %s is not in %s (yet)\n",
				p->name, c->bridge);
			continue;
		}
		if (mstnl_link_get(d->nl, p->ifindex, &link, &err) == 0)
			p->up = oper_up(link.operstate);
		p->full_duplex = dport_full_duplex(p->name);
		p->speed_mbps = dport_speed(p->name);
	}
	return 0;
}

static void mark_reapply(struct mstd *d, unsigned int port);

/* Maps the VIDs that differ from the configuration, in ranges. */
int kernel_sync_vlans(struct mstd *d)
{
	struct mstnl_err err = { 0 };
	bool changed = false;

	d->vlans_dirty = false;
	memset(&d->kmap, 0, sizeof(d->kmap));
	if (mstnl_vlan_msti_get(d->nl, d->br_ifindex, &d->kmap, &err) < 0) {
		mstd_log(d, MSTP_LOG_ERR, "cannot read the VLANs of %s: %s",
			 d->conf.bridge, err.msg[0] ? err.msg : strerror(-err.code));
		if (!d->logf)
			fprintf(stderr, "mstd: cannot read the VLANs of %s\n",
				d->conf.bridge);
		return d->br ? 0 : -EIO;
	}
	for (unsigned int vid = 1; vid <= 4094; vid++) {
		uint16_t want = d->conf.vids.mstid[vid];
		unsigned int end = vid;

		if (!mstnl_vid_map_has(&d->kmap, (uint16_t)vid) ||
		    d->kmap.msti[vid] == want)
			continue;
		while (end < 4094 && mstnl_vid_map_has(&d->kmap, (uint16_t)(end + 1)) &&
		       d->conf.vids.mstid[end + 1] == want &&
		       d->kmap.msti[end + 1] != want)
			end++;
		if (mstnl_vlan_msti_set(d->nl, d->br_ifindex, (uint16_t)vid,
					(uint16_t)end, want, &err) < 0) {
			mstd_log(d, MSTP_LOG_ERR, "VLAN %u-%u -> MSTI %u refused: %s",
				 vid, end, want,
				 err.msg[0] ? err.msg : strerror(-err.code));
		} else {
			mstd_log(d, MSTP_LOG_INFO, "VLAN %u-%u mapped to MSTI %u (was %u)",
				 vid, end, want, d->kmap.msti[vid]);
			for (unsigned int v = vid; v <= end; v++)
				d->kmap.msti[v] = want;
			changed = true;
		}
		vid = end;
	}
	/* A VLAN moved into an MSTI takes whatever state: set ours again. */
	if (changed && d->br) {
		for (unsigned int i = 0; i < d->nports; i++)
			mark_reapply(d, i);
		kernel_commit_states(d);
	}
	return 0;
}

void kernel_set_state(struct mstd *d, unsigned int port, unsigned int slot,
		      uint8_t br_state)
{
	struct mstd_port *p = &d->ports[port];
	char tb[8];

	p->kstate[slot] = br_state;
	p->kdirty[slot] = p->ifindex > 0 && d->live;
	mstd_log(d, MSTP_LOG_DEBUG, "port %s tree %s: kernel state %s", p->name,
		 tree_name(d, slot, tb), mstnl_state_name(br_state));
}

static void mark_reapply(struct mstd *d, unsigned int port)
{
	struct mstd_port *p = &d->ports[port];

	if (p->ifindex <= 0)
		return;
	for (unsigned int slot = 0; slot <= d->conf.nmstis; slot++)
		if (p->kstate[slot] != KSTATE_UNSET && (slot || p->up))
			p->kdirty[slot] = true;
}

void kernel_reapply_states(struct mstd *d, unsigned int port)
{
	mark_reapply(d, port);
	kernel_commit_states(d);
}

static void refused(struct mstd *d, unsigned int port, unsigned int slot,
		    const struct mstnl_err *err)
{
	struct mstd_port *p = &d->ports[port];
	char tb[8];

	if (!err->code || (err->code == -ENETDOWN && !p->up))
		return;
	p->kernel_errors++;
	mstd_log(d, MSTP_LOG_ERR, "port %s tree %s: state %s refused: %s (%s)",
		 p->name, tree_name(d, slot, tb),
		 mstnl_state_name(p->kstate[slot]), err->msg,
		 strerror(-err->code));
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* One commit's requests: at most one per port per class of state. */
struct batch {
	struct mstnl_port_states *reqs;
	unsigned int *port;		/* per request */
	struct mstnl_msti_state *mstis;	/* nmstis per port, back to back */
	size_t n;
};

static void batch_add(struct mstd *d, struct batch *b, unsigned int port,
		      bool (*in_class)(uint8_t))
{
	struct mstd_port *p = &d->ports[port];
	struct mstnl_port_states *r = &b->reqs[b->n];
	struct mstnl_msti_state *m = &b->mstis[b->n * d->conf.nmstis];

	*r = (struct mstnl_port_states){ .ifindex = p->ifindex,
					 .cist = MSTNL_STATE_NONE, .mstis = m };
	for (unsigned int slot = 0; slot <= d->conf.nmstis; slot++) {
		if (!p->kdirty[slot] || !in_class(p->kstate[slot]))
			continue;
		p->kdirty[slot] = false;
		if (slot == 0)
			r->cist = p->kstate[0];
		else
			m[r->nmstis++] = (struct mstnl_msti_state){
				d->conf.mstids[slot - 1], p->kstate[slot] };
	}
	if (r->cist != MSTNL_STATE_NONE || r->nmstis)
		b->port[b->n++] = port;
}

static bool leaving(uint8_t st)
{
	return st != BR_STATE_LEARNING && st != BR_STATE_FORWARDING;
}

static bool learning(uint8_t st)
{
	return st == BR_STATE_LEARNING;
}

static bool forwarding(uint8_t st)
{
	return st == BR_STATE_FORWARDING;
}

/*
 * One netlink round trip for all of it, in an order that never opens a
 * loop: every port that stops forwarding, then the ones that learn, then
 * the ones that forward (the kernel applies a datagram's requests in turn).
 */
void kernel_commit_states(struct mstd *d)
{
	static bool (*const classes[])(uint8_t) = { leaving, learning,
						    forwarding };
	size_t max = 3 * (size_t)d->nports;
	struct batch b = { 0 };
	struct timespec t0;
	int rc;

	if (!d->live || !d->nports)
		return;
	b.reqs = calloc(max, sizeof(*b.reqs));
	b.port = calloc(max, sizeof(*b.port));
	b.mstis = calloc(max * (d->conf.nmstis + 1), sizeof(*b.mstis));
	if (!b.reqs || !b.port || !b.mstis) {
		mstd_log(d, MSTP_LOG_ERR, "no memory for port states");
		goto out;
	}
	for (size_t c = 0; c < 3; c++)
		for (unsigned int i = 0; i < d->nports; i++)
			if (d->ports[i].ifindex > 0)
				batch_add(d, &b, i, classes[c]);
	if (!b.n)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = mstnl_port_states_set(d->nl, b.reqs, b.n);
	/* How long the kernel took: a failover waits for it. */
	mstd_log(d, MSTP_LOG_DEBUG, "kernel: %zu port state requests in %.1f ms",
		 b.n, ms_since(&t0));
	if (rc == 0)
		goto out;
	for (size_t k = 0; k < b.n; k++) {
		const struct mstnl_port_states *r = &b.reqs[k];

		if (r->cist != MSTNL_STATE_NONE)
			refused(d, b.port[k], 0, &r->cist_err);
		for (size_t e = 0; e < r->nmstis; e++) {
			int slot = mstd_conf_tree(&d->conf, r->mstis[e].msti);

			if (slot > 0)
				refused(d, b.port[k], (unsigned int)slot,
					&r->msti_err);
		}
	}
out:
	free(b.reqs);
	free(b.port);
	free(b.mstis);
}

/*
 * A bulk delete only reaches the bridge's own FDB: on a switchdev port
 * (DSA, 6.1) the switch learnt the addresses itself and DSA passes on
 * deletes of user-added entries only. The one way to make the switch
 * forget an MSTI's addresses is DSA's per-MSTI fast age, which it does
 * when the port's state in that MSTI leaves learning/forwarding: so
 * the port goes to blocking and straight back, both in one request (one
 * RTNL section, so nothing runs in between but the two STU writes).
 * The CIST has no such path: its hardware fast age is the whole port's,
 * which would flush every MSTI, so CIST addresses are left to age out.
 */
static void switch_fast_age(struct mstd *d, unsigned int port, int mstid)
{
	struct mstd_port *p = &d->ports[port];
	struct mstnl_msti_state bounce[2];
	struct mstnl_err err = { 0 };
	unsigned int slot;
	int r;

	for (slot = 1; slot <= d->conf.nmstis; slot++)
		if (d->conf.mstids[slot - 1] == mstid)
			break;
	if (slot > d->conf.nmstis ||
	    (p->kstate[slot] != BR_STATE_LEARNING &&
	     p->kstate[slot] != BR_STATE_FORWARDING))
		return;	/* not learning: the switch holds nothing here */
	bounce[0] = (struct mstnl_msti_state){ (uint16_t)mstid,
					       BR_STATE_BLOCKING };
	bounce[1] = (struct mstnl_msti_state){ (uint16_t)mstid,
					       p->kstate[slot] };
	r = mstnl_port_msti_set(d->nl, p->ifindex, bounce, 2, &err);
	if (r < 0)
		p->kernel_errors++;
	mstd_log(d, MSTP_LOG_DEBUG, "port %s: switch fast age of MSTI %d%s",
		 p->name, mstid, r < 0 ? " (refused)" : "");
}

void kernel_flush(struct mstd *d, unsigned int port, int mstid)
{
	struct mstd_port *p = &d->ports[port];
	struct mstnl_err err = { 0 };
	unsigned int n = 0;
	struct timespec t0;
	int r;

	if (p->ifindex <= 0 || !d->live)
		return;
	p->flushes++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (mstid == MSTP_ALL_TREES) {
		r = mstnl_fdb_flush(d->nl, p->ifindex, 0, &err);
		if (r < 0)
			p->kernel_errors++;
		mstd_log(d, MSTP_LOG_DEBUG, "port %s: flushed every VLAN%s",
			 p->name, r < 0 ? " (refused)" : "");
		return;
	}
	/* One bulk delete per VID of the tree that exists on the bridge. */
	for (unsigned int vid = 1; vid <= 4094; vid++) {
		if (d->conf.vids.mstid[vid] != mstid ||
		    !mstnl_vid_map_has(&d->kmap, (uint16_t)vid))
			continue;
		r = mstnl_fdb_flush(d->nl, p->ifindex, (uint16_t)vid, &err);
		if (r < 0 && r != -ENOENT)
			p->kernel_errors++;
		n++;
	}
	mstd_log(d, MSTP_LOG_DEBUG, "port %s: flushed %u VLANs of MSTI %d in "
		 "%.1f ms", p->name, n, mstid, ms_since(&t0));
	if (mstid > 0 && dport_offloaded(p->name))
		switch_fast_age(d, port, mstid);
}

/* A BPDU that came just before the link-up: received now (early.h). */
static void early_bpdu_take_up(struct mstd *d, unsigned int i, bool up)
{
	struct mstd_port *p = &d->ports[i];
	size_t len = early_bpdu_take(&p->early, mstd_now_ms());

	if (!up || !len)
		return;
	p->rx_early++;
	mstd_log(d, MSTP_LOG_INFO, "port %s: a BPDU received before its "
		 "link-up, taken now", p->name);
	mstp_rx_bpdu(d->br, i, p->early.bpdu, len);
}

static void port_link(struct mstd *d, unsigned int i, bool up)
{
	struct mstd_port *p = &d->ports[i];

	if (p->up == up)
		return;
	p->up = up;
	if (up) {
		uint64_t mbps = dport_speed(p->name);

		p->full_duplex = dport_full_duplex(p->name);
		if (mbps != p->speed_mbps)
			mstd_log(d, MSTP_LOG_INFO, "port %s: speed %llu Mb/s",
				 p->name, (unsigned long long)mbps);
		p->speed_mbps = mbps;
		mstp_set_port_speed(d->br, i, mbps);
	}
	mstd_log(d, MSTP_LOG_INFO, "port %s: link %s", p->name,
		 up ? "up" : "down");
	mstp_port_set_link(d->br, i, up, p->full_duplex);
	early_bpdu_take_up(d, i, up);
}

static void port_detach(struct mstd *d, unsigned int i, const char *why)
{
	struct mstd_port *p = &d->ports[i];

	port_link(d, i, false);
	dport_close(d, i);
	p->ifindex = 0;
	mstd_log(d, MSTP_LOG_INFO, "port %s %s", p->name, why);
}

static int on_event(const struct mstnl_event *ev, void *data)
{
	struct mstd *d = data;
	int i = mstd_port_by_ifindex(d, ev->ifindex);

	switch (ev->type) {
	case MSTNL_EV_LINK:
		if (i < 0 && ev->ifname[0] && !ev->deleted &&
		    ev->master == d->br_ifindex) {
			i = mstd_port_by_name(d, ev->ifname);
			if (i >= 0)
				mstd_port_attach(d, (unsigned int)i,
						 ev->ifindex);
			else
				i = mstd_port_add(d, ev->ifname, ev->ifindex);
		}
		if (i < 0)
			break;
		if (ev->deleted) {
			port_detach(d, (unsigned int)i, "was deleted");
			break;
		}
		if (ev->master != d->br_ifindex) {
			port_detach(d, (unsigned int)i, "left the bridge");
			break;
		}
		port_link(d, (unsigned int)i, oper_up(ev->link.operstate));
		break;
	case MSTNL_EV_VLAN:
		if (ev->ifindex == d->br_ifindex)
			d->vlans_dirty = true;
		if (i >= 0 && !ev->deleted) {
			d->vlans_dirty = true;
			kernel_reapply_states(d, (unsigned int)i);
		} else if (i >= 0) {
			d->vlans_dirty = true;
		}
		break;
	case MSTNL_EV_VLAN_GLOBAL:
		if (ev->ifindex == d->br_ifindex)
			d->vlans_dirty = true;
		break;
	default:
		break;
	}
	return 0;
}

/* Lost notifications: ports that joined meanwhile, taken in once the
 * dump is over (taking one in talks to the kernel on the same socket). */
static void resync_ports(struct mstd *d)
{
	struct mstnl_err err = { 0 };
	struct scan *s = calloc(1, sizeof(*s));

	if (!s)
		return;
	s->d = d;
	if (mstnl_port_dump(d->nl, scan_cb, s, &err) == 0)
		for (unsigned int k = 0; k < s->n; k++) {
			int i = mstd_port_by_name(d, s->found[k].name);

			if (i < 0)
				mstd_port_add(d, s->found[k].name,
					      s->found[k].ifindex);
			else if (d->ports[i].ifindex != s->found[k].ifindex)
				mstd_port_attach(d, (unsigned int)i,
						 s->found[k].ifindex);
		}
	free(s);
}

void kernel_monitor(struct mstd *d)
{
	int r = mstnl_monitor_read(d->mon, on_event, d);

	if (r == -ENOBUFS) {
		/* Lost notifications: read the carrier of every port again. */
		mstd_log(d, MSTP_LOG_INFO, "notifications lost: resynchronising");
		resync_ports(d);
		for (unsigned int i = 0; i < d->nports; i++) {
			struct mstnl_link link;
			struct mstnl_err err = { 0 };

			if (d->ports[i].ifindex <= 0)
				continue;
			if (mstnl_link_get(d->nl, d->ports[i].ifindex, &link,
					   &err) == 0)
				port_link(d, i, oper_up(link.operstate) &&
					  link.master == d->br_ifindex);
		}
		d->vlans_dirty = true;
	}
	if (d->vlans_dirty)
		kernel_sync_vlans(d);
}
