// SPDX-License-Identifier: MIT
/*
 * Receive side: Port Receive (13.31), Port Protocol Migration (13.32),
 * Bridge Detection (13.33) and Port Information (13.35) with the
 * procedures they call (13.29: rcvInfo, recordProposal, ...).
 */
#include "mstp_int.h"

#include <string.h>

static bool mac_equal(const struct bridge_id *a, const struct bridge_id *b)
{
	return memcmp(a->mac, b->mac, 6) == 0;
}

/* Whole seconds from 1/256 s, rounded (13.29.20 uses whole seconds). */
static unsigned int secs(uint16_t t256)
{
	return (t256 + 128u) / 256u;
}

/* ---- Port Receive ------------------------------------------------------ */

static bool from_same_region(struct mstp_bridge *br, struct mstp_port *p)
{
	return br->cfg.force_version >= MSTP_FORCE_MSTP && p->rcvd_rstp &&
	       p->rx.type == BPDU_TYPE_MST &&
	       mst_config_id_equal(&p->rx.mcid, &br->cfg.mcid);
}

static void update_bpdu_version(struct mstp_port *p)
{
	if (p->rx.type == BPDU_TYPE_CONFIG || p->rx.type == BPDU_TYPE_TCN)
		p->rcvd_stp = true;
	else
		p->rcvd_rstp = true;
}

/* The CIST message priority vector and times of the received BPDU. */
static void cist_msg(struct mstp_bridge *br, struct mstp_port *p,
		     struct mstp_pt *pt)
{
	const struct bpdu *b = &p->rx;

	memset(&pt->msg_prio, 0, sizeof(pt->msg_prio));
	memset(&pt->msg_times, 0, sizeof(pt->msg_times));
	memset(&pt->msg_flags, 0, sizeof(pt->msg_flags));
	if (b->type == BPDU_TYPE_TCN)
		return;
	pt->msg_prio.root = b->root_id;
	pt->msg_prio.ext_cost = b->ext_root_path_cost;
	pt->msg_prio.rroot = b->regional_root_id;
	pt->msg_prio.dbridge = b->bridge_id;
	pt->msg_prio.dport = b->port_id;
	pt->msg_times.msg_age = secs(b->message_age);
	pt->msg_times.max_age = secs(b->max_age);
	pt->msg_times.fwd_delay = secs(b->forward_delay);
	pt->msg_times.hello = secs(b->hello_time);
	if (b->type == BPDU_TYPE_MST) {
		pt->msg_prio.int_cost = b->int_root_path_cost;
		pt->msg_times.hops = b->remaining_hops;
	}
	if (!p->rcvd_internal) {
		/* 13.9: from outside the region no internal cost counts. Hops
		 * restart at this bridge's MaxHops, as 13.27.40 says for an
		 * RST or STP BPDU, also for another region's MST BPDU: its
		 * count is that region's (13.29.31 c, 13.29.36;
		 * docs/design/mstd.md). The Designated Bridge stays the
		 * sender's CIST Bridge Identifier: 13.10 NOTE 1 takes the
		 * Regional Root field for it only in an RST or STP BPDU,
		 * where the decoder has already put the one Bridge Identifier
		 * there is into both. So a tie between two links into one
		 * other region goes to the better sending bridge, as in
		 * mstpd. */
		pt->msg_prio.int_cost = 0;
		pt->msg_times.hops = br->cfg.max_hops;
	}
	pt->msg_flags = b->flags;
	if (b->type == BPDU_TYPE_CONFIG) {
		/* Only TC and TC Ack exist; the role is implicitly
		 * Designated (17.21.8 note). */
		pt->msg_flags = (struct bpdu_flags){
			.tc = b->flags.tc, .tc_ack = b->flags.tc_ack,
			.role = BPDU_ROLE_DESIGNATED,
		};
	}
}

static void msti_msg(struct mstp_port *p, struct mstp_pt *pt,
		     const struct bpdu_msti *m)
{
	const struct bpdu *b = &p->rx;

	memset(&pt->msg_prio, 0, sizeof(pt->msg_prio));
	memset(&pt->msg_times, 0, sizeof(pt->msg_times));
	pt->msg_prio.rroot = m->regional_root;
	pt->msg_prio.int_cost = m->int_root_path_cost;
	pt->msg_prio.dbridge.prio = (uint16_t)(bpdu_msti_bridge_prio(m) |
					       bpdu_msti_mstid(m));
	memcpy(pt->msg_prio.dbridge.mac, b->bridge_id.mac, 6);
	pt->msg_prio.dport = port_id_make(bpdu_msti_port_prio(m),
					  PORT_ID_NUM(b->port_id));
	pt->msg_times.hops = m->remaining_hops;
	pt->msg_flags = m->flags;
}

