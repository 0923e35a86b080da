// SPDX-License-Identifier: MIT
#include "flush.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdb_dumps.h"
#include "flows.h"
#include "tree_path.h"

/* Steady windows: the path a flow had just before an event, and frames
 * seen off it, are judged over this much time. */
#define STEADY_NS 1000000000LL
/* A flow's first frames are flooded until its destination is learned. */
#define FLOW_WARMUP_NS 300000000LL

/* The tree (v) at its instant, links up or down by the event log. */
struct at_view {
	struct tree_topo tt;
	const struct analysis *a;
};

static bool link_up_at(const void *ctx, size_t link)
{
	const struct at_view *w = ctx;

	return analysis_link_up(w->a, link, w->tt.v->ns);
}

static void at_view(struct at_view *w, const struct analysis *a,
		    const struct tree_view *v)
{
	w->a = a;
	w->tt = (struct tree_topo){ .t = a->t, .v = v, .link_up = link_up_at,
				    .ctx = w };
}

static bool link_forwards(const struct analysis *a, const struct tree_view *v,
			  size_t link)
{
	struct at_view w;

	at_view(&w, a, v);
	return tree_link_forwards(&w.tt, link);
}

static void toward_node(const struct analysis *a, const struct tree_view *v,
			int to, int *toward)
{
	struct at_view w;

	at_view(&w, a, v);
	tree_toward(&w.tt, to, toward);
}

/*
 * Each tree at one instant, and the active topology a VLAN's frames take
 * then: every bridge's ports as the tree its own region maps the VLAN to
 * shows them (regions may map it to different MSTIs).
 */
struct vid_view {
	struct tree_view *slot;		/* [tree] */
	struct tree_view v;
};

/* The slot vid takes at node: its region's; lab (the lab map's) at a
 * node that is no MSTP bridge. */
static int slot_at(const struct analysis *a, int node, unsigned vid, int lab)
{
	int s = analysis_node_slot(a, node, vid);

	return s < 0 ? lab : s;
}

static void vid_view_at(const struct analysis *a, struct vid_view *w,
			unsigned vid, int lab, int64_t ns)
{
	bool have[TOPO_MAX_TREES] = { false };
	struct tree_port *port = w->v.port;

	trees_view_at(&a->tr, lab, ns, &w->slot[lab]);
	have[lab] = true;
	for (size_t n = 0; n < a->t->n_nodes; n++) {
		int s = slot_at(a, (int)n, vid, lab);

		if (!have[s])
			trees_view_at(&a->tr, s, ns, &w->slot[s]);
		have[s] = true;
		memcpy(port + n * TOPO_MAX_PORTS,
		       w->slot[s].port + n * TOPO_MAX_PORTS,
		       TOPO_MAX_PORTS * sizeof(*port));
	}
	w->v = w->slot[lab];
	w->v.port = port;
}

/* The tree a frame of vid on link counts in: its bridges' region's, the
 * CIST between two regions that map vid to different trees. */
static int link_slot(const struct analysis *a, size_t link, unsigned vid,
		     int lab)
{
	const struct topo_link *l = &a->t->links[link];
	int s0 = analysis_node_slot(a, l->end[0].node, vid),
	    s1 = analysis_node_slot(a, l->end[1].node, vid);

	if (s0 >= 0 && s1 >= 0 && s0 != s1)
		return 0;
	return s0 >= 0 ? s0 : s1 >= 0 ? s1 : lab;
}

/* What one link event did to one tree. */
struct tree_flush {
	bool tc;			/* a BPDU of the tree carried TC */
	const struct tree_adv *tc_first, *tc_last;
	unsigned flows;			/* flows that could show a flush */
	unsigned long flooded;		/* their frames seen off path */
	unsigned flooded_flow, flooded_vid;
	size_t flooded_link;
	uint32_t flooded_frame;
	int64_t flooded_ns;
};

