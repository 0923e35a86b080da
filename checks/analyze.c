// SPDX-License-Identifier: MIT
#include "analyze.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "boundary.h"
#include "bpdu.h"
#include "flush.h"
#include "probe_checks.h"
#include "steps.h"
#include "pcapread.h"
#include "report.h"
#include "snapshot.h"

static struct an_port_tree *slot(struct analysis *a, size_t node, size_t port,
				 size_t tree)
{
	return &a->pt[(node * TOPO_MAX_PORTS + port) * a->ntrees + tree];
}

/* The node and port that own a MAC (planned NIC addresses). */
static bool port_of(const struct analysis *a, const uint8_t mac[6],
		    size_t *node, size_t *port)
{
	int n, p;

	if (!plan_port_of_mac(a->p, mac, &n, &p))
		return false;
	*node = (size_t)n;
	*port = (size_t)p;
	return true;
}

/*
 * The end of the link being read that belongs to the bridge whose MAC is
 * in the BPDU's bridge id: for ports whose source address is not the
 * planned NIC's (DSA user ports all send with the switch's address).
 */
static bool port_of_bridge(const struct analysis *a, const uint8_t mac[6],
			   size_t *node, size_t *port)
{
	const struct topo_link *l;

	if (a->cur_link >= a->t->n_links)
		return false;
	l = &a->t->links[a->cur_link];
	for (int e = 0; e < 2; e++)
		if (!memcmp(a->p->nodes[l->end[e].node].bridge_mac, mac, 6)) {
			*node = (size_t)l->end[e].node;
			*port = (size_t)l->end[e].port;
			return true;
		}
	return false;
}

static void add(struct analysis *a, size_t node, size_t port, size_t tree,
		const struct an_sample *s)
{
	struct an_port_tree *pt = slot(a, node, port, tree);

	if (pt->n == pt->cap) {
		size_t cap = pt->cap ? pt->cap * 2 : 64;
		struct an_sample *m = realloc(pt->s, cap * sizeof(*m));

		if (!m)
			return;	/* out of memory: a sample less */
		pt->s = m;
		pt->cap = cap;
	}
	pt->s[pt->n++] = *s;
}

/* FNV-1a over the whole frame: copies of one frame hash alike. */
static uint32_t frame_hash(const uint8_t *frame, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ frame[i]) * 16777619u;
	return h ? h : 1;
}

/* Counts copies of each frame per second on the current link. BPDUs
 * repeat by design (every hello) but far below the threshold. */
static void loop_watch(struct analysis *a, int64_t ns, const uint8_t *frame,
		       size_t len)
{
	uint32_t h = frame_hash(frame, len);
	size_t i = h % AN_LOOP_SLOTS;

	if (ns / 1000000000 != a->loop_second) {
		a->loop_second = ns / 1000000000;
		memset(a->loop_hash, 0, sizeof(a->loop_hash));
		memset(a->loop_count, 0, sizeof(a->loop_count));
	}
	for (size_t k = 0; k < AN_LOOP_SLOTS; k++, i = (i + 1) % AN_LOOP_SLOTS) {
		if (a->loop_hash[i] && a->loop_hash[i] != h)
			continue;
		a->loop_hash[i] = h;
		if (++a->loop_count[i] == AN_LOOP_REPEATS && !a->loop_ns) {
			a->loop_ns = ns;
			a->loop_link = a->cur_link;
			a->loop_frame = a->link_frames;
		}
		return;
	}
}

/* Two bridges are in one MST region when their configuration ids match. */
static uint32_t mcid_hash(const struct mst_config_id *id)
{
	uint8_t rev[2] = { (uint8_t)(id->revision >> 8), (uint8_t)id->revision };
	uint32_t h = frame_hash(&id->format_selector, 1);

	h ^= frame_hash(id->name, sizeof(id->name)) * 31;
	h ^= frame_hash(rev, 2) * 131;
	return h ^ frame_hash(id->digest, sizeof(id->digest)) * 1031;
}

