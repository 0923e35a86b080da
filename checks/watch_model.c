// SPDX-License-Identifier: MIT
#include "watch_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpdu.h"
#include "events.h"

int watch_model_init(struct watch_model *m, const struct topo *t,
		     const struct plan *p)
{
	unsigned hello = t->mst.hello_s ? t->mst.hello_s : 2;

	memset(m, 0, sizeof(*m));
	m->t = t;
	m->p = p;
	m->ntrees = 1 + t->mst.n_msti;
	for (size_t s = 0; s < m->ntrees; s++) {
		m->tree_id[s] = topo_tree_id(&t->mst, (int)s);
		m->trees[s].root_node = -1;
	}
	m->tc_hold_ns = 2LL * hello * 1000000000LL;
	m->ports = calloc(t->n_nodes * TOPO_MAX_PORTS * m->ntrees + 1,
			  sizeof(*m->ports));
	m->link_down = calloc(t->n_links + 1, sizeof(*m->link_down));
	if (!m->ports || !m->link_down) {
		watch_model_free(m);
		return -1;
	}
	return 0;
}

void watch_model_free(struct watch_model *m)
{
	free(m->ports);
	free(m->link_down);
	m->ports = NULL;
	m->link_down = NULL;
}

static struct watch_port *slot(const struct watch_model *m, int node,
			       int port, int tree)
{
	return &m->ports[((size_t)node * TOPO_MAX_PORTS + (size_t)port) *
			 m->ntrees + (size_t)tree];
}

const struct watch_port *watch_port_get(const struct watch_model *m,
					int node, int port, int tree)
{
	return slot(m, node, port, tree);
}

static void emit(struct watch_model *m, struct watch_event *e)
{
	m->events++;
	if (m->emit)
		m->emit(m->emit_ctx, e);
}

static void event_init(struct watch_event *e, enum watch_kind kind,
		       int64_t ns)
{
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->ns = ns;
	e->tree = e->node = e->port = e->link = -1;
	e->root_node = e->was_root_node = -1;
}

int watch_node_of_bridge(const struct watch_model *m, uint64_t id)
{
	int node = plan_node_of_bridge_id(m->p, id);

	return node >= 0 ? node : -2;
}

static bool live(const struct watch_port *wp)
{
	return wp->last_ns && wp->state != WATCH_DOWN;
}

/* The root most live ports advertise (ties: the better id), and TC. */
static void tree_update(struct watch_model *m, int tree, int64_t ns,
			int by_node, int by_port)
{
	struct watch_tree *wt = &m->trees[tree], now = { .root_node = -1 };
	uint64_t seen[64];
	unsigned count[64] = { 0 }, best = 0;
	size_t n = 0;
	struct watch_event e;

	for (size_t i = 0; i < m->t->n_nodes; i++)
		for (size_t j = 0; j < m->t->nodes[i].n_ports; j++) {
			const struct watch_port *wp =
				slot(m, (int)i, (int)j, tree);
			size_t k;

			if (!live(wp))
				continue;
			now.tc |= wp->tc;
			for (k = 0; k < n && seen[k] != wp->root; k++)
				;
			if (k == n && n < 64)
				seen[n++] = wp->root;
			if (k < 64)
				count[k]++;
		}
	for (size_t k = 0; k < n; k++)
		if (count[k] > best || (count[k] == best && seen[k] < now.root)) {
			best = count[k];
			now.root = seen[k];
		}
	if (best)
		now.root_node = watch_node_of_bridge(m, now.root);
	if (now.root != wt->root) {
		event_init(&e, WATCH_EV_ROOT, ns);
		e.tree = tree;
		e.root = now.root;
		e.root_node = now.root_node;
		e.was_root = wt->root;
		e.was_root_node = wt->root_node;
		wt->root = now.root;
		wt->root_node = now.root_node;
		emit(m, &e);
	}
	if (now.tc != wt->tc) {
		event_init(&e, WATCH_EV_TC, ns);
		e.tree = tree;
		e.on = now.tc;
		e.node = by_node;
		e.port = by_port;
		wt->tc = now.tc;
		emit(m, &e);
	}
}

static void port_update(struct watch_model *m, int64_t ns, int node, int port,
			int tree, int link, const struct watch_port *adv);

/* The port at the other end of node:port's link. */
static const struct watch_port *peer(const struct watch_model *m, int node,
				     int port, int tree)
{
	const struct topo_link *tl =
		&m->t->links[m->t->nodes[node].ports[port].link];
	int e = tl->end[0].node == node && tl->end[0].port == port;

	return slot(m, tl->end[e].node, tl->end[e].port, tree);
}

