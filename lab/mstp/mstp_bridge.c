// SPDX-License-Identifier: MIT
/*
 * The MSTP bridge object: creation, the run-to-completion loop that drives
 * every state machine, Port Timers (13.30), BPDU reception, management.
 */
#include "mstp_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mstp_logf(struct mstp_bridge *br, enum mstp_log_level level,
	       const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!br->ops->log || level > br->cfg.log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	br->ops->log(br->ctx, level, msg);
}

void mstp_bridge_config_default(struct mstp_bridge_config *cfg,
				const uint8_t mac[6])
{
	static const struct mst_vid_table cist_only;

	memset(cfg, 0, sizeof(*cfg));
	memcpy(cfg->mac, mac, 6);
	cfg->nports = 1;
	cfg->force_version = MSTP_FORCE_MSTP;
	cfg->max_age = MSTP_DEF_MAX_AGE;
	cfg->fwd_delay = MSTP_DEF_FWD_DELAY;
	cfg->max_hops = MSTP_DEF_MAX_HOPS;
	cfg->tx_hold_count = MSTP_DEF_TX_HOLD;
	cfg->flush_scope = MSTP_FLUSH_TREE;
	cfg->log_level = MSTP_LOG_INFO;
	/* The name defaults to the MAC address as text (13.8 note). */
	char name[18];
	snprintf(name, sizeof(name), "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	if (mst_config_id_init(&cfg->mcid, name, 0, &cist_only) != 0)
		memset(&cfg->mcid, 0, sizeof(cfg->mcid));
}

static bool config_valid(const struct mstp_bridge_config *c)
{
	if (c->nports < 1 || c->nports > MSTP_MAX_PORTS ||
	    c->nmstis > MSTP_MAX_MSTIS)
		return false;
	if (c->force_version != MSTP_FORCE_STP &&
	    c->force_version != MSTP_FORCE_RSTP &&
	    c->force_version != MSTP_FORCE_MSTP)
		return false;
	if (c->max_age < 6 || c->max_age > 40 || c->fwd_delay < 4 ||
	    c->fwd_delay > 30 || 2 * (c->fwd_delay - 1) < c->max_age)
		return false;
	if (c->max_hops < MSTP_MIN_MAX_HOPS || c->max_hops > MSTP_MAX_MAX_HOPS ||
	    c->tx_hold_count < 1 || c->tx_hold_count > MSTP_MAX_TX_HOLD)
		return false;
	for (unsigned int i = 0; i < c->nmstis; i++) {
		if (c->mstids[i] < 1 || c->mstids[i] > MST_MSTID_MAX)
			return false;
		for (unsigned int j = 0; j < i; j++)
			if (c->mstids[i] == c->mstids[j])
				return false;
	}
	return true;
}

void mstp_update_bridge_prio(struct mstp_bridge *br, struct mstp_tree *t)
{
	struct mstp_prio *v = &t->bridge_prio;

	memset(v, 0, sizeof(*v));
	if (t->index == 0)
		v->root = t->bridge_id;
	v->rroot = t->bridge_id;
	v->dbridge = t->bridge_id;
	t->bridge_times = (struct mstp_times){
		.msg_age = 0, .max_age = br->cfg.max_age,
		.fwd_delay = br->cfg.fwd_delay, .hello = MSTP_HELLO_TIME,
		.hops = br->cfg.max_hops,
	};
}

static void commit_states(struct mstp_bridge *br)
{
	if (br->ops->commit_states)
		br->ops->commit_states(br->ctx);
}

/* BEGIN, for the bridge or for the ports that joined since (their
 * machines took it in this pass): they start transmitting, then the
 * machines run on as for any event. */
static bool begun(struct mstp_bridge *br)
{
	bool any = br->begin;

	for (unsigned int i = 0; i < br->nports && !any; i++)
		any = br->ports[i].begin;
	if (!any)
		return false;
	commit_states(br);
	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_port *p = &br->ports[i];

		if (port_begin(br, p))
			mstp_ptx(br, p);
		p->begin = false;
	}
	br->begin = false;
	return true;
}

/*
 * Runs every state machine until none makes a transition. Transmit runs
 * only once the others are still, so one BPDU carries what every tree
 * has to say (a TC in the CIST and an MSTI goes out once, not twice);
 * the port states go to the OS in one batch just before it; the FDB
 * flushes asked for go last, after the BPDUs.
 */
