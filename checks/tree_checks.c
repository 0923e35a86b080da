// SPDX-License-Identifier: MIT
#include "tree_checks.h"

#include <stdlib.h>
#include <string.h>

/* The BPDU the port's role stands on as evidence: its own, or the one
 * it was deduced from; none for a port that said nothing. */
static void port_evidence(const struct analysis *a, struct result_run *r,
			  struct result_check *c, const struct tree_port *p)
{
	if (p->why.frame)
		analysis_evidence(a, r, c, p->why.link, p->why.frame,
				  p->why.ns);
}

static const char *root_said(const struct analysis *a,
			     const struct tree_view *v)
{
	if (v->root_node >= 0)
		return a->t->nodes[v->root_node].name;
	if (v->root_node == -2)
		return "a bridge outside the lab";
	return a->tr.first.ns && a->tr.first.ns <= v->ns ?
		       "no root (every port that spoke is down)" :
		       "no root (no BPDU seen)";
}

void tree_check_roots(struct analysis *a, struct result_run *r,
		      struct result_scenario *sc,
		      const struct topo_scenario *tsc, int64_t at,
		      const char *name, const char *when)
{
	struct tree_view v;

	if (tree_view_alloc(&a->tr, &v))
		return;
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		char tn[16], what[160], diag[160];
		int want = tsc->expect.root[s];
		struct result_check *c;

		if (want < 0)
			continue;
		trees_view_at(&a->tr, (int)s, at, &v);
		trees_tree_name(&a->tr, (int)s, tn, sizeof(tn));
		snprintf(what, sizeof(what), "%s root is %s %s", tn,
			 a->t->nodes[want].name, when);
		snprintf(diag, sizeof(diag), "the BPDUs name %s",
			 root_said(a, &v));
		c = result_add_check(r, sc, name, a->tr.tree_id[s], NULL,
				     v.root_node == want, what, diag);
		if (!c)
			continue;
		c->at_ns = at;
		if (v.root_by_node >= 0)
			port_evidence(a, r, c, tree_view_port(&v, v.root_by_node,
							      v.root_by_port));
	}
	tree_view_free(&v);
}

/* "sw1:p1 sw3:p2" appended to buf. */
static void add_port(char *buf, size_t len, const struct topo *t, int node,
		     int port)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s:%s", used ? " " : "",
		 t->nodes[node].name, t->nodes[node].ports[port].name);
}

/* The ports the scenario expects blocked in tree s, into want. */
static bool expected_blocked(const struct analysis *a,
			     const struct topo_scenario *tsc, size_t s,
			     char *want, size_t len)
{
	bool any = false;

	for (size_t k = 0; k < tsc->expect.n_blocked; k++) {
		const struct topo_portref *p = &tsc->expect.blocked[k];

		if (topo_tree_slot(&a->t->mst, p->tree) != (int)s)
			continue;
		any = true;
		add_port(want, len, a->t, p->node, p->port);
	}
	return any;
}

void tree_check_blocked(struct analysis *a, struct result_run *r,
			struct result_scenario *sc,
			const struct topo_scenario *tsc, int64_t at)
{
	struct tree_view v;

	if (tree_view_alloc(&a->tr, &v))
		return;
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		char tn[16], want[512] = "", got[512] = "", what[640];
		struct { int node, port; } ev[8];
		struct result_check *c;
		size_t n_ev = 0;
		unsigned n = 0;

		if (!expected_blocked(a, tsc, s, want, sizeof(want)))
			continue;
		trees_view_at(&a->tr, (int)s, at, &v);
		for (size_t i = 0; i < a->t->n_nodes; i++)
			for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
				const struct tree_port *p =
					tree_view_port(&v, (int)i, (int)j);

				if (!port_blocked(p->role, p->state, p->down))
					continue;
				n++;
				if (n_ev < 8)
					ev[n_ev].node = (int)i,
					ev[n_ev++].port = (int)j;
				add_port(got, sizeof(got), a->t, (int)i, (int)j);
			}
		trees_tree_name(&a->tr, (int)s, tn, sizeof(tn));
		snprintf(what, sizeof(what), "%s blocks exactly %s before the "
			 "first failure", tn, want);
		c = result_add_check(r, sc, "blocked-before-failure",
				     a->tr.tree_id[s], NULL, !strcmp(want, got),
				     what, got[0] ? got : "nothing blocked");
		if (c)
			c->at_ns = at;
		result_add_figure(r, c, "blocked_ports", n, RESULT_NO_TREE);
		for (size_t k = 0; k < n_ev; k++)
			port_evidence(a, r, c, tree_view_port(&v, ev[k].node,
							      ev[k].port));
	}
	tree_view_free(&v);
}