void analysis_frame(struct analysis *a, int64_t ns, const uint8_t *frame,
		    size_t len)
{
	struct bpdu_frame f;
	struct bpdu b;
	size_t node, port;
	struct an_sample where;

	a->frames++;
	a->link_frames++;
	where = (struct an_sample){ .ns = ns, .frame = (uint32_t)a->link_frames,
				    .link = (uint16_t)a->cur_link };
	loop_watch(a, ns, frame, len);
	flows_frame(&a->flows, a->cur_link, ns, (uint32_t)a->link_frames,
		    frame, len);
	if (len < 14 || memcmp(frame, bpdu_group_addr, 6))
		return;
	if (bpdu_frame_decode(frame, len, &f, &b) != BPDU_OK) {
		a->bad_bpdus++;
		return;
	}
	a->bpdus++;
	if (!a->first_bpdu.frame || ns < a->first_bpdu.ns)
		a->first_bpdu = where;
	if (b.type == BPDU_TYPE_TCN ||
	    (!port_of(a, f.src, &node, &port) &&
	     !port_of_bridge(a, b.bridge_id.mac, &node, &port)))
		return;
	where.role = (uint8_t)b.flags.role;
	where.forwarding = b.flags.forwarding;
	where.tc = b.flags.tc;
	where.root = bridge_id_u64(&b.root_id);
	where.mst = b.type == BPDU_TYPE_MST;
	if (where.mst)
		where.mcid = mcid_hash(&b.mcid);
	add(a, node, port, 0, &where);
	for (unsigned i = 0; i < b.msti_count; i++) {
		const struct bpdu_msti *m = &b.msti[i];
		int s = topo_tree_slot(&a->t->mst, bpdu_msti_mstid(m));

		if (s <= 0 || (size_t)s >= a->ntrees)
			continue;
		where.role = (uint8_t)m->flags.role;
		where.forwarding = m->flags.forwarding;
		where.tc = m->flags.tc;
		where.root = bridge_id_u64(&m->regional_root);
		add(a, node, port, (size_t)s, &where);
	}
}

static int frame_cb(void *ctx, int64_t ns, const uint8_t *frame, size_t len)
{
	analysis_frame(ctx, ns, frame, len);
	return 0;
}

/* The probe flows the event log starts and stops, for flows_frame. */
static void load_flows(struct analysis *a)
{
	flows_init(&a->flows, a->t->n_links);
	for (size_t i = 0; i < a->n_events; i++) {
		const struct event *e = &a->ev[i];
		int from = topo_node_find(a->t, e->from),
		    to = topo_node_find(a->t, e->to);
		const struct topo_node *n;

		if (e->kind == EVENT_PROBE_STOP && e->args_ok)
			flows_stop(&a->flows, e->n, e->ns);
		if (e->kind != EVENT_PROBE_START || !e->args_ok || from < 0 ||
		    to < 0)
			continue;
		n = &a->t->nodes[from];
		flows_start(&a->flows, e->n, from, to,
			    n->n_ports ? n->ports[0].link : -1, e->vid, e->pps,
			    e->ns);
	}
}

static int by_time(const void *x, const void *y)
{
	const struct an_sample *a = x, *b = y;

	return (a->ns > b->ns) - (a->ns < b->ns);
}

int analysis_load(struct analysis *a, const struct topo *t,
		  const struct plan *p, const char *run_dir, char *err,
		  size_t err_len)
{
	memset(a, 0, sizeof(*a));
	a->t = t;
	a->p = p;
	a->ntrees = 1 + t->mst.n_msti;
	for (size_t s = 0; s < a->ntrees; s++)
		a->tree_id[s] = topo_tree_id(&t->mst, (int)s);
	a->pt = calloc(t->n_nodes * TOPO_MAX_PORTS * a->ntrees + 1,
		       sizeof(*a->pt));
	if (!a->pt) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	a->drops = calloc(t->n_links + 1, sizeof(*a->drops));
	if (!a->drops) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	snprintf(a->run_dir, sizeof(a->run_dir), "%s", run_dir);
	if (events_read(run_dir, &a->ev, &a->n_events, err, err_len))
		return -1;
	load_flows(a);
	for (size_t l = 0; l < t->n_links; l++) {
		char path[PATH_MAX + 128], e[512];

		snprintf(path, sizeof(path), "%s/%s", run_dir,
			 p->links[l].pcap);
		a->cur_link = l;
		a->link_frames = 0;
		a->loop_second = -1;
		if (pcap_read_file(path, frame_cb, a, e, sizeof(e)))
			snprintf(a->warn, sizeof(a->warn), "%s", e);
		a->drops[l] = pcap_capture_drops(path);
		if (a->drops[l] > 0 && !a->warn[0])
			snprintf(a->warn, sizeof(a->warn), "the capture of link%u "
				 "lost %ld frames (tcpdump: dropped by kernel)",
				 t->links[l].index, a->drops[l]);
	}
	/* Links are read one after the other: put each port in order. */
	for (size_t i = 0; i < t->n_nodes * TOPO_MAX_PORTS * a->ntrees; i++)
		if (a->pt[i].n > 1)
			qsort(a->pt[i].s, a->pt[i].n, sizeof(*a->pt[i].s),
			      by_time);
	return 0;
}

