// SPDX-License-Identifier: MIT
#include "tree_path.h"

#include <string.h>

bool tree_port_forwards(const struct topo *t, const struct tree_view *v,
			int node, int port)
{
	const struct tree_port *p = tree_view_port(v, node, port);

	if (!topo_role_is_bridge(t->nodes[node].role) ||
	    p->role == PORT_ROLE_SILENT || p->role == PORT_ROLE_NONE ||
	    p->role == PORT_ROLE_ROOT)
		return true;
	return p->role != PORT_ROLE_ALTERNATE &&
	       p->state == PORT_STATE_FORWARDING;
}

bool tree_link_forwards(const struct tree_topo *tt, size_t link)
{
	const struct topo_link *l = &tt->t->links[link];

	return tt->link_up(tt->ctx, link) &&
	       tree_port_forwards(tt->t, tt->v, l->end[0].node,
				  l->end[0].port) &&
	       tree_port_forwards(tt->t, tt->v, l->end[1].node,
				  l->end[1].port);
}

void tree_toward(const struct tree_topo *tt, int to, int *toward)
{
	const struct topo *t = tt->t;
	int queue[TOPO_MAX_NODES];
	size_t head = 0, tail = 0;

	for (size_t n = 0; n < t->n_nodes; n++)
		toward[n] = TREE_NOT_REACHED;
	toward[to] = TREE_THE_NODE;
	queue[tail++] = to;
	while (head < tail) {
		int n = queue[head++];

		for (size_t l = 0; l < t->n_links; l++) {
			const struct topo_link *lk = &t->links[l];
			int other;

			if (lk->end[0].node == n)
				other = lk->end[1].node;
			else if (lk->end[1].node == n)
				other = lk->end[0].node;
			else
				continue;
			if (toward[other] != TREE_NOT_REACHED ||
			    !tree_link_forwards(tt, l))
				continue;
			toward[other] = (int)l;
			queue[tail++] = other;
		}
	}
}

bool tree_path(const struct topo *t, const int *toward, int from,
	       bool *on_path)
{
	memset(on_path, 0, t->n_links * sizeof(*on_path));
	if (toward[from] == TREE_NOT_REACHED)
		return false;
	for (int n = from; toward[n] >= 0;) {
		const struct topo_link *lk = &t->links[toward[n]];

		on_path[toward[n]] = true;
		n = lk->end[0].node == n ? lk->end[1].node : lk->end[0].node;
	}
	return true;
}
