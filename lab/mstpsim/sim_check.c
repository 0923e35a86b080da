// SPDX-License-Identifier: MIT
/*
 * Loop freedom of a simulated network, checked after every event: a
 * frame of a VLAN crosses a link only where both ends forward the tree
 * their bridge maps that VLAN to, so in each VLAN (and in each tree) the
 * links forwarding at both ends must form a forest.  Bridges in other
 * regions may map a VLAN to other trees, hence the check per VLAN across
 * the whole network; the VIDs every bridge maps alike are checked once.
 */
#include "mstp_sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sim_boundary(struct sim *sim, unsigned int a, unsigned int b)
{
	const struct mstp_bridge_config *ca = mstp_config(sim->br[a]);
	const struct mstp_bridge_config *cb = mstp_config(sim->br[b]);

	return ca->force_version < MSTP_FORCE_MSTP ||
	       cb->force_version < MSTP_FORCE_MSTP ||
	       !mst_config_id_equal(&ca->mcid, &cb->mcid);
}

/* Bridge @b's tree index for MSTID @mstid; 0 if it has no such MSTI. */
static uint8_t tree_of(struct sim *sim, unsigned int b, uint16_t mstid)
{
	int t = mstp_tree_index(sim->br[b], mstid);

	return t < 0 ? 0 : (uint8_t)t;
}

void sim_check_classes(struct sim *sim)
{
	struct sim_check *c = &sim->check;

	c->nclasses = 0;
	for (unsigned int v = 1; v < MST_VID_COUNT - 1; v++) {
		uint8_t sig[SIM_MAX_BRIDGES] = { 0 };
		unsigned int k;

		for (unsigned int b = 0; b < sim->nbridges; b++)
			sig[b] = tree_of(sim, b, sim->node[b].vids.mstid[v]);
		for (k = 0; k < c->nclasses; k++)
			if (!memcmp(c->tree[k], sig, sizeof(sig)))
				break;
		if (k < c->nclasses)
			continue;
		if (k == SIM_MAX_VCLASSES) {
			fprintf(stderr, "sim: more than %d VLAN classes\n",
				SIM_MAX_VCLASSES);
			abort();
		}
		memcpy(c->tree[k], sig, sizeof(sig));
		c->vid[k] = (uint16_t)v;
		c->nclasses++;
	}
}

/* ---- one graph ---- */

/* Which tree each bridge is in: tree[b] its index, -1 if not at all. */
struct graph {
	int tree[SIM_MAX_BRIDGES];
	bool cist_at_boundary;	/* a Boundary Port counts as its CIST */
	char what[48];
};

static bool end_forwards(struct sim *sim, const struct graph *g,
			 unsigned int b, unsigned int p, bool boundary)
{
	int t = g->tree[b];

	if (t < 0)
		return false;
	if (boundary && g->cist_at_boundary)
		t = 0;
	return sim->state[b][p][t] == MSTP_FORWARDING;
}

struct msg {
	char text[2048];
	size_t len;
};

static void say(struct msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->len >= sizeof(m->text))
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->text + m->len, sizeof(m->text) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n;
}

static void say_end(struct msg *m, struct sim *sim, const struct graph *g,
		    unsigned int b, unsigned int p)
{
	int t = g->tree[b] < 0 ? 0 : g->tree[b];

	say(m, "B%u.p%u %s/%s", b, p,
	    mstp_role_name(sim_role(sim, b, p, (unsigned int)t)),
	    mstp_state_name(sim->state[b][p][t]));
	if (t)
		say(m, " (CIST %s/%s)",
		    mstp_role_name(sim_role(sim, b, p, 0)),
		    mstp_state_name(sim->state[b][p][0]));
}

static void say_link(struct msg *m, struct sim *sim, const struct graph *g,
		     unsigned int l)
{
	const struct sim_link *k = &sim->links[l];

	say(m, "\n  L%u%s: ", l, sim_boundary(sim, k->a, k->b) ?
	    " (boundary)" : "");
	say_end(m, sim, g, k->a, k->pa);
	say(m, " -- ");
	say_end(m, sim, g, k->b, k->pb);
}

static void report(struct sim *sim, const char *event, struct msg *m)
{
	struct sim_check *c = &sim->check;
	char all[sizeof(c->first)];

	snprintf(all, sizeof(all), "at %lu ms, after %.100s: %s", sim->now_ms,
		 event, m->text);
	if (!c->violations++)
		memcpy(c->first, all, sizeof(all));
	if (c->report) {
		c->report(sim, all);
		return;
	}
	fprintf(stderr, "sim: %s\n", all);
	abort();
}

