// SPDX-License-Identifier: MIT
/*
 * Topology Change state machine (13.39), one per port and tree: detection
 * when a port starts forwarding, propagation to the other ports of the
 * same tree only, and the FDB flush of that tree (or the whole port, if
 * the bridge is configured so).
 */
#include "mstp_int.h"

static bool role_forwards(const struct mstp_pt *pt)
{
	return pt->role == MSTP_ROLE_ROOT || pt->role == MSTP_ROLE_DESIGNATED ||
	       pt->role == MSTP_ROLE_MASTER;
}

/* 13.29.23 setTcPropTree */
void mstp_set_tc_prop_tree(struct mstp_bridge *br, struct mstp_pt *pt)
{
	if (PORT(br, pt)->restricted_tcn)
		return;
	for (unsigned int i = 0; i < br->nports; i++)
		if (i != pt->port)
			PT(br, i, pt->tree)->tc_prop = true;
}

/* 13.29.22 newTcWhile */
static void new_tc_while(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_tree *t = &br->trees[pt->tree];

	if (pt->tc_while)
		return;
	if (PORT(br, pt)->send_rstp) {
		pt->tc_while = mstp_hello_time(br, pt) + 1;
		mstp_new_info_xst(br, pt);
	} else {
		pt->tc_while = br->trees[0].root_times.max_age +
			       br->trees[0].root_times.fwd_delay;
	}
	(void)t;
}

static void count_tc(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_tree *t = &br->trees[pt->tree];

	t->tc_count++;
	t->last_tc_port = (int)pt->port;
	t->last_tc_ms = br->ops->now_ms ? br->ops->now_ms(br->ctx) : 0;
	pt->last_tc_ms = t->last_tc_ms;
}

/*
 * fdbFlush is done as far as the state machines go; the ops flush the
 * port's entries once they settle (mstp_flush_pending), after the BPDUs
 * that spread the change have left: a flush is a netlink round trip per
 * VLAN, and the next bridge should not wait for it.
 */
static void flush(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	unsigned int fd = mstp_fwd_delay(br, pt);

	pt->fdb_flush = false;
	/*
	 * stpVersion (ForceProtocolVersion 0): no flush, the port's entries
	 * age in FwdDelay for FwdDelay (13.27 fdbFlush, ageingTime; 802.1D
	 * 17.19.1), as an 802.1D bridge's do while a topology change runs.
	 */
	if (!rstp_version(br) && br->ops->rapid_ageing) {
		if (!p->rapid_age_while)
			br->ops->rapid_ageing(br->ctx, p->index, fd);
		p->rapid_age_while = fd;
		return;
	}
	pt->flush_pending = true;
}

void mstp_flush_pending(struct mstp_bridge *br)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		bool all = false;

		for (unsigned int t = 0; t < br->ntrees; t++) {
			struct mstp_pt *pt = PT(br, i, t);

			if (!pt->flush_pending)
				continue;
			pt->flush_pending = false;
			/* MSTP_FLUSH_PORT: every VLAN of the port, once. */
			if (br->cfg.flush_scope == MSTP_FLUSH_PORT) {
				if (!all)
					br->ops->flush(br->ctx, i, MSTP_ALL_TREES);
				all = true;
				continue;
			}
			br->ops->flush(br->ctx, i, br->trees[t].mstid);
		}
	}
}

static void tcm_enter(struct mstp_bridge *br, struct mstp_pt *pt,
		      enum tcm_state s)
{
	struct mstp_port *p = PORT(br, pt);
	bool cist = pt->tree == 0;

	pt->tcm = s;
	switch (s) {
	case TCM_INACTIVE:
		pt->fdb_flush = true;
		pt->tc_while = 0;
		if (cist)
			p->tc_ack = false;
		flush(br, pt);
		break;
	case TCM_LEARNING:
		if (cist)
			p->rcvd_tcn = p->rcvd_tc_ack = false;
		pt->rcvd_tc = pt->tc_prop = false;
		break;
	case TCM_DETECTED:
		new_tc_while(br, pt);
		mstp_set_tc_prop_tree(br, pt);
		mstp_new_info_xst(br, pt);
		count_tc(br, pt);
		mstp_logf(br, MSTP_LOG_INFO,
			  "port %u mst %u: topology change detected",
			  pt->port, br->trees[pt->tree].mstid);
		break;
	case TCM_ACTIVE:
		break;
	case TCM_NOTIFIED_TCN:
		new_tc_while(br, pt);
		break;
	case TCM_NOTIFIED_TC:
		if (cist)
			p->rcvd_tcn = false;
		pt->rcvd_tc = false;
		if (cist && pt->role == MSTP_ROLE_DESIGNATED)
			p->tc_ack = true;
		mstp_set_tc_prop_tree(br, pt);
		count_tc(br, pt);
		break;
	case TCM_PROPAGATING:
		new_tc_while(br, pt);
		pt->fdb_flush = true;
		pt->tc_prop = false;
		flush(br, pt);
		break;
	case TCM_ACKNOWLEDGED:
		pt->tc_while = 0;
		p->rcvd_tc_ack = false;
		break;
	}
}

static bool go(struct mstp_bridge *br, struct mstp_pt *pt, enum tcm_state s)
{
	tcm_enter(br, pt, s);
	return true;
}

bool mstp_tcm(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);
	bool cist = pt->tree == 0;
	bool rcvd_tcn = cist && p->rcvd_tcn;
	bool rcvd_tc_ack = cist && p->rcvd_tc_ack;

	if (port_begin(br, p)) {
		tcm_enter(br, pt, TCM_INACTIVE);
		return false;
	}
	switch (pt->tcm) {
	case TCM_INACTIVE:
		if (pt->learn && !pt->fdb_flush)
			return go(br, pt, TCM_LEARNING);
		return false;
	case TCM_LEARNING:
		if (role_forwards(pt) && pt->forward && !p->oper_edge)
			return go(br, pt, TCM_DETECTED);
		if (pt->rcvd_tc || rcvd_tcn || rcvd_tc_ack || pt->tc_prop)
			return go(br, pt, TCM_LEARNING);
		if (!role_forwards(pt) && !(pt->learn || pt->learning))
			return go(br, pt, TCM_INACTIVE);
		return false;
	case TCM_ACTIVE:
		if (!role_forwards(pt) || p->oper_edge)
			return go(br, pt, TCM_LEARNING);
		if (rcvd_tcn)
			return go(br, pt, TCM_NOTIFIED_TCN);
		if (pt->rcvd_tc)
			return go(br, pt, TCM_NOTIFIED_TC);
		if (pt->tc_prop && !p->oper_edge)
			return go(br, pt, TCM_PROPAGATING);
		if (rcvd_tc_ack)
			return go(br, pt, TCM_ACKNOWLEDGED);
		return false;
	case TCM_NOTIFIED_TCN:
		return go(br, pt, TCM_NOTIFIED_TC);
	case TCM_DETECTED:
	case TCM_NOTIFIED_TC:
	case TCM_PROPAGATING:
	case TCM_ACKNOWLEDGED:
		return go(br, pt, TCM_ACTIVE);
	}
	return false;
}