void analysis_free(struct analysis *a)
{
	if (a->pt)
		for (size_t i = 0; i < a->t->n_nodes * TOPO_MAX_PORTS *
				   a->ntrees; i++)
			free(a->pt[i].s);
	free(a->pt);
	free(a->drops);
	a->drops = NULL;
	free(a->ev);
	a->ev = NULL;
	flows_free(&a->flows);
	a->pt = NULL;
}

/* A port's last advertisement for a tree at or before ns, or NULL. */
static const struct an_sample *last_before(const struct an_port_tree *pt,
					   int64_t ns);

const struct an_sample *analysis_port_samples(const struct analysis *a,
					      size_t node, size_t port,
					      size_t tree, size_t *n)
{
	const struct an_port_tree *pt =
		slot((struct analysis *)a, node, port, tree);

	*n = pt->n;
	return pt->s;
}

const struct an_sample *analysis_port_sample(const struct analysis *a,
					     size_t node, size_t port,
					     size_t tree, int64_t ns)
{
	return last_before(slot((struct analysis *)a, node, port, tree), ns);
}

bool analysis_port_view(const struct analysis *a, size_t node, size_t port,
			size_t tree, int64_t ns, struct an_sample *out)
{
	const struct an_sample *s = analysis_port_sample(a, node, port, tree, ns);

	if (!s)
		return false;
	*out = *s;
	if (s->role != BPDU_ROLE_ROOT)
		return true;
	for (size_t j = 0; j < a->t->nodes[node].n_ports; j++) {
		const struct an_sample *o =
			j == port ? NULL :
				    analysis_port_sample(a, node, j, tree, ns);

		if (o && o->role == BPDU_ROLE_ROOT && o->ns > s->ns) {
			out->role = BPDU_ROLE_ALT_BACKUP;
			out->forwarding = false;
			break;
		}
	}
	return true;
}

static const struct an_sample *last_before(const struct an_port_tree *pt,
					   int64_t ns)
{
	const struct an_sample *found = NULL;

	for (size_t i = 0; i < pt->n && pt->s[i].ns <= ns; i++)
		found = &pt->s[i];
	return found;
}

static bool same(const struct an_sample *x, const struct an_sample *y)
{
	return x->role == y->role && x->forwarding == y->forwarding &&
	       x->root == y->root;
}

/* The node whose bridge MAC is in this bridge id, or -1. */
/* The latest BPDU any port sent naming root for the tree, by ns. */
static const struct an_sample *latest_naming(const struct analysis *a,
					     size_t tree, int64_t ns,
					     uint64_t root)
{
	const struct an_sample *ev = NULL;

	for (size_t i = 0; i < a->t->n_nodes; i++)
		for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
			const struct an_sample *s = last_before(
				slot((struct analysis *)a, i, j, tree), ns);

			if (s && s->root == root && (!ev || s->ns > ev->ns))
				ev = s;
		}
	return ev;
}

/*
 * The root most ports advertise for a tree at ns (-1: none, -2: unknown),
 * and in *ev the latest BPDU naming it: the evidence.
 */
