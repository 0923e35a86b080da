// SPDX-License-Identifier: MIT
/*
 * summary.json: the machine-readable truth of a run. Verdicts and
 * figures per scenario, per check and per tree (results/README.md).
 */
#include "report.h"

#include <jansson.h>
#include <math.h>

#include "topo.h"

#define SUMMARY_VERSION 2

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* "result" and "counts" of a run, a scenario or a tree. */
static json_t *counts(json_t *o, struct result_counts n, bool oom)
{
	json_object_set_new(o, "result", json_string(n.failed || oom ?
						     "fail" : "pass"));
	json_object_set_new(o, "counts", json_pack(
		"{s:i, s:i, s:i}", "checks", (int)n.checks, "failed",
		(int)n.failed, "skipped", (int)n.skipped));
	return o;
}

static json_t *tree_id(int msti)
{
	return msti == RESULT_NO_TREE ? json_null() : json_integer(msti);
}

static json_t *tree_label(int msti)
{
	char buf[16];

	return msti == RESULT_NO_TREE ?
		       json_null() :
		       json_string(result_tree_name(msti, buf, sizeof(buf)));
}

static json_t *check_json(const struct result_check *c)
{
	json_t *o = json_object(), *fig = json_object(), *tf = json_object(),
	       *ev = json_array();
	char tree[16];

	json_object_set_new(o, "name", json_string(c->name));
	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "text", json_string(c->text));
	json_object_set_new(o, "msti", tree_id(c->msti));
	json_object_set_new(o, "tree", tree_label(c->msti));
	json_object_set_new(o, "link", str_or_null(c->link));
	json_object_set_new(o, "subject", str_or_null(c->subject));
	json_object_set_new(o, "result",
			    json_string(result_status_name(c->status)));
	json_object_set_new(o, "message", str_or_null(c->message));
	json_object_set_new(o, "at_ns", c->at_ns ? json_integer(c->at_ns) :
						   json_null());
	for (size_t i = 0; i < c->n_figures; i++) {
		const struct result_figure *f = &c->figures[i];
		json_t *dst = fig;

		if (f->msti != RESULT_NO_TREE) {
			result_tree_name(f->msti, tree, sizeof(tree));
			dst = json_object_get(tf, tree);
			if (!dst) {
				dst = json_object();
				json_object_set_new(tf, tree, dst);
			}
		}
		json_object_set_new(dst, f->name, number(f->value));
	}
	json_object_set_new(o, "figures", fig);
	json_object_set_new(o, "tree_figures", tf);
	for (size_t i = 0; i < c->n_evidence; i++) {
		const struct result_evidence *e = &c->evidence[i];

		json_array_append_new(ev, json_pack("{s:s, s:I, s:I}",
						    "pcap", e->pcap, "frame",
						    (json_int_t)e->frame,
						    "time_ns",
						    (json_int_t)e->ns));
	}
	json_object_set_new(o, "evidence", ev);
	return o;
}

/* One tree in one scenario: its checks' verdict and every figure that
 * measures it, each figure name with its values in check order. */
static json_t *tree_json(const struct result_scenario *sc, int msti)
{
	json_t *o = counts(json_object(), result_count_tree(sc, msti), false),
	       *fig = json_object();

	json_object_set_new(o, "msti", json_integer(msti));
	json_object_set_new(o, "tree", tree_label(msti));
	for (size_t k = 0; k < sc->n_checks; k++)
		for (size_t i = 0; i < sc->checks[k].n_figures; i++) {
			const struct result_figure *f =
				&sc->checks[k].figures[i];
			json_t *vals;

			if (f->msti != msti)
				continue;
			vals = json_object_get(fig, f->name);
			if (!vals) {
				vals = json_array();
				json_object_set_new(fig, f->name, vals);
			}
			json_array_append_new(vals, number(f->value));
		}
	json_object_set_new(o, "figures", fig);
	return o;
}

/* One tree at one instant: its root and each link end as advertised. */
static json_t *snapshot_json(const struct result_run *r,
			     const struct result_snapshot *s)
{
	json_t *o = json_object(), *ports = json_array();

	json_object_set_new(o, "at", json_string(s->at));
	json_object_set_new(o, "event", str_or_null(s->event));
	json_object_set_new(o, "time_ns", json_integer(s->ns));
	json_object_set_new(o, "msti", json_integer(s->msti));
	json_object_set_new(o, "tree", tree_label(s->msti));
	json_object_set_new(o, "root", s->root >= 0 &&
				(size_t)s->root < r->n_nodes ?
			    json_string(r->nodes[s->root].name) : json_null());
	for (size_t l = 0; l < r->n_links; l++)
		for (int e = 0; e < 2; e++) {
			const struct result_port *p = &s->ports[l * 2 + e];

			json_array_append_new(ports, json_pack(
				"{s:s, s:s, s:s, s:s, s:b, s:b, s:b, s:b, s:o}",
				"node", r->nodes[r->links[l].node[e]].name,
				"port", r->links[l].port[e], "link",
				r->links[l].name, "role",
				port_role_name(p->role), "forwarding",
				p->state == PORT_STATE_FORWARDING, "blocked",
				result_port_blocked(p), "inferred", p->inferred,
				"link_down", p->down,
				"frame", p->frame ? json_integer(
					(json_int_t)p->frame) : json_null()));
		}
	json_object_set_new(o, "ports", ports);
	return o;
}