/* The first and last BPDU of the tree with TC set within (from, to). */
static void tree_tc(const struct analysis *a, size_t tree, int64_t from,
		    int64_t to, struct tree_flush *tf)
{
	for (size_t i = 0; i < a->t->n_nodes; i++)
		for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
			size_t n = 0;
			const struct tree_adv *s = trees_track(
				&a->tr, (int)i, (int)j, (int)tree, &n);

			for (size_t k = 0; k < n; k++) {
				if (!s[k].tc || s[k].ns <= from || s[k].ns >= to)
					continue;
				tf->tc = true;
				if (!tf->tc_first || s[k].ns < tf->tc_first->ns)
					tf->tc_first = &s[k];
				if (!tf->tc_last || s[k].ns > tf->tc_last->ns)
					tf->tc_last = &s[k];
			}
		}
}

/*
 * Frames of flow f on links outside `keep` within [from, to); unless tf
 * is NULL, counted into the tree of each link (link_slot: lab is the
 * flow's by the lab map), marked in crossed[], with the first of them
 * when it is the tree's earliest so far.
 */
static unsigned long off_path(const struct analysis *a, const struct flow *f,
			      int lab, const bool *keep, int64_t from,
			      int64_t to, struct tree_flush *tf, bool *crossed)
{
	unsigned long total = 0;

	for (size_t l = 0; l < a->t->n_links; l++) {
		struct tree_flush *m;
		uint32_t first;
		int64_t first_ns;
		unsigned long n;
		int s;

		if (keep[l])
			continue;
		n = flows_count(f, l, from, to, &first, &first_ns);
		total += n;
		if (!n || !tf)
			continue;
		s = link_slot(a, l, f->vid, lab);
		m = &tf[s];
		crossed[s] = true;
		m->flooded += n;
		if (!m->flooded_frame || first_ns < m->flooded_ns) {
			m->flooded_flow = f->id;
			m->flooded_vid = f->vid;
			m->flooded_link = l;
			m->flooded_frame = first;
			m->flooded_ns = first_ns;
		}
	}
	return total;
}

/*
 * Whether a flooded frame could show: a bridge on the flow's new path
 * (links marked in path; only those marked in only[], unless NULL) has
 * a forwarding, captured link outside keep. If not, a flush on the way
 * floods only onto the path itself.
 */
static bool can_flood_off_path(const struct analysis *a,
			       const struct tree_view *v, const bool *path,
			       const bool *keep, const bool *only)
{
	bool on[TOPO_MAX_NODES] = { false };

	for (size_t l = 0; l < a->t->n_links; l++)
		for (int e = 0; path[l] && e < 2; e++) {
			int n = a->t->links[l].end[e].node;

			on[n] = !only || only[n];
		}
	for (size_t l = 0; l < a->t->n_links; l++) {
		const struct topo_link *lk = &a->t->links[l];

		if (!keep[l] && (on[lk->end[0].node] || on[lk->end[1].node]) &&
		    link_forwards(a, v, l))
			return true;
	}
	return false;
}

/* Why a flow shows no flush across an event, or that it may. */
enum flow_fate {
	FLOW_SHOWS,		/* judged: its flooding, or none */
	FLOW_NOT_ACROSS,	/* it did not run steadily across the event */
	FLOW_NO_PATH,
	FLOW_FLOODED,
	FLOW_BLIND,
	FLOW_UNFLUSHED,
	FLOW_FATES
};

/* Why, in a skip's words (flow_fate's order). */
static const char *const fate_why[FLOW_FATES] = {
	[FLOW_NO_PATH] = "its tree joined its ends by no path before the "
			 "event",
	[FLOW_FLOODED] = "it flooded before the event, its destination "
			 "already unknown",
	[FLOW_BLIND] = "the bridges on its path forward onto no other "
		       "captured link",
	[FLOW_UNFLUSHED] = "no bridge on its path flushed its port towards "
			   "the destination, none sent a TC out of it "
			   "(802.1Q flushes every port but the one a TC "
			   "arrives on)",
};

/* The flows of one event that could show no flush, by why. */
struct unseen {
	unsigned n[FLOW_FATES];
	char ids[FLOW_FATES][64];	/* "1, 3" */
};

/* Whether node's port sent a BPDU with TC within (from, to), for the
 * tree (any tree if tree < 0). */