/* node:port became root port: node's previous root port went quiet as
 * an alternate if a designated port faces it (watch_model.h). */
static void old_root_port(struct watch_model *m, int64_t ns, int node,
			  int port, int tree)
{
	for (size_t j = 0; j < m->t->nodes[node].n_ports; j++) {
		const struct watch_port *wp = slot(m, node, (int)j, tree);
		const struct watch_port *pp;
		struct watch_port alt;
		struct watch_event e;

		if ((int)j == port || !live(wp) || wp->role != WATCH_ROLE_ROOT ||
		    m->t->nodes[node].ports[j].link < 0)
			continue;
		pp = peer(m, node, (int)j, tree);
		if (!live(pp) || pp->role != WATCH_ROLE_DESIGNATED)
			continue;
		alt = *wp;
		alt.role = WATCH_ROLE_ALTERNATE;
		alt.state = WATCH_DISCARDING;
		alt.tc = false;
		event_init(&e, WATCH_EV_PORT, ns);
		e.tree = tree;
		e.node = node;
		e.port = (int)j;
		e.link = m->t->nodes[node].ports[j].link;
		e.was = *wp;
		e.now = alt;
		e.inferred = true;
		*slot(m, node, (int)j, tree) = alt;
		emit(m, &e);
	}
}

/* A port's advertisement for one tree. */
static void port_update(struct watch_model *m, int64_t ns, int node, int port,
			int tree, int link, const struct watch_port *adv)
{
	struct watch_port *wp = slot(m, node, port, tree);
	struct watch_event e;

	if (adv->role == WATCH_ROLE_ROOT && wp->role != WATCH_ROLE_ROOT)
		old_root_port(m, ns, node, port, tree);

	if (wp->role != adv->role || wp->state != adv->state ||
	    wp->root != adv->root) {
		event_init(&e, WATCH_EV_PORT, ns);
		e.tree = tree;
		e.node = node;
		e.port = port;
		e.link = link;
		e.was = *wp;
		e.now = *adv;
		*wp = *adv;
		emit(m, &e);
	} else {
		*wp = *adv;
	}
	tree_update(m, tree, ns, node, port);
}

static struct watch_port advert(const struct bpdu_flags *f, uint64_t root,
				int64_t ns, bool has_role)
{
	struct watch_port a = {
		.role = has_role ? (uint8_t)f->role : WATCH_ROLE_NONE,
		.state = f->forwarding ? WATCH_FORWARDING :
			 f->learning ? WATCH_LEARNING : WATCH_DISCARDING,
		.tc = f->tc,
		.root = root,
		.last_ns = ns,
	};

	if (!has_role)
		a.state = WATCH_UNKNOWN;	/* STP: no state on the wire */
	return a;
}

static void unknown_sender(struct watch_model *m, int64_t ns, int link,
			   const uint8_t mac[6])
{
	struct watch_event e;

	m->unknown++;
	for (size_t i = 0; i < m->n_unknown; i++)
		if (!memcmp(m->unknown_mac[i], mac, 6))
			return;	/* said once: a stranger talks every hello */
	if (m->n_unknown < WATCH_MAX_UNKNOWN)
		memcpy(m->unknown_mac[m->n_unknown++], mac, 6);
	event_init(&e, WATCH_EV_UNKNOWN_SENDER, ns);
	e.link = link;
	memcpy(e.src, mac, 6);
	emit(m, &e);
}

