// SPDX-License-Identifier: MIT
#include "mstp_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frame {
	struct frame *next;
	unsigned int link;
	bool from_a;
	unsigned long gen;		/* the sender's region_gen */
	uint64_t at_us;			/* timed model: when it arrives */
	size_t len;
	uint8_t data[BPDU_MST_MAX_LEN];
};

/* One global queue: the simulation is single threaded.  The instant
 * model delivers it in order; the timed model keeps it in order of
 * arrival time (a frame after those due no later). */
static struct frame *q_head, *q_tail;

/* Timed model: when a frame sent now on @link arrives, in FIFO order per
 * direction. */
static uint64_t arrival(struct sim *sim, unsigned int link, bool from_a)
{
	struct sim_model *m = &sim->model;
	uint64_t at = m->now_us + m->latency_us, *last;

	if (m->jitter_us)
		at += sim_rnd(&m->rng, m->jitter_us + 1);
	last = &m->last_at_us[link][!from_a];
	if (at < *last)
		at = *last;
	*last = at;
	return at;
}

static void enqueue(struct sim *sim, struct frame *f)
{
	struct frame **pp = &q_head;

	if (!sim->model.timed || !q_tail || q_tail->at_us <= f->at_us) {
		if (q_tail)
			q_tail->next = f;
		else
			q_head = f;
		q_tail = f;
		return;
	}
	while ((*pp)->at_us <= f->at_us)
		pp = &(*pp)->next;
	f->next = *pp;
	*pp = f;
}

bool sim_next_frame_us(uint64_t *at_us)
{
	if (q_head)
		*at_us = q_head->at_us;
	return q_head != NULL;
}

static struct sim_node *node_of(void *ctx)
{
	return ctx;
}

static void sim_tx(void *ctx, unsigned int port, const uint8_t *bpdu,
		   size_t len)
{
	struct sim_node *n = node_of(ctx);
	struct sim *sim = n->sim;
	struct bpdu b;

	if (sim->npending[n->index])
		sim->uncommitted++;
	if (port < SIM_MAX_PORTS && len <= BPDU_MST_MAX_LEN) {
		memcpy(sim->last_tx[n->index][port], bpdu, len);
		sim->last_tx_len[n->index][port] = len;
	}
	if (sim->ntx < SIM_MAX_TXLOG && bpdu_decode(bpdu, len, &b) == BPDU_OK) {
		struct sim_tx *t = &sim->txlog[sim->ntx++];

		*t = (struct sim_tx){ n->index, port, b.flags.tc, ++sim->seq };
		for (unsigned int i = 0; i < b.msti_count; i++)
			t->tc_trees |= (unsigned int)b.msti[i].flags.tc << (i + 1);
	}
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		struct sim_link *k = &sim->links[l];
		bool from_a = k->a == n->index && k->pa == port;
		bool from_b = k->b == n->index && k->pb == port;
		struct frame *f;

		if (!(from_a || from_b) || !k->up)
			continue;
		if ((from_a && k->drop_a_to_b) || (from_b && k->drop_b_to_a))
			continue;
		f = calloc(1, sizeof(*f));
		if (!f)
			abort();
		f->link = l;
		f->from_a = from_a;
		f->gen = sim->region_gen[n->index];
		f->len = len;
		memcpy(f->data, bpdu, len);
		if (sim->model.timed)
			f->at_us = arrival(sim, l, from_a);
		enqueue(sim, f);
	}
}

static void sim_set_state(void *ctx, unsigned int port, uint16_t mstid,
			  enum mstp_port_state state)
{
	struct sim_node *n = node_of(ctx);
	struct sim *sim = n->sim;
	unsigned int t;

	for (t = 0; t < n->ntrees; t++)
		if (n->mstids[t] == mstid)
			break;
	if (t == n->ntrees)
		abort();
	if (port >= SIM_MAX_PORTS)
		return;
	if (sim->pending[n->index][port][t] != state)
		sim->state_changes++;
	sim->pending[n->index][port][t] = state;
	if (sim->immediate) {
		sim->state[n->index][port][t] = state;
		return;
	}
	sim->npending[n->index]++;
}

