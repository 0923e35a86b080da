// SPDX-License-Identifier: MIT
/*
 * Port Role Transitions (13.37, figures 13-21..13-23) and Port State
 * Transition (13.38): proposal/agreement sync, re-root, learning and
 * forwarding per tree.
 */
#include "mstp_int.h"

static bool all_synced(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		const struct mstp_pt *q = PT(br, i, pt->tree);

		if (!q->selected || q->role != q->selected_role ||
		    q->updt_info)
			return false;
	}
	for (unsigned int i = 0; i < br->nports; i++) {
		const struct mstp_pt *q = PT(br, i, pt->tree);

		switch (pt->role) {
		case MSTP_ROLE_ROOT:
		case MSTP_ROLE_ALTERNATE:
		case MSTP_ROLE_BACKUP:
			if (q->role == MSTP_ROLE_ROOT)
				continue;
			break;
		default:
			if (q == pt)
				continue;
			break;
		}
		if (!q->synced)
			return false;
	}
	return true;
}

static bool re_rooted(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		const struct mstp_pt *q = PT(br, i, pt->tree);

		if (q != pt && q->rr_while)
			return false;
	}
	return true;
}

static void set_sync_tree(struct mstp_bridge *br, struct mstp_pt *pt)
{
	for (unsigned int i = 0; i < br->nports; i++)
		PT(br, i, pt->tree)->sync = true;
}

static void set_re_root_tree(struct mstp_bridge *br, struct mstp_pt *pt)
{
	for (unsigned int i = 0; i < br->nports; i++)
		PT(br, i, pt->tree)->re_root = true;
}

void mstp_new_info_xst(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (pt->tree == 0)
		PORT(br, pt)->new_info = true;
	else
		PORT(br, pt)->new_info_msti = true;
}

static void prt_enter(struct mstp_bridge *br, struct mstp_pt *pt,
		      enum prt_state s)
{
	struct mstp_port *p = PORT(br, pt);

