// SPDX-License-Identifier: MIT
/*
 * Port Role Selection (13.36) with updtRolesTree (13.29.31): root path
 * priority vectors with external/internal path costs, the CIST regional
 * root, and the roles of every port of one tree.
 */
#include "mstp_int.h"

#include <stdio.h>
#include <string.h>

static uint32_t add_cost(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

static bool own_mac(const struct mstp_bridge *br, const struct bridge_id *id)
{
	return memcmp(id->mac, br->cfg.mac, 6) == 0;
}

static void fmt_bid(char *out, size_t n, const struct bridge_id *id)
{
	snprintf(out, n, "%04x.%02x%02x%02x%02x%02x%02x", id->prio,
		 id->mac[0], id->mac[1], id->mac[2], id->mac[3], id->mac[4],
		 id->mac[5]);
}

static void log_role(struct mstp_bridge *br, const struct mstp_pt *pt,
		     enum mstp_role old)
{
	char root[32], rroot[32], dbr[32];
	bool rcvd = pt->info_is == INFO_RECEIVED;
	/* The vector that decided: what the port heard, or what it sends. */
	const struct mstp_prio *v = rcvd ? &pt->port_prio :
					   &pt->designated_prio;

	fmt_bid(root, sizeof(root), &v->root);
	fmt_bid(rroot, sizeof(rroot), &v->rroot);
	fmt_bid(dbr, sizeof(dbr), &v->dbridge);
	mstp_logf(br, MSTP_LOG_INFO,
		  "port %u mst %u: %s -> %s (%s vector: root %s erc %u "
		  "rroot %s irc %u dbridge %s dport %04x)",
		  pt->port, br->trees[pt->tree].mstid, mstp_role_name(old),
		  mstp_role_name(pt->selected_role),
		  rcvd ? "received" : "designated", root, v->ext_cost, rroot,
		  v->int_cost, dbr, v->dport);
}

/*
 * A Boundary Port: the bridge runs RSTP or STP (every port is then one),
 * the port talks STP, or what it last heard came from outside the region
 * (13.29.13 rcvdInternal; infoInternal while it holds received CIST
 * information).  updtRolesTree (13.29.31) names only the received case,
 * but a Designated Port towards another region is a Boundary Port too:
 * there as well the MSTIs take the CIST's role and state (13.13 f).
 */
bool mstp_boundary(const struct mstp_bridge *br, const struct mstp_port *p)
{
	const struct mstp_pt *c = &br->pts[p->index * br->ntrees];

	if (br->cfg.force_version < MSTP_FORCE_MSTP || !p->send_rstp)
		return true;
	if (c->info_is == INFO_RECEIVED)
		return !p->info_internal;
	return p->rx_seen && !p->rcvd_internal;
}

static bool is_boundary(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return mstp_boundary(br, PORT(br, pt));
}

/*
 * 13.29.26 syncMaster: the CIST regional root changed while the region
 * is (or was) reached from outside: every MSTI re-syncs its internal
 * ports.  And takes no agreement still on its way from before.
 */
static void sync_master(struct mstp_bridge *br)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		if (!br->ports[i].info_internal)
			continue;
		for (unsigned int t = 1; t < br->ntrees; t++) {
			struct mstp_pt *pt = PT(br, i, t);

			pt->agree = pt->agreed = pt->synced = false;
			pt->sync = true;
			mstp_hold_agreements(br, pt);
		}
	}
}

/* The root priority a message's vector carries: all but the Designated
 * Bridge and Port, and the receiving port. */
static bool same_root(const struct mstp_prio *a, const struct mstp_prio *b)
{
	return bridge_id_cmp(&a->root, &b->root) == 0 &&
	       a->ext_cost == b->ext_cost &&
	       bridge_id_cmp(&a->rroot, &b->rroot) == 0 &&
	       a->int_cost == b->int_cost;
}

/* c) of stale(). */
static bool contradicted(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		const struct mstp_port *q = &br->ports[i];

		if (q->last_heard > pt->heard && q->port_enabled &&
		    !own_mac(br, &q->last_sender) &&
		    !memcmp(q->last_sender.mac, pt->sender.mac, 6) &&
		    !same_root(&q->last_msg, &pt->port_prio))
			return true;
	}
	return false;
}

