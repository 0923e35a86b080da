// SPDX-License-Identifier: MIT
/*
 * The tree-state engine's inputs: frames (decoded, placed on a port)
 * and events, into the history, the live state, or both; and the live
 * state's changes, found by running the rules again and comparing.
 */
#include "trees.h"

#include <stdlib.h>
#include <string.h>

#include "trees_priv.h"

static size_t nports(const struct trees *tr)
{
	return tr->t->n_nodes * TOPO_MAX_PORTS;
}

static struct tree_own *own_of(struct trees *tr, int tree)
{
	return &tr->own[(size_t)tree * nports(tr)];
}

int tree_view_alloc(const struct trees *tr, struct tree_view *v)
{
	memset(v, 0, sizeof(*v));
	v->root_node = v->root_by_node = v->root_by_port = -1;
	v->port = calloc(nports(tr) + 1, sizeof(*v->port));
	return v->port ? 0 : -1;
}

void tree_view_free(struct tree_view *v)
{
	free(v->port);
	v->port = NULL;
}

static int live_init(struct trees *tr)
{
	tr->own = calloc(tr->ntrees * nports(tr) + 1, sizeof(*tr->own));
	tr->down = calloc(tr->t->n_links + 1, sizeof(*tr->down));
	tr->now = calloc(tr->ntrees, sizeof(*tr->now));
	if (!tr->own || !tr->down || !tr->now ||
	    tree_view_alloc(tr, &tr->scratch))
		return -1;
	for (size_t s = 0; s < tr->ntrees; s++) {
		if (tree_view_alloc(tr, &tr->now[s]))
			return -1;
		trees_compute(tr, 0, own_of(tr, (int)s), tr->down,
			      s ? &tr->now[0] : NULL, &tr->now[s]);
	}
	return 0;
}

int trees_init(struct trees *tr, const struct topo *t, const struct plan *p,
	       unsigned flags)
{
	unsigned hello = t->mst.hello_s ? t->mst.hello_s : 2;

	memset(tr, 0, sizeof(*tr));
	tr->t = t;
	tr->p = p;
	tr->flags = flags;
	tr->ntrees = 1 + t->mst.n_msti;
	for (size_t s = 0; s < tr->ntrees; s++)
		tr->tree_id[s] = topo_tree_id(&t->mst, (int)s);
	tr->tc_hold_ns = 2LL * hello * 1000000000LL;
	if (((flags & TREES_KEEP) && trees_history_init(tr)) ||
	    ((flags & TREES_LIVE) && live_init(tr))) {
		trees_free(tr);
		return -1;
	}
	return 0;
}

void trees_free(struct trees *tr)
{
	trees_history_free(tr);
	if (tr->now)
		for (size_t s = 0; s < tr->ntrees; s++)
			tree_view_free(&tr->now[s]);
	tree_view_free(&tr->scratch);
	free(tr->now);
	free(tr->own);
	free(tr->down);
	tr->now = NULL;
	tr->own = NULL;
	tr->down = NULL;
}

const struct tree_view *trees_now(const struct trees *tr, int tree)
{
	return &tr->now[tree];
}

const struct tree_port *trees_port_now(const struct trees *tr, int node,
				       int port, int tree)
{
	return tree_view_port(&tr->now[tree], node, port);
}

int trees_node_of_bridge(const struct trees *tr, uint64_t id)
{
	int node = plan_node_of_bridge_id(tr->p, id);

	return node >= 0 ? node : -2;
}

const char *trees_tree_name(const struct trees *tr, int tree, char *buf,
			    size_t len)
{
	if (tree <= 0)
		snprintf(buf, len, "cist");
	else
		snprintf(buf, len, "msti %u", tr->tree_id[tree]);
	return buf;
}

bool trees_peer(const struct trees *tr, int node, int port, int *pnode,
		int *pport)
{
	int link = tr->t->nodes[node].ports[port].link;
	const struct topo_link *tl;
	int e;

	if (link < 0)
		return false;
	tl = &tr->t->links[link];
	e = tl->end[0].node == node && tl->end[0].port == port;
	*pnode = tl->end[e].node;
	*pport = tl->end[e].port;
	return true;
}

static void emit(struct trees *tr, const struct trees_change *c)
{
	tr->changes++;
	if (tr->emit)
		tr->emit(tr->emit_ctx, c);
}

static void change_init(struct trees_change *c, enum trees_change_kind kind,
			int64_t ns)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->ns = ns;
	c->tree = c->node = c->port = c->link = -1;
	c->root_node = c->was_root_node = -1;
}

/* Role, state, root, or whether it is deduced: what a reader of the
 * port sees change. A port that is down shows only that (the link event
 * says so). */