/* The lab as drawn: nodes with their role, links with both ends. */
static json_t *topology_json(const struct result_run *r)
{
	json_t *o = json_object(), *nodes = json_array(),
	       *links = json_array();

	for (size_t i = 0; i < r->n_nodes; i++)
		json_array_append_new(nodes, json_pack(
			"{s:s, s:s}", "name", r->nodes[i].name, "role",
			topo_role_name((enum topo_role)r->nodes[i].role)));
	for (size_t l = 0; l < r->n_links; l++) {
		const struct result_link *k = &r->links[l];

		json_array_append_new(links, json_pack(
			"{s:s, s:s, s:[s, s], s:[s, s]}", "name", k->name,
			"pcap", k->pcap, "nodes", r->nodes[k->node[0]].name,
			r->nodes[k->node[1]].name, "ports", k->port[0],
			k->port[1]));
	}
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "links", links);
	return o;
}

static json_t *scenario_json(const struct result_run *r,
			     const struct result_scenario *sc)
{
	json_t *o = json_object(), *trees = json_array(),
	       *events = json_array(), *checks = json_array();

	json_object_set_new(o, "name", json_string(sc->name));
	json_object_set_new(o, "run_wide", json_boolean(sc->run_wide));
	counts(o, result_count(r, sc), false);
	json_object_set_new(o, "start_ns", json_integer(sc->start_ns));
	json_object_set_new(o, "end_ns", json_integer(sc->end_ns));
	json_object_set_new(o, "duration_s",
			    number(report_seconds(sc->end_ns - sc->start_ns)));
	for (size_t t = 0; t < r->n_trees; t++)
		json_array_append_new(trees, tree_json(sc, r->trees[t]));
	json_object_set_new(o, "trees", trees);
	for (size_t i = 0; i < sc->n_events; i++)
		json_array_append_new(events, json_pack(
			"{s:I, s:s, s:s}", "time_ns",
			(json_int_t)sc->events[i].ns, "kind",
			sc->events[i].kind, "arg", sc->events[i].arg));
	json_object_set_new(o, "events", events);
	for (size_t i = 0; i < sc->n_checks; i++)
		json_array_append_new(checks, check_json(&sc->checks[i]));
	json_object_set_new(o, "checks", checks);
	if (sc->n_snapshots) {
		json_t *snaps = json_array();

		for (size_t i = 0; i < sc->n_snapshots; i++)
			json_array_append_new(snaps, snapshot_json(
				r, &sc->snapshots[i]));
		json_object_set_new(o, "topology", snaps);
	}
	return o;
}

int report_json(const struct result_run *r, FILE *out)
{
	json_t *root = json_object(), *trees = json_array(),
	       *scenarios = json_array();
	int rc;

	json_object_set_new(root, "version", json_integer(SUMMARY_VERSION));
	json_object_set_new(root, "lab", json_string(r->lab ? r->lab : ""));
	counts(root, result_count(r, NULL), r->oom);
	json_object_set_new(root, "frames", json_integer(r->frames));
	json_object_set_new(root, "bpdus", json_integer(r->bpdus));
	json_object_set_new(root, "malformed_bpdus",
			    json_integer(r->bad_bpdus));
	json_object_set_new(root, "warning", str_or_null(r->warning));
	json_object_set_new(root, "provenance", r->prov ?
			    provenance_json(r->prov) : json_null());
	for (size_t t = 0; t < r->n_trees; t++)
		json_array_append_new(trees, json_pack(
			"{s:i, s:o}", "msti", r->trees[t], "tree",
			tree_label(r->trees[t])));
	json_object_set_new(root, "trees", trees);
	for (size_t i = 0; i < r->n_scenarios; i++)
		json_array_append_new(scenarios,
				      scenario_json(r, &r->scenarios[i]));
	json_object_set_new(root, "scenarios", scenarios);
	if (r->n_nodes)
		json_object_set_new(root, "topology", topology_json(r));
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					   JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	return rc || ferror(out) ? -1 : 0;
}
