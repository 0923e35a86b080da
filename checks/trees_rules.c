// SPDX-License-Identifier: MIT
/*
 * The rules that make a tree out of what each port said last: the one
 * place they are written (trees.h explains them). Pure: live and
 * history views both end here.
 */
#include "trees.h"

#include <string.h>

static size_t at(int node, int port)
{
	return (size_t)node * TOPO_MAX_PORTS + (size_t)port;
}

static bool port_down(const struct trees *tr, const bool *down, int node,
		      int port)
{
	int link = tr->t->nodes[node].ports[port].link;

	return link >= 0 && down[link];
}

/* A BPDU as evidence. */
static struct tree_frame said(const struct tree_adv *a)
{
	return (struct tree_frame){ a->ns, a->frame, a->link };
}

/* What the port said, as it stands: no deduction yet. */
static void as_said(const struct trees *tr, int64_t t,
		    const struct tree_own *o, bool down, struct tree_port *p)
{
	bool heard = o->adv.ns != 0;

	memset(p, 0, sizeof(*p));
	p->role = heard ? o->adv.role : PORT_ROLE_SILENT;
	p->state = heard ? o->adv.state : PORT_STATE_UNKNOWN;
	p->down = down;
	p->root = heard ? o->adv.root : 0;
	p->last_ns = o->adv.ns;
	p->frame = o->adv.frame;
	p->why = said(&o->adv);
	p->tc = !down && o->tc && t - o->tc_ns <= tr->tc_hold_ns;
}

bool trees_region_boundary(const struct tree_adv *x, const struct tree_adv *y)
{
	return (x && !x->mst) || (y && !y->mst) ||
	       (x && y && x->mcid != y->mcid);
}

/* Roles a port takes from the designated port facing it. */
static bool takes_from_peer(uint8_t role)
{
	return role == PORT_ROLE_ROOT || role == PORT_ROLE_MASTER ||
	       role == PORT_ROLE_ALTERNATE;
}

/*
 * Whether a later frame on its link contradicts a port's word o for the
 * tree (trees.h), into *why: its own later BPDU without the tree (c: the
 * port in the CIST, for an MSTI), or its peer's later word q (NULL: no
 * peer) that is not a designated port's, or names another root.
 */
static bool contradicted(const struct tree_own *o, const struct tree_own *q,
			 const struct tree_port *c, struct tree_frame *why)
{
	if (c && c->last_ns > o->adv.ns) {
		*why = (struct tree_frame){ c->last_ns, c->frame, o->adv.link };
		return true;
	}
	if (!takes_from_peer(o->adv.role) || !q || q->adv.ns <= o->adv.ns ||
	    ((q->adv.role == PORT_ROLE_DESIGNATED ||
	      q->adv.role == PORT_ROLE_NONE) && q->adv.root == o->adv.root))
		return false;
	*why = said(&q->adv);
	return true;
}

/* A node's ports whose word is contradicted: silent, for the
 * deductions. An MSTI's boundary ports follow the CIST instead. */
static void void_contradicted(const struct trees *tr,
			      const struct tree_own *own,
			      const struct tree_view *cist,
			      struct tree_view *v, int node)
{
	for (size_t j = 0; j < tr->t->nodes[node].n_ports; j++) {
		size_t k = at(node, (int)j);
		struct tree_port *p = &v->port[k];
		int pn, pp;

		if (p->down || p->boundary || !own[k].adv.ns ||
		    !contradicted(&own[k],
				  trees_peer(tr, node, (int)j, &pn, &pp) ?
					  &own[at(pn, pp)] : NULL,
				  cist ? &cist->port[k] : NULL, &p->why))
			continue;
		p->role = PORT_ROLE_SILENT;
		p->state = PORT_STATE_UNKNOWN;
	}
}

