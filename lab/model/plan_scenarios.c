// SPDX-License-Identifier: MIT
/*
 * `mstlab plan`'s scenarios: what `run` will do, step by step with every
 * parameter, and what each scenario expects. Text for people, JSON for
 * scripts (and for the test that every documented key shows here).
 */
#include "plan.h"

#include <stdio.h>

#include "print.h"

static void print_vlans(struct printer *pr, const char *key,
			const struct topo_vlanset *s)
{
	unsigned vid = 0, lo, hi;

	print_open_array(pr, key);
	while (topo_vlan_next_range(s, &vid, &lo, &hi))
		for (unsigned v = lo; v <= hi; v++)
			print_uint(pr, PRINT_JSON, NULL, NULL, v);
	print_close_array(pr);
}

static void print_link(struct printer *pr, const struct topo *t, int link)
{
	if (link >= 0 && (size_t)link < t->n_links)
		print_uint(pr, PRINT_JSON, "link", NULL, t->links[link].index);
}

/* A port as "node:port" (JSON only). */
static void print_end(struct printer *pr, const struct topo *t,
		      const char *key, const struct topo_end *e)
{
	char ref[TOPO_NODE_NAME_MAX + TOPO_PORT_NAME_MAX + 2];

	snprintf(ref, sizeof(ref), "%s:%s", t->nodes[e->node].name,
		 t->nodes[e->node].ports[e->port].name);
	print_string(pr, PRINT_JSON, key, NULL, ref);
}

static void print_send(struct printer *pr, const struct topo *t,
		       const struct topo_send *s)
{
	const struct topo_end from = { s->node, s->port };

	print_end(pr, t, "from", &from);
	print_string(pr, PRINT_JSON, "dst", NULL, s->dst);
	print_uint(pr, PRINT_JSON, "count", NULL, s->count);
	print_bool(pr, PRINT_JSON, "pad", NULL, s->pad);
	print_open_array(pr, "frames");
	for (size_t i = 0; i < s->n_frames; i++)
		print_string(pr, PRINT_JSON, NULL, NULL, s->frames[i]);
	print_close_array(pr);
}

/* A step's parameters, those its kind uses. */
static void print_step(struct printer *pr, const struct topo *t,
		       const struct topo_step *st)
{
	char what[256];

	topo_step_describe(t, st, what, sizeof(what));
	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "step", "    %s", what);
	print_string(pr, PRINT_JSON, "kind", NULL, topo_step_name(st->kind));
	switch (st->kind) {
	case TOPO_STEP_WAIT:
	case TOPO_STEP_EXEC:
		print_uint(pr, PRINT_ANY, "timeout_ms", " (timeout %u ms)",
			   st->timeout_ms);
		if (st->kind == TOPO_STEP_EXEC ||
		    st->wait_for == TOPO_WAIT_COMMAND) {
			print_string(pr, PRINT_JSON, "node", NULL,
				     t->nodes[st->cmd.node].name);
			print_open_array(pr, "argv");
			for (size_t i = 0; i < st->cmd.argc; i++)
				print_string(pr, PRINT_JSON, NULL, NULL,
					     st->cmd.argv[i]);
			print_close_array(pr);
		}
		if (st->match)
			print_string(pr, PRINT_ANY, "match", " until '%s'",
				     st->match);
		break;
	case TOPO_STEP_FLAP:
		print_uint(pr, PRINT_ANY, "count", " %u times", st->count);
		print_uint(pr, PRINT_ANY, "up_ms", ", up %u ms", st->up_ms);
		print_uint(pr, PRINT_ANY, "down_ms", ", down %u ms",
			   st->down_ms);
		/* fall through */
	case TOPO_STEP_FAIL:
		print_string(pr, PRINT_JSON, "mode", NULL,
			     st->mode == TOPO_FAIL_CARRIER ? "carrier" :
							     "silent");
		if (st->kind == TOPO_STEP_FAIL && st->deaf_end >= 0)
			print_end(pr, t, "deaf",
				  &t->links[st->link].end[st->deaf_end]);
		/* fall through */
	case TOPO_STEP_RESTORE:
		print_link(pr, t, st->link);
		break;
	case TOPO_STEP_IMPAIR:
		print_link(pr, t, st->link);
		print_uint(pr, PRINT_ANY, "delay_ms", ": delay %u ms",
			   st->impair.delay_ms);
		print_uint(pr, PRINT_ANY, "loss_ppm", ", loss %u ppm",
			   st->impair.loss_ppm);
		break;
	case TOPO_STEP_PROBE_START:
		print_string(pr, PRINT_JSON, "from", NULL,
			     t->nodes[st->from].name);
		print_string(pr, PRINT_JSON, "to", NULL, t->nodes[st->to].name);
		print_uint(pr, PRINT_JSON, "rate_pps", NULL, st->rate_pps);
		print_vlans(pr, "vlans", &st->vlans);
		break;
	case TOPO_STEP_SLEEP:
		print_uint(pr, PRINT_JSON, "sleep_ms", NULL, st->sleep_ms);
		break;
	case TOPO_STEP_MARK:
		print_string(pr, PRINT_JSON, "label", NULL, st->label);
		break;
	case TOPO_STEP_SEND:
		print_send(pr, t, &st->send);
		break;
	default:
		break;
	}
	print_close_object(pr);
	print_nl(pr);
}

