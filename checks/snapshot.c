// SPDX-License-Identifier: MIT
#include "snapshot.h"

#include <string.h>

#include "bpdu.h"

static void add_lab(const struct analysis *a, struct result_run *r)
{
	const struct topo *t = a->t;

	for (size_t i = 0; i < t->n_nodes; i++)
		result_add_node(r, t->nodes[i].name, (int)t->nodes[i].role);
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		size_t node[2];
		const char *port[2];
		char name[32];

		for (int e = 0; e < 2; e++) {
			node[e] = (size_t)k->end[e].node;
			port[e] = t->nodes[k->end[e].node]
					  .ports[k->end[e].port].name;
		}
		snprintf(name, sizeof(name), "link%u", k->index);
		result_add_link(r, name, a->p->links[l].pcap, node, port);
	}
}

static enum result_port_role role_of(uint8_t role)
{
	switch (role) {
	case BPDU_ROLE_ALT_BACKUP:
		return RESULT_PORT_ALTERNATE;
	case BPDU_ROLE_ROOT:
		return RESULT_PORT_ROOT;
	case BPDU_ROLE_DESIGNATED:
		return RESULT_PORT_DESIGNATED;
	default:
		return RESULT_PORT_MASTER;
	}
}

/*
 * A bridge's silent ports facing a designated bridge port: alternates
 * if the bridge advertises its root port elsewhere, its root port if it
 * is the only such port. Otherwise the captures cannot tell: silent.
 */
static void infer(const struct analysis *a, struct result_snapshot *s,
		  size_t node)
{
	const struct topo *t = a->t;
	size_t cand[TOPO_MAX_PORTS], n = 0;
	bool has_root = false;

	if (!topo_role_is_bridge(t->nodes[node].role) || s->root == (int)node)
		return;
	for (size_t l = 0; l < t->n_links; l++)
		for (int e = 0; e < 2; e++) {
			struct result_port *me = &s->ports[l * 2 + e],
					   *peer = &s->ports[l * 2 + !e];

			if ((size_t)t->links[l].end[e].node != node || me->down)
				continue;
			has_root |= me->role == RESULT_PORT_ROOT;
			if (me->role == RESULT_PORT_SILENT &&
			    peer->role == RESULT_PORT_DESIGNATED &&
			    n < TOPO_MAX_PORTS)
				cand[n++] = l * 2 + (size_t)e;
		}
	for (size_t k = 0; k < n && (has_root || n == 1); k++) {
		s->ports[cand[k]].role = has_root ? RESULT_PORT_ALTERNATE :
						    RESULT_PORT_ROOT;
		s->ports[cand[k]].forwarding = !has_root;
		s->ports[cand[k]].inferred = true;
	}
}

static bool link_event(const struct result_event *e)
{
	return !strcmp(e->kind, "link-down") || !strcmp(e->kind, "link-up");
}

/* Is the link down at ns, by the scenario's link events? */
static bool link_down_at(const struct result_run *r,
			 const struct result_scenario *sc, size_t l,
			 int64_t ns)
{
	size_t len = strlen(r->links[l].name);
	bool down = false;

	for (size_t i = 0; i < sc->n_events && sc->events[i].ns < ns; i++) {
		const struct result_event *e = &sc->events[i];

		if (link_event(e) && !strncmp(e->arg, r->links[l].name, len) &&
		    (e->arg[len] == 0 || e->arg[len] == ' '))
			down = !strcmp(e->kind, "link-down");
	}
	return down;
}

static void take(const struct analysis *a, struct result_run *r,
		 struct result_scenario *sc, const char *at,
		 const char *event, int64_t ns)
{
	const struct topo *t = a->t;

	for (size_t tree = 0; tree < a->ntrees; tree++) {
		struct result_snapshot *s = result_add_snapshot(
			r, sc, at, event, ns, a->tree_id[tree]);

		if (!s)
			return;
		s->root = analysis_root_at(a, tree, ns);
		for (size_t l = 0; l < t->n_links && l < r->n_links; l++)
			for (int e = 0; e < 2; e++) {
				const struct topo_end *end =
					&t->links[l].end[e];
				struct result_port *p = &s->ports[l * 2 + e];
				struct an_sample x;

				p->down = link_down_at(r, sc, l, ns);
				if (!analysis_port_view(a, (size_t)end->node,
							(size_t)end->port, tree,
							ns, &x))
					continue;
				p->role = role_of(x.role);
				p->forwarding = x.forwarding;
				p->frame = x.frame;
			}
		for (size_t i = 0; i < t->n_nodes; i++)
			infer(a, s, i);
	}
}

void snapshot_scenario(const struct analysis *a, struct result_run *r,
		       struct result_scenario *sc)
{
	const struct result_event *prev = NULL;
	char what[160];

	if (!sc)
		return;
	if (!r->n_nodes)
		add_lab(a, r);
	/* Each link event's outcome is the state just before the next
	 * one; the last one's is the end. */
	for (size_t i = 0; i < sc->n_events; i++) {
		const struct result_event *e = &sc->events[i];

		if (!link_event(e))
			continue;
		if (!prev && !strcmp(e->kind, "link-down"))
			take(a, r, sc, "before-failure", NULL, e->ns);
		if (prev) {
			snprintf(what, sizeof(what), "%s %s", prev->kind,
				 prev->arg);
			take(a, r, sc, "after-event", what, e->ns - 1);
		}
		prev = e;
	}
	if (prev)
		snprintf(what, sizeof(what), "%s %s", prev->kind, prev->arg);
	take(a, r, sc, "end", prev ? what : NULL, sc->end_ns - 1);
}
