/* SPDX-License-Identifier: MIT */
/*
 * What mstlab serve's page shows, as JSON: the lab and its drawing, and
 * the trees from the one tree-state engine (trees.h), as mstlab watch
 * and the verdicts have them:
 * - live: a TREES_LIVE engine fed by the follower (follow.h) from the
 *   run's growing captures and event log, with the probe frames for
 *   the flows and flooding (serve_flows.h);
 * - replay (a finished run): the verdicts' history (analysis_load), so
 *   the trees at t are trees_view_at(t), the snapshot the verdicts
 *   take at t; the run's events and summary.json's checks go with it.
 * Every state is watch_view_json()'s "state" object.
 */
#ifndef MSTLAB_SERVE_MODEL_H
#define MSTLAB_SERVE_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "analyze.h"
#include "errbuf.h"
#include "follow.h"
#include "run_ref.h"
#include "serve_flows.h"
#include "trees.h"

struct serve_model {
	const struct topo *t;
	struct plan *p;
	bool replay;
	/* live */
	struct trees live;
	struct follow fw;
	struct serve_flows flows;
	trees_emit_fn on_change;	/* the application's, or NULL */
	void *on_change_ctx;
	/* replay */
	struct analysis *a;
	struct tree_view view;
	int64_t start_ns, end_ns;
	/* both */
	json_t *lab;		/* /api/lab but for control and up */
};

/* The model of ref's run, live or replayed: 0, or -1 with err. Live,
 * the follower (m->fw) feeds the engine (m->live) and the probe frames
 * to the flows, and the engine's changes, once the flows have had the
 * event log's probe lines, go to m->on_change. */
int serve_model_open(struct serve_model *m, const struct run_ref *ref,
		     bool replay, struct errbuf *err);
void serve_model_close(struct serve_model *m);
/* The engine the trees come from (live, or the replay's history). */
const struct trees *serve_model_trees(const struct serve_model *m);

/* Each returns a malloc'd JSON text on one line (*len octets), or NULL
 * (no memory). */
/* The lab: names, trees, nodes, links, the drawing (SVG), and for a
 * replay its span, events and checks; control: links can be failed. */
char *serve_model_lab(const struct serve_model *m, bool control, bool up,
		      size_t *len);
/* {"ns":…, "states":[one state per tree]}: at t (replay), or now. */
char *serve_model_states(struct serve_model *m, int64_t t, size_t *len);
/* One tree's state now, at ns (live). */
char *serve_model_state(struct serve_model *m, int tree, int64_t ns,
			size_t *len);
/* The flows and flooding now (live), at now. */
char *serve_model_flows(const struct serve_model *m, int64_t now,
			size_t *len);

#endif
