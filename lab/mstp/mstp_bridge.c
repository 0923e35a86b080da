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
	if (c->max_hops < 6 || c->max_hops > 100 || c->tx_hold_count < 1 ||
	    c->tx_hold_count > 10)
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
		if (br->begin) {
			commit_states(br);
			for (unsigned int i = 0; i < br->nports; i++)
				mstp_ptx(br, &br->ports[i]);
			br->begin = false;
			continue;
		}
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
	for (unsigned int t = 0; t < br->ntrees; t++) {
		struct mstp_tree *tr = &br->trees[t];

		tr->index = t;
		tr->mstid = t ? cfg->mstids[t - 1] : 0;
		tr->bridge_id.prio = MSTP_DEF_BRIDGE_PRIO | tr->mstid;
		memcpy(tr->bridge_id.mac, cfg->mac, 6);
		tr->root_port = -1;
		tr->last_tc_port = -1;
		mstp_update_bridge_prio(br, tr);
	}
	for (unsigned int i = 0; i < br->nports; i++) {
		struct mstp_port *p = &br->ports[i];

		p->index = i;
		p->auto_edge = true;
		p->admin_p2p = MSTP_P2P_AUTO;
		p->ext_path_cost = MSTP_DEF_PATH_COST;
		for (unsigned int t = 0; t < br->ntrees; t++) {
			struct mstp_pt *pt = PT(br, i, t);

			pt->port = i;
			pt->tree = t;
			pt->port_id = port_id_make(MSTP_DEF_PORT_PRIO,
						   (uint16_t)(i + 1));
			pt->int_path_cost = MSTP_DEF_PATH_COST;
			pt->designated_times = br->trees[t].bridge_times;
			pt->port_times = br->trees[t].bridge_times;
		}
	}
	begin(br);
	return br;
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
		for (unsigned int t = 0; t < br->ntrees; t++) {
			struct mstp_pt *pt = PT(br, i, t);

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
	if (p->port_enabled != up)
		mstp_logf(br, MSTP_LOG_INFO, "port %u: link %s", port,
			  up ? "up" : "down");
	p->port_enabled = up;
	if (!up)
		p->rx_seen = p->nbr_known = false;
	run(br);
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

int mstp_set_port_path_cost(struct mstp_bridge *br, unsigned int port,
			    unsigned int tree, uint32_t cost)
{
	if (port >= br->nports || tree >= br->ntrees || cost < 1 ||
	    cost > MSTP_MAX_PATH_COST)
		return -EINVAL;
	PT(br, port, tree)->int_path_cost = cost;
	reselect_tree(br, tree);
	run(br);
	return 0;
}

int mstp_set_port_ext_path_cost(struct mstp_bridge *br, unsigned int port,
				uint32_t cost)
{
	if (port >= br->nports || cost < 1 || cost > MSTP_MAX_PATH_COST)
		return -EINVAL;
	br->ports[port].ext_path_cost = cost;
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

/* A new region configuration restarts the protocol (as BEGIN would). */
int mstp_set_mcid(struct mstp_bridge *br, const struct mst_config_id *mcid)
{
	br->cfg.mcid = *mcid;
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
	st->oper_edge = p->oper_edge;
	st->oper_p2p = p->oper_p2p;
	st->enabled = p->port_enabled;
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