static bool sent_tc(const struct analysis *a, int node, int port, int tree,
		    int64_t from, int64_t to)
{
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		size_t n = 0;
		const struct tree_adv *adv =
			trees_track(&a->tr, node, port, (int)s, &n);

		for (size_t k = 0; k < n && (tree < 0 || (int)s == tree); k++)
			if (adv[k].tc && adv[k].ns > from && adv[k].ns < to)
				return true;
	}
	return false;
}

/*
 * Which bridges forget the flow's destination within (t, next), marked
 * in forgets[]: one never joined to it (toward[]: each node's link
 * towards it before the event) never learnt it; one whose port towards
 * it lost carrier with the event (event_link) or was flushed. 802.1Q
 * flushes, of a tree, every port but the one a TC arrives on, and a
 * port it flushes sends TC while tcWhile runs: so a flushed port is one
 * that sent a TC, of the tree the bridge's region puts the flow's VLAN
 * in if that tree changed (tf), or of any (only a whole-port flush could
 * reach a tree without a topology change).
 */
static void forgetting(const struct analysis *a, const int *toward,
		       int event_link, const struct tree_flush *tf,
		       unsigned vid, int lab, int64_t t, int64_t next,
		       bool *forgets)
{
	for (size_t n = 0; n < a->t->n_nodes; n++) {
		const struct topo_link *lk;
		int l = toward[n], tree = slot_at(a, (int)n, vid, lab);

		forgets[n] = false;
		if (!topo_role_is_bridge(a->t->nodes[n].role))
			continue;
		if (l == TREE_NOT_REACHED || l == event_link) {
			forgets[n] = true;
			continue;
		}
		lk = &a->t->links[l];
		forgets[n] = sent_tc(a, (int)n,
				     lk->end[lk->end[0].node != (int)n].port,
				     tf[tree].tc ? tree : -1, t, next);
	}
}

/* The trees of the bridges on the links marked in path, in crossed[];
 * lab's when no MSTP bridge is on it. */
static void path_trees(const struct analysis *a, const bool *path,
		       unsigned vid, int lab, bool *crossed)
{
	bool any = false;

	for (size_t l = 0; l < a->t->n_links; l++)
		for (int e = 0; path[l] && e < 2; e++) {
			int s = analysis_node_slot(a, a->t->links[l].end[e].node,
						   vid);

			if (s >= 0)
				crossed[s] = any = true;
		}
	if (!any)
		crossed[lab] = true;
}

/*
 * One flow across the event at t (until next): where it went before, off
 * both its old and its new path, counted into the tree of the link it
 * was seen on (each region maps its VLAN to its own); or why it could
 * show no flush. A flow that was already off its path before (its
 * destination unknown) shows nothing; nor does one no bridge of whose
 * path forgot the destination, or could flood it off the path.
 */
static enum flow_fate judge_flow(const struct analysis *a,
				 const struct flow *f, int64_t t, int64_t next,
				 int event_link, bool *keep, bool *scratch,
				 struct tree_flush *tf, struct vid_view *w)
{
	int64_t pre = t - STEADY_NS, end = next < f->stop_ns ? next : f->stop_ns;
	int lab = topo_tree_slot(&a->t->mst,
				 analysis_tree_of_vid(&a->t->mst, f->vid));
	int toward[TOPO_MAX_NODES];
	bool forgets[TOPO_MAX_NODES], crossed[TOPO_MAX_TREES] = { false };