static int root_at(const struct analysis *a, size_t tree, int64_t ns,
		   const struct an_sample **ev)
{
	uint64_t seen[64];
	unsigned count[64] = { 0 }, best = 0;
	size_t n = 0, best_k = 0;
	int root = -1;

	*ev = NULL;
	for (size_t i = 0; i < a->t->n_nodes; i++)
		for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
			const struct an_sample *s = last_before(
				slot((struct analysis *)a, i, j, tree), ns);
			size_t k;

			if (!s)
				continue;
			for (k = 0; k < n && seen[k] != s->root; k++)
				;
			if (k == n && n < 64)
				seen[n++] = s->root;
			if (k < 64)
				count[k]++;
		}
	for (size_t k = 0; k < n; k++)
		if (count[k] > best) {
			best = count[k];
			best_k = k;
			root = plan_node_of_bridge_id(a->p, seen[k]);
			if (root < 0)
				root = -2;
		}
	if (best)
		*ev = latest_naming(a, tree, ns, seen[best_k]);
	return root;
}

int analysis_root_at(const struct analysis *a, size_t tree, int64_t ns)
{
	const struct an_sample *ev;

	return root_at(a, tree, ns, &ev);
}

/* The port's BPDU that shows it not forwarding in that tree at ns. */
static bool blocked_at(const struct analysis *a, size_t node, size_t port,
		       size_t tree, int64_t ns, struct an_sample *s)
{
	return analysis_port_view(a, node, port, tree, ns, s) &&
	       (s->role == BPDU_ROLE_ALT_BACKUP || !s->forwarding);
}

/* Last change of any port's advertisement in a tree within (from, to]. */
static const struct an_sample *last_change(const struct analysis *a,
					   size_t tree, int64_t from,
					   int64_t to)
{
	const struct an_sample *last = NULL;

	for (size_t i = 0; i < a->t->n_nodes; i++)
		for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
			const struct an_port_tree *pt =
				slot((struct analysis *)a, i, j, tree);

			for (size_t k = 1; k < pt->n; k++)
				if (pt->s[k].ns > from && pt->s[k].ns <= to &&
				    !same(&pt->s[k], &pt->s[k - 1]) &&
				    (!last || pt->s[k].ns > last->ns))
					last = &pt->s[k];
		}
	return last;
}

void analysis_tree_name(const struct analysis *a, size_t tree, char *buf,
			size_t len)
{
	if (tree == 0)
		snprintf(buf, len, "cist");
	else
		snprintf(buf, len, "msti %u", a->tree_id[tree]);
}

/* Where the model's verdicts of one scenario go. */
struct verdict_ctx {
	struct analysis *a;
	struct result_run *r;
	struct result_scenario *sc;
	const struct topo_scenario *tsc;
};

static void evidence(struct verdict_ctx *v, struct result_check *c,
		     const struct an_sample *s)
{
	if (s && s->frame && s->link < v->a->t->n_links)
		result_add_evidence(v->r, c, v->a->p->links[s->link].pcap,
				    s->frame, s->ns);
}

/* [start, end) of scenario sc in the event log; false if it never ran. */
static bool window(const struct analysis *a, const char *sc, int64_t *start,
		   int64_t *end, size_t *first)
{
	bool in = false;

	for (size_t i = 0; i < a->n_events; i++) {
		const struct event *e = &a->ev[i];

		if (e->kind == EVENT_SCENARIO && !strcmp(e->arg, sc)) {
			*start = e->ns;
			*first = i;
			*end = INT64_MAX;
			in = true;
		} else if (in && (e->kind == EVENT_SCENARIO ||
				  e->kind == EVENT_RUN_END)) {
			*end = e->ns;
			return true;
		}
	}
	return in;
}

static void check_roots(struct verdict_ctx *v, int64_t at, const char *name,
			const char *when)
{
	struct analysis *a = v->a;

	for (size_t s = 0; s < a->ntrees; s++) {
		char tn[16], what[160], diag[160];
		int want = v->tsc->expect.root[s], got;
		const struct an_sample *ev;
		struct result_check *c;

		if (want < 0)
			continue;
		analysis_tree_name(a, s, tn, sizeof(tn));
		got = root_at(a, s, at, &ev);
		snprintf(what, sizeof(what), "%s root is %s %s", tn,
			 a->t->nodes[want].name, when);
		snprintf(diag, sizeof(diag), "the BPDUs name %s",
			 got >= 0 ? a->t->nodes[got].name :
			 got == -1 ? "no root (no BPDU seen)" :
				     "a bridge outside the lab");
		c = result_add_check(v->r, v->sc, name, a->tree_id[s], NULL,
				     got == want, what, diag);
		if (c)
			c->at_ns = at;
		evidence(v, c, ev);
	}
}

