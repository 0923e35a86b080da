// SPDX-License-Identifier: MIT
/*
 * The engine's history: every BPDU each port sent, per tree, and the
 * event log's link changes, so a finished run can be asked about any
 * instant. A view at t rebuilds what each port had said last by t and
 * hands it to the rules, as the live state does frame by frame.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "trees_priv.h"

static size_t slots(const struct trees *tr)
{
	return tr->t->n_nodes * TOPO_MAX_PORTS;
}

int trees_history_init(struct trees *tr)
{
	tr->track = calloc(slots(tr) * tr->ntrees + 1, sizeof(*tr->track));
	tr->tcn = calloc(slots(tr) + 1, sizeof(*tr->tcn));
	return tr->track && tr->tcn ? 0 : -1;
}

void trees_history_free(struct trees *tr)
{
	for (size_t i = 0; tr->track && i < slots(tr) * tr->ntrees; i++)
		free(tr->track[i].adv);
	for (size_t i = 0; tr->tcn && i < slots(tr); i++)
		free(tr->tcn[i].adv);
	free(tr->track);
	free(tr->tcn);
	free(tr->link_ev);
	tr->track = tr->tcn = NULL;
	tr->link_ev = NULL;
}

static struct trees_track *track_of(const struct trees *tr, int node, int port,
				    int tree)
{
	return &tr->track[((size_t)node * TOPO_MAX_PORTS + (size_t)port) *
			  tr->ntrees + (size_t)tree];
}

static void push(struct trees_track *t, const struct tree_adv *a)
{
	/* Out of memory: a BPDU less. */
	if (!grow((void **)&t->adv, &t->cap, t->n, sizeof(*a), 64))
		t->adv[t->n++] = *a;
}

void trees_history_add(struct trees *tr, int node, int port, int tree,
		       const struct tree_adv *a)
{
	push(track_of(tr, node, port, tree), a);
}

void trees_history_add_tcn(struct trees *tr, int node, int port,
			   const struct tree_adv *a)
{
	push(&tr->tcn[(size_t)node * TOPO_MAX_PORTS + (size_t)port], a);
}

void trees_history_link(struct trees *tr, int64_t ns, int link, bool up)
{
	if (!grow((void **)&tr->link_ev, &tr->cap_links_ev, tr->n_links_ev,
		  sizeof(*tr->link_ev), 16))
		tr->link_ev[tr->n_links_ev++] =
			(struct trees_link_event){ ns, link, up };
}

/* Capture order: time, then the frame's place in its pcap. */
static int by_time(const void *x, const void *y)
{
	const struct tree_adv *a = x, *b = y;

	if (a->ns != b->ns)
		return (a->ns > b->ns) - (a->ns < b->ns);
	return (a->frame > b->frame) - (a->frame < b->frame);
}

void trees_seal(struct trees *tr)
{
	for (size_t i = 0; tr->track && i < slots(tr) * tr->ntrees; i++)
		if (tr->track[i].n > 1)
			qsort(tr->track[i].adv, tr->track[i].n,
			      sizeof(*tr->track[i].adv), by_time);
	for (size_t i = 0; tr->tcn && i < slots(tr); i++)
		if (tr->tcn[i].n > 1)
			qsort(tr->tcn[i].adv, tr->tcn[i].n,
			      sizeof(*tr->tcn[i].adv), by_time);
}

const struct tree_adv *trees_track(const struct trees *tr, int node, int port,
				   int tree, size_t *n)
{
	const struct trees_track *t = track_of(tr, node, port, tree);

	*n = t->n;
	return t->adv;
}