/* Union-find: the representative of @b's part. */
static unsigned int find(const unsigned int *up, unsigned int b)
{
	while (up[b] != b)
		b = up[b];
	return b;
}

/* The links of @used (a forest) on the path from bridge @from to @to, in
 * @path; returns how many. */
static unsigned int forest_path(struct sim *sim, const unsigned int *used,
				unsigned int nused, unsigned int from,
				unsigned int to, unsigned int *path)
{
	int via[SIM_MAX_BRIDGES];	/* link that reached the bridge */
	unsigned int queue[SIM_MAX_BRIDGES], head = 0, tail = 0, n = 0;

	for (unsigned int b = 0; b < SIM_MAX_BRIDGES; b++)
		via[b] = -2;
	via[from] = -1;
	queue[tail++] = from;
	while (head < tail) {
		unsigned int b = queue[head++];

		for (unsigned int i = 0; i < nused; i++) {
			const struct sim_link *k = &sim->links[used[i]];
			unsigned int o = k->a == b ? k->b : k->a;

			if ((k->a != b && k->b != b) || via[o] != -2)
				continue;
			via[o] = (int)used[i];
			queue[tail++] = o;
		}
	}
	for (unsigned int b = to; via[b] >= 0 && n < SIM_MAX_LINKS;) {
		const struct sim_link *k = &sim->links[via[b]];

		path[n++] = (unsigned int)via[b];
		b = k->a == b ? k->b : k->a;
	}
	return n;
}

/*
 * The forwarding links of @g, added one by one to a union-find forest;
 * a link whose ends are already connected closes a cycle: report it with
 * the path that connected them.
 */
static bool forest(struct sim *sim, const struct graph *g, const char *event)
{
	unsigned int up[SIM_MAX_BRIDGES], used[SIM_MAX_LINKS], nused = 0;

	for (unsigned int b = 0; b < sim->nbridges; b++)
		up[b] = b;
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];
		bool bnd = g->cist_at_boundary && sim_boundary(sim, k->a, k->b);
		unsigned int ra, rb, path[SIM_MAX_LINKS], n;

		if (!k->up || !end_forwards(sim, g, k->a, k->pa, bnd) ||
		    !end_forwards(sim, g, k->b, k->pb, bnd))
			continue;
		ra = find(up, k->a);
		rb = find(up, k->b);
		if (ra != rb) {
			up[ra] = rb;
			used[nused++] = l;
			continue;
		}
		struct msg m = { .len = 0 };

		say(&m, "forwarding loop in %s:", g->what);
		say_link(&m, sim, g, l);
		n = forest_path(sim, used, nused, k->a, k->b, path);
		for (unsigned int i = 0; i < n; i++)
			say_link(&m, sim, g, path[i]);
		report(sim, event, &m);
		return false;
	}
	return true;
}

/* 13.13 f: at a Boundary Port no MSTI forwards while the CIST does not.
 * Not before the bridge heard its neighbour since the neighbour's region
 * changed (sim_set_mstis): until then the port is internal as far as
 * anyone there can know. */
static bool boundary_alike(struct sim *sim, const char *event)
{
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];
		unsigned int ends[2][2] = { { k->a, k->pa }, { k->b, k->pb } };

		if (!k->up || !sim_boundary(sim, k->a, k->b))
			continue;
		for (unsigned int e = 0; e < 2; e++) {
			unsigned int b = ends[e][0], p = ends[e][1];
			unsigned int far = ends[!e][0];

			if (sim->heard_gen[b][p] != sim->region_gen[far])
				continue;
			for (unsigned int t = 1; t < sim->node[b].ntrees; t++) {
				struct graph g = { .tree = { 0 } };
				struct msg m = { .len = 0 };

				if (sim->state[b][p][t] != MSTP_FORWARDING ||
				    sim->state[b][p][0] == MSTP_FORWARDING)
					continue;
				for (unsigned int i = 0; i < sim->nbridges; i++)
					g.tree[i] = t < sim->node[i].ntrees ?
						    (int)t : 0;
				say(&m, "MSTI %u forwards at a Boundary Port "
				    "where the CIST does not (13.13 f):",
				    sim->node[b].mstids[t]);
				say_link(&m, sim, &g, l);
				report(sim, event, &m);
				return false;
			}
		}
	}
	return true;
}