	pt->prt = s;
	switch (s) {
	case PRT_INIT_PORT:
		pt->role = MSTP_ROLE_DISABLED;
		pt->learn = pt->forward = false;
		pt->synced = false;
		pt->sync = pt->re_root = true;
		pt->rr_while = mstp_fwd_delay(br, pt);
		pt->fd_while = mstp_max_age(br, pt);
		pt->rb_while = 0;
		break;
	case PRT_DISABLE_PORT:
		/* 13.37 says role = selectedRole. Entered from INIT_PORT
		 * after a restart (BEGIN) of a port whose link stayed up,
		 * Port Role Selection has already chosen, say, Designated:
		 * role would equal selectedRole, so the global transition
		 * to DESIGNATED_PORT never fires and the port discards in
		 * DISABLED_PORT for good. Entered by that transition,
		 * selectedRole is DisabledPort anyway. mstpd does the same. */
		pt->role = MSTP_ROLE_DISABLED;
		pt->learn = pt->forward = false;
		break;
	case PRT_DISABLED_PORT:
		pt->fd_while = mstp_max_age(br, pt);
		pt->synced = true;
		pt->rr_while = 0;
		pt->sync = pt->re_root = false;
		break;

	case PRT_MASTER_PORT:
		pt->role = MSTP_ROLE_MASTER;
		break;
	case PRT_MASTER_PROPOSED:
	case PRT_ROOT_PROPOSED:
	case PRT_ALTERNATE_PROPOSED:
		set_sync_tree(br, pt);
		pt->proposed = false;
		break;
	case PRT_MASTER_AGREED:
		pt->proposed = pt->sync = false;
		pt->agree = true;
		break;
	case PRT_MASTER_SYNCED:
	case PRT_DESIGNATED_SYNCED:
		pt->rr_while = 0;
		pt->synced = true;
		pt->sync = false;
		break;
	case PRT_MASTER_RETIRED:
	case PRT_DESIGNATED_RETIRED:
		pt->re_root = false;
		break;
	case PRT_MASTER_DISCARD:
	case PRT_DESIGNATED_DISCARD:
		pt->learn = pt->forward = pt->disputed = false;
		pt->fd_while = mstp_forward_delay(br, pt);
		break;
	case PRT_MASTER_LEARN:
	case PRT_DESIGNATED_LEARN:
		pt->learn = true;
		pt->fd_while = mstp_forward_delay(br, pt);
		break;
	case PRT_MASTER_FORWARD:
	case PRT_DESIGNATED_FORWARD:
		pt->forward = true;
		pt->fd_while = 0;
		pt->agreed = p->send_rstp;
		break;

	case PRT_ROOT_PORT:
		pt->role = MSTP_ROLE_ROOT;
		pt->rr_while = mstp_fwd_delay(br, pt);
		break;
	case PRT_ROOT_AGREED:
	case PRT_DESIGNATED_AGREED:
		pt->proposed = pt->sync = false;
		pt->agree = true;
		mstp_new_info_xst(br, pt);
		break;
	case PRT_ROOT_SYNCED:
		pt->synced = true;
		pt->sync = false;
		break;
	case PRT_REROOT:
		set_re_root_tree(br, pt);
		break;
	case PRT_ROOT_FORWARD:
		pt->fd_while = 0;
		pt->forward = true;
		break;
	case PRT_ROOT_LEARN:
		pt->fd_while = mstp_forward_delay(br, pt);
		pt->learn = true;
		break;
	case PRT_REROOTED:
		pt->re_root = false;
		break;
	case PRT_ROOT_DISCARD:
		pt->learn = pt->forward = false;
		break;

	case PRT_DESIGNATED_PORT:
		/* Not in 13.37: a Root Port that turns Designated retires
		 * like any recent Root Port (rrWhile runs), even where the
		 * new Root Port already forwarded and so set no reRoot
		 * (REROOT): else it forwards on, without an agreement, into
		 * a neighbour that was Designated and still is until it
		 * hears this port's information. */
		if (pt->role == MSTP_ROLE_ROOT)
			pt->re_root = true;
		pt->role = MSTP_ROLE_DESIGNATED;
		break;
	case PRT_DESIGNATED_PROPOSE:
		pt->proposing = true;
		if (pt->tree == 0)
			p->edge_delay_while = mstp_edge_delay(br, p);
		mstp_new_info_xst(br, pt);
		break;

	case PRT_BLOCK_PORT:
		pt->role = pt->selected_role;
		pt->learn = pt->forward = false;
		break;
	case PRT_ALTERNATE_PORT:
		pt->fd_while = mstp_forward_delay(br, pt);
		pt->synced = true;
		pt->rr_while = 0;
		pt->sync = pt->re_root = false;
		break;
	case PRT_ALTERNATE_AGREED:
		pt->proposed = false;
		pt->agree = true;
		mstp_new_info_xst(br, pt);
		break;
	case PRT_BACKUP_PORT:
		pt->rb_while = 2 * mstp_hello_time(br, pt);
		break;
	}
}

static bool go(struct mstp_bridge *br, struct mstp_pt *pt, enum prt_state s)
{
	prt_enter(br, pt, s);
	return true;
}

/*
 * Where an MSTI port may learn and forward, beyond its own state machine.
 *
 * At a Boundary Port only while the CIST does (13.13 f).  The flags that
 * recordProposal, recordAgreement and recordDispute copy from the CIST
 * keep the two close; this holds the MSTI back where its own sync, reRoot
 * or timers would let it run ahead (a CIST Root Port still waiting for
 * its forward delays towards an STP bridge, a CIST Designated Port
 * re-rooting or re-syncing while the MSTI is not).
 *
 * At an internal port only while the neighbour names the same CIST
 * Regional Root as this bridge, where either reaches the CIST Root from
 * outside (a nonzero External Root Path Cost; else neither can have a
 * Master Port, as for syncMaster).  Each part of a region that agrees on
 * its Regional Root has at most one Master Port (the Regional Root's
 * CIST Root Port), so while a new Regional Root's information spreads
 * (a region's way out failed or came back) no MSTI joins a part whose
 * old Master Port still forwards to one whose new one does.  syncMaster
 * (13.29.26) and recordAgreement's CIST check (13.29.11) do that for
 * Designated Ports that wait for an agreement; this also holds Root
 * Ports, and Designated Ports that still hold one.
 */
