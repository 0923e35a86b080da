/* SPDX-License-Identifier: MIT */
/*
 * The verdicts of a run: its captures (every frame of every link) and
 * event log loaded once, the tree state they show kept by the engine
 * (trees.h) for any instant, and every scenario judged against its
 * expectations into the result model.
 */
#ifndef MSTLAB_ANALYZE_H
#define MSTLAB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clock_sync.h"
#include "errbuf.h"
#include "events.h"
#include "flows.h"
#include "plan.h"
#include "result.h"
#include "topo.h"
#include "trees.h"

/* A frame seen this often on one link within a second is going round. */
#define AN_LOOP_REPEATS 20
#define AN_LOOP_SLOTS 512

struct analysis {
	const struct topo *t;
	char run_dir[4096];		/* for the probe sinks' reports */
	const struct plan *p;
	struct trees tr;		/* every BPDU, for views at any t */
	size_t n_events;
	struct event *ev;		/* the event log, in file order */
	unsigned long frames;
	size_t cur_link;		/* the capture being read */
	unsigned long link_frames;	/* frames read from it so far */
	struct flows flows;		/* probe flows and their frames */
	long *drops;			/* per link: frames its capture lost */
	/* Loop detection: copies of one frame per link per second. */
	int64_t loop_second;
	uint32_t loop_hash[AN_LOOP_SLOTS];
	uint16_t loop_count[AN_LOOP_SLOTS];
	int64_t loop_ns;		/* first loop seen, 0 if none */
	size_t loop_link;
	unsigned long loop_frame;
	char warn[512];
	/* Captures made on another host: mapped with its clock
	 * (clock_sync.h) while read; the largest error bound of those. */
	const struct clock_map *far_clock;
	bool far_captures;
	int64_t clock_bound_ns;
};

/* An empty analysis of the lab (no event, no frame): 0, or -1 when out
 * of memory. analysis_load does it all; tests and fuzzers feed it. */
int analysis_init(struct analysis *a, const struct topo *t,
		  const struct plan *p);
/* The run's event log (a takes ev, from events_read or malloc). */
void analysis_events(struct analysis *a, struct event *ev, size_t n);

/* Loads run_dir's events and every link's capture. 0, or -1 with err. */
int analysis_load(struct analysis *a, const struct topo *t,
		  const struct plan *p, const char *run_dir,
		  struct errbuf *err);
void analysis_free(struct analysis *a);

/* Adds one captured frame (exposed for tests). */
void analysis_frame(struct analysis *a, int64_t ns, const uint8_t *frame,
		    size_t len);

/* The link (position) an event names ("link4 carrier"), or -1; whether
 * a link had carrier (or was not silently dropping) at ns, by the event
 * log. */
int analysis_event_link(const struct analysis *a, const struct event *e);
bool analysis_link_up(const struct analysis *a, size_t link, int64_t ns);
/* The next span [*from, *to) in which the event log has link down,
 * from event *i on (start at 0; *to is INT64_MAX if it never came
 * back); false when there is none. */
bool analysis_next_down(const struct analysis *a, size_t link, size_t *i,
			int64_t *from, int64_t *to);
/* A frame that decided a check, as its evidence (none if frame is 0). */
void analysis_evidence(const struct analysis *a, struct result_run *r,
		       struct result_check *c, size_t link, uint32_t frame,
		       int64_t ns);
/* The tree a VLAN belongs to: the MSTI that lists it, else the CIST. */
uint16_t analysis_tree_of_vid(const struct topo_mst *mst, unsigned vid);
/*
 * The tree slot (the lab map's, which the tree engine tracks) a VLAN
 * takes at an MSTP bridge: its own region's map says which MSTI, so two
 * regions may put one VLAN in two trees. -1 for a node that is no MSTP
 * bridge (a host, the kernel's STP, mstd forced to RSTP or STP), or an
 * MSTI the lab map does not have.
 */
int analysis_node_slot(const struct analysis *a, int node, unsigned vid);

/*
 * Checks every scenario of the run against its expectations and adds
 * the verdicts, with figures and evidence, to r (from result_init).
 */
void analysis_results(struct analysis *a, struct result_run *r);

/* analysis_results rendered as TAP lines (numbered from *tap + 1) to
 * out. Returns the failures. */
int analysis_verdicts(struct analysis *a, FILE *out, int *tap);

#endif