/* 13.29.x setRcvdMsgs */
static void set_rcvd_msgs(struct mstp_bridge *br, struct mstp_port *p)
{
	struct mstp_pt *cist = PT(br, p->index, 0);

	cist_msg(br, p, cist);
	cist->rcvd_msg = true;
	if (!p->rcvd_internal)
		return;
	for (unsigned int i = 0; i < p->rx.msti_count; i++) {
		const struct bpdu_msti *m = &p->rx.msti[i];
		int t = mstp_tree_index(br, bpdu_msti_mstid(m));

		if (t <= 0)
			continue;	/* not an MSTI of ours */
		msti_msg(p, PT(br, p->index, (unsigned int)t), m);
		PT(br, p->index, (unsigned int)t)->rcvd_msg = true;
	}
}

static void clear_all_rcvd_msgs(struct mstp_bridge *br, struct mstp_port *p)
{
	for (unsigned int t = 0; t < br->ntrees; t++)
		PT(br, p->index, t)->rcvd_msg = false;
}

static bool rcvd_any_msg(struct mstp_bridge *br, struct mstp_port *p)
{
	for (unsigned int t = 0; t < br->ntrees; t++)
		if (PT(br, p->index, t)->rcvd_msg)
			return true;
	return false;
}

static void prx_enter(struct mstp_bridge *br, struct mstp_port *p,
		      enum prx_state s)
{
	bool boundary;

	p->prx = s;
	if (s == PRX_DISCARD) {
		p->rcvd_bpdu = p->rcvd_rstp = p->rcvd_stp = false;
		p->rx_seen = p->nbr_known = false;
		clear_all_rcvd_msgs(br, p);
		p->edge_delay_while = MSTP_MIGRATE_TIME;
		return;
	}
	update_bpdu_version(p);
	boundary = mstp_boundary(br, p);
	p->rx_seen = true;
	/* The neighbour speaks again: loop guard lets go (mstp_bridge.c). */
	for (unsigned int t = 0; t < br->ntrees; t++)
		PT(br, p->index, t)->loop_inconsistent = false;
	p->rcvd_internal = from_same_region(br, p);
	if (p->rx.type != BPDU_TYPE_TCN) {
		p->nbr_known = true;
		p->nbr_rroot = p->rx.regional_root_id;
		p->nbr_ext_cost = p->rx.ext_root_path_cost;
	}
	set_rcvd_msgs(br, p);
	if (p->rx.type != BPDU_TYPE_TCN) {
		p->last_sender = p->rx.bridge_id;
		p->last_msg = PT(br, p->index, 0)->msg_prio;
		p->last_heard = ++br->rx_seq;
	}
	/* The MSTI roles here follow the CIST's at a Boundary Port only. */
	if (mstp_boundary(br, p) != boundary)
		for (unsigned int t = 1; t < br->ntrees; t++)
			PT(br, p->index, t)->reselect = true;
	p->oper_edge = p->rcvd_bpdu = false;
	p->edge_delay_while = MSTP_MIGRATE_TIME;
}

bool mstp_prx(struct mstp_bridge *br, struct mstp_port *p)
{
	if (port_begin(br, p)) {
		prx_enter(br, p, PRX_DISCARD);
		return false;
	}
	if ((p->rcvd_bpdu || p->edge_delay_while != MSTP_MIGRATE_TIME) &&
	    !p->port_enabled) {
		prx_enter(br, p, PRX_DISCARD);
		return true;
	}
	if (p->rcvd_bpdu && p->port_enabled &&
	    (p->prx == PRX_DISCARD || !rcvd_any_msg(br, p))) {
		prx_enter(br, p, PRX_RECEIVE);
		return true;
	}
	return false;
}

/* ---- Port Protocol Migration ------------------------------------------- */

static void ppm_enter(struct mstp_bridge *br, struct mstp_port *p,
		      enum ppm_state s)
{
	bool was_rstp = p->send_rstp;