static bool same_regional_root(struct mstp_bridge *br,
			       const struct mstp_pt *pt)
{
	const struct mstp_port *p = PORT(br, pt);
	const struct mstp_prio *mine = &br->trees[0].root_prio;

	return !p->nbr_known || p->oper_edge ||
	       bridge_id_cmp(&p->nbr_rroot, &mine->rroot) == 0 ||
	       (!p->nbr_ext_cost && !mine->ext_cost);
}

/*
 * A bridge that just became the Regional Root (its way out replaced
 * another bridge's: a region's master link came back, or failed over)
 * holds its Master Ports back for a second (two ticks), long past the
 * BPDUs that tell the old Regional Root to give its Master Port up: the
 * MSTIs of a region seldom have two Master Ports forwarding at once
 * (still when two bridges take themselves for the Regional Root at
 * once). Not in 13.37, whose MASTER_FORWARD follows allSynced at once.
 * The parts of the region that disagree on the Regional Root are kept
 * apart anyway (same_regional_root()), so this costs the MSTIs' way out
 * a second when the Regional Root moves, and spares the network an
 * instant with two ways out. Measured with and without (two Master
 * Ports, flaps, the re-election's time):
 * bench/results/2026-12-07-mstp-holds.md.
 */
static bool master_held(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return pt->role == MSTP_ROLE_MASTER && br->master_hold;
}

/* The CIST is to be followed here: at a Boundary Port, or where the CIST
 * holds a Designated Port back while it re-syncs. */
static bool follows_cist(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return mstp_boundary(br, PORT(br, pt)) ||
	       CIST(br, pt)->role == MSTP_ROLE_DESIGNATED;
}

/* Whether an MSTI port may learn (@forward false) or forward here. */
static bool may(struct mstp_bridge *br, const struct mstp_pt *pt,
		bool forward)
{
	const struct mstp_pt *c = CIST(br, pt);

	/* Loop guard (mstp_bridge.c): no BPDU, no forwarding. */
	if (pt->loop_inconsistent)
		return false;
	if (!pt->tree)
		return true;
	if (master_held(br, pt))
		return false;
	if (follows_cist(br, pt) && !(forward ? c->forwarding : c->learning))
		return false;
	return mstp_boundary(br, PORT(br, pt)) || same_regional_root(br, pt);
}

static bool may_learn(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return may(br, pt, false);
}

static bool may_forward(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return may(br, pt, true);
}

/* Learning or forwarding where it may not. */
static bool ahead(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return (pt->learn && !may_learn(br, pt)) ||
	       (pt->forward && !may_forward(br, pt));
}

/* An internal MSTI port whose agreement was given under another Regional
 * Root: it proposes again (13.29.11 would not take such an agreement). */
static bool stale_agreement(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return pt->tree && pt->agreed && !mstp_boundary(br, PORT(br, pt)) &&
	       !same_regional_root(br, pt);
}

static bool master_port(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	bool synced_all = all_synced(br, pt);
	bool fd_ok = pt->fd_while == 0 || synced_all;

	if (pt->proposed && !pt->agree)
		return go(br, pt, PRT_MASTER_PROPOSED);
	if ((synced_all && !pt->agree) || (pt->proposed && pt->agree))
		return go(br, pt, PRT_MASTER_AGREED);
	if ((!pt->learning && !pt->forwarding && !pt->synced) ||
	    (pt->agreed && !pt->synced) || (p->oper_edge && !pt->synced) ||
	    (pt->sync && pt->synced))
		return go(br, pt, PRT_MASTER_SYNCED);
	if (pt->re_root && pt->rr_while == 0)
		return go(br, pt, PRT_MASTER_RETIRED);
	if ((((pt->sync && !pt->synced) || (pt->re_root && pt->rr_while) ||
	      pt->disputed) && !p->oper_edge && (pt->learn || pt->forward)) ||
	    ahead(br, pt))
		return go(br, pt, PRT_MASTER_DISCARD);
	if (fd_ok && !pt->learn && may_learn(br, pt))
		return go(br, pt, PRT_MASTER_LEARN);
	if (fd_ok && pt->learn && !pt->forward && may_forward(br, pt))
		return go(br, pt, PRT_MASTER_FORWARD);
	return false;
}