static const char *flush_name(enum topo_flush f)
{
	return f == TOPO_FLUSH_PER_MSTI ? "per-msti" : f == TOPO_FLUSH_ALL ?
	       "all" : f == TOPO_FLUSH_NONE ? "none" : NULL;
}

static void print_expect(struct printer *pr, const struct topo *t,
			 const struct topo_expect *e)
{
	char tree[16];

	print_open_object(pr, "expect");
	print_string(pr, PRINT_FP, NULL, "%s", "  expect:");
	print_open_object(pr, "roots");
	for (int s = 0; s <= (int)t->mst.n_msti; s++) {
		uint16_t id = topo_tree_id(&t->mst, s);

		if (e->root[s] < 0)
			continue;
		snprintf(tree, sizeof(tree), id ? "%u" : "cist", id);
		print_string(pr, PRINT_JSON, tree, NULL,
			     t->nodes[e->root[s]].name);
		print_string(pr, PRINT_FP, NULL, " root", NULL);
		print_string(pr, PRINT_FP, NULL, " %s", tree);
		print_string(pr, PRINT_FP, NULL, "=%s",
			     t->nodes[e->root[s]].name);
	}
	print_close_object(pr);
	print_open_array(pr, "blocked");
	for (size_t i = 0; i < e->n_blocked; i++) {
		const struct topo_portref *b = &e->blocked[i];
		const struct topo_node *n = &t->nodes[b->node];

		print_open_object(pr, NULL);
		print_uint(pr, PRINT_ANY, "tree", " blocked %u:", b->tree);
		print_string(pr, PRINT_ANY, "node", "%s", n->name);
		print_string(pr, PRINT_ANY, "port", ":%s",
			     n->ports[b->port].name);
		print_close_object(pr);
	}
	print_close_array(pr);
	print_open_object(pr, "outage_ms");
	for (int s = 0; s <= (int)t->mst.n_msti; s++) {
		uint16_t id = topo_tree_id(&t->mst, s);

		if (e->outage_max_ms[s] < 0)
			continue;
		snprintf(tree, sizeof(tree), id ? "%u" : "cist", id);
		print_string(pr, PRINT_FP, NULL, " outage %s", tree);
		print_uint(pr, PRINT_ANY, tree, "<=%u ms",
			   (unsigned)e->outage_max_ms[s]);
	}
	print_close_object(pr);
	if (flush_name(e->flush))
		print_string(pr, PRINT_ANY, "flush", " flush %s",
			     flush_name(e->flush));
	if (e->settle_ms)
		print_uint(pr, PRINT_ANY, "settle_ms", " settle %u ms",
			   e->settle_ms);
	print_close_object(pr);
	print_nl(pr);
}

void plan_print_scenarios(const struct topo *t, struct printer *pr)
{
	print_open_array(pr, "scenarios");
	for (size_t i = 0; i < t->n_scenarios; i++) {
		const struct topo_scenario *sc = &t->scenarios[i];

		print_open_object(pr, NULL);
		print_string(pr, PRINT_ANY, "name", "scenario %s", sc->name);
		if (sc->description)
			print_string(pr, PRINT_ANY, "description", ": %s",
				     sc->description);
		print_nl(pr);
		print_open_array(pr, "steps");
		for (size_t k = 0; k < sc->n_steps; k++)
			print_step(pr, t, &sc->steps[k]);
		print_close_array(pr);
		if (sc->expect.set)
			print_expect(pr, t, &sc->expect);
		print_close_object(pr);
	}
	print_close_array(pr);
}