	if (lab < 0 || f->start_ns + FLOW_WARMUP_NS > t - STEADY_NS / 2 ||
	    end <= t)
		return FLOW_NOT_ACROSS;
	if (pre < f->start_ns + FLOW_WARMUP_NS)
		pre = f->start_ns + FLOW_WARMUP_NS;
	vid_view_at(a, w, f->vid, lab, t - 1);
	toward_node(a, &w->v, f->to, toward);
	if (!tree_path(a->t, toward, f->from, keep))
		return FLOW_NO_PATH;
	if (off_path(a, f, lab, keep, pre, t, NULL, NULL))
		return FLOW_FLOODED;
	forgetting(a, toward, event_link, tf, f->vid, lab, t, next, forgets);
	vid_view_at(a, w, f->vid, lab, end - 1);
	toward_node(a, &w->v, f->to, toward);
	if (tree_path(a->t, toward, f->from, scratch))
		for (size_t l = 0; l < a->t->n_links; l++)
			keep[l] = keep[l] || scratch[l];
	path_trees(a, keep, f->vid, lab, crossed);
	/* The failed or restored link carries what was in flight when
	 * it went: not flooding. So does any link down meanwhile. */
	for (size_t l = 0; l < a->t->n_links; l++)
		if ((int)l == event_link || !analysis_link_up(a, l, t) ||
		    !analysis_link_up(a, l, end - 1))
			keep[l] = true;
	if (!off_path(a, f, lab, keep, t, end, tf, crossed)) {
		if (!can_flood_off_path(a, &w->v, scratch, keep, NULL))
			return FLOW_BLIND;
		if (!can_flood_off_path(a, &w->v, scratch, keep, forgets))
			return FLOW_UNFLUSHED;
	}
	for (size_t s = 0; s < a->tr.ntrees; s++)
		tf[s].flows += crossed[s];
	return FLOW_SHOWS;
}

/* A flow that could show no flush, by why. */
static void unseen_add(struct unseen *u, enum flow_fate fate, unsigned id)
{
	size_t used = strlen(u->ids[fate]);

	u->n[fate]++;
	snprintf(u->ids[fate] + used, sizeof(u->ids[fate]) - used, "%s%u",
		 used ? ", " : "", id);
}

/*
 * lead (NULL: "no probe flow could show a flush"), then why, per flow:
 * ": <why> (flow 1); <why> (flows 2, 3)". With no lead and no why: no
 * flow ran steadily across the event.
 */
static void unseen_why(const struct unseen *u, const char *lead, char *buf,
		       size_t len)
{
	const char *sep = ": ";
	bool any = false;

	for (int k = FLOW_NO_PATH; k < FLOW_FATES; k++)
		any |= u->n[k] > 0;
	snprintf(buf, len, "%s", lead ? lead : any ?
		 "no probe flow could show a flush" :
		 "no probe flow ran steadily across it");
	for (int k = FLOW_NO_PATH; k < FLOW_FATES; k++) {
		size_t used = strlen(buf);

		if (!u->n[k])
			continue;
		snprintf(buf + used, len - used, "%s%s (flow%s %s)", sep,
			 fate_why[k], u->n[k] > 1 ? "s" : "", u->ids[k]);
		sep = "; ";
	}
}

static const char *const scope_name[] = {
	[TOPO_FLUSH_UNSET] = "unknown",
	[TOPO_FLUSH_PER_MSTI] = "per-msti",
	[TOPO_FLUSH_ALL] = "whole port",
	[TOPO_FLUSH_NONE] = "none",
};

/* Appends "msti 1 (vlan 20 flow 3, 57 frames on link3)"-like text. */
static void describe(const struct analysis *a, size_t tree,
		     const struct tree_flush *tf, char *buf, size_t len)
{
	char tn[16];
	size_t used = strlen(buf);

	trees_tree_name(&a->tr, (int)tree, tn, sizeof(tn));
	if (tf->flooded)
		snprintf(buf + used, len - used,
			 "%s%s%s flooded %lu frames (first: flow %u vlan %u "
			 "on link%u)", used ? "; " : "", tn,
			 tf->tc ? "" : " without a topology change",
			 tf->flooded, tf->flooded_flow, tf->flooded_vid,
			 a->t->links[tf->flooded_link].index);
	else
		snprintf(buf + used, len - used, "%s%s kept %u flow%s on %s path",
			 used ? "; " : "", tn, tf->flows,
			 tf->flows == 1 ? "" : "s", tf->flows == 1 ? "its" : "their");
}

/*
 * What the FDB dumps add to why, and the scope they show by themselves:
 * learnt entries lost in a tree without a topology change mean a
 * whole-port flush; lost only in changed trees, per-MSTI; none lost,
 * nothing (UNSET): the flows may have taught them back already.
 */