static void sim_commit_states(void *ctx)
{
	struct sim_node *n = node_of(ctx);
	struct sim *sim = n->sim;

	sim->commits++;
	if (!sim->npending[n->index])
		return;
	memcpy(sim->state[n->index], sim->pending[n->index],
	       sizeof(sim->state[n->index]));
	sim->npending[n->index] = 0;
}

static void sim_flush(void *ctx, unsigned int port, int mstid)
{
	struct sim_node *n = node_of(ctx);
	struct sim *sim = n->sim;

	if (sim->npending[n->index])
		sim->uncommitted++;
	if (sim->nflushes < SIM_MAX_FLUSH)
		sim->flushes[sim->nflushes++] =
			(struct sim_flush){ n->index, port, mstid, ++sim->seq };
}

static void sim_log(void *ctx, enum mstp_log_level level, const char *msg)
{
	struct sim_node *n = node_of(ctx);

	(void)level;
	if (!n->sim->verbose)
		return;
	if (n->sim->model.timed)
		printf("# [%llu.%03u ms] B%u: %s\n",
		       (unsigned long long)(n->sim->model.now_us / 1000),
		       (unsigned int)(n->sim->model.now_us % 1000), n->index,
		       msg);
	else
		printf("# [%lu ms] B%u: %s\n", n->sim->now_ms, n->index, msg);
}

static uint64_t sim_now(void *ctx)
{
	return node_of(ctx)->sim->now_ms;
}

static void sim_rapid_ageing(void *ctx, unsigned int port, unsigned int secs)
{
	struct sim_node *n = node_of(ctx);

	if (port < SIM_MAX_PORTS)
		n->sim->rapid[n->index][port] = secs;
	n->sim->rapid_calls++;
}

static const struct mstp_ops sim_ops = {
	.tx_bpdu = sim_tx,
	.set_state = sim_set_state,
	.flush = sim_flush,
	.commit_states = sim_commit_states,
	.log = sim_log,
	.now_ms = sim_now,
	.rapid_ageing = sim_rapid_ageing,
};

/* For the core's other contract: set_state() applies at once. */
static const struct mstp_ops sim_ops_immediate = {
	.tx_bpdu = sim_tx,
	.set_state = sim_set_state,
	.flush = sim_flush,
	.log = sim_log,
	.now_ms = sim_now,
	.rapid_ageing = sim_rapid_ageing,
};

void sim_config(struct mstp_bridge_config *cfg, unsigned int index,
		unsigned int nports, const uint16_t *mstids,
		unsigned int nmstis, const struct mst_vid_table *table)
{
	static const struct mst_vid_table empty;
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0, (uint8_t)(index + 1) };

	mstp_bridge_config_default(cfg, mac);
	cfg->nports = nports;
	cfg->nmstis = nmstis;
	for (unsigned int i = 0; i < nmstis; i++)
		cfg->mstids[i] = mstids[i];
	if (mst_config_id_init(&cfg->mcid, "lab", 1, table ? table : &empty))
		abort();
	cfg->log_level = MSTP_LOG_DEBUG;
}

void sim_reset(struct sim *sim)
{
	sim_free(sim);
	memset(sim, 0, sizeof(*sim));
	sim->verbose = getenv("MSTP_VERBOSE") != NULL;
}

/* @vids is what @cfg's digest says, and names only MSTIs @cfg has. */
static bool vids_match(const struct mstp_bridge_config *cfg,
		       const struct mst_vid_table *vids)
{
	uint8_t digest[MST_CONFIG_DIGEST_LEN];

	if (mst_config_digest(vids, digest) ||
	    memcmp(digest, cfg->mcid.digest, sizeof(digest)))
		return false;
	for (unsigned int v = 0; v < MST_VID_COUNT; v++) {
		unsigned int t = 0;

		while (vids->mstid[v] && t < cfg->nmstis &&
		       cfg->mstids[t] != vids->mstid[v])
			t++;
		if (vids->mstid[v] && t == cfg->nmstis)
			return false;
	}
	return true;
}

