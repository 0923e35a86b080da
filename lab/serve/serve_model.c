// SPDX-License-Identifier: MIT
#include "serve_model.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report_svg.h"
#include "result.h"
#include "snapshot.h"
#include "watch_render.h"

/* A JSON text made by a printer on a FILE: open_memstream's. */
struct text {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *text_open(struct text *x)
{
	x->buf = NULL;
	x->len = 0;
	x->f = open_memstream(&x->buf, &x->len);
	return x->f;
}

/* The text without the printer's newline; NULL when it failed. */
static char *text_close(struct text *x, size_t *len)
{
	bool bad = ferror(x->f);

	if (fclose(x->f) || bad) {
		free(x->buf);
		return NULL;
	}
	while (x->len && x->buf[x->len - 1] == '\n')
		x->buf[--x->len] = 0;
	*len = x->len;
	return x->buf;
}

/* ---- the lab ----------------------------------------------------------------- */

static json_t *vlans_of(const struct topo_vlanset *s)
{
	char buf[1024];
	unsigned vid = 0, lo, hi;
	size_t n = 0;

	buf[0] = 0;
	while (n < sizeof(buf) - 16 && topo_vlan_next_range(s, &vid, &lo, &hi))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, lo == hi ?
				      "%s%u" : "%s%u-%u", n ? "," : "", lo, hi);
	return json_string(buf);
}

static json_t *trees_json(const struct trees *tr)
{
	json_t *a = json_array();
	char name[16];

	for (size_t s = 0; s < tr->ntrees; s++) {
		const struct topo_mst *mst = &tr->t->mst;

		json_array_append_new(a, json_pack(
			"{s:i, s:i, s:s, s:o}", "slot", (int)s, "msti",
			s ? (int)tr->tree_id[s] : 0, "tree",
			trees_tree_name(tr, (int)s, name, sizeof(name)),
			"vlans", s ? vlans_of(&mst->msti[s - 1].vlans) :
				     json_string("the others")));
	}
	return a;
}

static json_t *nodes_json(const struct topo *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->n_nodes; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:b}", "name", t->nodes[i].name, "role",
			topo_role_name(t->nodes[i].role), "bridge",
			topo_role_is_bridge(t->nodes[i].role)));
	return a;
}

static json_t *links_json(const struct topo *t)
{
	json_t *a = json_array();
	char name[16];

	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		json_t *ends = json_array();

		for (int e = 0; e < 2; e++) {
			const struct topo_node *n = &t->nodes[k->end[e].node];

			json_array_append_new(ends, json_pack(
				"{s:s, s:s}", "node", n->name, "port",
				n->ports[k->end[e].port].name));
		}
		snprintf(name, sizeof(name), "link%u", k->index);
		json_array_append_new(a, json_pack("{s:s, s:o}", "link", name,
						   "ends", ends));
	}
	return a;
}

/* The lab drawn once by Graphviz, as report.html draws it; the page
 * colours it per tree. */
static void drawing(const struct serve_model *m, json_t *lab)
{
	struct result_run r;
	struct result_scenario *sc;
	struct result_snapshot *s;
	struct errbuf err;
	struct sbuf dot;
	char *svg = NULL;

	result_init(&r, m->t->name);
	snapshot_lab(m->t, m->p, &r);
	sc = result_add_scenario(&r, NULL, 0, 0);
	s = sc ? result_add_snapshot(&r, sc, "layout", NULL, 0, 0) : NULL;
	sbuf_init(&dot);
	if (!s || r.oom)
		errbuf_set(&err, "out of memory");
	else
		report_topo_page_dot(&r, s, &dot);
	if (s && !r.oom && !report_topo_svg(&dot, &svg, &err)) {
		json_object_set_new(lab, "svg", json_string(svg));
	} else {
		json_object_set_new(lab, "svg", json_null());
		json_object_set_new(lab, "svg_error", json_string(err.msg));
	}
	free(svg);
	sbuf_free(&dot);
	result_free(&r);
}

