// SPDX-License-Identifier: MIT
#include "boundary.h"

#include <stdio.h>
#include <string.h>

static bool same_region(const struct topo_mst *x, const struct topo_mst *y)
{
	if (strcmp(x->region, y->region) || x->revision != y->revision ||
	    x->n_msti != y->n_msti)
		return false;
	for (size_t i = 0; i < x->n_msti; i++)
		if (x->msti[i].id != y->msti[i].id ||
		    memcmp(&x->msti[i].vlans, &y->msti[i].vlans,
			   sizeof(x->msti[i].vlans)))
			return false;
	return true;
}

/* Not MSTP: the kernel's STP, or mstd forced to RSTP or STP (13.7.2),
 * which is a region of its own. */
static bool not_mstp(const struct topo_node *n)
{
	return n->kernel_stp || n->mst->force_version != TOPO_FORCE_MSTP;
}

/* Both ends bridges whose protocols or regions differ. */
static bool expected(const struct topo *t, const struct topo_link *l)
{
	const struct topo_node *x = &t->nodes[l->end[0].node],
			       *y = &t->nodes[l->end[1].node];

	return topo_role_is_bridge(x->role) && topo_role_is_bridge(y->role) &&
	       (not_mstp(x) || not_mstp(y) || !same_region(x->mst, y->mst));
}

/* What the last BPDUs on the link say (the engine's one test,
 * trees_region_boundary): -1 nothing heard, 0 one region, 1 a boundary
 * (*why: the BPDU that shows it: one that is not MST, else the later). */
static int observed(const struct analysis *a, const struct topo_link *l,
		    int64_t ns, const struct tree_adv **why)
{
	const struct tree_adv *s[2];

	for (int e = 0; e < 2; e++)
		s[e] = trees_heard_at(&a->tr, l->end[e].node, l->end[e].port,
				      0, ns);
	if (!s[0] && !s[1])
		return -1;
	if (!trees_region_boundary(s[0], s[1]))
		return 0;
	*why = s[0] && !s[0]->mst ? s[0] :
	       s[1] && !s[1]->mst ? s[1] :
	       s[0]->ns > s[1]->ns ? s[0] : s[1];
	return 1;
}

static void add_name(char *buf, size_t len, const struct topo_link *l)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%slink%u", used ? " " : "",
		 l->index);
}

void boundary_check(struct analysis *a, struct result_run *r,
		    struct result_scenario *sc, int64_t ns)
{
	char want[400] = "", got[400] = "", what[900];
	const struct tree_adv *ev[8];
	size_t n_ev = 0, bridge_links = 0;
	struct result_check *c;

	for (size_t i = 0; i < a->t->n_links; i++) {
		const struct topo_link *l = &a->t->links[i];
		const struct tree_adv *why = NULL;
		int seen;

		if (!topo_role_is_bridge(a->t->nodes[l->end[0].node].role) ||
		    !topo_role_is_bridge(a->t->nodes[l->end[1].node].role))
			continue;
		bridge_links++;
		if (expected(a->t, l))
			add_name(want, sizeof(want), l);
		seen = observed(a, l, ns, &why);
		if (seen == 1) {
			add_name(got, sizeof(got), l);
			if (n_ev < 8)
				ev[n_ev++] = why;
		}
	}
	if (!bridge_links)
		return;
	snprintf(what, sizeof(what), "region boundaries are where the topology "
		 "puts them: %s", want[0] ? want : "none");
	c = result_add_check(r, sc, "boundaries", RESULT_NO_TREE, NULL,
			     !strcmp(want, got), what,
			     strcmp(want, got) ? (got[0] ? got : "the BPDUs show none")
					       : NULL);
	if (!c)
		return;
	c->at_ns = ns;
	for (size_t k = 0; k < n_ev; k++)
		analysis_evidence(a, r, c, ev[k]->link, ev[k]->frame, ev[k]->ns);
}