/* A bridge names one root port: its earlier root ports are alternates. */
static void retire_root_ports(const struct trees *tr,
			      const struct tree_own *own, struct tree_view *v,
			      int node)
{
	size_t n = tr->t->nodes[node].n_ports;
	const struct tree_adv *latest = NULL;

	for (size_t j = 0; j < n; j++) {
		const struct tree_port *p = &v->port[at(node, (int)j)];
		const struct tree_adv *a = &own[at(node, (int)j)].adv;

		if (!p->down && !p->boundary && p->role == PORT_ROLE_ROOT &&
		    (!latest || a->ns > latest->ns))
			latest = a;
	}
	for (size_t j = 0; j < n; j++) {
		struct tree_port *p = &v->port[at(node, (int)j)];

		if (p->down || p->boundary || p->role != PORT_ROLE_ROOT ||
		    own[at(node, (int)j)].adv.ns >= latest->ns)
			continue;
		p->role = PORT_ROLE_ALTERNATE;
		p->state = PORT_STATE_DISCARDING;
		p->inferred = true;
		p->why = said(latest);
	}
}

/* The newest BPDU of node on a port that is up; -1 none. */
static int newest_port(const struct trees *tr, const struct tree_own *own,
		       const struct tree_view *v, int node)
{
	int best = -1;

	for (size_t j = 0; j < tr->t->nodes[node].n_ports; j++) {
		const struct tree_own *o = &own[at(node, (int)j)];

		if (!o->adv.ns || v->port[at(node, (int)j)].down)
			continue;
		if (best < 0 || o->adv.ns > own[at(node, best)].adv.ns)
			best = (int)j;
	}
	return best;
}

/* One vote per bridge; the most named root wins, then the better id. */
static void elect_root(const struct trees *tr, const struct tree_own *own,
		       struct tree_view *v)
{
	uint64_t root[TOPO_MAX_NODES];
	unsigned votes[TOPO_MAX_NODES] = { 0 }, best = 0;
	size_t n = 0;

	for (size_t i = 0; i < tr->t->n_nodes; i++) {
		int j = newest_port(tr, own, v, (int)i);
		size_t k;

		if (j < 0)
			continue;
		for (k = 0; k < n && root[k] != own[at((int)i, j)].adv.root; k++)
			;
		if (k == n)
			root[n++] = own[at((int)i, j)].adv.root;
		votes[k]++;
	}
	for (size_t k = 0; k < n; k++)
		if (votes[k] > best || (votes[k] == best && root[k] < v->root)) {
			best = votes[k];
			v->root = root[k];
		}
	if (!best)
		return;
	v->root_node = trees_node_of_bridge(tr, v->root);
	/* The evidence: the newest of the votes for it. */
	for (size_t i = 0; i < tr->t->n_nodes; i++) {
		int j = newest_port(tr, own, v, (int)i);

		if (j >= 0 && own[at((int)i, j)].adv.root == v->root &&
		    (v->root_by_node < 0 ||
		     own[at((int)i, j)].adv.ns >
			     own[at(v->root_by_node, v->root_by_port)].adv.ns)) {
			v->root_by_node = (int)i;
			v->root_by_port = j;
		}
	}
}

/*
 * A bridge's silent ports facing a designated port: alternates if the
 * bridge has a root port, its root port if there is one such port.
 * Otherwise the captures cannot tell: silent.
 */
static void infer_silent(const struct trees *tr, struct tree_view *v,
			 int node)
{
	const struct topo_node *tn = &tr->t->nodes[node];
	int cand[TOPO_MAX_PORTS];
	size_t peer[TOPO_MAX_PORTS], n = 0;
	bool has_root = false;

	if (!topo_role_is_bridge(tn->role) || v->root_node == node)
		return;
	for (size_t j = 0; j < tn->n_ports; j++) {
		const struct tree_port *p = &v->port[at(node, (int)j)];
		int pn, pp;

		if (p->down || p->boundary)
			continue;
		has_root |= p->role == PORT_ROLE_ROOT;
		if (p->role == PORT_ROLE_SILENT &&
		    trees_peer(tr, node, (int)j, &pn, &pp) &&
		    v->port[at(pn, pp)].role == PORT_ROLE_DESIGNATED) {
			peer[n] = at(pn, pp);
			cand[n++] = (int)j;
		}
	}
	if (!has_root && n != 1)
		return;
	for (size_t k = 0; k < n; k++) {
		struct tree_port *p = &v->port[at(node, cand[k])];

		p->role = has_root ? PORT_ROLE_ALTERNATE : PORT_ROLE_ROOT;
		p->state = has_root ? PORT_STATE_DISCARDING :
				      PORT_STATE_FORWARDING;
		p->inferred = true;
		p->why = v->port[peer[k]].why;
	}
}