	p->ppm = s;
	switch (s) {
	case PPM_CHECKING_RSTP:
		p->mcheck = false;
		p->send_rstp = rstp_version(br);
		p->mdelay_while = MSTP_MIGRATE_TIME;
		break;
	case PPM_SENSING:
		p->rcvd_rstp = p->rcvd_stp = false;
		break;
	case PPM_SELECTING_STP:
		p->send_rstp = false;
		p->mdelay_while = MSTP_MIGRATE_TIME;
		mstp_logf(br, MSTP_LOG_INFO,
			  "port %u: STP BPDU received, sending STP BPDUs",
			  p->index);
		break;
	}
	/* The CIST designated vector depends on sendRSTP (13.9). */
	if (p->send_rstp != was_rstp)
		PT(br, p->index, 0)->reselect = true;
}

bool mstp_ppm(struct mstp_bridge *br, struct mstp_port *p)
{
	if (port_begin(br, p)) {
		ppm_enter(br, p, PPM_CHECKING_RSTP);
		return false;
	}
	switch (p->ppm) {
	case PPM_CHECKING_RSTP:
		if (p->mdelay_while != MSTP_MIGRATE_TIME && !p->port_enabled) {
			ppm_enter(br, p, PPM_CHECKING_RSTP);
			return true;
		}
		if (p->mdelay_while == 0) {
			ppm_enter(br, p, PPM_SENSING);
			return true;
		}
		return false;
	case PPM_SENSING:
		if (!p->port_enabled || p->mcheck ||
		    (rstp_version(br) && !p->send_rstp && p->rcvd_rstp)) {
			ppm_enter(br, p, PPM_CHECKING_RSTP);
			return true;
		}
		if (p->send_rstp && p->rcvd_stp) {
			ppm_enter(br, p, PPM_SELECTING_STP);
			return true;
		}
		return false;
	case PPM_SELECTING_STP:
		if (p->mdelay_while == 0 || !p->port_enabled || p->mcheck) {
			ppm_enter(br, p, PPM_SENSING);
			return true;
		}
		return false;
	}
	return false;
}

/* ---- Bridge Detection -------------------------------------------------- */

bool mstp_bdm(struct mstp_bridge *br, struct mstp_port *p)
{
	if (port_begin(br, p)) {
		p->bdm = p->admin_edge ? BDM_EDGE : BDM_NOT_EDGE;
		p->oper_edge = p->admin_edge;
		return false;
	}
	if (p->bdm == BDM_EDGE) {
		if ((!p->port_enabled && !p->admin_edge) || !p->oper_edge) {
			p->bdm = BDM_NOT_EDGE;
			p->oper_edge = false;
			return true;
		}
		return false;
	}
	if ((!p->port_enabled && p->admin_edge) ||
	    (p->edge_delay_while == 0 && p->auto_edge && p->send_rstp &&
	     PT(br, p->index, 0)->proposing)) {
		p->bdm = BDM_EDGE;
		p->oper_edge = true;
		return true;
	}
	return false;
}

/* ---- Port Information -------------------------------------------------- */

static bool betterorsame_info(struct mstp_pt *pt, enum mstp_info_is new_is)
{
	if (new_is == INFO_RECEIVED && pt->info_is == INFO_RECEIVED)
		return mstp_prio_cmp(&pt->msg_prio, &pt->port_prio) <= 0;
	if (new_is == INFO_MINE && pt->info_is == INFO_MINE)
		return mstp_prio_cmp(&pt->designated_prio,
				     &pt->port_prio) <= 0;
	return false;
}

/* Received Hello Time is ignored (13.29.20), so not compared. */
static bool times_differ(const struct mstp_pt *pt)
{
	const struct mstp_times *m = &pt->msg_times, *t = &pt->port_times;

	if (pt->tree != 0)
		return m->hops != t->hops;
	return m->msg_age != t->msg_age || m->max_age != t->max_age ||
	       m->fwd_delay != t->fwd_delay || m->hops != t->hops;
}