static bool root_port(struct mstp_bridge *br, struct mstp_pt *pt)
{
	bool fd_ok = pt->fd_while == 0 ||
		     (re_rooted(br, pt) && pt->rb_while == 0 &&
		      rstp_version(br));

	if (pt->proposed && !pt->agree)
		return go(br, pt, PRT_ROOT_PROPOSED);
	if ((all_synced(br, pt) && !pt->agree) ||
	    (pt->proposed && pt->agree))
		return go(br, pt, PRT_ROOT_AGREED);
	if ((pt->agree && !pt->synced) || (pt->sync && pt->synced))
		return go(br, pt, PRT_ROOT_SYNCED);
	if (!pt->forward && !pt->re_root)
		return go(br, pt, PRT_REROOT);
	if (pt->rr_while != mstp_fwd_delay(br, pt))
		return go(br, pt, PRT_ROOT_PORT);
	if (pt->re_root && pt->forward)
		return go(br, pt, PRT_REROOTED);
	if (ahead(br, pt))
		return go(br, pt, PRT_ROOT_DISCARD);
	if (fd_ok && !pt->learn && may_learn(br, pt))
		return go(br, pt, PRT_ROOT_LEARN);
	if (fd_ok && pt->learn && !pt->forward && may_forward(br, pt))
		return go(br, pt, PRT_ROOT_FORWARD);
	return false;
}

static bool designated_port(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	bool ok = (pt->fd_while == 0 || pt->agreed || p->oper_edge) &&
		  (pt->rr_while == 0 || !pt->re_root) && !pt->sync;

	if (!pt->forward && !pt->agreed && !pt->proposing && !p->oper_edge)
		return go(br, pt, PRT_DESIGNATED_PROPOSE);
	if ((all_synced(br, pt) && (pt->proposed || !pt->agree)) ||
	    (pt->proposed && pt->agree))
		return go(br, pt, PRT_DESIGNATED_AGREED);
	if ((!pt->learning && !pt->forwarding && !pt->synced) ||
	    (pt->agreed && !pt->synced) || (p->oper_edge && !pt->synced) ||
	    (pt->sync && pt->synced))
		return go(br, pt, PRT_DESIGNATED_SYNCED);
	if (pt->re_root && pt->rr_while == 0)
		return go(br, pt, PRT_DESIGNATED_RETIRED);
	if ((((pt->sync && !pt->synced) || (pt->re_root && pt->rr_while) ||
	      pt->disputed) && !p->oper_edge && (pt->learn || pt->forward)) ||
	    ahead(br, pt) || stale_agreement(br, pt)) {
		pt->agreed = pt->agreed && !stale_agreement(br, pt);
		return go(br, pt, PRT_DESIGNATED_DISCARD);
	}
	if (ok && !pt->learn && may_learn(br, pt))
		return go(br, pt, PRT_DESIGNATED_LEARN);
	if (ok && pt->learn && !pt->forward && may_forward(br, pt))
		return go(br, pt, PRT_DESIGNATED_FORWARD);
	return false;
}

static bool alternate_port(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (pt->proposed && !pt->agree)
		return go(br, pt, PRT_ALTERNATE_PROPOSED);
	if ((all_synced(br, pt) && !pt->agree) ||
	    (pt->proposed && pt->agree))
		return go(br, pt, PRT_ALTERNATE_AGREED);
	if (pt->role == MSTP_ROLE_BACKUP &&
	    pt->rb_while != 2 * mstp_hello_time(br, pt))
		return go(br, pt, PRT_BACKUP_PORT);
	if (pt->fd_while != mstp_forward_delay(br, pt) || pt->sync ||
	    pt->re_root || !pt->synced)
		return go(br, pt, PRT_ALTERNATE_PORT);
	return false;
}