static void check_blocked(struct verdict_ctx *v, int64_t at)
{
	struct analysis *a = v->a;

	for (size_t s = 0; s < a->ntrees; s++) {
		struct an_sample ev[8];
		char tn[16], want[512] = "", got[512] = "", what[640];
		struct result_check *c;
		size_t n_ev = 0;
		unsigned n = 0;
		bool any = false;

		for (size_t k = 0; k < v->tsc->expect.n_blocked; k++) {
			const struct topo_portref *r =
				&v->tsc->expect.blocked[k];

			if (topo_tree_slot(&a->t->mst, r->tree) != (int)s)
				continue;
			any = true;
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s%s:%s", want[0] ? " " : "",
				 a->t->nodes[r->node].name,
				 a->t->nodes[r->node].ports[r->port].name);
		}
		if (!any)
			continue;
		for (size_t i = 0; i < a->t->n_nodes; i++)
			for (size_t j = 0; j < a->t->nodes[i].n_ports; j++) {
				struct an_sample b;

				if (!blocked_at(a, i, j, s, at, &b))
					continue;
				n++;
				if (n_ev < 8)
					ev[n_ev++] = b;
				snprintf(got + strlen(got),
					 sizeof(got) - strlen(got),
					 "%s%s:%s", got[0] ? " " : "",
					 a->t->nodes[i].name,
					 a->t->nodes[i].ports[j].name);
			}
		analysis_tree_name(a, s, tn, sizeof(tn));
		snprintf(what, sizeof(what), "%s blocks exactly %s before the "
			 "first failure", tn, want);
		c = result_add_check(v->r, v->sc, "blocked-before-failure",
				     a->tree_id[s], NULL, !strcmp(want, got),
				     what, got[0] ? got : "nothing blocked");
		if (c)
			c->at_ns = at;
		result_add_figure(v->r, c, "blocked_ports", n, RESULT_NO_TREE);
		for (size_t k = 0; k < n_ev; k++)
			evidence(v, c, &ev[k]);
	}
}

/* The event's link ("link4" of "link4 carrier"). */
static void event_link(const struct event *e, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(e->arg, " "), e->arg);
}

/* Every injected event settles within the budget, in every tree. */
static void check_settle(struct verdict_ctx *v, size_t first, int64_t end)
{
	struct analysis *a = v->a;

	for (size_t i = first; i < a->n_events && a->ev[i].ns < end; i++) {
		const struct event *e = &a->ev[i];
		const struct an_sample *worst_ev = NULL;
		int64_t next = end, worst = 0, settle[TOPO_MAX_TREES];
		char what[EVENT_ARG_MAX + 128], diag[32] = "", name[40], link[32],
		     msg[64];
		size_t worst_tree = 0;
		long budget = v->tsc->expect.settle_ms;
		struct result_check *c;
		bool ok;

		if (!event_is_link(e))
			continue;
		for (size_t k = i + 1; k < a->n_events && a->ev[k].ns < end;
		     k++)
			if (event_is_link(&a->ev[k])) {
				next = a->ev[k].ns;
				break;
			}
		for (size_t s = 0; s < a->ntrees; s++) {
			const struct an_sample *last =
				last_change(a, s, e->ns, next);

			settle[s] = last ? last->ns - e->ns : 0;
			if (last && last->ns > 0 && settle[s] > worst) {
				worst = settle[s];
				worst_tree = s;
				worst_ev = last;
			}
		}
		analysis_tree_name(a, worst_tree, diag, sizeof(diag));
		snprintf(what, sizeof(what), "%s %s settles in %.3f s (%s)%s",
			 e->word, e->arg, (double)worst / 1e9,
			 worst ? diag : "no change",
			 budget ? "" : ", no budget");
		ok = !budget || worst <= (int64_t)budget * 1000000;
		if (ok && budget)
			snprintf(msg, sizeof(msg), "within the %.3f s budget",
				 (double)budget / 1e3);
		snprintf(name, sizeof(name), "settle-%s", e->word);
		event_link(e, link, sizeof(link));
		/* One check over every tree: its name must not change with
		 * whichever tree happened to be slowest. */
		c = result_add_check(v->r, v->sc, name, RESULT_NO_TREE,
				     link[0] ? link : NULL, ok, what,
				     ok ? (budget ? msg : NULL) :
					  "over the scenario's settle budget");
		if (c)
			c->at_ns = e->ns;
		result_add_figure(v->r, c, "settle_s", (double)worst / 1e9,
				  RESULT_NO_TREE);
		if (budget)
			result_add_figure(v->r, c, "budget_s",
					  (double)budget / 1e3, RESULT_NO_TREE);
		for (size_t s = 0; s < a->ntrees; s++)
			result_add_figure(v->r, c, "settle_s",
					  (double)settle[s] / 1e9,
					  a->tree_id[s]);
		evidence(v, c, worst_ev);
	}
}