static enum topo_flush dumps_scope(const struct analysis *a,
				   const struct tree_flush *tf,
				   const struct fdb_delta *d, char *why,
				   size_t len)
{
	bool flushed = false, leaked = false;
	size_t used = strlen(why);

	if (!d->found)
		return TOPO_FLUSH_UNSET;
	snprintf(why + used, len - used, "%sFDB dumps:", used ? "; " : "");
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		char tn[16];

		if (!d->forgotten[s])
			continue;
		trees_tree_name(&a->tr, (int)s, tn, sizeof(tn));
		used = strlen(why);
		snprintf(why + used, len - used, "%s %s%s lost %lu learnt (%s)",
			 flushed || leaked ? "," : "", tn,
			 tf[s].tc ? "" : " (no topology change)",
			 d->forgotten[s], d->example[s]);
		flushed |= tf[s].tc;
		leaked |= !tf[s].tc;
	}
	if (!flushed && !leaked) {
		used = strlen(why);
		snprintf(why + used, len - used, " no learnt entry lost");
	}
	return leaked ? TOPO_FLUSH_ALL :
	       flushed ? TOPO_FLUSH_PER_MSTI : TOPO_FLUSH_UNSET;
}

/* The verdict for one event from what each tree did. */
static void judge_event(struct analysis *a, struct result_run *r,
			struct result_scenario *sc, enum topo_flush want,
			const struct event *e, const struct tree_flush *tf,
			const struct unseen *u, const struct fdb_delta *d)
{
	unsigned changed_flows = 0, other_flows = 0;
	bool changed_flooded = false, other_flooded = false, any_tc = false;
	bool all_tc = true, by_dumps = false;
	enum topo_flush seen, dseen;
	enum result_status st;
	char text[EVENT_ARG_MAX + 128], why[1400] = "", name[40], link[24];
	struct result_check *c;

	for (size_t s = 0; s < a->tr.ntrees; s++) {
		any_tc |= tf[s].tc;
		all_tc &= tf[s].tc;
		if (tf[s].tc) {
			changed_flows += tf[s].flows;
			changed_flooded |= tf[s].flooded > 0;
		} else {
			other_flows += tf[s].flows;
			other_flooded |= tf[s].flooded > 0;
		}
		if (tf[s].flows)
			describe(a, s, &tf[s], why, sizeof(why));
	}
	seen = other_flooded ? TOPO_FLUSH_ALL :
	       changed_flooded ? TOPO_FLUSH_PER_MSTI : TOPO_FLUSH_NONE;
	if (!changed_flows && !other_flows) {
		st = RESULT_SKIP;
		unseen_why(u, NULL, why, sizeof(why));
	} else if (want == TOPO_FLUSH_NONE) {
		st = seen == TOPO_FLUSH_NONE ? RESULT_PASS : RESULT_FAIL;
	} else if (seen == TOPO_FLUSH_NONE && !changed_flows) {
		/* Nothing moved where a flow could have shown it. */
		st = any_tc ? RESULT_SKIP : RESULT_PASS;
		if (any_tc)
			unseen_why(u, "no probe flow that could show a flush "
				   "in a tree with a topology change", why,
				   sizeof(why));
	} else if (seen == TOPO_FLUSH_PER_MSTI && !other_flows) {
		/* Every tree with a flow changed: per-MSTI and whole-port
		 * flushes look the same here. */
		st = RESULT_PASS;
		seen = want;
	} else {
		st = seen == want ? RESULT_PASS : RESULT_FAIL;
	}
	dseen = dumps_scope(a, tf, d, why, sizeof(why));
	if (st == RESULT_SKIP && dseen != TOPO_FLUSH_UNSET) {
		/* No flow could tell; the dumps can. */
		by_dumps = true;
		seen = dseen == TOPO_FLUSH_PER_MSTI && all_tc ? want : dseen;
		st = seen == want ? RESULT_PASS : RESULT_FAIL;
	} else if (st == RESULT_PASS && want != TOPO_FLUSH_ALL &&
		   dseen == TOPO_FLUSH_ALL) {
		st = RESULT_FAIL;
		seen = TOPO_FLUSH_ALL;
		by_dumps = true;
	}
	snprintf(text, sizeof(text), "%s %s: FDB flush %s%s (expected %s)",
		 e->word, e->arg, st == RESULT_SKIP ? "not observable" :
		 scope_name[seen], by_dumps ? " in the FDB dumps" : "",
		 scope_name[want]);
	snprintf(name, sizeof(name), "flush-%s", e->word);
	snprintf(link, sizeof(link), "%.*s", (int)strcspn(e->arg, " "), e->arg);
	c = result_add_check(r, sc, name, RESULT_NO_TREE, link[0] ? link : NULL,
			     st == RESULT_PASS, text, why[0] ? why : NULL);
	if (!c)
		return;
	if (st == RESULT_SKIP)
		result_skip(r, c, why);
	c->at_ns = e->ns;
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		int id = a->tr.tree_id[s];

		result_add_figure(r, c, "flooded_frames", (double)tf[s].flooded, id);
		if (d->found)
			result_add_figure(r, c, "fdb_lost", (double)d->forgotten[s],
					  id);
		/* One value per event and tree, none where it had no TC:
		 * they line up with the settle times. */
		result_add_figure(r, c, "tc_first_s", tf[s].tc ?
				  (double)(tf[s].tc_first->ns - e->ns) / 1e9 :
				  NAN, id);
		result_add_figure(r, c, "tc_last_s", tf[s].tc ?
				  (double)(tf[s].tc_last->ns - e->ns) / 1e9 :
				  NAN, id);
	}
	for (size_t s = 0; s < a->tr.ntrees; s++) {
		analysis_evidence(a, r, c, tf[s].flooded_link, tf[s].flooded_frame,
			     tf[s].flooded_ns);
		if (tf[s].tc)
			analysis_evidence(a, r, c, tf[s].tc_first->link,
				     tf[s].tc_first->frame, tf[s].tc_first->ns);
	}
}