static void run(struct mstp_bridge *br)
{
	for (unsigned int iter = 0; iter < 10000; iter++) {
		bool changed = false;

		for (unsigned int i = 0; i < br->nports; i++) {
			struct mstp_port *p = &br->ports[i];

			changed |= mstp_prx(br, p);
			changed |= mstp_ppm(br, p);
			changed |= mstp_bdm(br, p);
			for (unsigned int t = 0; t < br->ntrees; t++)
				changed |= mstp_pim(br, PT(br, i, t));
		}
		for (unsigned int t = 0; t < br->ntrees; t++)
			changed |= mstp_prs(br, &br->trees[t]);
		for (unsigned int i = 0; i < br->nports; i++) {
			for (unsigned int t = 0; t < br->ntrees; t++) {
				struct mstp_pt *pt = PT(br, i, t);

				changed |= mstp_prt(br, pt);
				changed |= mstp_pst(br, pt);
				changed |= mstp_tcm(br, pt);
			}
		}
		if (begun(br))
			continue;
		if (changed)
			continue;
		commit_states(br);
		for (unsigned int i = 0; i < br->nports; i++)
			changed |= mstp_ptx(br, &br->ports[i]);
		if (!changed) {
			mstp_flush_pending(br);
			return;
		}
	}
	br->run_overflows++;
	mstp_logf(br, MSTP_LOG_ERR, "state machines did not settle");
	commit_states(br);
	mstp_flush_pending(br);
}

static void begin(struct mstp_bridge *br)
{
	br->begin = true;
	run(br);
}

static void init_tree(struct mstp_bridge *br, struct mstp_tree *tr,
		      unsigned int t, uint16_t mstid)
{
	memset(tr, 0, sizeof(*tr));
	tr->index = t;
	tr->mstid = mstid;
	tr->bridge_id.prio = MSTP_DEF_BRIDGE_PRIO | mstid;
	memcpy(tr->bridge_id.mac, br->cfg.mac, 6);
	tr->root_port = -1;
	tr->last_tc_port = -1;
	mstp_update_bridge_prio(br, tr);
}

/* Port @i in tree @t, as the defaults and the port's link speed say. */
static void init_pt(struct mstp_bridge *br, unsigned int i, unsigned int t)
{
	struct mstp_pt *pt = PT(br, i, t);

	memset(pt, 0, sizeof(*pt));
	pt->port = i;
	pt->tree = t;
	pt->port_id = port_id_make(MSTP_DEF_PORT_PRIO, (uint16_t)(i + 1));
	pt->int_path_cost = br->ports[i].speed_cost;
	pt->designated_times = br->trees[t].bridge_times;
	pt->port_times = br->trees[t].bridge_times;
}

static void init_port(struct mstp_bridge *br, unsigned int i)
{
	struct mstp_port *p = &br->ports[i];

	memset(p, 0, sizeof(*p));
	p->index = i;
	p->auto_edge = true;
	p->admin_p2p = MSTP_P2P_AUTO;
	p->speed_cost = MSTP_DEF_PATH_COST;
	p->ext_path_cost = MSTP_DEF_PATH_COST;
	for (unsigned int t = 0; t < br->ntrees; t++)
		init_pt(br, i, t);
}

struct mstp_bridge *mstp_bridge_new(const struct mstp_bridge_config *cfg,
				    const struct mstp_ops *ops, void *ctx)
{
	struct mstp_bridge *br;

	if (!config_valid(cfg) || !ops || !ops->tx_bpdu || !ops->set_state ||
	    !ops->flush) {
		errno = EINVAL;
		return NULL;
	}
	br = calloc(1, sizeof(*br));
	if (!br)
		return NULL;
	br->cfg = *cfg;
	br->ops = ops;
	br->ctx = ctx;
	br->nports = cfg->nports;
	br->ntrees = cfg->nmstis + 1;
	br->ports = calloc(br->nports, sizeof(*br->ports));
	br->trees = calloc(br->ntrees, sizeof(*br->trees));
	br->pts = calloc((size_t)br->nports * br->ntrees, sizeof(*br->pts));
	if (!br->ports || !br->trees || !br->pts) {
		mstp_bridge_free(br);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned int t = 0; t < br->ntrees; t++)
		init_tree(br, &br->trees[t], t, t ? cfg->mstids[t - 1] : 0);
	for (unsigned int i = 0; i < br->nports; i++)
		init_port(br, i);
	begin(br);
	return br;
}