/* The last BPDU of t at or before ns and after since; NULL if none. */
static const struct tree_adv *last_between(const struct trees_track *t,
					   int64_t since, int64_t ns)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {	/* the first one after ns */
		size_t mid = lo + (hi - lo) / 2;

		if (t->adv[mid].ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && t->adv[lo - 1].ns > since ? &t->adv[lo - 1] : NULL;
}

/*
 * By the events logged before t: whether link is down, and since when
 * it has been up (its last restore; INT64_MIN if never down).
 */
static bool link_at(const struct trees *tr, int link, int64_t t,
		    int64_t *since)
{
	bool down = false;

	*since = INT64_MIN;
	for (size_t i = 0; i < tr->n_links_ev && tr->link_ev[i].ns < t; i++) {
		if (tr->link_ev[i].link != link)
			continue;
		down = !tr->link_ev[i].up;
		if (tr->link_ev[i].up)
			*since = tr->link_ev[i].ns;
	}
	return down;
}

/* What the port had said last for the tree by t (since) into o. */
static void own_at(const struct trees *tr, int node, int port, int tree,
		   int64_t since, int64_t t, struct tree_own *o)
{
	const struct tree_adv *a =
		last_between(track_of(tr, node, port, tree), since, t);
	const struct tree_adv *tcn = tree ? NULL :
		last_between(&tr->tcn[(size_t)node * TOPO_MAX_PORTS + port],
			     since, t);

	memset(o, 0, sizeof(*o));
	if (a) {
		o->adv = *a;
		o->tc = a->tc;
		o->tc_ns = a->ns;
	}
	if (tcn && (!a || by_time(tcn, a) > 0)) {
		o->tc = true;
		o->tc_ns = tcn->ns;
	}
}

const struct tree_adv *trees_heard_at(const struct trees *tr, int node,
				      int port, int tree, int64_t t)
{
	int link = tr->t->nodes[node].ports[port].link;
	int64_t since = INT64_MIN;

	if (link >= 0)
		link_at(tr, link, t, &since);
	return last_between(track_of(tr, node, port, tree), since, t);
}

/* Out of memory: a tree with nothing heard, rather than none. */
static void view_unheard(const struct trees *tr, int64_t t,
			 struct tree_view *v)
{
	v->ns = t;
	v->root = 0;
	v->root_node = v->root_by_node = v->root_by_port = -1;
	v->tc = false;
	for (size_t k = 0; k < slots(tr); k++)
		v->port[k] = (struct tree_port){ .role = PORT_ROLE_SILENT };
}

/* What every port had said last for the tree by t (each since its
 * link last came up) into own. */
static void own_all_at(const struct trees *tr, int tree, int64_t t,
		       const int64_t *since, struct tree_own *own)
{
	for (size_t i = 0; i < tr->t->n_nodes; i++)
		for (size_t j = 0; j < tr->t->nodes[i].n_ports; j++) {
			int l = tr->t->nodes[i].ports[j].link;

			own_at(tr, (int)i, (int)j, tree,
			       l >= 0 ? since[l] : INT64_MIN, t,
			       &own[i * TOPO_MAX_PORTS + j]);
		}
}

void trees_view_at(const struct trees *tr, int tree, int64_t t,
		   struct tree_view *v)
{
	struct tree_own *own = calloc(slots(tr) + 1, sizeof(*own));
	bool *down = calloc(tr->t->n_links + 1, sizeof(*down));
	int64_t *since = calloc(tr->t->n_links + 1, sizeof(*since));
	struct tree_view cist = { 0 };

	if (!own || !down || !since || (tree && tree_view_alloc(tr, &cist))) {
		view_unheard(tr, t, v);
		goto out;
	}
	for (size_t l = 0; l < tr->t->n_links; l++)
		down[l] = link_at(tr, (int)l, t, &since[l]);
	/* An MSTI's rules read the CIST's view at t. */
	if (tree) {
		own_all_at(tr, 0, t, since, own);
		trees_compute(tr, t, own, down, NULL, &cist);
	}
	own_all_at(tr, tree, t, since, own);
	trees_compute(tr, t, own, down, tree ? &cist : NULL, v);
out:
	tree_view_free(&cist);
	free(own);
	free(down);
	free(since);
}