bool mstp_prt(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (port_begin(br, PORT(br, pt))) {
		prt_enter(br, pt, PRT_INIT_PORT);
		return false;
	}
	if (pt->prt == PRT_INIT_PORT)
		return go(br, pt, PRT_DISABLE_PORT);
	/* Every other transition is qualified by selected && !updtInfo. */
	if (!pt->selected || pt->updt_info)
		return false;
	if (pt->role != pt->selected_role) {
		switch (pt->selected_role) {
		case MSTP_ROLE_DISABLED:
			return go(br, pt, PRT_DISABLE_PORT);
		case MSTP_ROLE_MASTER:
			return go(br, pt, PRT_MASTER_PORT);
		case MSTP_ROLE_ROOT:
			return go(br, pt, PRT_ROOT_PORT);
		case MSTP_ROLE_DESIGNATED:
			return go(br, pt, PRT_DESIGNATED_PORT);
		case MSTP_ROLE_ALTERNATE:
		case MSTP_ROLE_BACKUP:
			return go(br, pt, PRT_BLOCK_PORT);
		}
	}
	switch (pt->prt) {
	case PRT_DISABLE_PORT:
		if (!pt->learning && !pt->forwarding)
			return go(br, pt, PRT_DISABLED_PORT);
		return false;
	case PRT_DISABLED_PORT:
		if (pt->fd_while != mstp_max_age(br, pt) || pt->sync ||
		    pt->re_root || !pt->synced)
			return go(br, pt, PRT_DISABLED_PORT);
		return false;
	case PRT_MASTER_PORT:
		return master_port(br, pt);
	case PRT_MASTER_PROPOSED: case PRT_MASTER_AGREED:
	case PRT_MASTER_SYNCED: case PRT_MASTER_RETIRED:
	case PRT_MASTER_DISCARD: case PRT_MASTER_LEARN:
	case PRT_MASTER_FORWARD:
		return go(br, pt, PRT_MASTER_PORT);
	case PRT_ROOT_PORT:
		return root_port(br, pt);
	case PRT_ROOT_PROPOSED: case PRT_ROOT_AGREED: case PRT_ROOT_SYNCED:
	case PRT_REROOT: case PRT_ROOT_FORWARD: case PRT_ROOT_LEARN:
	case PRT_REROOTED: case PRT_ROOT_DISCARD:
		return go(br, pt, PRT_ROOT_PORT);
	case PRT_DESIGNATED_PORT:
		return designated_port(br, pt);
	case PRT_DESIGNATED_PROPOSE: case PRT_DESIGNATED_AGREED:
	case PRT_DESIGNATED_SYNCED: case PRT_DESIGNATED_RETIRED:
	case PRT_DESIGNATED_DISCARD: case PRT_DESIGNATED_LEARN:
	case PRT_DESIGNATED_FORWARD:
		return go(br, pt, PRT_DESIGNATED_PORT);
	case PRT_BLOCK_PORT:
		if (!pt->learning && !pt->forwarding)
			return go(br, pt, PRT_ALTERNATE_PORT);
		return false;
	case PRT_ALTERNATE_PORT:
		return alternate_port(br, pt);
	case PRT_ALTERNATE_PROPOSED: case PRT_ALTERNATE_AGREED:
	case PRT_BACKUP_PORT:
		return go(br, pt, PRT_ALTERNATE_PORT);
	case PRT_INIT_PORT:
		break;
	}
	return false;
}

/* ---- Port State Transition --------------------------------------------- */

static void pst_enter(struct mstp_bridge *br, struct mstp_pt *pt,
		      enum pst_state s)
{
	static const enum mstp_port_state map[] = {
		[PST_DISCARDING] = MSTP_DISCARDING,
		[PST_LEARNING] = MSTP_LEARNING,
		[PST_FORWARDING] = MSTP_FORWARDING,
	};

	pt->pst = s;
	pt->learning = s != PST_DISCARDING;
	pt->forwarding = s == PST_FORWARDING;
	mstp_logf(br, MSTP_LOG_DEBUG, "port %u mst %u: %s", pt->port,
		  br->trees[pt->tree].mstid, mstp_state_name(map[s]));
	br->ops->set_state(br->ctx, pt->port, br->trees[pt->tree].mstid,
			   map[s]);
}

bool mstp_pst(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (port_begin(br, PORT(br, pt))) {
		pst_enter(br, pt, PST_DISCARDING);
		return false;
	}
	switch (pt->pst) {
	case PST_DISCARDING:
		if (pt->learn) {
			pst_enter(br, pt, PST_LEARNING);
			return true;
		}
		return false;
	case PST_LEARNING:
		if (pt->forward) {
			pst_enter(br, pt, PST_FORWARDING);
			return true;
		}
		if (!pt->learn) {
			pst_enter(br, pt, PST_DISCARDING);
			return true;
		}
		return false;
	case PST_FORWARDING:
		if (!pt->forward) {
			pst_enter(br, pt, PST_DISCARDING);
			return true;
		}
		return false;
	}
	return false;
}