int mstp_add_port(struct mstp_bridge *br)
{
	unsigned int i = br->nports;
	struct mstp_port *ports;
	struct mstp_pt *pts;

	if (i >= MSTP_MAX_PORTS)
		return -EINVAL;
	ports = realloc(br->ports, (i + 1) * sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	br->ports = ports;
	/* [port * ntrees + tree]: the new port's entries go at the end. */
	pts = realloc(br->pts, (size_t)(i + 1) * br->ntrees * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	br->pts = pts;
	br->nports = br->cfg.nports = i + 1;
	init_port(br, i);
	br->ports[i].begin = true;
	mstp_logf(br, MSTP_LOG_INFO, "port %u: added", i);
	run(br);
	return (int)i;
}

/* Its arrays hold no pointers (ports and trees go by index). */
struct mstp_bridge *mstp_bridge_copy(const struct mstp_bridge *br, void *ctx)
{
	size_t npts = (size_t)br->nports * br->ntrees;
	struct mstp_bridge *c = malloc(sizeof(*c));

	if (!c)
		goto nomem;
	*c = *br;
	c->ctx = ctx;
	c->ports = malloc(br->nports * sizeof(*c->ports));
	c->trees = malloc(br->ntrees * sizeof(*c->trees));
	c->pts = malloc(npts * sizeof(*c->pts));
	if (!c->ports || !c->trees || !c->pts) {
		mstp_bridge_free(c);
		goto nomem;
	}
	memcpy(c->ports, br->ports, br->nports * sizeof(*c->ports));
	memcpy(c->trees, br->trees, br->ntrees * sizeof(*c->trees));
	memcpy(c->pts, br->pts, npts * sizeof(*c->pts));
	return c;
nomem:
	errno = ENOMEM;
	return NULL;
}

void mstp_bridge_free(struct mstp_bridge *br)
{
	if (!br)
		return;
	free(br->ports);
	free(br->trees);
	free(br->pts);
	free(br);
}

static void dec(unsigned int *timer)
{
	if (*timer)
		(*timer)--;
}

/* portEnabled: the link, unless BPDU guard took the port down. */
static void update_enabled(struct mstp_port *p)
{
	p->port_enabled = p->link_up && !p->guard_tripped;
}

static void recover(struct mstp_bridge *br, struct mstp_port *p,
		    const char *how)
{
	p->guard_tripped = false;
	p->guard_while = 0;
	update_enabled(p);
	mstp_logf(br, MSTP_LOG_INFO, "port %u: BPDU guard: enabled again (%s)",
		  p->index, how);
}

/*
 * Loop guard: the information of a port that is not Designated runs out
 * (rcvdInfoWhile expires: no BPDU for 3 x HelloTime, a one-way link or a
 * neighbour that stopped sending but still forwards).  13.35 ages it and
 * the port becomes Designated, proposing, and forwards after its timers;
 * here it stays discarding until a BPDU arrives again (prx_enter clears
 * it).  Information aged on arrival (MessageAge or remainingHops used up)
 * is not a silence and does not count.
 */
static void loop_guard_tick(struct mstp_bridge *br, struct mstp_pt *pt)
{
	struct mstp_port *p = PORT(br, pt);

	if (!p->loop_guard || pt->rcvd_info_while != 1 ||
	    pt->info_is != INFO_RECEIVED || pt->loop_inconsistent ||
	    pt->role == MSTP_ROLE_DESIGNATED || pt->role == MSTP_ROLE_DISABLED)
		return;
	pt->loop_inconsistent = true;
	mstp_logf(br, MSTP_LOG_ERR, "port %u mst %u: loop guard: no BPDU "
		  "for %u s, the %s port stays discarding", pt->port,
		  br->trees[pt->tree].mstid, 3 * MSTP_HELLO_TIME,
		  mstp_role_name(pt->role));
}

void mstp_tick(struct mstp_bridge *br)
{
	dec(&br->master_hold);
	for (unsigned int t = 0; t < br->ntrees; t++)
		dec(&br->trees[t].best_ttl);
	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_port *p = &br->ports[i];

		dec(&p->hello_when);
		dec(&p->mdelay_while);
		dec(&p->edge_delay_while);
		dec(&p->tx_count);
		if (p->guard_while && !--p->guard_while)
			recover(br, p, "recovery time");
		if (p->rapid_age_while && !--p->rapid_age_while &&
		    br->ops->rapid_ageing)
			br->ops->rapid_ageing(br->ctx, i, 0);
		for (unsigned int t = 0; t < br->ntrees; t++) {
			struct mstp_pt *pt = PT(br, i, t);

			loop_guard_tick(br, pt);
			dec(&pt->fd_while);
			dec(&pt->rr_while);
			dec(&pt->rb_while);
			dec(&pt->tc_while);
			dec(&pt->rcvd_info_while);
			mstp_agree_hold_tick(br, pt);
			dec(&pt->desig_left);
		}
	}
	run(br);
}

enum bpdu_err mstp_rx_bpdu(struct mstp_bridge *br, unsigned int port,
			   const uint8_t *buf, size_t len)
{
	struct mstp_port *p;
	enum bpdu_err err;

	if (port >= br->nports)
		return BPDU_ERR_BAD_FIELD;
	p = &br->ports[port];
	err = bpdu_decode(buf, len, &p->rx);
	if (err != BPDU_OK) {
		p->counters.rx_invalid++;
		mstp_logf(br, MSTP_LOG_DEBUG, "port %u: dropped BPDU: %s",
			  port, bpdu_strerror(err));
		return err;
	}
	if (p->bpdu_filter && !p->bpdu_guard) {
		p->counters.rx_filtered++;
		return BPDU_OK;
	}
	p->counters.rx_bpdus++;
	switch (p->rx.type) {
	case BPDU_TYPE_CONFIG:
		p->counters.rx_config++;
		break;
	case BPDU_TYPE_TCN:
		p->counters.rx_tcn++;
		break;
	case BPDU_TYPE_RST:
		p->counters.rx_rst++;
		break;
	case BPDU_TYPE_MST:
		p->counters.rx_mst++;
		break;
	}
	if (!p->port_enabled)
		return BPDU_OK;
	if (p->bpdu_guard) {
		/* Not in 802.1Q: a port that must never hear a BPDU. */
		p->guard_tripped = true;
		p->guard_while = br->cfg.guard_recovery;
		p->counters.guard_trips++;
		update_enabled(p);
		mstp_logf(br, MSTP_LOG_ERR, "port %u: BPDU guard: a BPDU "
			  "arrived, port disabled (%s)", port,
			  p->guard_while ? "for the recovery time" :
					   "until recovered");
		run(br);
		return BPDU_OK;
	}
	p->rcvd_bpdu = true;
	run(br);
	return BPDU_OK;
}

static void update_p2p(struct mstp_port *p)
{
	p->oper_p2p = p->admin_p2p == MSTP_P2P_FORCE_TRUE ||
		      (p->admin_p2p == MSTP_P2P_AUTO && p->full_duplex);
}

void mstp_port_set_link(struct mstp_bridge *br, unsigned int port, bool up,
			bool full_duplex)
{
	struct mstp_port *p;

	if (port >= br->nports)
		return;
	p = &br->ports[port];
	p->full_duplex = full_duplex;
	update_p2p(p);
	if (p->link_up != up)
		mstp_logf(br, MSTP_LOG_INFO, "port %u: link %s", port,
			  up ? "up" : "down");
	p->link_up = up;
	update_enabled(p);
	if (!up)
		p->rx_seen = p->nbr_known = false;
	run(br);
}

uint32_t mstp_path_cost_for_speed(uint64_t mbps)
{
	uint64_t c;

	if (!mbps)
		return MSTP_DEF_PATH_COST;
	/* Table 13-4 gives 20 000 000 000 / (speed in kb/s), rounded. */
	c = (20000000u + mbps / 2) / mbps;
	return c < 1 ? 1 : c > MSTP_MAX_PATH_COST ? MSTP_MAX_PATH_COST :
						   (uint32_t)c;
}

/* The costs management did not set follow the link speed. */
static void apply_costs(struct mstp_bridge *br, struct mstp_port *p)
{
	p->ext_path_cost = p->admin_ext_cost ? p->admin_ext_cost :
					       p->speed_cost;
	for (unsigned int t = 0; t < br->ntrees; t++) {
		struct mstp_pt *pt = PT(br, p->index, t);

		pt->int_path_cost = pt->admin_int_cost ? pt->admin_int_cost :
							 p->speed_cost;
	}
}

static void reselect_tree(struct mstp_bridge *br, unsigned int tree)
{
	for (unsigned int i = 0; i < br->nports; i++) {
		PT(br, i, tree)->reselect = true;
		PT(br, i, tree)->selected = false;
	}
}

static void reselect_all(struct mstp_bridge *br)
{
	for (unsigned int t = 0; t < br->ntrees; t++)
		reselect_tree(br, t);
}

int mstp_set_bridge_priority(struct mstp_bridge *br, unsigned int tree,
			     uint16_t prio)
{
	struct mstp_tree *t;

	if (tree >= br->ntrees || prio % 4096)
		return -EINVAL;
	t = &br->trees[tree];
	t->bridge_id.prio = prio | t->mstid;
	mstp_update_bridge_prio(br, t);
	if (tree == 0)
		reselect_all(br);
	else
		reselect_tree(br, tree);
	run(br);
	return 0;
}

int mstp_set_port_priority(struct mstp_bridge *br, unsigned int port,
			   unsigned int tree, uint8_t prio)
{
	if (port >= br->nports || tree >= br->ntrees || prio % 16)
		return -EINVAL;
	PT(br, port, tree)->port_id = port_id_make(prio, (uint16_t)(port + 1));
	reselect_tree(br, tree);
	run(br);
	return 0;
}

int mstp_set_port_speed(struct mstp_bridge *br, unsigned int port,
			uint64_t mbps)
{
	struct mstp_port *p;
	uint32_t cost = mstp_path_cost_for_speed(mbps);

	if (port >= br->nports)
		return -EINVAL;
	p = &br->ports[port];
	if (p->speed_cost == cost)
		return 0;
	p->speed_cost = cost;
	apply_costs(br, p);
	reselect_all(br);
	run(br);
	return 0;
}

int mstp_set_port_path_cost(struct mstp_bridge *br, unsigned int port,
			    unsigned int tree, uint32_t cost)
{
	if (port >= br->nports || tree >= br->ntrees ||
	    cost > MSTP_MAX_PATH_COST)
		return -EINVAL;
	PT(br, port, tree)->admin_int_cost = cost;
	apply_costs(br, &br->ports[port]);
	reselect_tree(br, tree);
	run(br);
	return 0;
}

int mstp_set_port_ext_path_cost(struct mstp_bridge *br, unsigned int port,
				uint32_t cost)
{
	if (port >= br->nports || cost > MSTP_MAX_PATH_COST)
		return -EINVAL;
	br->ports[port].admin_ext_cost = cost;
	apply_costs(br, &br->ports[port]);
	reselect_all(br);
	run(br);
	return 0;
}

int mstp_set_admin_edge(struct mstp_bridge *br, unsigned int port, bool edge)
{
	if (port >= br->nports)
		return -EINVAL;
	br->ports[port].admin_edge = edge;
	if (!edge)
		br->ports[port].oper_edge = false;
	run(br);
	return 0;
}

int mstp_set_auto_edge(struct mstp_bridge *br, unsigned int port,
		       bool auto_edge)
{
	if (port >= br->nports)
		return -EINVAL;
	br->ports[port].auto_edge = auto_edge;
	run(br);
	return 0;
}

int mstp_set_p2p(struct mstp_bridge *br, unsigned int port, enum mstp_p2p v)
{
	if (port >= br->nports || (unsigned int)v > MSTP_P2P_FORCE_FALSE)
		return -EINVAL;
	br->ports[port].admin_p2p = v;
	update_p2p(&br->ports[port]);
	run(br);
	return 0;
}

int mstp_set_restricted(struct mstp_bridge *br, unsigned int port, bool role,
			bool tcn)
{
	if (port >= br->nports)
		return -EINVAL;
	br->ports[port].restricted_role = role;
	br->ports[port].restricted_tcn = tcn;
	reselect_all(br);
	run(br);
	return 0;
}

int mstp_set_bpdu_guard(struct mstp_bridge *br, unsigned int port, bool on)
{
	struct mstp_port *p;

	if (port >= br->nports)
		return -EINVAL;
	p = &br->ports[port];
	p->bpdu_guard = on;
	if (!on && p->guard_tripped)
		recover(br, p, "BPDU guard off");
	run(br);
	return 0;
}

int mstp_set_bpdu_filter(struct mstp_bridge *br, unsigned int port, bool on)
{
	if (port >= br->nports)
		return -EINVAL;
	br->ports[port].bpdu_filter = on;
	return 0;
}

int mstp_set_loop_guard(struct mstp_bridge *br, unsigned int port, bool on)
{
	if (port >= br->nports)
		return -EINVAL;
	br->ports[port].loop_guard = on;
	if (!on)
		for (unsigned int t = 0; t < br->ntrees; t++)
			PT(br, port, t)->loop_inconsistent = false;
	run(br);
	return 0;
}

int mstp_set_guard_recovery(struct mstp_bridge *br, unsigned int secs)
{
	br->cfg.guard_recovery = secs;
	return 0;
}

int mstp_port_recover(struct mstp_bridge *br, unsigned int port)
{
	if (port >= br->nports || !br->ports[port].guard_tripped)
		return -EINVAL;
	recover(br, &br->ports[port], "by management");
	run(br);
	return 0;
}

/* A new region configuration restarts the protocol (as BEGIN would). */
int mstp_set_mcid(struct mstp_bridge *br, const struct mst_config_id *mcid)
{
	br->cfg.mcid = *mcid;
	begin(br);
	return 0;
}

/*
 * 12.12.1 Create and Delete MSTI: the trees that stay move to their new
 * places with their priorities, port priorities and costs; the machines
 * of every tree then start over (BEGIN), as for any new MCID: the VLANs
 * that moved must not forward until their tree agrees again.
 */
int mstp_set_mstis(struct mstp_bridge *br, const uint16_t *mstids,
		   unsigned int n, const struct mst_config_id *mcid)
{
	struct mstp_bridge_config c = br->cfg;
	struct mstp_tree *old_trees = br->trees, *trees;
	struct mstp_pt *old_pts = br->pts, *pts;
	unsigned int old_n = br->ntrees, nt = n + 1;

	if (n > MSTP_MAX_MSTIS)
		return -EINVAL;
	c.nmstis = n;
	memcpy(c.mstids, mstids, n * sizeof(*mstids));
	c.mcid = *mcid;
	if (!config_valid(&c))
		return -EINVAL;
	trees = calloc(nt, sizeof(*trees));
	pts = calloc((size_t)br->nports * nt, sizeof(*pts));
	if (!trees || !pts) {
		free(trees);
		free(pts);
		return -ENOMEM;
	}
	br->trees = trees;
	br->pts = pts;
	br->ntrees = nt;
	br->cfg = c;
	for (unsigned int t = 0; t < nt; t++) {
		uint16_t id = t ? mstids[t - 1] : 0;
		unsigned int o = 0;

		while (o < old_n && old_trees[o].mstid != id)
			o++;
		if (o == old_n) {
			init_tree(br, &trees[t], t, id);
			for (unsigned int i = 0; i < br->nports; i++)
				init_pt(br, i, t);
			continue;
		}
		trees[t] = old_trees[o];
		trees[t].index = t;
		for (unsigned int i = 0; i < br->nports; i++) {
			*PT(br, i, t) = old_pts[i * old_n + o];
			PT(br, i, t)->tree = t;
		}
	}
	free(old_trees);
	free(old_pts);
	mstp_logf(br, MSTP_LOG_INFO, "%u MSTIs now (were %u)", n, old_n - 1);
	begin(br);
	return 0;
}

int mstp_set_bridge_times(struct mstp_bridge *br, unsigned int max_age,
			  unsigned int fwd_delay)
{
	struct mstp_bridge_config c = br->cfg;

	c.max_age = max_age;
	c.fwd_delay = fwd_delay;
	if (!config_valid(&c))
		return -EINVAL;
	br->cfg = c;
	for (unsigned int t = 0; t < br->ntrees; t++)
		mstp_update_bridge_prio(br, &br->trees[t]);
	reselect_all(br);
	run(br);
	return 0;
}

int mstp_set_max_hops(struct mstp_bridge *br, unsigned int hops)
{
	if (hops < MSTP_MIN_MAX_HOPS || hops > MSTP_MAX_MAX_HOPS)
		return -EINVAL;
	br->cfg.max_hops = hops;
	for (unsigned int t = 0; t < br->ntrees; t++)
		mstp_update_bridge_prio(br, &br->trees[t]);
	reselect_all(br);
	run(br);
	return 0;
}

int mstp_set_tx_hold_count(struct mstp_bridge *br, unsigned int n)
{
	if (n < 1 || n > MSTP_MAX_TX_HOLD)
		return -EINVAL;
	br->cfg.tx_hold_count = n;
	run(br);
	return 0;
}

/* 802.1Q leaves it to management; like a new MCID it restarts the
 * machines (sendRSTP, the BPDU format and rstpVersion all change). */
int mstp_set_force_version(struct mstp_bridge *br,
			   enum mstp_force_version v)
{
	struct mstp_bridge_config c = br->cfg;

	c.force_version = v;
	if (!config_valid(&c))
		return -EINVAL;
	br->cfg = c;
	begin(br);
	return 0;
}

int mstp_set_flush_scope(struct mstp_bridge *br, enum mstp_flush_scope s)
{
	if ((unsigned int)s > MSTP_FLUSH_PORT)
		return -EINVAL;
	br->cfg.flush_scope = s;
	return 0;
}

int mstp_mcheck(struct mstp_bridge *br, unsigned int port)
{
	if (port >= br->nports || !rstp_version(br))
		return -EINVAL;
	br->ports[port].mcheck = true;
	run(br);
	return 0;
}

const struct mstp_bridge_config *mstp_config(const struct mstp_bridge *br)
{
	return &br->cfg;
}

unsigned int mstp_nports(const struct mstp_bridge *br)
{
	return br->nports;
}

unsigned int mstp_ntrees(const struct mstp_bridge *br)
{
	return br->ntrees;
}

uint16_t mstp_tree_mstid(const struct mstp_bridge *br, unsigned int tree)
{
	return tree < br->ntrees ? br->trees[tree].mstid : 0;
}

int mstp_tree_index(const struct mstp_bridge *br, uint16_t mstid)
{
	for (unsigned int t = 0; t < br->ntrees; t++)
		if (br->trees[t].mstid == mstid)
			return (int)t;
	return -1;
}

int mstp_get_tree_status(const struct mstp_bridge *br, unsigned int tree,
			 struct mstp_tree_status *st)
{
	const struct mstp_tree *t;

	if (tree >= br->ntrees)
		return -EINVAL;
	t = &br->trees[tree];
	memset(st, 0, sizeof(*st));
	st->mstid = t->mstid;
	st->bridge_id = t->bridge_id;
	st->root_id = t->root_prio.root;
	st->ext_root_path_cost = t->root_prio.ext_cost;
	st->regional_root_id = t->root_prio.rroot;
	st->int_root_path_cost = t->root_prio.int_cost;
	st->root_port = t->root_port;
	st->tc_count = t->tc_count;
	st->last_tc_ms = t->last_tc_ms;
	st->last_tc_port = t->last_tc_port;
	st->remaining_hops = (uint8_t)t->root_times.hops;
	st->max_age = t->root_times.max_age;
	st->fwd_delay = t->root_times.fwd_delay;
	st->message_age = t->root_times.msg_age;
	return 0;
}

int mstp_get_port_status(const struct mstp_bridge *br, unsigned int port,
			 unsigned int tree, struct mstp_port_status *st)
{
	const struct mstp_port *p;
	const struct mstp_pt *pt;

	if (port >= br->nports || tree >= br->ntrees)
		return -EINVAL;
	p = &br->ports[port];
	pt = &br->pts[port * br->ntrees + tree];
	memset(st, 0, sizeof(*st));
	st->role = pt->role;
	st->state = pt->forwarding ? MSTP_FORWARDING :
		    pt->learning ? MSTP_LEARNING : MSTP_DISCARDING;
	st->port_id = pt->port_id;
	st->path_cost = tree ? pt->int_path_cost : p->ext_path_cost;
	st->int_path_cost = pt->int_path_cost;
	st->ext_path_cost = p->ext_path_cost;
	st->int_cost_auto = !pt->admin_int_cost;
	st->ext_cost_auto = !p->admin_ext_cost;
	st->designated_root = tree ? pt->port_prio.rroot : pt->port_prio.root;
	st->designated_ext_cost = pt->port_prio.ext_cost;
	st->designated_rroot = pt->port_prio.rroot;
	st->designated_cost = pt->port_prio.int_cost;
	st->designated_bridge = pt->port_prio.dbridge;
	st->designated_port = pt->port_prio.dport;
	st->info_received = pt->info_is == INFO_RECEIVED;
	st->oper_edge = p->oper_edge;
	st->oper_p2p = p->oper_p2p;
	st->enabled = p->port_enabled;
	st->link_up = p->link_up;
	st->learning = pt->learning;
	st->forwarding = pt->forwarding;
	st->restricted_role = p->restricted_role;
	st->restricted_tcn = p->restricted_tcn;
	st->root_inconsistent = pt->root_inconsistent;
	st->bpdu_guard = p->bpdu_guard;
	st->bpdu_filter = p->bpdu_filter;
	st->loop_guard = p->loop_guard;
	st->guard_tripped = p->guard_tripped;
	st->guard_recovery_in = p->guard_while;
	st->loop_inconsistent = pt->loop_inconsistent;
	st->rapid_ageing = p->rapid_age_while;
	st->last_tc_ms = pt->last_tc_ms;
	st->send_rstp = p->send_rstp;
	st->boundary = p->port_enabled && p->rx_seen && !p->rcvd_internal;
	st->disputed = pt->disputed;
	st->proposing = pt->proposing;
	st->proposed = pt->proposed;
	st->agreed = pt->agreed;
	st->agree = pt->agree;
	st->synced = pt->synced;
	st->sync = pt->sync;
	st->tc_while = pt->tc_while;
	st->counters = p->counters;
	return 0;
}

unsigned long mstp_run_overflows(const struct mstp_bridge *br)
{
	return br->run_overflows;
}

const char *mstp_role_name(enum mstp_role role)
{
	static const char *const names[] = {
		[MSTP_ROLE_DISABLED] = "disabled", [MSTP_ROLE_ROOT] = "root",
		[MSTP_ROLE_DESIGNATED] = "designated",
		[MSTP_ROLE_ALTERNATE] = "alternate",
		[MSTP_ROLE_BACKUP] = "backup", [MSTP_ROLE_MASTER] = "master",
	};

	return (unsigned int)role <= MSTP_ROLE_MASTER ? names[role] : "?";
}

const char *mstp_state_name(enum mstp_port_state state)
{
	static const char *const names[] = {
		[MSTP_DISCARDING] = "discarding",
		[MSTP_LEARNING] = "learning",
		[MSTP_FORWARDING] = "forwarding",
	};

	return (unsigned int)state <= MSTP_FORWARDING ? names[state] : "?";
}

/* 13.26: the timer values the machines use, from the CIST. */
unsigned int mstp_fwd_delay(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return CIST(br, pt)->designated_times.fwd_delay;
}

unsigned int mstp_hello_time(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	(void)br;
	(void)pt;
	return MSTP_HELLO_TIME;
}

unsigned int mstp_forward_delay(struct mstp_bridge *br,
				const struct mstp_pt *pt)
{
	return PORT(br, pt)->send_rstp ? mstp_hello_time(br, pt) :
					 mstp_fwd_delay(br, pt);
}

unsigned int mstp_max_age(struct mstp_bridge *br, const struct mstp_pt *pt)
{
	return CIST(br, pt)->designated_times.max_age;
}

unsigned int mstp_edge_delay(struct mstp_bridge *br,
			     const struct mstp_port *p)
{
	return p->oper_p2p ? MSTP_MIGRATE_TIME :
			     PT(br, p->index, 0)->designated_times.max_age;
}

static int bid_cmp(const struct bridge_id *a, const struct bridge_id *b)
{
	return bridge_id_cmp(a, b);
}

int mstp_prio_cmp(const struct mstp_prio *a, const struct mstp_prio *b)
{
	int c;

	if ((c = bid_cmp(&a->root, &b->root)))
		return c;
	if (a->ext_cost != b->ext_cost)
		return a->ext_cost < b->ext_cost ? -1 : 1;
	if ((c = bid_cmp(&a->rroot, &b->rroot)))
		return c;
	if (a->int_cost != b->int_cost)
		return a->int_cost < b->int_cost ? -1 : 1;
	if ((c = bid_cmp(&a->dbridge, &b->dbridge)))
		return c;
	if (a->dport != b->dport)
		return a->dport < b->dport ? -1 : 1;
	if (a->rport != b->rport)
		return a->rport < b->rport ? -1 : 1;
	return 0;
}

bool mstp_times_equal(const struct mstp_times *a, const struct mstp_times *b)
{
	return a->msg_age == b->msg_age && a->max_age == b->max_age &&
	       a->fwd_delay == b->fwd_delay && a->hello == b->hello &&
	       a->hops == b->hops;
}