/* 13.29.13 rcvInfo */
static enum mstp_rcvd_info rcv_info(struct mstp_bridge *br,
				    struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	const struct mstp_prio *msg = &pt->msg_prio, *prt = &pt->port_prio;
	int cmp;

	if (pt->tree == 0 && p->rx.type == BPDU_TYPE_TCN) {
		p->rcvd_tcn = true;
		for (unsigned int t = 1; t < br->ntrees; t++)
			PT(br, p->index, t)->rcvd_tc = true;
		return OTHER_INFO;
	}
	cmp = mstp_prio_cmp(msg, prt);
	switch (pt->msg_flags.role) {
	case BPDU_ROLE_DESIGNATED: {
		/* Superior: better, or a change from the same port (13.10).
		 * The Designated Bridge is the sender's, from another region
		 * too (cist_msg()), so a region that re-elects its Regional
		 * Root is still the same transmitter here. */
		bool same_tx = PORT_ID_NUM(msg->dport) ==
			       PORT_ID_NUM(prt->dport) &&
			       mac_equal(&msg->dbridge, &prt->dbridge);

		if (cmp < 0 || (same_tx && cmp != 0))
			return SUPERIOR_DESIGNATED;
		if (cmp == 0) {
			/* A neighbour that changed region is new info. */
			if (pt->tree == 0 && pt->info_is == INFO_RECEIVED &&
			    p->info_internal != p->rcvd_internal)
				return SUPERIOR_DESIGNATED;
			if (times_differ(pt))
				return SUPERIOR_DESIGNATED;
			if (pt->info_is == INFO_RECEIVED)
				return REPEATED_DESIGNATED;
		}
		return INFERIOR_DESIGNATED;
	}
	case BPDU_ROLE_ROOT:
	case BPDU_ROLE_ALT_BACKUP:
		if (cmp >= 0)
			return INFERIOR_ROOT_ALTERNATE;
		return OTHER_INFO;
	default:
		return OTHER_INFO;
	}
}

static void for_each_msti(struct mstp_bridge *br, struct mstp_pt *pt,
			  void (*fn)(struct mstp_pt *msti,
				     const struct mstp_pt *cist))
{
	for (unsigned int t = 1; t < br->ntrees; t++)
		fn(PT(br, pt->port, t), pt);
}

static void copy_proposed(struct mstp_pt *m, const struct mstp_pt *c)
{
	m->proposed = c->proposed;
}

static void copy_agreed(struct mstp_pt *m, const struct mstp_pt *c)
{
	m->agreed = c->agreed;
	m->proposing = c->proposing;
}

static void set_disputed(struct mstp_pt *m, const struct mstp_pt *c)
{
	(void)c;
	m->disputed = true;
	m->agreed = false;
}

static void set_rcvd_tc(struct mstp_pt *m, const struct mstp_pt *c)
{
	(void)c;
	m->rcvd_tc = true;
}

static void clear_mastered(struct mstp_pt *m, const struct mstp_pt *c)
{
	(void)c;
	m->mastered = false;
}

/* 13.29.14 recordProposal */
static void record_proposal(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (pt->msg_flags.role != BPDU_ROLE_DESIGNATED ||
	    !pt->msg_flags.proposal)
		return;
	pt->proposed = true;
	if (pt->tree == 0 && !PORT(br, pt)->rcvd_internal)
		for_each_msti(br, pt, copy_proposed);
}

/*
 * Not in 13.29.11: a CIST Root Port message agrees to what this port
 * sends only if its root path comes from it: the same root (and, from
 * inside the region, the same External Root Path Cost and Regional
 * Root), at a cost no lower.  13.29.11 checks this for the MSTIs (their
 * message's CIST root and region), not for the CIST.  Where this
 * bridge's root changed (counting to infinity: it named itself the root
 * for a moment, then took stale information back), an agreement the
 * neighbour gave its earlier information may still arrive after
 * sync_tree() (mstp_roles.c) cleared agreed, and let this port forward
 * into a neighbour whose Root Port leads round back to this bridge.
 */
static bool agrees_to_mine(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	const struct mstp_prio *m = &pt->msg_prio, *mine = &pt->port_prio;

	if (pt->msg_flags.role != BPDU_ROLE_ROOT || pt->info_is != INFO_MINE)
		return true;
	if (bridge_id_cmp(&m->root, &mine->root) != 0)
		return false;
	if (!PORT(br, pt)->rcvd_internal)
		return m->ext_cost >= mine->ext_cost;
	return m->ext_cost == mine->ext_cost &&
	       bridge_id_cmp(&m->rroot, &mine->rroot) == 0 &&
	       m->int_cost >= mine->int_cost;
}

