// SPDX-License-Identifier: MIT
#include "snapshot.h"

#include "events.h"

void snapshot_lab(const struct topo *t, const struct plan *p,
		  struct result_run *r)
{
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
		result_add_link(r, name, p->links[l].pcap, node, port);
	}
}

/* Every tree at ns as the engine has it: root, and each link end. */
static void take(const struct analysis *a, struct result_run *r,
		 struct result_scenario *sc, const char *at,
		 const char *event, int64_t ns)
{
	const struct topo *t = a->t;
	struct tree_view v;

	if (tree_view_alloc(&a->tr, &v))
		return;
	for (size_t tree = 0; tree < a->tr.ntrees; tree++) {
		struct result_snapshot *s = result_add_snapshot(
			r, sc, at, event, ns, a->tr.tree_id[tree]);

		if (!s)
			break;
		trees_view_at(&a->tr, (int)tree, ns, &v);
		s->root = v.root_node;
		for (size_t l = 0; l < t->n_links && l < r->n_links; l++)
			for (int e = 0; e < 2; e++) {
				const struct topo_end *end =
					&t->links[l].end[e];
				const struct tree_port *p = tree_view_port(
					&v, end->node, end->port);

				/* A port whose link is down is disabled
				 * and forwards nothing, whatever it said
				 * last. */
				s->ports[l * 2 + e] = (struct result_port){
					.role = p->down ? PORT_ROLE_DISABLED :
						(enum port_role)p->role,
					.state = p->down ? PORT_STATE_DOWN :
						 (enum port_state)p->state,
					.inferred = p->inferred && !p->down,
					.down = p->down,
					.frame = p->frame,
				};
			}
	}
	tree_view_free(&v);
}

void snapshot_scenario(const struct analysis *a, struct result_run *r,
		       struct result_scenario *sc, size_t first, int64_t end)
{
	const struct event *prev = NULL;
	char what[EVENT_WORD_MAX + EVENT_ARG_MAX];

	if (!sc)
		return;
	if (!r->n_nodes)
		snapshot_lab(a->t, a->p, r);
	/* Each link event's outcome is the state just before the next
	 * one; the last one's is the end. */
	for (size_t i = first + 1; i < a->n_events && a->ev[i].ns < end; i++) {
		const struct event *e = &a->ev[i];

		if (!event_is_link(e))
			continue;
		if (!prev && e->kind == EVENT_LINK_DOWN)
			take(a, r, sc, "before-failure", NULL, e->ns);
		if (prev) {
			snprintf(what, sizeof(what), "%s %s", prev->word,
				 prev->arg);
			take(a, r, sc, "after-event", what, e->ns - 1);
		}
		prev = e;
	}
	if (prev)
		snprintf(what, sizeof(what), "%s %s", prev->word, prev->arg);
	take(a, r, sc, "end", prev ? what : NULL, sc->end_ns - 1);
}
