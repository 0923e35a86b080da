/* SPDX-License-Identifier: MIT */
/*
 * Control-plane verdicts from a run's captures: every BPDU on every link
 * (decoded with the daemon's codec), placed among the run's events on
 * the same host clock.
 *
 * What a port advertises for a tree (role, learning/forwarding, root) is
 * taken from the last BPDU it sent; a port that sent none for a tree is
 * taken as forwarding (RSTP root ports stay silent). From that, at any
 * instant: the root of each tree, the ports that are not forwarding, and
 * the time of the last change per tree (settle time after an event).
 */
#ifndef MSTLAB_ANALYZE_H
#define MSTLAB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events.h"
#include "flows.h"
#include "plan.h"
#include "result.h"
#include "topo.h"

/* A frame seen this often on one link within a second is going round. */
#define AN_LOOP_REPEATS 20
#define AN_LOOP_SLOTS 512

struct an_sample {		/* one port's advertisement for one tree */
	int64_t ns;
	uint8_t role;		/* enum bpdu_role */
	bool forwarding, tc;
	uint64_t root;		/* bridge_id_u64 of the (regional) root */
	bool mst;		/* an MST BPDU (else STP or RSTP) */
	uint32_t mcid;		/* hash of its MST configuration id */
	uint32_t frame;		/* evidence: frame number in its link's pcap */
	uint16_t link;		/* link index (0-based) */
};

struct an_port_tree {
	size_t n, cap;
	struct an_sample *s;	/* in time order */
};

struct analysis {
	const struct topo *t;
	char run_dir[4096];		/* for the probe sinks' reports */
	const struct plan *p;
	size_t ntrees;		/* CIST + the lab's MSTIs */
	uint16_t tree_id[TOPO_MAX_TREES];
	/* [node][port][tree slot] */
	struct an_port_tree *pt;
	size_t n_events;
	struct event *ev;		/* the event log, in file order */
	unsigned long bpdus, bad_bpdus, frames;
	size_t cur_link;		/* the capture being read */
	unsigned long link_frames;	/* frames read from it so far */
	struct an_sample first_bpdu;	/* earliest BPDU (ns 0: none) */
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
};

/* Loads run_dir's events and every link's capture. 0, or -1 with err. */
int analysis_load(struct analysis *a, const struct topo *t,
		  const struct plan *p, const char *run_dir, char *err,
		  size_t err_len);
void analysis_free(struct analysis *a);

/* Adds one captured frame (exposed for tests). */
void analysis_frame(struct analysis *a, int64_t ns, const uint8_t *frame,
		    size_t len);

/* A port's samples for a tree in time order (*n of them), and its last
 * one at or before ns (NULL: none yet). */
const struct an_sample *analysis_port_samples(const struct analysis *a,
					      size_t node, size_t port,
					      size_t tree, size_t *n);
const struct an_sample *analysis_port_sample(const struct analysis *a,
					     size_t node, size_t port,
					     size_t tree, int64_t ns);
/*
 * The same corrected for what the wire hides: a root port that becomes
 * an alternate goes silent, so once the bridge names a later root port
 * the older one is taken as alternate and discarding. False: no sample.
 */
bool analysis_port_view(const struct analysis *a, size_t node, size_t port,
			size_t tree, int64_t ns, struct an_sample *out);
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
/* The tree a VLAN belongs to: the MSTI that lists it, else the CIST. */
uint16_t analysis_tree_of_vid(const struct topo_mst *mst, unsigned vid);
/* "cist" or "msti N" for a tree slot. */
void analysis_tree_name(const struct analysis *a, size_t tree, char *buf,
			size_t len);

/*
 * Checks every scenario of the run against its expectations and adds
 * the verdicts, with figures and evidence, to r (from result_init).
 */
void analysis_results(struct analysis *a, struct result_run *r);

/* The root most ports name for a tree (slot) at ns (node index; -1 no
 * BPDU, -2 a bridge outside the lab). For the topology snapshots. */
int analysis_root_at(const struct analysis *a, size_t tree, int64_t ns);

/* analysis_results rendered as TAP lines (numbered from *tap + 1) to
 * out. Returns the failures. */
int analysis_verdicts(struct analysis *a, FILE *out, int *tap);

#endif