/* 13.29.11 recordAgreement */
static void record_agreement(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);

	if (pt->tree == 0) {
		if (rstp_version(br) && p->oper_p2p && !pt->agree_hold &&
		    pt->msg_flags.agreement && agrees_to_mine(br, pt)) {
			pt->agreed = true;
			pt->proposing = false;
		} else {
			pt->agreed = false;
		}
		if (!p->rcvd_internal)
			for_each_msti(br, pt, copy_agreed);
		return;
	}
	const struct mstp_pt *c = CIST(br, pt);
	/* The accompanying CIST message must agree on root and region. */
	bool same_cist = bridge_id_cmp(&c->msg_prio.root,
				       &c->port_prio.root) == 0 &&
			 c->msg_prio.ext_cost == c->port_prio.ext_cost &&
			 bridge_id_cmp(&c->msg_prio.rroot,
				       &c->port_prio.rroot) == 0;

	if (p->oper_p2p && same_cist && !pt->agree_hold &&
	    pt->msg_flags.agreement) {
		pt->agreed = true;
		pt->proposing = false;
	} else {
		pt->agreed = false;
	}
}

/* 13.29.10 recordDispute */
static void record_dispute(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (!pt->msg_flags.learning)
		return;
	pt->disputed = true;
	pt->agreed = false;
	if (pt->tree == 0 && !PORT(br, pt)->rcvd_internal)
		for_each_msti(br, pt, set_disputed);
}

/* 13.29.12 recordMastered */
static void record_mastered(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);

	if (pt->tree == 0) {
		if (!p->rcvd_internal)
			for_each_msti(br, pt, clear_mastered);
		return;
	}
	pt->mastered = p->oper_p2p && pt->msg_flags.master;
}

/* 13.29.24 setTcFlags */
static void set_tc_flags(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);

	if (pt->tree != 0) {
		if (pt->msg_flags.tc)
			pt->rcvd_tc = true;
		return;
	}
	if (pt->msg_flags.tc_ack && p->rx.type == BPDU_TYPE_CONFIG)
		p->rcvd_tc_ack = true;
	if (pt->msg_flags.tc) {
		pt->rcvd_tc = true;
		/* A TC from outside the region reaches every MSTI. */
		if (!p->rcvd_internal)
			for_each_msti(br, pt, set_rcvd_tc);
	}
}

/* 13.29.16/13.29.20 recordPriority, recordTimes */
static void record_priority_times(struct mstp_bridge *br, struct mstp_pt *pt)
{
	pt->port_prio = pt->msg_prio;
	if (pt->tree == 0) {
		pt->sender = PORT(br, pt)->rx.bridge_id;
		pt->heard = PORT(br, pt)->last_heard;
		pt->port_times = pt->msg_times;
		pt->port_times.hello = MSTP_HELLO_TIME;
	} else {
		pt->port_times.hops = pt->msg_times.hops;
	}
}

/*
 * 13.29.36 updtRcvdInfoWhile.  The text takes remainingHops from the
 * CIST's portTimes even for MSTIs; like mstpd we use the tree's own, or
 * MSTI remaining hops would never matter.
 */
static void updt_rcvd_info_while(struct mstp_bridge *br, struct mstp_pt *pt)
{
	const struct mstp_times *t = &pt->port_times;
	bool internal = PORT(br, pt)->rcvd_internal;
	bool keep;

	if (pt->tree == 0 && !internal)
		keep = t->msg_age + 1 <= t->max_age;
	else
		keep = t->hops > 1;
	pt->rcvd_info_while = keep ? 3 * mstp_hello_time(br, pt) : 0;
}

/*
 * Not in 13.35: the neighbour whose designated information this port
 * holds now sends a Root or Alternate Port message here - it is no
 * longer Designated on this link, whatever it said before, and it will
 * not refresh that.  The information ages now instead of after
 * rcvdInfoWhile (3 x HelloTime), during which both ends could take the
 * other for the way to the root.
 */
static void no_longer_designated(struct mstp_pt *pt)
{
	if (pt->info_is == INFO_RECEIVED &&
	    (pt->msg_flags.role == BPDU_ROLE_ROOT ||
	     pt->msg_flags.role == BPDU_ROLE_ALT_BACKUP) &&
	    mac_equal(&pt->msg_prio.dbridge, &pt->port_prio.dbridge))
		pt->rcvd_info_while = 0;
}