bool sim_add_bridge(struct sim *sim, const struct mstp_bridge_config *cfg,
		    const struct mst_vid_table *vids)
{
	static const struct mst_vid_table cist_only;
	unsigned int i = sim->nbridges;

	if (!vids)
		vids = &cist_only;
	if (i >= SIM_MAX_BRIDGES || !vids_match(cfg, vids))
		return false;
	sim->node[i] = (struct sim_node){ .sim = sim, .index = i,
					  .ntrees = cfg->nmstis + 1,
					  .vids = *vids };
	for (unsigned int t = 0; t < cfg->nmstis; t++)
		sim->node[i].mstids[t + 1] = cfg->mstids[t];
	sim->br[i] = mstp_bridge_new(cfg, sim->immediate ? &sim_ops_immediate
						       : &sim_ops,
				     &sim->node[i]);
	if (!sim->br[i])
		return false;
	sim->nbridges++;
	sim_check_classes(sim);
	return true;
}

bool sim_set_mstis(struct sim *sim, unsigned int b, const uint16_t *mstids,
		   unsigned int n, const struct mst_vid_table *vids,
		   const struct mst_config_id *mcid)
{
	struct sim_node *node = &sim->node[b];
	struct sim_node old = *node;
	char event[48];

	if (b >= sim->nbridges || n > MSTP_MAX_MSTIS)
		return false;
	/* The ops name trees by MSTID: the node knows the new ones first. */
	node->ntrees = n + 1;
	for (unsigned int t = 0; t < n; t++)
		node->mstids[t + 1] = mstids[t];
	node->vids = *vids;
	/* Before the core's BEGIN: its first BPDUs carry the new region. */
	sim->region_gen[b]++;
	if (mstp_set_mstis(sim->br[b], mstids, n, mcid)) {
		*node = old;
		sim->region_gen[b]--;
		return false;
	}
	sim_check_classes(sim);
	snprintf(event, sizeof(event), "B%u's MSTIs changed", b);
	sim_check_loops(sim, event);
	return true;
}

unsigned int sim_connect(struct sim *sim, unsigned int a, unsigned int pa,
			 unsigned int b, unsigned int pb)
{
	sim->links[sim->nlinks] = (struct sim_link){ a, pa, b, pb, false,
						     false, false };
	return sim->nlinks++;
}

static void drop_link_frames(unsigned int link)
{
	struct frame **pp = &q_head;

	q_tail = NULL;
	while (*pp) {
		if ((*pp)->link == link) {
			struct frame *dead = *pp;

			*pp = dead->next;
			free(dead);
		} else {
			q_tail = *pp;
			pp = &(*pp)->next;
		}
	}
}

void sim_link_medium(struct sim *sim, unsigned int link, bool up)
{
	sim->links[link].up = up;
	if (!up)
		drop_link_frames(link);
}

void sim_link_set(struct sim *sim, unsigned int link, bool up)
{
	struct sim_link *k = &sim->links[link];

	char event[64];

	k->up = up;
	if (!up)
		drop_link_frames(link);
	snprintf(event, sizeof(event), "L%u %s at B%u", link,
		 up ? "up" : "down", k->a);
	mstp_port_set_link(sim->br[k->a], k->pa, up, true);
	sim_check_loops(sim, event);
	snprintf(event, sizeof(event), "L%u %s at B%u", link,
		 up ? "up" : "down", k->b);
	mstp_port_set_link(sim->br[k->b], k->pb, up, true);
	sim_check_loops(sim, event);
}

void sim_all_up(struct sim *sim)
{
	for (unsigned int l = 0; l < sim->nlinks; l++)
		sim_link_set(sim, l, true);
}