void flush_checks(struct analysis *a, struct result_run *r,
		  struct result_scenario *sc, const struct topo_scenario *tsc,
		  size_t first, int64_t end)
{
	enum topo_flush want = tsc->expect.flush == TOPO_FLUSH_UNSET ?
				       TOPO_FLUSH_PER_MSTI : tsc->expect.flush;
	bool *keep = calloc(2 * a->t->n_links + 1, sizeof(*keep));
	struct fdb_delta d;
	struct unseen u;
	struct tree_flush *tf = calloc(a->tr.ntrees, sizeof(*tf));
	struct vid_view w = { .slot = calloc(a->tr.ntrees, sizeof(*w.slot)) };
	bool ok = w.slot && keep && tf && !tree_view_alloc(&a->tr, &w.v);

	for (size_t s = 0; ok && s < a->tr.ntrees; s++)
		ok = !tree_view_alloc(&a->tr, &w.slot[s]);
	if (!ok)
		goto out;
	for (size_t i = first; i < a->n_events && a->ev[i].ns < end; i++) {
		const struct event *e = &a->ev[i];
		int64_t next = end;

		if (!event_is_link(e))
			continue;
		for (size_t k = i + 1; k < a->n_events && a->ev[k].ns < end; k++)
			if (event_is_link(&a->ev[k])) {
				next = a->ev[k].ns;
				break;
			}
		memset(tf, 0, a->tr.ntrees * sizeof(*tf));
		memset(&u, 0, sizeof(u));
		for (size_t s = 0; s < a->tr.ntrees; s++)
			tree_tc(a, s, e->ns, next, &tf[s]);
		for (size_t k = 0; k < a->flows.n; k++) {
			enum flow_fate fate = judge_flow(
				a, &a->flows.f[k], e->ns, next,
				analysis_event_link(a, e), keep,
				keep + a->t->n_links, tf, &w);

			if (fate != FLOW_SHOWS)
				unseen_add(&u, fate, a->flows.f[k].id);
		}
		fdb_delta(a, tsc->name, i, analysis_event_link(a, e), &d);
		judge_event(a, r, sc, want, e, tf, &u, &d);
	}
out:
	for (size_t s = 0; w.slot && s < a->tr.ntrees; s++)
		tree_view_free(&w.slot[s]);
	free(w.slot);
	tree_view_free(&w.v);
	free(keep);
	free(tf);
}