/* No frame goes round a loop: never expected, in any scenario. */
static void check_loops(struct verdict_ctx *v, int64_t start, int64_t end)
{
	struct analysis *a = v->a;
	bool loop = a->loop_ns >= start && a->loop_ns < end;
	char diag[160] = "";
	struct result_check *c;

	if (loop)
		snprintf(diag, sizeof(diag), "a frame crossed link %u %d times "
			 "within a second, %.3f s into the scenario",
			 a->t->links[a->loop_link].index, AN_LOOP_REPEATS,
			 (double)(a->loop_ns - start) / 1e9);
	c = result_add_check(v->r, v->sc, "no-loop", RESULT_NO_TREE, NULL,
			     !loop, "no frame goes round a loop", diag);
	if (loop && c) {
		c->at_ns = a->loop_ns;
		evidence(v, c, &(struct an_sample){
			.ns = a->loop_ns, .frame = (uint32_t)a->loop_frame,
			.link = (uint16_t)a->loop_link });
	}
}

static bool has_bridges(const struct topo *t)
{
	for (size_t i = 0; i < t->n_nodes; i++)
		if (topo_role_is_bridge(t->nodes[i].role))
			return true;
	return false;
}

/* Spanning tree runs only where there are bridges: a lab of hosts (an
 * hsmp-host and its peer) has no BPDU to expect. */
static void check_bpdus(struct verdict_ctx *v)
{
	struct analysis *a = v->a;
	struct result_check *c;

	if (!has_bridges(a->t))
		return;
	c = result_add_check(v->r, v->sc, "bpdus-seen", RESULT_NO_TREE, NULL,
			     a->bpdus > 0, "the captures hold BPDUs",
			     a->bpdus ? NULL : "no BPDU on any link");
	result_add_figure(v->r, c, "bpdus", (double)a->bpdus, RESULT_NO_TREE);
	result_add_figure(v->r, c, "malformed_bpdus", (double)a->bad_bpdus,
			  RESULT_NO_TREE);
	if (a->bpdus)
		evidence(v, c, &a->first_bpdu);
}

/* Every step of the scenario ran: a failed one (event step-failed N) is
 * named with its text from the step event, so the report cannot say PASS
 * over a scenario that stopped half-way. */
static void check_steps(struct verdict_ctx *v, size_t first, int64_t end)
{
	struct analysis *a = v->a;
	char why[160] = "";

	for (size_t k = first; k < a->n_events && a->ev[k].ns < end; k++) {
		unsigned n = a->ev[k].n;

		if (a->ev[k].kind != EVENT_STEP_FAILED || !a->ev[k].args_ok)
			continue;
		for (size_t j = first; j < k; j++)
			if (a->ev[j].kind == EVENT_STEP && a->ev[j].args_ok &&
			    a->ev[j].n == n)
				snprintf(why, sizeof(why), "step %u failed: %s", n,
					 a->ev[j].arg + a->ev[j].text_at);
		if (!why[0])
			snprintf(why, sizeof(why), "step %u failed", n);
		break;
	}
	result_add_check(v->r, v->sc, "steps", RESULT_NO_TREE, NULL, !why[0],
			 "every step of the scenario succeeded", why[0] ? why : NULL);
}

/* The link an event names ("link4 carrier"), or -1. */
int analysis_event_link(const struct analysis *a, const struct event *e)
{
	if (!e->link)
		return -1;
	for (size_t l = 0; l < a->t->n_links; l++)
		if (a->t->links[l].index == e->link)
			return (int)l;
	return -1;
}