/* The words a link end speaks with: its own last CIST word, else its
 * bridge's newest (one bridge, one configuration); NULL: none. */
static const struct tree_adv *spoken(const struct trees *tr,
				     const struct tree_own *own,
				     const struct tree_view *v,
				     const struct topo_end *e)
{
	int j;

	if (own[at(e->node, e->port)].adv.ns)
		return &own[at(e->node, e->port)].adv;
	j = newest_port(tr, own, v, e->node);
	return j >= 0 ? &own[at(e->node, j)].adv : NULL;
}

/* The CIST's boundary ports: both ends of a link that is up and crosses
 * a region boundary. */
static void mark_boundaries(const struct trees *tr, const struct tree_own *own,
			    struct tree_view *v)
{
	for (size_t l = 0; l < tr->t->n_links; l++) {
		const struct topo_end *e = tr->t->links[l].end;
		struct tree_port *x = &v->port[at(e[0].node, e[0].port)],
				 *y = &v->port[at(e[1].node, e[1].port)];

		x->boundary = y->boundary = !x->down &&
			trees_region_boundary(spoken(tr, own, v, &e[0]),
					      spoken(tr, own, v, &e[1]));
	}
}

/*
 * An MSTI at a boundary port: the CIST's role and state, its root port
 * the master port (an STP bridge has none: its one tree is all it has).
 * Deduced where the CIST's is, or where the port's last BPDU carried no
 * MSTI message (o) saying just that; a silent or STP port is what it is.
 */
static void follow_cist(const struct trees *tr, const struct tree_port *c,
			const struct tree_own *o, int node,
			struct tree_port *p)
{
	uint8_t role = c->role == PORT_ROLE_ROOT &&
				       !tr->t->nodes[node].kernel_stp ?
			       PORT_ROLE_MASTER : c->role;

	p->boundary = true;
	if (p->down)
		return;
	p->inferred = role != PORT_ROLE_SILENT && role != PORT_ROLE_NONE &&
		      (c->inferred || o->adv.ns < c->last_ns ||
		       o->adv.role != role || o->adv.state != c->state);
	p->role = role;
	p->state = c->state;
	if (p->inferred)
		p->why = c->why;
}

void trees_compute(const struct trees *tr, int64_t t,
		   const struct tree_own *own, const bool *down,
		   const struct tree_view *cist, struct tree_view *v)
{
	const struct topo *topo = tr->t;

	v->ns = t;
	v->root = 0;
	v->root_node = v->root_by_node = v->root_by_port = -1;
	v->tc = false;
	for (size_t i = 0; i < topo->n_nodes; i++)
		for (size_t j = 0; j < topo->nodes[i].n_ports; j++) {
			size_t k = at((int)i, (int)j);
			struct tree_port *p = &v->port[k];

			as_said(tr, t, &own[k],
				port_down(tr, down, (int)i, (int)j), p);
			v->tc |= p->tc;
			if (cist && cist->port[k].boundary)
				follow_cist(tr, &cist->port[k], &own[k],
					    (int)i, p);
		}
	for (size_t i = 0; i < topo->n_nodes; i++)
		void_contradicted(tr, own, cist, v, (int)i);
	for (size_t i = 0; i < topo->n_nodes; i++)
		retire_root_ports(tr, own, v, (int)i);
	elect_root(tr, own, v);
	for (size_t i = 0; i < topo->n_nodes; i++)
		infer_silent(tr, v, (int)i);
	if (!cist)
		mark_boundaries(tr, own, v);
}