/*
 * Stale CIST information from inside the region, which updtRolesTree
 * neither takes for a root path nor leaves on an Alternate Port: the port
 * is Designated, as if the information had aged, so the neighbour hears
 * the truth at once instead of when the stale copies run out of
 * remainingHops.  13.29.31 has no such case; it is what keeps a region
 * from counting to infinity when its way out fails (the CIST Regional
 * Root re-election is then bounded: lab/mstd/README.md, "Loop freedom
 * beyond clause 13"):
 *
 *  a) Information naming this bridge as the Regional Root was derived
 *     from it (like a vector from the bridge itself, 13.29.31 b): this
 *     bridge knows its own way out better.
 *  b) Information naming the same Regional Root as what the Root Port
 *     holds now, but another CIST Root or External Root Path Cost: the
 *     Regional Root changed its mind, and the news came down the tree to
 *     the Root Port first; the other ports hold what it said before.
 *
 * And from inside the region or not:
 *
 *  c) Information its sender has since contradicted: a later message of
 *     the same bridge (on this port or another, parallel, link) carries
 *     another root priority - a bridge has one at a time.  A moment
 *     later the sender replaces it here too, or ages; meanwhile it is
 *     not a root path.
 *
 * @auth is what the Root Port (before this selection) holds, if it holds
 * received information from inside the region.
 */
static bool stale(struct mstp_bridge *br, const struct mstp_pt *pt,
		  const struct mstp_pt *auth)
{
	const struct mstp_prio *v = &pt->port_prio;

	if (pt->tree || pt->info_is != INFO_RECEIVED ||
	    own_mac(br, &v->dbridge))
		return false;
	if (contradicted(br, pt))
		return true;
	if (!PORT(br, pt)->info_internal)
		return false;
	if (own_mac(br, &v->rroot))
		return true;
	return auth && auth != pt &&
	       bridge_id_cmp(&v->rroot, &auth->port_prio.rroot) == 0 &&
	       (bridge_id_cmp(&v->root, &auth->port_prio.root) != 0 ||
		v->ext_cost != auth->port_prio.ext_cost);
}

/* The Root Port's information, as the authority for stale(). */
static const struct mstp_pt *root_port_info(struct mstp_bridge *br,
					    const struct mstp_tree *t)
{
	const struct mstp_pt *rp;

	if (t->index || t->root_port < 0)
		return NULL;
	rp = PT(br, (unsigned int)t->root_port, 0);
	if (rp->info_is != INFO_RECEIVED ||
	    !br->ports[t->root_port].info_internal)
		return NULL;
	return rp;
}

/* Root, External Root Path Cost, Regional Root, Internal Root Path Cost:
 * is @now worse than @before? */
static bool root_path_worse(const struct mstp_prio *now,
			    const struct mstp_prio *before)
{
	struct mstp_prio a = *now, b = *before;

	a.dbridge = b.dbridge;
	a.dport = b.dport;
	a.rport = b.rport;
	return mstp_prio_cmp(&a, &b) > 0;
}

/*
 * Not in 13.29.31: the root path got worse (the Root Port failed, or its
 * information did) and now comes from a port - worse than before, or
 * than the best from a port in the last two ticks (the bridge may have
 * been its own root for a moment in between).  13.37 lets the new Root
 * Port forward at once and the Designated Ports go on; but where the
 * better path is gone, what an Alternate Port held may have come round
 * from this bridge's own subtree (counting to infinity), and the
 * Designated Ports' agreements were given to the better information.
 * So they sync, as for a proposal (setSyncTree): each discards unless it
 * is agreed again for the worse information, which its neighbour gives
 * once it took it - so no cycle of stale Root Ports forwards all round.
 * Where the root priority changed (@changed), the agreements go too:
 * they answered the earlier information.  UPDATE (13.35) keeps one where
 * the new information is better than what the port sent last, which it
 * is when the bridge was its own root (or took a worse path) for a
 * moment - yet worse than its recent best: stale information that came
 * round, and the neighbour agreed to the other.
 */