static bool port_changed(const struct tree_port *was,
			 const struct tree_port *now)
{
	return !was->down && !now->down &&
	       (was->role != now->role || was->state != now->state ||
		was->root != now->root || was->inferred != now->inferred);
}

static void emit_port(struct trees *tr, int tree, int64_t ns, int node,
		      int port, const struct tree_port *was,
		      const struct tree_port *now)
{
	struct trees_change c;

	if (!port_changed(was, now))
		return;
	change_init(&c, TREES_PORT, ns);
	c.tree = tree;
	c.node = node;
	c.port = port;
	c.link = tr->t->nodes[node].ports[port].link;
	c.was = *was;
	c.now = *now;
	emit(tr, &c);
}

/*
 * The tree's rules run again; every difference from the state before is
 * a change: other ports' (deductions) first, then the port that spoke
 * (by_node:by_port, or -1), then the root, then TC. An MSTI's rules
 * read the CIST's state now: run the CIST's first.
 */
static void recompute(struct trees *tr, int tree, int64_t ns, int by_node,
		      int by_port)
{
	struct tree_view *now = &tr->now[tree], *next = &tr->scratch, swap;
	struct trees_change c;

	trees_compute(tr, ns, own_of(tr, tree), tr->down,
		      tree ? &tr->now[0] : NULL, next);
	for (size_t i = 0; i < tr->t->n_nodes; i++)
		for (size_t j = 0; j < tr->t->nodes[i].n_ports; j++)
			if ((int)i != by_node || (int)j != by_port)
				emit_port(tr, tree, ns, (int)i, (int)j,
					  tree_view_port(now, (int)i, (int)j),
					  tree_view_port(next, (int)i, (int)j));
	if (by_node >= 0)
		emit_port(tr, tree, ns, by_node, by_port,
			  tree_view_port(now, by_node, by_port),
			  tree_view_port(next, by_node, by_port));
	if (next->root != now->root) {
		change_init(&c, TREES_ROOT, ns);
		c.tree = tree;
		c.root = next->root;
		c.root_node = next->root_node;
		c.was_root = now->root;
		c.was_root_node = now->root_node;
		emit(tr, &c);
	}
	if (next->tc != now->tc) {
		change_init(&c, TREES_TC, ns);
		c.tree = tree;
		c.on = next->tc;
		c.node = by_node;
		c.port = by_port;
		emit(tr, &c);
	}
	swap = *now;
	*now = *next;
	*next = swap;
}

void trees_tick(struct trees *tr, int64_t ns)
{
	if (!(tr->flags & TREES_LIVE) || ns <= tr->now_ns)
		return;
	tr->now_ns = ns;
	for (size_t tree = 0; tree < tr->ntrees; tree++) {
		const struct tree_own *own = own_of(tr, (int)tree);
		int by_node = -1, by_port = -1;

		if (!tr->now[tree].tc)
			continue;
		for (size_t i = 0; i < tr->t->n_nodes; i++)
			for (size_t j = 0; j < tr->t->nodes[i].n_ports; j++) {
				const struct tree_own *o =
					&own[i * TOPO_MAX_PORTS + j];

				if (tree_view_port(&tr->now[tree], (int)i,
						   (int)j)->tc &&
				    ns - o->tc_ns > tr->tc_hold_ns) {
					by_node = (int)i;
					by_port = (int)j;
				}
			}
		if (by_node >= 0)
			recompute(tr, (int)tree, ns, by_node, by_port);
	}
}

/* A port's word for one tree: into the history and the live state
 * (the rules run once the whole BPDU is in: recompute_all). */
static void heard(struct trees *tr, int node, int port, int tree,
		  const struct tree_adv *a)
{
	if (tr->flags & TREES_KEEP)
		trees_history_add(tr, node, port, tree, a);
	if (tr->flags & TREES_LIVE) {
		struct tree_own *o =
			&own_of(tr, tree)[(size_t)node * TOPO_MAX_PORTS + port];

		o->adv = *a;
		o->tc = a->tc;
		o->tc_ns = a->ns;
	}
}

/* A TCN: towards the root, CIST TC and nothing else on the wire. */
static void heard_tcn(struct trees *tr, int node, int port,
		      const struct tree_adv *a)
{
	if (tr->flags & TREES_KEEP)
		trees_history_add_tcn(tr, node, port, a);
	if (tr->flags & TREES_LIVE) {
		struct tree_own *o =
			&own_of(tr, 0)[(size_t)node * TOPO_MAX_PORTS + port];

		o->tc = true;
		o->tc_ns = a->ns;
	}
}

