/* SPDX-License-Identifier: MIT */
/*
 * mstlab serve's probe flows and flooding, live: the probe frames the
 * follower merges in time order (follow.keep/frame) against the tree
 * state the engine has at each. Per flow, the frames that reached its
 * receiver's link: their rate, the gap running now (its current outage)
 * and the longest; per VLAN, the frames seen on links off their flow's
 * path in the VLAN's tree (tree_path.h) — flooding, as after a flush.
 */
#ifndef MSTLAB_SERVE_FLOWS_H
#define MSTLAB_SERVE_FLOWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events.h"
#include "topo.h"
#include "trees.h"

#define SERVE_FLOWS_MAX 64
#define SERVE_RATE_SLOTS 10	/* of 100 ms: a rate over the last second */

/* Frames in the last second, in slots of 100 ms. */
struct serve_rate {
	int64_t slot;		/* the newest slot counted */
	uint32_t n[SERVE_RATE_SLOTS];
};

struct serve_flow {
	unsigned id, vid, pps;
	int from, to;		/* node indexes */
	int rx_link;		/* the link of to's NIC, -1 none */
	int tree;		/* the VLAN's tree slot */
	int64_t start_ns, stop_ns;	/* stop: INT64_MAX while it runs */
	int64_t last_rx_ns;	/* its latest frame on rx_link; 0 none */
	int64_t longest_ns;	/* its longest gap there */
	unsigned long rx;
	struct serve_rate rate;
	/* Its path in its tree, as of the engine's changes count. */
	unsigned long path_at;
	bool has_path;
	bool on_path[TOPO_MAX_LINKS];
};

struct serve_flood {
	unsigned vid;
	int tree;
	unsigned long total;
	int64_t last_ns;
	struct serve_rate rate;
};

struct serve_flows {
	const struct topo *t;
	const struct trees *tr;
	size_t n, n_flood;
	struct serve_flow f[SERVE_FLOWS_MAX];
	struct serve_flood flood[SERVE_FLOWS_MAX];
	unsigned long version;	/* bumped by every counted frame */
};

void serve_flows_init(struct serve_flows *fl, const struct topo *t,
		      const struct trees *tr);
/* probe-start and probe-stop lines of the event log; others ignored. */
void serve_flows_event(struct serve_flows *fl, const struct event *e);
/* Whether a frame is a probe frame (follow.keep). */
bool serve_flows_keep(const uint8_t *frame, size_t len);
/* A probe frame captured on link at ns, the engine's state being that
 * of ns (follow.frame). */
void serve_flows_frame(struct serve_flows *fl, int64_t ns, int link,
		       const uint8_t *frame, size_t len);
/* {"ns":…, "flows":[…], "floods":[…]} as of now, on one line. */
void serve_flows_json(const struct serve_flows *fl, int64_t now, FILE *out);

#endif