/* With MSTP_VERBOSE set: the first 36 octets of each BPDU delivered. */
static void dump(unsigned int b, unsigned int p, const struct frame *f)
{
	printf("# B%u p%u <-", b, p);
	for (size_t i = 0; i < f->len && i < 36; i++)
		printf(" %02x", f->data[i]);
	printf("\n");
}

static void check_rx(struct sim *sim, unsigned int b, unsigned int p)
{
	char event[64];

	if (sim->check.off && !sim->check.observe)
		return;
	snprintf(event, sizeof(event), "BPDU #%lu to B%u.p%u", sim->delivered,
		 b, p);
	sim_check_loops(sim, event);
}

/* In the timed model: only those due by now. */
unsigned long sim_deliver(struct sim *sim, unsigned long max)
{
	unsigned long n = 0;

	while (q_head && n < max &&
	       (!sim->model.timed || q_head->at_us <= sim->model.now_us)) {
		struct frame *f = q_head;
		struct sim_link *k = &sim->links[f->link];

		q_head = f->next;
		if (!q_head)
			q_tail = NULL;
		if (k->up) {
			unsigned int b = f->from_a ? k->b : k->a;
			unsigned int p = f->from_a ? k->pb : k->pa;

			if (sim->verbose)
				dump(b, p, f);
			sim->heard_gen[b][p] = f->gen;
			mstp_rx_bpdu(sim->br[b], p, f->data, f->len);
			n++;
			sim->delivered++;
			check_rx(sim, b, p);
		}
		free(f);
	}
	return n;
}

void sim_advance(struct sim *sim, unsigned int secs)
{
	if (sim->model.timed) {
		sim_run_until(sim, sim->model.now_us + 1000000ull * secs);
		return;
	}
	for (unsigned int s = 0; s < secs; s++) {
		sim->now_ms += 1000;
		for (unsigned int i = 0; i < sim->nbridges; i++) {
			char event[32];

			mstp_tick(sim->br[i]);
			snprintf(event, sizeof(event), "B%u's tick", i);
			sim_check_loops(sim, event);
		}
		sim_deliver(sim, 100000);
	}
}

void sim_free(struct sim *sim)
{
	while (q_head) {
		struct frame *f = q_head;

		q_head = f->next;
		free(f);
	}
	q_tail = NULL;
	for (unsigned int i = 0; i < sim->nbridges; i++)
		mstp_bridge_free(sim->br[i]);
	sim->nbridges = 0;
}

struct mstp_port_status sim_port_status(struct sim *sim, unsigned int b,
					unsigned int p, unsigned int tree)
{
	struct mstp_port_status st;

	memset(&st, 0xff, sizeof(st));
	mstp_get_port_status(sim->br[b], p, tree, &st);
	return st;
}

struct mstp_tree_status sim_tree_status(struct sim *sim, unsigned int b,
					unsigned int t)
{
	struct mstp_tree_status st;

	memset(&st, 0xff, sizeof(st));
	mstp_get_tree_status(sim->br[b], t, &st);
	return st;
}

enum mstp_role sim_role(struct sim *sim, unsigned int b, unsigned int p,
			unsigned int tree)
{
	struct mstp_port_status st;

	if (mstp_get_port_status(sim->br[b], p, tree, &st))
		return (enum mstp_role)-1;
	return st.role;
}

enum mstp_port_state sim_state(struct sim *sim, unsigned int b,
			       unsigned int p, unsigned int tree)
{
	return sim->state[b][p][tree];
}

unsigned int sim_flush_count(struct sim *sim, unsigned int b,
			     unsigned int p, int mstid)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < sim->nflushes; i++)
		if (sim->flushes[i].bridge == b && sim->flushes[i].port == p &&
		    sim->flushes[i].mstid == mstid)
			n++;
	return n;
}

bool sim_last_bpdu(struct sim *sim, unsigned int b, unsigned int p,
		   struct bpdu *out)
{
	return sim->last_tx_len[b][p] &&
	       bpdu_decode(sim->last_tx[b][p], sim->last_tx_len[b][p],
			   out) == BPDU_OK;
}