/*
 * An agreement answers the proposal the neighbour last had from this
 * port.  Where a port turns Designated again within a second of having
 * left that role (Root or Alternate in between, or its information
 * aged: the stale information of counting to infinity flips it back and
 * forth), answers to its earlier proposal may still be on their way,
 * from a port that since turned Root and then Designated itself and
 * forwards; taking one lets both ends forward.  Likewise when the CIST
 * Regional Root changed (syncMaster): a neighbour may have agreed a
 * moment ago under the old one.  So the port takes no agreement for at
 * least a second (two ticks, long past any BPDU in flight), then
 * proposes again if it still waits for one.  The first proposal after a
 * plain role change or after worse information (agreed cleared by
 * UPDATE) is answered at once, as in 13.37.  Measured with and without
 * the hold at syncMaster: bench/results/2026-12-07-mstp-holds.md.
 */
void mstp_hold_agreements(struct mstp_bridge *br, struct mstp_pt *pt)
{
	(void)br;
	pt->agree_hold = MSTP_HOLD_TICKS;
	pt->agreed = false;
}

/* One second of agree_hold passed (from the Port Timers machine). */
void mstp_agree_hold_tick(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (!pt->agree_hold || --pt->agree_hold)
		return;
	if (pt->proposing)
		mstp_new_info_xst(br, pt);
}

static void hold_if_outdated(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (pt->info_is != INFO_MINE && pt->desig_left)
		mstp_hold_agreements(br, pt);
}

/*
 * Not in 13.35: a Root Port message on this port from the bridge this
 * tree's own Root Port takes its root path from.  Each of the two takes
 * its root path through the other (over parallel links): the
 * information is stale, counting to infinity, and the message's
 * agreement - given under it - must not let this port forward; it is
 * disputed instead (13.29.10).
 */
static bool through_each_other(struct mstp_bridge *br,
			       const struct mstp_pt *pt)
{
	const struct mstp_tree *t = &br->trees[pt->tree];
	const struct mstp_pt *rp;

	if (pt->msg_flags.role != BPDU_ROLE_ROOT || t->root_port < 0 ||
	    t->root_port == (int)pt->port)
		return false;
	rp = PT(br, (unsigned int)t->root_port, pt->tree);
	if (rp->info_is != INFO_RECEIVED)
		return false;
	if (pt->tree)
		return mac_equal(&pt->msg_prio.dbridge, &rp->port_prio.dbridge);
	return mac_equal(&PORT(br, pt)->rx.bridge_id, &rp->sender);
}

static void pim_enter(struct mstp_bridge *br, struct mstp_pt *pt,
		      enum pim_state s)
{
	struct mstp_port *p = PORT(br, pt);

	pt->pim = s;
	switch (s) {
	case PIM_DISABLED:
		pt->rcvd_msg = false;
		pt->loop_inconsistent = false;
		pt->proposing = pt->proposed = pt->agree = pt->agreed = false;
		pt->rcvd_info_while = 0;
		pt->info_is = INFO_DISABLED;
		pt->reselect = true;
		pt->selected = false;
		break;
	case PIM_AGED:
		pt->info_is = INFO_AGED;
		pt->reselect = true;
		pt->selected = false;
		break;
	case PIM_UPDATE:
		hold_if_outdated(br, pt);
		pt->proposing = pt->proposed = false;
		pt->agreed = pt->agreed && betterorsame_info(pt, INFO_MINE);
		pt->synced = pt->synced && pt->agreed;
		pt->port_prio = pt->designated_prio;
		pt->port_times = pt->designated_times;
		pt->updt_info = false;
		pt->info_is = INFO_MINE;
		mstp_new_info_xst(br, pt);
		break;
	case PIM_CURRENT:
	case PIM_RECEIVE:
		break;
	case PIM_SUPERIOR_DESIGNATED:
		if (pt->tree == 0)
			p->info_internal = p->rcvd_internal;
		pt->agreed = pt->proposing = false;
		record_proposal(br, pt);
		set_tc_flags(br, pt);
		pt->agree = pt->agree && betterorsame_info(pt, INFO_RECEIVED);
		record_agreement(br, pt);
		pt->synced = pt->synced && pt->agreed;
		record_priority_times(br, pt);
		updt_rcvd_info_while(br, pt);
		pt->info_is = INFO_RECEIVED;
		pt->reselect = true;
		pt->selected = false;
		pt->rcvd_msg = false;
		break;
	case PIM_REPEATED_DESIGNATED:
		if (pt->tree == 0) {
			p->info_internal = p->rcvd_internal;
			pt->heard = p->last_heard;
		}
		record_proposal(br, pt);
		set_tc_flags(br, pt);
		record_agreement(br, pt);
		updt_rcvd_info_while(br, pt);
		pt->rcvd_msg = false;
		break;
	case PIM_INFERIOR_DESIGNATED:
		record_dispute(br, pt);
		pt->rcvd_msg = false;
		break;
	case PIM_NOT_DESIGNATED:
		record_agreement(br, pt);
		if (through_each_other(br, pt)) {
			pt->agreed = false;
			record_dispute(br, pt);
		}
		no_longer_designated(pt);
		set_tc_flags(br, pt);
		pt->rcvd_msg = false;
		break;
	case PIM_OTHER:
		/* Not in 13.35: a Root Port message that forwards, with a
		 * better priority vector than this port sends it, cannot
		 * have its root path through this port - one of the two
		 * holds stale information (counting to infinity).  Like an
		 * inferior designated message (13.29.10), it is disputed:
		 * this port must not forward on its forward delay timers
		 * into it until the two agree. */
		if (pt->msg_flags.role == BPDU_ROLE_ROOT)
			record_dispute(br, pt);
		no_longer_designated(pt);
		pt->rcvd_msg = false;
		break;
	}
}

