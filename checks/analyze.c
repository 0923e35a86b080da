// SPDX-License-Identifier: MIT
#include "analyze.h"

#include "clock_sync.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "boundary.h"
#include "expect_cover.h"
#include "flush.h"
#include "fnv.h"
#include "probe_checks.h"
#include "steps.h"
#include "tree_checks.h"
#include "pcapread.h"
#include "report.h"
#include "snapshot.h"

/* Copies of one frame hash alike; 0 marks a free slot. */
static uint32_t frame_hash(const uint8_t *frame, size_t len)
{
	uint32_t h = fnv1a(frame, len, FNV_SEED);

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

void analysis_frame(struct analysis *a, int64_t ns, const uint8_t *frame,
		    size_t len)
{
	a->frames++;
	a->link_frames++;
	loop_watch(a, ns, frame, len);
	flows_frame(&a->flows, a->cur_link, ns, (uint32_t)a->link_frames,
		    frame, len);
	trees_frame(&a->tr, ns, (int)a->cur_link, (uint32_t)a->link_frames,
		    frame, len);
}

static int frame_cb(void *ctx, int64_t ns, const uint8_t *frame, size_t len)
{
	struct analysis *a = ctx;

	/* A capture of another host: on this host's timeline. */
	if (a->far_clock)
		ns = clock_map_to_local(a->far_clock, ns);
	analysis_frame(ctx, ns, frame, len);
	return 0;
}

/* The run's clock file (clock_sync.h), whole, or NULL. */
static char *read_clock_file(const char *run_dir)
{
	char path[PATH_MAX + 16], *text;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/clock", run_dir);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	text = fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > 1 << 20 ||
	       fseek(f, 0, SEEK_SET) ? NULL : calloc(1, (size_t)n + 1);
	if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* The probe flows the event log starts and stops, for flows_frame. */
static void load_flows(struct analysis *a)
{
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

int analysis_init(struct analysis *a, const struct topo *t,
		  const struct plan *p)
{
	memset(a, 0, sizeof(*a));
	a->t = t;
	a->p = p;
	a->drops = calloc(t->n_links + 1, sizeof(*a->drops));
	flows_init(&a->flows, t->n_links);
	if (!a->drops || trees_init(&a->tr, t, p, TREES_KEEP)) {
		analysis_free(a);
		return -1;
	}
	return 0;
}

void analysis_events(struct analysis *a, struct event *ev, size_t n)
{
	a->ev = ev;
	a->n_events = n;
	for (size_t i = 0; i < n; i++)
		trees_event(&a->tr, &ev[i]);
	load_flows(a);
}

int analysis_load(struct analysis *a, const struct topo *t,
		  const struct plan *p, const char *run_dir, struct errbuf *err)
{
	char *clock_text;
	struct event *ev;
	size_t n;

	if (analysis_init(a, t, p)) {
		errbuf_set(err, "out of memory");
		return -1;
	}
	snprintf(a->run_dir, sizeof(a->run_dir), "%s", run_dir);
	if (events_read(run_dir, &ev, &n, err))
		return -1;
	analysis_events(a, ev, n);
	clock_text = read_clock_file(run_dir);
	for (size_t l = 0; l < t->n_links; l++) {
		char path[PATH_MAX + 128];
		struct clock_map map;
		struct errbuf e;
		unsigned h = p->links[l].capture_host;

		snprintf(path, sizeof(path), "%s/%s", run_dir,
			 p->links[l].pcap);
		a->far_clock = NULL;
		if (h != TOPO_LOCAL_HOST) {
			if (clock_parse(clock_text, t->hosts[h].name, &map))
				snprintf(a->warn, sizeof(a->warn), "link%u was "
					 "captured on host %s, whose clock was "
					 "not measured: its frames are on that "
					 "host's clock", t->links[l].index,
					 t->hosts[h].name);
			else
				a->far_clock = &map;
			if (clock_map_bound(&map) > a->clock_bound_ns)
				a->clock_bound_ns = clock_map_bound(&map);
			a->far_captures = true;
		}
		a->cur_link = l;
		a->link_frames = 0;
		a->loop_second = -1;
		if (pcapread_file(path, frame_cb, a, &e))
			snprintf(a->warn, sizeof(a->warn), "%.*s",
				 (int)sizeof(a->warn) - 1, e.msg);
		a->far_clock = NULL;
		a->drops[l] = pcapread_drops(path);
		if (a->drops[l] > 0 && !a->warn[0])
			snprintf(a->warn, sizeof(a->warn), "the capture of link%u "
				 "lost %ld frames (tcpdump: dropped by kernel)",
				 t->links[l].index, a->drops[l]);
	}
	free(clock_text);
	/* Links are read one after the other: put each port in order. */
	trees_seal(&a->tr);
	return 0;
}

void analysis_free(struct analysis *a)
{
	trees_free(&a->tr);
	free(a->drops);
	a->drops = NULL;
	free(a->ev);
	a->ev = NULL;
	a->n_events = 0;
	flows_free(&a->flows);
}

/* Where the model's verdicts of one scenario go. */
struct verdict_ctx {
	struct analysis *a;
	struct result_run *r;
	struct result_scenario *sc;
	const struct topo_scenario *tsc;
};

void analysis_evidence(const struct analysis *a, struct result_run *r,
		       struct result_check *c, size_t link, uint32_t frame,
		       int64_t ns)
{
	if (frame && link < a->t->n_links)
		result_add_evidence(r, c, a->p->links[link].pcap, frame, ns);
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
		analysis_evidence(a, v->r, c, a->loop_link,
				  (uint32_t)a->loop_frame, a->loop_ns);
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
			     a->tr.bpdus > 0, "the captures hold BPDUs",
			     a->tr.bpdus ? NULL : "no BPDU on any link");
	result_add_figure(v->r, c, "bpdus", (double)a->tr.bpdus,
			  RESULT_NO_TREE);
	result_add_figure(v->r, c, "malformed_bpdus", (double)a->tr.bad,
			  RESULT_NO_TREE);
	if (a->tr.bpdus)
		analysis_evidence(a, v->r, c, a->tr.first.link, a->tr.first.frame,
				  a->tr.first.ns);
}

/* Every step of the scenario ran: a failed one (event step-failed N) is
 * named with its text from the step event, so the report cannot say PASS
 * over a scenario that stopped half-way. */
static void check_steps(struct verdict_ctx *v, size_t first, int64_t end,
			char *why, size_t len)
{
	struct analysis *a = v->a;

	for (size_t k = first; k < a->n_events && a->ev[k].ns < end; k++) {
		unsigned n = a->ev[k].n;

		if (a->ev[k].kind != EVENT_STEP_FAILED || !a->ev[k].args_ok)
			continue;
		for (size_t j = first; j < k; j++)
			if (a->ev[j].kind == EVENT_STEP && a->ev[j].args_ok &&
			    a->ev[j].n == n)
				snprintf(why, len, "step %u failed: %s", n,
					 a->ev[j].arg + a->ev[j].text_at);
		if (!why[0])
			snprintf(why, len, "step %u failed", n);
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

int analysis_node_slot(const struct analysis *a, int node, unsigned vid)
{
	const struct topo_node *n = &a->t->nodes[node];

	if (!topo_role_is_bridge(n->role) || n->kernel_stp ||
	    n->mst->force_version != TOPO_FORCE_MSTP)
		return -1;
	return topo_tree_slot(&a->t->mst, analysis_tree_of_vid(n->mst, vid));
}

/*
 * Frames of two hosts' clocks on one timeline: every settle and outage
 * figure gets the error bound of that merge beside it (clock_bound_ms,
 * clock_sync.h), in the same tree.
 */
static void clock_bound_figures(const struct analysis *a,
				struct result_run *r)
{
	if (!a->far_captures)
		return;
	for (size_t s = 0; s < r->n_scenarios; s++)
		for (size_t c = 0; c < r->scenarios[s].n_checks; c++) {
			struct result_check *k = &r->scenarios[s].checks[c];
			size_t n = k->n_figures;

			/* Once per tree that has such a figure. */
			for (size_t f = 0; f < n; f++) {
				int msti = k->figures[f].msti;

				if ((strstr(k->figures[f].name, "settle") ||
				     strstr(k->figures[f].name, "outage")) &&
				    !result_figure(k, "clock_bound_ms", msti))
					result_add_figure(r, k,
							  "clock_bound_ms",
							  (double)a->clock_bound_ns / 1e6,
							  msti);
			}
		}
}

void analysis_results(struct analysis *a, struct result_run *r)
{
	r->analysed = true;
	r->frames = a->frames;
	r->bpdus = a->tr.bpdus;
	r->bad_bpdus = a->tr.bad;
	if (a->warn[0])
		result_set_warning(r, a->warn);
	r->n_trees = a->tr.ntrees < RESULT_MAX_TREES ? a->tr.ntrees :
						       RESULT_MAX_TREES;
	for (size_t s = 0; s < r->n_trees; s++)
		r->trees[s] = a->tr.tree_id[s];
	for (size_t i = 0; i < a->t->n_scenarios; i++) {
		struct verdict_ctx v = { .a = a, .r = r,
					 .tsc = &a->t->scenarios[i] };
		int64_t start = 0, end = 0, fail_at, last = 0;
		char failed_step[160] = "";
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
		snapshot_scenario(a, r, v.sc, first, end);
		check_bpdus(&v);
		check_loops(&v, start, end);
		if (v.tsc->expect.set) {
			tree_check_roots(a, r, v.sc, v.tsc, fail_at,
					 "root-before-failure",
					 "before the first failure");
			tree_check_blocked(a, r, v.sc, v.tsc, fail_at);
			if (fail_at != end)
				tree_check_roots(a, r, v.sc, v.tsc, end - 1,
						 "root-at-end", "at the end");
		}
		tree_check_settle(a, r, v.sc, v.tsc, first, end);
		probe_checks(a, r, v.sc, v.tsc, first, end);
		flush_checks(a, r, v.sc, v.tsc, first, end);
		check_steps(&v, first, end, failed_step, sizeof(failed_step));
		boundary_check(a, r, v.sc, fail_at == end ? end - 1 : fail_at);
		steps_exec_tap(r, v.sc, a->run_dir, v.tsc->name);
		expect_cover(r, v.sc, v.tsc, &a->t->mst,
			     failed_step[0] ? failed_step : NULL);
	}
	clock_bound_figures(a, r);
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