bool analysis_next_down(const struct analysis *a, size_t link, size_t *i,
			int64_t *from, int64_t *to)
{
	bool down = false;

	for (; *i < a->n_events; ++*i) {
		const struct event *e = &a->ev[*i];

		if (!event_is_link(e) || analysis_event_link(a, e) != (int)link)
			continue;
		if (e->kind == EVENT_LINK_DOWN && !down) {
			down = true;
			*from = e->ns;
		} else if (e->kind == EVENT_LINK_UP && down) {
			*to = e->ns;
			return true;
		}
	}
	*to = INT64_MAX;
	return down;
}

/* Whether the link has carrier (or is not silently dropping) at ns. */
bool analysis_link_up(const struct analysis *a, size_t link, int64_t ns)
{
	bool up = true;

	for (size_t i = 0; i < a->n_events && a->ev[i].ns <= ns; i++)
		if (event_is_link(&a->ev[i]) &&
		    analysis_event_link(a, &a->ev[i]) == (int)link)
			up = a->ev[i].kind == EVENT_LINK_UP;
	return up;
}


uint16_t analysis_tree_of_vid(const struct topo_mst *mst, unsigned vid)
{
	for (size_t k = 0; k < mst->n_msti; k++)
		if (topo_vlan_has(&mst->msti[k].vlans, vid))
			return mst->msti[k].id;
	return 0;
}

void analysis_results(struct analysis *a, struct result_run *r)
{
	r->analysed = true;
	r->frames = a->frames;
	r->bpdus = a->bpdus;
	r->bad_bpdus = a->bad_bpdus;
	if (a->warn[0])
		result_set_warning(r, a->warn);
	r->n_trees = a->ntrees < RESULT_MAX_TREES ? a->ntrees :
						    RESULT_MAX_TREES;
	for (size_t s = 0; s < r->n_trees; s++)
		r->trees[s] = a->tree_id[s];
	for (size_t i = 0; i < a->t->n_scenarios; i++) {
		struct verdict_ctx v = { .a = a, .r = r,
					 .tsc = &a->t->scenarios[i] };
		int64_t start = 0, end = 0, fail_at, last = 0;
		size_t first = 0;

		if (!window(a, v.tsc->name, &start, &end, &first))
			continue;
		for (size_t k = first; k < a->n_events && a->ev[k].ns < end;
		     k++)
			last = a->ev[k].ns;
		/* A run cut short has no end: its last event is one. */
		v.sc = result_add_scenario(r, v.tsc->name, start,
					   end == INT64_MAX ? last : end);
		for (size_t k = first + 1; k < a->n_events && a->ev[k].ns < end;
		     k++)
			result_add_event(r, v.sc, a->ev[k].ns, a->ev[k].word,
					 a->ev[k].arg);
		fail_at = end;
		for (size_t k = first; k < a->n_events && a->ev[k].ns < end;
		     k++)
			if (a->ev[k].kind == EVENT_LINK_DOWN) {
				fail_at = a->ev[k].ns;
				break;
			}
		snapshot_scenario(a, r, v.sc);
		check_bpdus(&v);
		check_loops(&v, start, end);
		if (v.tsc->expect.set) {
			check_roots(&v, fail_at, "root-before-failure",
				    "before the first failure");
			check_blocked(&v, fail_at);
			if (fail_at != end)
				check_roots(&v, end - 1, "root-at-end",
					    "at the end");
		}
		check_settle(&v, first, end);
		probe_checks(a, r, v.sc, v.tsc, first, end);
		flush_checks(a, r, v.sc, v.tsc, first, end);
		check_steps(&v, first, end);
		boundary_check(a, r, v.sc, fail_at == end ? end - 1 : fail_at);
		steps_exec_tap(r, v.sc, a->run_dir, v.tsc->name);
	}
}

int analysis_verdicts(struct analysis *a, FILE *out, int *tap)
{
	struct result_run r;
	int failed;

	result_init(&r, a->t->name);
	analysis_results(a, &r);
	failed = report_tap(&r, out, tap);
	result_free(&r);
	return failed;
}