static void sync_tree(struct mstp_bridge *br, const struct mstp_tree *t,
		      bool changed)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_pt *pt = PT(br, i, t->index);

		pt->sync = true;
		if (changed)
			pt->agreed = false;
	}
}

/* The root path priority vector through @pt (13.10, 13.11), if its
 * information may be one. */
static bool root_path(struct mstp_bridge *br, const struct mstp_pt *pt,
		      struct mstp_prio *v)
{
	const struct mstp_port *p = PORT(br, pt);
	const struct mstp_tree *t = &br->trees[pt->tree];

	if (pt->info_is != INFO_RECEIVED ||
	    own_mac(br, &pt->port_prio.dbridge) || pt->stale)
		return false;
	/* MSTI information is only used from inside the region. */
	if (t->index && is_boundary(br, pt))
		return false;
	*v = pt->port_prio;
	v->rport = pt->port_id;
	if (!t->index && !p->info_internal) {
		v->ext_cost = add_cost(v->ext_cost, p->ext_path_cost);
		v->rroot = t->bridge_id;
		v->int_cost = 0;
	} else {
		v->int_cost = add_cost(v->int_cost, pt->int_path_cost);
	}
	return true;
}

/* 13.29.31 updtRolesTree */
static void updt_roles_tree(struct mstp_bridge *br, struct mstp_tree *t)
{
	bool cist = t->index == 0;
	struct mstp_prio root = t->bridge_prio;
	struct mstp_prio old_root = t->root_prio;
	const struct mstp_pt *auth = root_port_info(br, t);
	int root_port = -1;

	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_pt *pt = PT(br, i, t->index);
		struct mstp_prio v;

		pt->stale = stale(br, pt, auth);
		pt->root_inconsistent = false;
		if (!root_path(br, pt, &v))
			continue;
		/* restrictedRole (root guard): never the Root Port. */
		if (br->ports[i].restricted_role)
			continue;
		if (mstp_prio_cmp(&v, &root) < 0) {
			root = v;
			root_port = (int)i;
		}
	}
	/* What root guard keeps out, for management to see. */
	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_pt *pt = PT(br, i, t->index);
		struct mstp_prio v;

		if (br->ports[i].restricted_role && root_path(br, pt, &v))
			pt->root_inconsistent = mstp_prio_cmp(&v, &root) < 0;
	}
	if (root_port != t->root_port)
		mstp_logf(br, MSTP_LOG_INFO, "mst %u: root port %d -> %d",
			  t->mstid, t->root_port, root_port);
	t->root_port = root_port;
	t->root_prio = root;
	t->root_prio.rport = 0;
	if (root_port < 0) {
		t->root_times = t->bridge_times;
	} else {
		struct mstp_pt *rp = PT(br, (unsigned int)root_port, t->index);

		t->root_times = rp->port_times;
		t->root_times.hello = MSTP_HELLO_TIME;
		if (cist && !br->ports[root_port].info_internal) {
			/* 13.29.31 c; the region's own count starts here
			 * (see cist_msg() in mstp_rx.c). */
			t->root_times.msg_age++;
			t->root_times.hops = br->cfg.max_hops;
		} else {
			t->root_times.hops = rp->port_times.hops ?
					     rp->port_times.hops - 1 : 0;
		}
		if (!cist) {
			const struct mstp_times *ct =
				&br->trees[0].root_times;

			t->root_times.msg_age = ct->msg_age;
			t->root_times.max_age = ct->max_age;
			t->root_times.fwd_delay = ct->fwd_delay;
		}
	}

	if (cist && bridge_id_cmp(&old_root.rroot, &root.rroot) != 0 &&
	    (old_root.ext_cost || root.ext_cost)) {
		sync_master(br);
		/* Now the Regional Root, with a way out: the Master Ports
		 * wait for the old Regional Root's to stop (mstp_prt.c). */
		if (root_port >= 0 && !br->ports[root_port].info_internal)
			br->master_hold = MSTP_HOLD_TICKS;
	}
	if (root_port >= 0 &&
	    (root_path_worse(&root, &old_root) ||
	     (t->best_ttl && root_path_worse(&root, &t->best_recent))))
		sync_tree(br, t, !same_root(&root, &old_root));
	if (root_port >= 0 &&
	    (!t->best_ttl || !root_path_worse(&root, &t->best_recent))) {
		t->best_recent = root;
		t->best_ttl = MSTP_HOLD_TICKS;
	}

	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_pt *pt = PT(br, i, t->index);
		enum mstp_role old = pt->selected_role;
		bool differs;

		pt->designated_prio = t->root_prio;
		pt->designated_prio.dbridge = t->bridge_id;
		pt->designated_prio.dport = pt->port_id;
		/* 13.9: towards STP bridges this bridge is its own region. */
		if (cist && !br->ports[i].send_rstp)
			pt->designated_prio.rroot = t->bridge_id;
		pt->designated_times = t->root_times;
		differs = mstp_prio_cmp(&pt->port_prio,
					&pt->designated_prio) != 0 ||
			  !mstp_times_equal(&pt->port_times,
					    &pt->designated_times);

		if (pt->info_is == INFO_DISABLED) {
			pt->selected_role = MSTP_ROLE_DISABLED;
		} else if (!cist && is_boundary(br, pt)) {
			/* 13.29.31 f, g; and likewise for the other roles
			 * (13.13 f): the MSTIs follow the CIST here. */
			enum mstp_role cr = CIST(br, pt)->selected_role;

			pt->selected_role = cr == MSTP_ROLE_ROOT ?
					    MSTP_ROLE_MASTER : cr;
			pt->updt_info = differs;
		} else if (pt->info_is == INFO_AGED || pt->stale) {
			pt->selected_role = MSTP_ROLE_DESIGNATED;
			pt->updt_info = true;
		} else if (pt->info_is == INFO_MINE) {
			pt->selected_role = MSTP_ROLE_DESIGNATED;
			if (differs)
				pt->updt_info = true;
		} else if ((int)i == root_port) {
			pt->selected_role = MSTP_ROLE_ROOT;
			pt->updt_info = false;
		} else if (mstp_prio_cmp(&pt->designated_prio,
					 &pt->port_prio) >= 0) {
			pt->selected_role =
				own_mac(br, &pt->port_prio.dbridge) ?
				MSTP_ROLE_BACKUP : MSTP_ROLE_ALTERNATE;
			pt->updt_info = false;
		} else {
			pt->selected_role = MSTP_ROLE_DESIGNATED;
			pt->updt_info = true;
		}
		if (pt->selected_role != old)
			log_role(br, pt, old);
		if (old == MSTP_ROLE_DESIGNATED &&
		    pt->selected_role != MSTP_ROLE_DESIGNATED)
			pt->desig_left = MSTP_HOLD_TICKS;
	}
}

bool mstp_prs(struct mstp_bridge *br, struct mstp_tree *t)
{
	bool reselect = false;

	if (br->begin) {
		/* INIT_TREE: updtRolesDisabledTree() */
		for (unsigned int i = 0; i < br->nports; i++)
			PT(br, i, t->index)->selected_role =
				MSTP_ROLE_DISABLED;
		t->prs_begun = true;
		return false;
	}
	for (unsigned int i = 0; i < br->nports && !reselect; i++)
		reselect = PT(br, i, t->index)->reselect;
	if (!reselect && !t->prs_begun)
		return false;
	t->prs_begun = false;
	/* ROLE_SELECTION: clearReselectTree, updtRolesTree, setSelected */
	for (unsigned int i = 0; i < br->nports; i++)
		PT(br, i, t->index)->reselect = false;
	updt_roles_tree(br, t);
	for (unsigned int i = 0; i < br->nports; i++)
		PT(br, i, t->index)->selected = true;
	/* MSTI roles at boundary ports follow the CIST roles. */
	if (t->index == 0)
		for (unsigned int m = 1; m < br->ntrees; m++)
			for (unsigned int i = 0; i < br->nports; i++)
				PT(br, i, m)->reselect = true;
	return true;
}
