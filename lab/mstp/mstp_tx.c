// SPDX-License-Identifier: MIT
/*
 * Port Transmit (13.34) and the BPDU builders txConfig, txTcn, txMstp
 * (13.29.25..13.29.27), rate limited by the Transmit Hold Count.
 */
#include "mstp_int.h"

#include <string.h>

static enum bpdu_role wire_role(enum mstp_role r)
{
	switch (r) {
	case MSTP_ROLE_ROOT:
		return BPDU_ROLE_ROOT;
	case MSTP_ROLE_DESIGNATED:
		return BPDU_ROLE_DESIGNATED;
	case MSTP_ROLE_ALTERNATE:
	case MSTP_ROLE_BACKUP:
		return BPDU_ROLE_ALT_BACKUP;
	default:
		return BPDU_ROLE_MASTER;
	}
}

static uint16_t t256(unsigned int secs)
{
	return (uint16_t)(secs > 255 ? 255 * 256 : secs * 256);
}

static void send(struct mstp_bridge *br, struct mstp_port *p,
		 const struct bpdu *b)
{
	uint8_t buf[BPDU_MST_MAX_LEN];
	size_t len = 0;

	if (bpdu_encode(b, buf, sizeof(buf), &len) != BPDU_OK) {
		mstp_logf(br, MSTP_LOG_ERR, "port %u: cannot encode BPDU",
			  p->index);
		return;
	}
	/* BPDU filter: the machines run as if it left, and it is lost. */
	if (p->bpdu_filter) {
		p->counters.tx_filtered++;
		return;
	}
	p->counters.tx_bpdus++;
	switch (b->type) {
	case BPDU_TYPE_CONFIG:
		p->counters.tx_config++;
		break;
	case BPDU_TYPE_TCN:
		p->counters.tx_tcn++;
		break;
	case BPDU_TYPE_RST:
		p->counters.tx_rst++;
		break;
	case BPDU_TYPE_MST:
		p->counters.tx_mst++;
		break;
	}
	br->ops->tx_bpdu(br->ctx, p->index, buf, len);
}

/* Octets 5..35 from the CIST designated priority vector and times. */
static void fill_cist(struct mstp_bridge *br, struct mstp_port *p,
		      struct bpdu *b)
{
	const struct mstp_pt *c = PT(br, p->index, 0);
	const struct mstp_times *t = &c->designated_times;

	b->root_id = c->designated_prio.root;
	b->ext_root_path_cost = c->designated_prio.ext_cost;
	b->regional_root_id = c->designated_prio.rroot;
	/* RST BPDUs carry the regional root as bridge id, so the region
	 * looks like one bridge to the CST. */
	b->bridge_id = c->designated_prio.rroot;
	b->port_id = c->port_id;
	b->message_age = t256(t->msg_age);
	b->max_age = t256(t->max_age);
	b->hello_time = t256(t->hello);
	b->forward_delay = t256(t->fwd_delay);
}

static void tx_config(struct mstp_bridge *br, struct mstp_port *p)
{
	static struct bpdu b;
	const struct mstp_pt *c = PT(br, p->index, 0);

	bpdu_init(&b, BPDU_TYPE_CONFIG);
	fill_cist(br, p, &b);
	/* 13.29.25: Config BPDUs carry the designated bridge itself. */
	b.bridge_id = c->designated_prio.dbridge;
	b.flags.tc = c->tc_while != 0;
	b.flags.tc_ack = p->tc_ack;
	send(br, p, &b);
}

static void tx_tcn(struct mstp_bridge *br, struct mstp_port *p)
{
	static struct bpdu b;

	bpdu_init(&b, BPDU_TYPE_TCN);
	send(br, p, &b);
}

static void fill_flags(struct bpdu_flags *f, const struct mstp_pt *pt)
{
	f->tc = pt->tc_while != 0;
	f->proposal = pt->proposing;
	f->role = wire_role(pt->role);
	f->learning = pt->learning;
	f->forwarding = pt->forwarding;
	f->agreement = pt->agree;
}

/* 13.27 master: a Root/Designated port of an MSTI whose bridge has a
 * Master port, or where another Root/Master port was mastered. */
static bool msti_master(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	if (pt->role != MSTP_ROLE_ROOT && pt->role != MSTP_ROLE_DESIGNATED)
		return false;
	for (unsigned int i = 0; i < br->nports; i++) {
		const struct mstp_pt *q = PT(br, i, pt->tree);

		if (q->role == MSTP_ROLE_MASTER)
			return true;
		if (q != pt && q->mastered && q->role == MSTP_ROLE_ROOT)
			return true;
	}
	return false;
}

