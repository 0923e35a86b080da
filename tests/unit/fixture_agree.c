// SPDX-License-Identifier: MIT
/*
 * fx_trees_agree(): one run folder through the tree-state engine twice,
 * live (checks/follow.c, as mstlab watch) and as history (the verdicts'
 * analysis_load), compared at every event and at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "checks_fixture.h"
#include "follow.h"
#include "trees.h"

struct agree {
	const struct topo *t;
	struct analysis *a;
	struct trees *live;
	struct tree_view v;
	char *why;
	size_t len;
	bool differ;
};

static bool port_differs(const struct tree_port *x, const struct tree_port *y)
{
	return x->role != y->role || x->state != y->state ||
	       x->down != y->down || x->inferred != y->inferred ||
	       x->tc != y->tc || x->root != y->root ||
	       x->last_ns != y->last_ns || x->frame != y->frame;
}

/* The live trees now against the history's at ns; the first difference
 * goes to why. */
static void compare(struct agree *g, int64_t ns, const char *when)
{
	for (size_t s = 0; s < g->live->ntrees && !g->differ; s++) {
		const struct tree_view *l = trees_now(g->live, (int)s);
		char tn[16];

		trees_view_at(&g->a->tr, (int)s, ns, &g->v);
		trees_tree_name(g->live, (int)s, tn, 16);
		if (l->root != g->v.root || l->root_node != g->v.root_node ||
		    l->tc != g->v.tc) {
			snprintf(g->why, g->len, "%s at %lld ns: %s root %d "
				 "live, %d history; tc %d, %d", when,
				 (long long)ns, tn, l->root_node,
				 g->v.root_node, l->tc, g->v.tc);
			g->differ = true;
		}
		for (size_t i = 0; i < g->t->n_nodes && !g->differ; i++)
			for (size_t j = 0; j < g->t->nodes[i].n_ports; j++) {
				const struct tree_port *x =
					tree_view_port(l, (int)i, (int)j),
						       *y = tree_view_port(
					&g->v, (int)i, (int)j);

				if (!port_differs(x, y))
					continue;
				snprintf(g->why, g->len, "%s at %lld ns: %s "
					 "%s:%s live %s/%s%s, history %s/%s%s",
					 when, (long long)ns, tn,
					 g->t->nodes[i].name,
					 g->t->nodes[i].ports[j].name,
					 port_role_name(x->role),
					 port_state_name(tree_port_state(x)),
					 x->inferred ? " inferred" : "",
					 port_role_name(y->role),
					 port_state_name(tree_port_state(y)),
					 y->inferred ? " inferred" : "");
				g->differ = true;
				break;
			}
	}
}

/* Just before an event takes effect, the live state is the history's at
 * its instant (trees.h: events act just after their instant). */
static void on_change(void *ctx, const struct trees_change *c)
{
	struct agree *g = ctx;

	if (c->kind == TREES_LINK || c->kind == TREES_LAB)
		compare(g, c->ns, c->event->word);
}

static int live_vs_history(struct agree *g, const struct plan *p,
			   const char *dir)
{
	struct follow fw;

	if (follow_init(&fw, g->t, p, dir)) {
		snprintf(g->why, g->len, "out of memory");
		return -1;
	}
	while (follow_pump(&fw, g->live, 4096, INT64_MAX))
		;
	if (follow_error(&fw) && !g->differ) {
		snprintf(g->why, g->len, "%s", follow_error(&fw));
		g->differ = true;
	}
	follow_close(&fw);
	trees_tick(g->live, g->live->now_ns + 1);
	compare(g, g->live->now_ns, "the end");
	if (!g->differ && (g->live->bpdus != g->a->tr.bpdus ||
			   g->live->bad != g->a->tr.bad)) {
		snprintf(g->why, g->len, "BPDUs %lu live, %lu history; bad "
			 "%lu, %lu", g->live->bpdus, g->a->tr.bpdus,
			 g->live->bad, g->a->tr.bad);
		g->differ = true;
	}
	return g->differ ? -1 : 0;
}

int fx_trees_agree(const char *dir, char *why, size_t len)
{
	struct agree g = { .why = why, .len = len };
	struct analysis *a = calloc(1, sizeof(*a));
	struct topo *t = NULL;
	struct plan *p = NULL;
	struct trees live;
	char path[600];
	struct errbuf err;
	struct topo_error te;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/topology.yaml", dir);
	*why = 0;
	if (!a || topo_parse_file(path, &t, &te) || plan_build(t, &p)) {
		snprintf(why, len, "%s: cannot read the lab", dir);
		goto out;
	}
	if (analysis_load(a, t, p, dir, &err)) {
		snprintf(why, len, "%s", err.msg);
		analysis_free(a);
		goto out;
	}
	if (trees_init(&live, t, p, TREES_LIVE)) {
		analysis_free(a);
		goto out;
	}
	g.t = t;
	g.a = a;
	g.live = &live;
	live.emit = on_change;
	live.emit_ctx = &g;
	if (!tree_view_alloc(&a->tr, &g.v))
		rc = live_vs_history(&g, p, dir);
	tree_view_free(&g.v);
	trees_free(&live);
	analysis_free(a);
out:
	free(a);
	plan_free(p);
	topo_free(t);
	return rc;
}