/* Every tree after node:port spoke, the CIST first: a BPDU without an
 * MSTI, or a CIST role that moved, changes the MSTIs too. */
static void recompute_all(struct trees *tr, int64_t ns, int node, int port)
{
	if (!(tr->flags & TREES_LIVE))
		return;
	for (size_t tree = 0; tree < tr->ntrees; tree++)
		recompute(tr, (int)tree, ns, node, port);
}

static void unknown_sender(struct trees *tr, int64_t ns, int link,
			   const uint8_t mac[6])
{
	struct trees_change c;

	tr->unknown++;
	for (size_t i = 0; i < tr->n_unknown; i++)
		if (!memcmp(tr->unknown_mac[i], mac, 6))
			return;	/* said once: a stranger talks every hello */
	if (tr->n_unknown < TREES_MAX_UNKNOWN)
		memcpy(tr->unknown_mac[tr->n_unknown++], mac, 6);
	change_init(&c, TREES_UNKNOWN_SENDER, ns);
	c.link = link;
	memcpy(c.src, mac, 6);
	emit(tr, &c);
}

static void bad_bpdu(struct trees *tr, int64_t ns, int link,
		     const uint8_t *frame, enum bpdu_err err)
{
	struct trees_change c;
	int node, port;

	tr->bad++;
	change_init(&c, TREES_BAD_BPDU, ns);
	c.link = link;
	c.error = bpdu_strerror(err);
	memcpy(c.src, frame + 6, 6);
	if (plan_port_of_mac(tr->p, c.src, &node, &port)) {
		c.node = node;
		c.port = port;
	}
	emit(tr, &c);
}

void trees_frame(struct trees *tr, int64_t ns, int link, uint32_t frame_no,
		 const uint8_t *frame, size_t len)
{
	struct tree_adv a[1 + BPDU_MAX_MSTI];
	int tree[1 + BPDU_MAX_MSTI];
	struct bpdu_frame f;
	struct bpdu b;
	enum bpdu_err err;
	int node, port;
	size_t n;

	if (len < 14 || memcmp(frame, bpdu_group_addr, 6))
		return;
	trees_tick(tr, ns);
	err = bpdu_frame_decode(frame, len, &f, &b);
	if (err != BPDU_OK) {
		bad_bpdu(tr, ns, link, frame, err);
		return;
	}
	tr->bpdus++;
	if (!tr->first.ns || ns < tr->first.ns)
		tr->first = (struct tree_adv){ .ns = ns, .frame = frame_no,
					       .link = (uint16_t)link };
	if (!trees_place(tr, link, &f, &b, &node, &port)) {
		unknown_sender(tr, ns, link, f.src);
		return;
	}
	n = trees_adverts(tr, ns, link, frame_no, &b, a, tree);
	if (b.type == BPDU_TYPE_TCN)
		heard_tcn(tr, node, port, &a[0]);
	for (size_t k = 0; k < n; k++)
		heard(tr, node, port, tree[k], &a[k]);
	recompute_all(tr, ns, node, port);
}

static int link_by_index(const struct trees *tr, unsigned index)
{
	for (size_t l = 0; l < tr->t->n_links; l++)
		if (tr->t->links[l].index == index)
			return (int)l;
	return -1;
}

/* Both ends of a failed link are down until restored; after a restore
 * they are silent until they speak again. */
static void link_change(struct trees *tr, int64_t ns, int link, bool up)
{
	const struct topo_link *tl = &tr->t->links[link];

	tr->down[link] = !up;
	for (int e = 0; e < 2 && up; e++)
		for (size_t tree = 0; tree < tr->ntrees; tree++)
			memset(&own_of(tr, (int)tree)[(size_t)tl->end[e].node *
						      TOPO_MAX_PORTS +
						      tl->end[e].port],
			       0, sizeof(struct tree_own));
	/* A TC it ends is said to end at the link's first end. */
	recompute_all(tr, ns, tl->end[0].node, tl->end[0].port);
}

void trees_event(struct trees *tr, const struct event *e)
{
	struct trees_change c;
	int link = event_is_link(e) ? link_by_index(tr, e->link) : -1;

	trees_tick(tr, e->ns);
	change_init(&c, link >= 0 ? TREES_LINK : TREES_LAB, e->ns);
	c.event = e;
	c.link = link;
	c.on = e->kind == EVENT_LINK_UP;
	/* The event first, then what it did to the trees. */
	emit(tr, &c);
	if (link < 0)
		return;
	if (tr->flags & TREES_KEEP)
		trees_history_link(tr, e->ns, link, c.on);
	if (tr->flags & TREES_LIVE)
		link_change(tr, e->ns, link, c.on);
}