void watch_frame(struct watch_model *m, int64_t ns, int link,
		 const uint8_t *frame, size_t len)
{
	struct bpdu_frame f;
	struct watch_event e;
	struct bpdu b;
	enum bpdu_err err;
	int node, port;

	if (len < 6 || memcmp(frame, bpdu_group_addr, 6))
		return;
	watch_tick(m, ns);
	err = bpdu_frame_decode(frame, len, &f, &b);
	if (err != BPDU_OK) {
		m->bad++;
		event_init(&e, WATCH_EV_BAD_BPDU, ns);
		e.link = link;
		e.error = bpdu_strerror(err);
		if (len >= 12) {
			memcpy(e.src, frame + 6, 6);
			if (plan_port_of_mac(m->p, e.src, &node, &port)) {
				e.node = node;
				e.port = port;
			}
		}
		emit(m, &e);
		return;
	}
	m->bpdus++;
	if (!plan_port_of_mac(m->p, f.src, &node, &port)) {
		unknown_sender(m, ns, link, f.src);
		return;
	}
	if (b.type == BPDU_TYPE_TCN) {
		/* Towards the root: CIST TC, nothing else is on the wire. */
		struct watch_port a = *slot(m, node, port, 0);

		a.tc = true;
		a.last_ns = ns;
		port_update(m, ns, node, port, 0, link, &a);
		return;
	}
	{
		struct watch_port a = advert(&b.flags,
					     bridge_id_u64(&b.root_id), ns,
					     b.type != BPDU_TYPE_CONFIG);

		port_update(m, ns, node, port, 0, link, &a);
	}
	for (unsigned i = 0; i < b.msti_count; i++) {
		const struct bpdu_msti *mi = &b.msti[i];
		int s = topo_tree_slot(&m->t->mst, bpdu_msti_mstid(mi));
		struct watch_port a;

		if (s <= 0 || (size_t)s >= m->ntrees)
			continue;
		a = advert(&mi->flags, bridge_id_u64(&mi->regional_root), ns,
			   true);
		port_update(m, ns, node, port, s, link, &a);
	}
}

void watch_tick(struct watch_model *m, int64_t ns)
{
	if (ns <= m->now_ns)
		return;
	m->now_ns = ns;
	for (size_t tree = 0; tree < m->ntrees; tree++) {
		int by_node = -1, by_port = -1;

		if (!m->trees[tree].tc)
			continue;
		for (size_t i = 0; i < m->t->n_nodes; i++)
			for (size_t j = 0; j < m->t->nodes[i].n_ports; j++) {
				struct watch_port *wp = slot(m, (int)i, (int)j,
							     (int)tree);

				if (wp->tc && ns - wp->last_ns > m->tc_hold_ns) {
					wp->tc = false;
					by_node = (int)i;
					by_port = (int)j;
				}
			}
		if (by_node >= 0)
			tree_update(m, (int)tree, ns, by_node, by_port);
	}
}

static int link_by_index(const struct watch_model *m, unsigned index)
{
	for (size_t l = 0; l < m->t->n_links; l++)
		if (m->t->links[l].index == index)
			return (int)l;
	return -1;
}

/* Both ends of a failed link are down in every tree until restored;
 * after a restore they are unknown until they speak again. */
static void link_change(struct watch_model *m, int64_t ns, int link, bool up)
{
	const struct topo_link *tl = &m->t->links[link];

	m->link_down[link] = !up;
	for (int e = 0; e < 2; e++)
		for (size_t tree = 0; tree < m->ntrees; tree++) {
			struct watch_port *wp = slot(m, tl->end[e].node,
						     tl->end[e].port,
						     (int)tree);

			wp->state = up ? WATCH_UNKNOWN : WATCH_DOWN;
			wp->tc = false;
			if (up)
				wp->last_ns = 0;
		}
	for (size_t tree = 0; tree < m->ntrees; tree++)
		tree_update(m, (int)tree, ns, tl->end[0].node,
			    tl->end[0].port);
}

void watch_event_line(struct watch_model *m, const char *line)
{
	struct watch_event e;
	struct event ev;

	if (event_parse(line, &ev))
		return;
	event_init(&e, WATCH_EV_LAB, ev.ns);
	snprintf(e.kind_word, sizeof(e.kind_word), "%s", ev.word);
	snprintf(e.arg, sizeof(e.arg), "%s", ev.arg);
	watch_tick(m, ev.ns);
	if (event_is_link(&ev) && (e.link = link_by_index(m, ev.link)) >= 0) {
		e.kind = WATCH_EV_LINK;
		e.on = ev.kind == EVENT_LINK_UP;
		/* The event first, then what it did to the trees. */
		emit(m, &e);
		link_change(m, ev.ns, e.link, e.on);
		return;
	}
	emit(m, &e);
}

const char *watch_role_name(unsigned role)
{
	static const char *const names[] = { "master", "alternate", "root",
					     "designated", "none" };

	return role < 5 ? names[role] : "?";
}

const char *watch_state_name(unsigned state)
{
	static const char *const names[] = { "unknown", "discarding",
					     "learning", "forwarding", "down" };

	return state < 5 ? names[state] : "?";
}

const char *watch_tree_name(const struct watch_model *m, int tree, char *buf,
			    size_t len)
{
	if (tree <= 0)
		snprintf(buf, len, "cist");
	else
		snprintf(buf, len, "msti %u", m->tree_id[tree]);
	return buf;
}