static void tx_mstp(struct mstp_bridge *br, struct mstp_port *p)
{
	static struct bpdu b;
	const struct mstp_pt *c = PT(br, p->index, 0);
	bool mst = br->cfg.force_version >= MSTP_FORCE_MSTP;

	bpdu_init(&b, mst ? BPDU_TYPE_MST : BPDU_TYPE_RST);
	fill_cist(br, p, &b);
	fill_flags(&b.flags, c);
	if (!mst) {
		send(br, p, &b);
		return;
	}
	b.mcid = br->cfg.mcid;
	b.int_root_path_cost = c->designated_prio.int_cost;
	b.bridge_id = br->trees[0].bridge_id;
	b.remaining_hops = (uint8_t)c->designated_times.hops;
	for (unsigned int t = 1; t < br->ntrees; t++) {
		const struct mstp_pt *pt = PT(br, p->index, t);
		struct bpdu_msti *m = &b.msti[b.msti_count++];

		fill_flags(&m->flags, pt);
		m->flags.master = msti_master(br, pt);
		m->regional_root = pt->designated_prio.rroot;
		m->int_root_path_cost = pt->designated_prio.int_cost;
		m->bridge_prio_octet = (br->trees[t].bridge_id.prio >> 8) &
				       0xf0;
		m->port_prio_octet = PORT_ID_PRIO(pt->port_id);
		m->remaining_hops = (uint8_t)pt->designated_times.hops;
	}
	send(br, p, &b);
}

static bool all_transmit_ready(struct mstp_bridge *br, struct mstp_port *p)
{
	for (unsigned int t = 0; t < br->ntrees; t++) {
		const struct mstp_pt *pt = PT(br, p->index, t);

		if (!pt->selected || pt->updt_info)
			return false;
	}
	return true;
}

static bool msti_role(struct mstp_bridge *br, struct mstp_port *p,
		      enum mstp_role role, bool need_tc)
{
	for (unsigned int t = 1; t < br->ntrees; t++) {
		const struct mstp_pt *pt = PT(br, p->index, t);

		if (pt->role == role && (!need_tc || pt->tc_while))
			return true;
	}
	return false;
}

static void ptx_enter(struct mstp_bridge *br, struct mstp_port *p,
		      enum ptx_state s)
{
	const struct mstp_pt *c = PT(br, p->index, 0);

	p->ptx = s;
	switch (s) {
	case PTX_TRANSMIT_INIT:
		p->new_info = p->new_info_msti = true;
		p->tx_count = 0;
		break;
	case PTX_IDLE:
		p->hello_when = mstp_hello_time(br, c);
		break;
	case PTX_TRANSMIT_PERIODIC:
		p->new_info = p->new_info ||
			      c->role == MSTP_ROLE_DESIGNATED ||
			      (c->role == MSTP_ROLE_ROOT && c->tc_while);
		p->new_info_msti = p->new_info_msti ||
			msti_role(br, p, MSTP_ROLE_DESIGNATED, false) ||
			msti_role(br, p, MSTP_ROLE_ROOT, true);
		break;
	case PTX_TRANSMIT_CONFIG:
		p->new_info = false;
		tx_config(br, p);
		p->tx_count++;
		p->tc_ack = false;
		break;
	case PTX_TRANSMIT_TCN:
		p->new_info = false;
		tx_tcn(br, p);
		p->tx_count++;
		break;
	case PTX_TRANSMIT_RSTP:
		p->new_info = p->new_info_msti = false;
		tx_mstp(br, p);
		p->tx_count++;
		p->tc_ack = false;
		break;
	}
}

bool mstp_ptx(struct mstp_bridge *br, struct mstp_port *p)
{
	const struct mstp_pt *c = PT(br, p->index, 0);
	bool can_tx;

	if (port_begin(br, p)) {
		ptx_enter(br, p, PTX_TRANSMIT_INIT);
		return false;
	}
	if (!p->port_enabled) {
		if (p->ptx == PTX_TRANSMIT_INIT)
			return false;
		ptx_enter(br, p, PTX_TRANSMIT_INIT);
		return true;
	}
	if (p->ptx != PTX_IDLE) {
		ptx_enter(br, p, PTX_IDLE);
		return true;
	}
	if (!all_transmit_ready(br, p))
		return false;
	if (p->hello_when == 0) {
		ptx_enter(br, p, PTX_TRANSMIT_PERIODIC);
		return true;
	}
	can_tx = p->tx_count < br->cfg.tx_hold_count;
	if (!can_tx)
		return false;
	if (p->send_rstp && (p->new_info || (p->new_info_msti &&
			     !msti_role(br, p, MSTP_ROLE_MASTER, false)))) {
		ptx_enter(br, p, PTX_TRANSMIT_RSTP);
		return true;
	}
	if (!p->send_rstp && p->new_info && c->role == MSTP_ROLE_ROOT) {
		ptx_enter(br, p, PTX_TRANSMIT_TCN);
		return true;
	}
	if (!p->send_rstp && p->new_info && c->role == MSTP_ROLE_DESIGNATED) {
		ptx_enter(br, p, PTX_TRANSMIT_CONFIG);
		return true;
	}
	return false;
}