/* summary.json's checks, each with the instant of its evidence. */
static void checks_json(const char *run_dir, json_t *lab)
{
	char path[PATH_MAX + 32];
	json_t *sum, *sc, *ck, *checks = json_array(), *scs = json_array();
	size_t i, j;

	snprintf(path, sizeof(path), "%s/summary.json", run_dir);
	sum = json_load_file(path, 0, NULL);
	json_object_set_new(lab, "summary", json_boolean(sum != NULL));
	json_array_foreach(json_object_get(sum, "scenarios"), i, sc) {
		const char *name = json_string_value(json_object_get(sc,
								     "name"));

		json_array_append_new(scs, json_pack(
			"{s:s?, s:O?, s:O?, s:O?}", "name", name, "result",
			json_object_get(sc, "result"), "start_ns",
			json_object_get(sc, "start_ns"), "end_ns",
			json_object_get(sc, "end_ns")));
		json_array_foreach(json_object_get(sc, "checks"), j, ck) {
			json_t *ev = json_array_get(json_object_get(ck,
								    "evidence"),
						    0);

			json_array_append_new(checks, json_pack(
				"{s:s?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, "
				"s:O?, s:O?, s:O?}", "scenario", name,
				"name", json_object_get(ck, "name"),
				"id", json_object_get(ck, "id"),
				"text", json_object_get(ck, "text"),
				"tree", json_object_get(ck, "tree"),
				"link", json_object_get(ck, "link"),
				"result", json_object_get(ck, "result"),
				"message", json_object_get(ck, "message"),
				"at_ns", json_object_get(ck, "at_ns"),
				"evidence_ns", json_object_get(ev, "time_ns")));
		}
	}
	json_decref(sum);
	json_object_set_new(lab, "scenarios", scs);
	json_object_set_new(lab, "checks", checks);
}

/* A replay's span: from its first event or BPDU to its last. */
static void span(struct serve_model *m)
{
	const struct analysis *a = m->a;
	int64_t lo = a->tr.first.ns ? a->tr.first.ns : INT64_MAX, hi = 0;

	for (size_t i = 0; i < a->n_events; i++) {
		lo = a->ev[i].ns < lo ? a->ev[i].ns : lo;
		hi = a->ev[i].ns > hi ? a->ev[i].ns : hi;
	}
	for (size_t i = 0; i < m->t->n_nodes; i++)
		for (size_t j = 0; j < m->t->nodes[i].n_ports; j++)
			for (size_t s = 0; s < a->tr.ntrees; s++) {
				size_t n = 0;
				const struct tree_adv *adv = trees_track(
					&a->tr, (int)i, (int)j, (int)s, &n);

				if (n && adv[n - 1].ns > hi)
					hi = adv[n - 1].ns;
			}
	m->start_ns = lo == INT64_MAX ? 0 : lo;
	m->end_ns = hi > m->start_ns ? hi : m->start_ns;
}

static void replay_json(struct serve_model *m, const char *run_dir,
			json_t *lab)
{
	json_t *ev = json_array();

	span(m);
	json_object_set_new(lab, "start_ns", json_integer(m->start_ns));
	json_object_set_new(lab, "end_ns", json_integer(m->end_ns));
	for (size_t i = 0; i < m->a->n_events; i++)
		json_array_append_new(ev, json_pack(
			"{s:I, s:s, s:s}", "ns", (json_int_t)m->a->ev[i].ns,
			"kind", m->a->ev[i].word, "arg", m->a->ev[i].arg));
	json_object_set_new(lab, "events", ev);
	checks_json(run_dir, lab);
}

/* What produced the run (provenance.h): null when its folder has none. */
static json_t *provenance_of(const char *run_dir)
{
	struct provenance *pv = malloc(sizeof(*pv));
	struct errbuf err;
	json_t *o = NULL;

	if (pv && !provenance_load(pv, run_dir, &err))
		o = provenance_json(pv);
	free(pv);
	return o ? o : json_null();
}

/* ---- opening ------------------------------------------------------------------- */

static void live_change(void *ctx, const struct trees_change *c)
{
	struct serve_model *m = ctx;

	if (c->kind == TREES_LAB)
		serve_flows_event(&m->flows, c->event);
	if (m->on_change)
		m->on_change(m->on_change_ctx, c);
}

static bool live_keep(void *ctx, const uint8_t *frame, size_t len)
{
	(void)ctx;
	return serve_flows_keep(frame, len);
}

