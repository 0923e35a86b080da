// SPDX-License-Identifier: MIT
/* `mstlab graph`: the topology as an undirected Graphviz graph. */
#include "plan.h"

const char *plan_dot_shape(enum topo_role role)
{
	switch (role) {
	case TOPO_ROLE_BRIDGE:
		return "box";
	case TOPO_ROLE_DSA_SWITCH:
		return "box3d";
	case TOPO_ROLE_HSMP_HOST:
		return "component";
	default:
		return "ellipse";
	}
}

/* Names are validated identifiers; quote and escape them regardless. */
void plan_dot_id(struct sbuf *o, const char *s)
{
	sbuf_puts(o, "\"");
	for (; *s; s++)
		sbuf_printf(o, "%s%c", *s == '"' || *s == '\\' ? "\\" : "",
			    *s);
	sbuf_puts(o, "\"");
}

enum plan_err plan_dot(const struct topo *t, struct sbuf *o)
{
	sbuf_puts(o, "graph ");
	plan_dot_id(o, t->name);
	sbuf_puts(o, " {\n  graph [overlap=false];\n"
		  "  node [fontname=\"Helvetica\"];\n"
		  "  edge [fontname=\"Helvetica\", fontsize=10];\n");
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		sbuf_puts(o, "  ");
		plan_dot_id(o, n->name);
		sbuf_printf(o, " [shape=%s, label=\"%s\\n%s\"];\n",
			    plan_dot_shape(n->role), n->name, topo_role_name(n->role));
	}
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];
		const struct topo_node *a = &t->nodes[link->end[0].node];
		const struct topo_node *b = &t->nodes[link->end[1].node];
		const struct topo_port *pa = &a->ports[link->end[0].port];
		const struct topo_port *pb = &b->ports[link->end[1].port];

		sbuf_puts(o, "  ");
		plan_dot_id(o, a->name);
		sbuf_puts(o, " -- ");
		plan_dot_id(o, b->name);
		sbuf_printf(o, " [taillabel=\"%s\", headlabel=\"%s\"", pa->name,
			    pb->name);
		if (link->cost.has_all)
			sbuf_printf(o, ", label=\"cost %u\"", link->cost.all);
		if (link->impair.delay_ms || link->impair.loss_ppm)
			sbuf_puts(o, ", style=dashed");
		sbuf_puts(o, "];\n");
	}
	sbuf_puts(o, "}\n");
	return sbuf_failed(o) ? PLAN_ENOMEM : PLAN_OK;
}