/* The CIST, and MSTID @mstid over the bridges that have it (RSTP and STP
 * bridges: their CIST, which carries all their VLANs). */
static bool check_tree(struct sim *sim, uint16_t mstid, const char *event)
{
	struct graph g = { .cist_at_boundary = true };

	for (unsigned int b = 0; b < sim->nbridges; b++) {
		int t = mstp_tree_index(sim->br[b], mstid);

		if (t < 0 && mstp_config(sim->br[b])->force_version <
			     MSTP_FORCE_MSTP)
			t = 0;
		g.tree[b] = t;
	}
	if (mstid)
		snprintf(g.what, sizeof(g.what), "MSTI %u", mstid);
	else
		snprintf(g.what, sizeof(g.what), "the CIST");
	return forest(sim, &g, event);
}

static bool check_vlan(struct sim *sim, unsigned int c, const char *event)
{
	struct graph g = { .cist_at_boundary = false };

	for (unsigned int b = 0; b < sim->nbridges; b++)
		g.tree[b] = sim->check.tree[c][b];
	snprintf(g.what, sizeof(g.what), "VLAN %u", sim->check.vid[c]);
	return forest(sim, &g, event);
}

/* Each MSTID once, in the order the bridges name them. */
static bool check_trees(struct sim *sim, const char *event)
{
	uint16_t seen[SIM_MAX_BRIDGES * (MSTP_MAX_MSTIS + 1)];
	unsigned int nseen = 0;

	for (unsigned int b = 0; b < sim->nbridges; b++) {
		for (unsigned int t = 0; t < sim->node[b].ntrees; t++) {
			uint16_t id = sim->node[b].mstids[t];
			unsigned int i = 0;

			while (i < nseen && seen[i] != id)
				i++;
			if (i < nseen)
				continue;
			seen[nseen++] = id;
			if (!check_tree(sim, id, event))
				return false;
		}
	}
	return true;
}

static bool loop_free(struct sim *sim, const char *event)
{
	if (!boundary_alike(sim, event) || !check_trees(sim, event))
		return false;
	for (unsigned int c = 0; c < sim->check.nclasses; c++)
		if (!check_vlan(sim, c, event))
			return false;
	return true;
}

bool sim_check_loops(struct sim *sim, const char *event)
{
	bool ok = true;

	if (!sim->check.off) {
		sim->check.runs++;
		ok = loop_free(sim, event);
	}
	if (sim->check.observe)
		sim->check.observe(sim);
	return ok;
}

/* The bridges each joins in VLAN class @c: root[b], by union-find;
 * returns how many parts the bridges up make. */
static unsigned int components(struct sim *sim, unsigned int c,
			       unsigned int *root)
{
	struct graph g = { .cist_at_boundary = false };
	unsigned int n = 0;

	for (unsigned int b = 0; b < sim->nbridges; b++) {
		g.tree[b] = sim->check.tree[c][b];
		root[b] = b;
		n += !sim->model.down[b];
	}
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];
		unsigned int ra, rb;

		if (!k->up || !end_forwards(sim, &g, k->a, k->pa, false) ||
		    !end_forwards(sim, &g, k->b, k->pb, false))
			continue;
		ra = find(root, k->a);
		rb = find(root, k->b);
		if (ra != rb) {
			root[ra] = rb;
			n--;
		}
	}
	for (unsigned int b = 0; b < sim->nbridges; b++)
		root[b] = find(root, b);
	return n;
}

unsigned int sim_check_connected(struct sim *sim, char *msg, size_t len)
{
	unsigned int split = 0;

	for (unsigned int c = 0; c < sim->check.nclasses; c++) {
		unsigned int root[SIM_MAX_BRIDGES];
		struct msg m = { .len = 0 };

		if (components(sim, c, root) < 2)
			continue;
		if (!split++ && msg && len) {
			say(&m, "at %lu ms: VLAN %u is split:", sim->now_ms,
			    sim->check.vid[c]);
			for (unsigned int r = 0; r < sim->nbridges; r++) {
				if (root[r] != r || sim->model.down[r])
					continue;
				say(&m, " {");
				for (unsigned int b = 0; b < sim->nbridges; b++)
					if (root[b] == r)
						say(&m, " B%u", b);
				say(&m, " }");
			}
			snprintf(msg, len, "%s", m.text);
		}
	}
	return split;
}