static void live_frame(void *ctx, int64_t ns, int link, uint32_t frame_no,
		       const uint8_t *frame, size_t len)
{
	struct serve_model *m = ctx;

	(void)frame_no;
	serve_flows_frame(&m->flows, ns, link, frame, len);
}

static int open_live(struct serve_model *m, const struct run_ref *ref)
{
	if (trees_init(&m->live, m->t, m->p, TREES_LIVE) ||
	    follow_init(&m->fw, m->t, m->p, ref->run_dir))
		return -1;
	serve_flows_init(&m->flows, m->t, &m->live);
	m->live.emit = live_change;
	m->live.emit_ctx = m;
	m->fw.keep = live_keep;
	m->fw.frame = live_frame;
	m->fw.ctx = m;
	return 0;
}

int serve_model_open(struct serve_model *m, const struct run_ref *ref,
		     bool replay, struct errbuf *err)
{
	const char *base = strrchr(ref->run_dir, '/');

	memset(m, 0, sizeof(*m));
	m->t = ref->t;
	m->replay = replay;
	if (plan_build(m->t, &m->p))
		return errbuf_set(err, "cannot plan lab %s", m->t->name);
	if (replay) {
		m->a = calloc(1, sizeof(*m->a));
		if (!m->a || analysis_load(m->a, m->t, m->p, ref->run_dir, err))
			return -1;
		if (tree_view_alloc(&m->a->tr, &m->view))
			return errbuf_set(err, "out of memory");
	} else if (open_live(m, ref)) {
		return errbuf_set(err, "out of memory");
	}
	m->lab = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "lab",
			   m->t->name, "run", base ? base + 1 : ref->run_dir,
			   "mode", replay ? "replay" : "live", "trees",
			   trees_json(serve_model_trees(m)), "nodes",
			   nodes_json(m->t), "links", links_json(m->t),
			   "provenance", provenance_of(ref->run_dir));
	if (!m->lab)
		return errbuf_set(err, "out of memory");
	drawing(m, m->lab);
	if (replay)
		replay_json(m, ref->run_dir, m->lab);
	return 0;
}

void serve_model_close(struct serve_model *m)
{
	if (m->a) {
		tree_view_free(&m->view);
		analysis_free(m->a);
		free(m->a);
	} else {
		follow_close(&m->fw);
		trees_free(&m->live);
	}
	json_decref(m->lab);
	plan_free(m->p);
	memset(m, 0, sizeof(*m));
}

const struct trees *serve_model_trees(const struct serve_model *m)
{
	return m->a ? &m->a->tr : &m->live;
}

/* ---- the answers ------------------------------------------------------------------ */

char *serve_model_lab(const struct serve_model *m, bool control, bool up,
		      size_t *len)
{
	json_t *o = json_copy(m->lab);
	char *s;

	if (!o)
		return NULL;
	json_object_set_new(o, "control", json_boolean(control));
	json_object_set_new(o, "up", json_boolean(up));
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (s)
		*len = strlen(s);
	return s;
}

char *serve_model_states(struct serve_model *m, int64_t t, size_t *len)
{
	const struct trees *tr = serve_model_trees(m);
	struct text x;
	FILE *f = text_open(&x);

	if (!f)
		return NULL;
	if (!m->replay)
		t = m->live.now_ns;
	fprintf(f, "{\"ns\":%lld,\"states\":[", (long long)t);
	for (size_t s = 0; s < tr->ntrees; s++) {
		const struct tree_view *v;

		if (m->replay) {
			trees_view_at(tr, (int)s, t, &m->view);
			v = &m->view;
		} else {
			v = trees_now(tr, (int)s);
		}
		if (s)
			fputc(',', f);
		watch_view_json(tr, v, (int)s, t, f);
	}
	fputs("]}", f);
	return text_close(&x, len);
}

char *serve_model_state(struct serve_model *m, int tree, int64_t ns,
			size_t *len)
{
	struct text x;
	FILE *f = text_open(&x);

	if (!f)
		return NULL;
	watch_state_json(&m->live, tree, ns, f);
	return text_close(&x, len);
}

char *serve_model_flows(const struct serve_model *m, int64_t now,
			size_t *len)
{
	struct text x;
	FILE *f = text_open(&x);

	if (!f)
		return NULL;
	serve_flows_json(&m->flows, now, f);
	return text_close(&x, len);
}