/* A change in what a port says: role, forwarding or not, root. (Learning
 * is not forwarding yet: a settle time ends when forwarding does.) */
static bool same(const struct tree_adv *x, const struct tree_adv *y)
{
	return x->role == y->role &&
	       (x->state == PORT_STATE_FORWARDING) ==
		       (y->state == PORT_STATE_FORWARDING) &&
	       x->root == y->root;
}

/* Last change of any port's BPDUs in a tree within (from, to]. */
static const struct tree_adv *last_change(const struct analysis *a,
					  size_t tree, int64_t from,
					  int64_t to)
{
	const struct tree_adv *last = NULL;

	for (size_t i = 0; i < a->t->n_nodes; i++)
		for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
			size_t n;
			const struct tree_adv *s = trees_track(
				&a->tr, (int)i, (int)j, (int)tree, &n);

			for (size_t k = 1; k < n; k++)
				if (s[k].ns > from && s[k].ns <= to &&
				    !same(&s[k], &s[k - 1]) &&
				    (!last || s[k].ns > last->ns))
					last = &s[k];
		}
	return last;
}

/* The event's link ("link4" of "link4 carrier"). */
static void event_link(const struct event *e, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(e->arg, " "), e->arg);
}

/* The time of the next link event after event i, or end. */
static int64_t next_link_event(const struct analysis *a, size_t i,
			       int64_t end)
{
	for (size_t k = i + 1; k < a->n_events && a->ev[k].ns < end; k++)
		if (event_is_link(&a->ev[k]))
			return a->ev[k].ns;
	return end;
}

static void settle_one(struct analysis *a, struct result_run *r,
		       struct result_scenario *sc, long budget,
		       const struct event *e, int64_t next)
{
	const struct tree_adv *worst_ev = NULL;
	int64_t worst = 0, settle[TOPO_MAX_TREES];
	char what[EVENT_ARG_MAX + 128], diag[32] = "", name[40], link[32],
	     msg[64];
	size_t worst_tree = 0;
	struct result_check *c;
	bool ok;

	for (size_t s = 0; s < a->tr.ntrees; s++) {
		const struct tree_adv *last = last_change(a, s, e->ns, next);

		settle[s] = last ? last->ns - e->ns : 0;
		if (last && last->ns > 0 && settle[s] > worst) {
			worst = settle[s];
			worst_tree = s;
			worst_ev = last;
		}
	}
	trees_tree_name(&a->tr, (int)worst_tree, diag, sizeof(diag));
	snprintf(what, sizeof(what), "%s %s settles in %.3f s (%s)%s",
		 e->word, e->arg, (double)worst / 1e9,
		 worst ? diag : "no change", budget ? "" : ", no budget");
	ok = !budget || worst <= (int64_t)budget * 1000000;
	if (ok && budget)
		snprintf(msg, sizeof(msg), "within the %.3f s budget",
			 (double)budget / 1e3);
	snprintf(name, sizeof(name), "settle-%s", e->word);
	event_link(e, link, sizeof(link));
	/* One check over every tree: its name must not change with
	 * whichever tree happened to be slowest. */
	c = result_add_check(r, sc, name, RESULT_NO_TREE, link[0] ? link : NULL,
			     ok, what, ok ? (budget ? msg : NULL) :
					    "over the scenario's settle budget");
	if (c)
		c->at_ns = e->ns;
	result_add_figure(r, c, "settle_s", (double)worst / 1e9,
			  RESULT_NO_TREE);
	if (budget)
		result_add_figure(r, c, "budget_s", (double)budget / 1e3,
				  RESULT_NO_TREE);
	for (size_t s = 0; s < a->tr.ntrees; s++)
		result_add_figure(r, c, "settle_s", (double)settle[s] / 1e9,
				  a->tr.tree_id[s]);
	if (worst_ev)
		analysis_evidence(a, r, c, worst_ev->link, worst_ev->frame,
				  worst_ev->ns);
}

void tree_check_settle(struct analysis *a, struct result_run *r,
		       struct result_scenario *sc,
		       const struct topo_scenario *tsc, size_t first,
		       int64_t end)
{
	for (size_t i = first; i < a->n_events && a->ev[i].ns < end; i++)
		if (event_is_link(&a->ev[i]))
			settle_one(a, r, sc, (long)tsc->expect.settle_ms,
				   &a->ev[i], next_link_event(a, i, end));
}