bool mstp_pim(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	struct mstp_pt *cist = CIST(br, pt);
	bool rcvd_xst, updt_xst;

	if (port_begin(br, p)) {
		pim_enter(br, pt, PIM_DISABLED);
		return false;
	}
	if (!p->port_enabled && pt->info_is != INFO_DISABLED) {
		pim_enter(br, pt, PIM_DISABLED);
		return true;
	}
	rcvd_xst = pt->tree == 0 ? pt->rcvd_msg :
				   pt->rcvd_msg && !cist->rcvd_msg;
	updt_xst = pt->tree == 0 ? pt->updt_info :
				   pt->updt_info || cist->updt_info;
	switch (pt->pim) {
	case PIM_DISABLED:
		if (pt->rcvd_msg) {
			pim_enter(br, pt, PIM_DISABLED);
			return true;
		}
		if (p->port_enabled) {
			pim_enter(br, pt, PIM_AGED);
			return true;
		}
		return false;
	case PIM_AGED:
		if (pt->selected && pt->updt_info) {
			pim_enter(br, pt, PIM_UPDATE);
			return true;
		}
		return false;
	case PIM_CURRENT:
		if (pt->selected && pt->updt_info) {
			pim_enter(br, pt, PIM_UPDATE);
			return true;
		}
		if (pt->info_is == INFO_RECEIVED && pt->rcvd_info_while == 0 &&
		    !pt->updt_info && !rcvd_xst) {
			mstp_logf(br, MSTP_LOG_INFO,
				  "port %u tree %u: received info aged out",
				  pt->port, pt->tree);
			pim_enter(br, pt, PIM_AGED);
			return true;
		}
		if (rcvd_xst && !updt_xst) {
			pim_enter(br, pt, PIM_RECEIVE);
			return true;
		}
		return false;
	case PIM_RECEIVE:
		pt->rcvd_info = rcv_info(br, pt);
		record_mastered(br, pt);
		switch (pt->rcvd_info) {
		case SUPERIOR_DESIGNATED:
			pim_enter(br, pt, PIM_SUPERIOR_DESIGNATED);
			break;
		case REPEATED_DESIGNATED:
			pim_enter(br, pt, PIM_REPEATED_DESIGNATED);
			break;
		case INFERIOR_DESIGNATED:
			pim_enter(br, pt, PIM_INFERIOR_DESIGNATED);
			break;
		case INFERIOR_ROOT_ALTERNATE:
			pim_enter(br, pt, PIM_NOT_DESIGNATED);
			break;
		case OTHER_INFO:
			pim_enter(br, pt, PIM_OTHER);
			break;
		}
		return true;
	default:
		/* UPDATE and the RECEIVE outcomes go back to CURRENT. */
		pim_enter(br, pt, PIM_CURRENT);
		return true;
	}
}
