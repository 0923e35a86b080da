/* SPDX-License-Identifier: MIT */
/*
 * Random campaigns over the MSTP simulator: a mesh drawn from a seed,
 * every link failed and restored in turn, the simulator checking loop
 * freedom after every BPDU, tick and link change.  The unit tests run a
 * few hundred seeds, bench/mstp loops runs thousands; a seed replays
 * exactly (xorshift64 from the seed, nothing else random).
 */
#ifndef MSTLAB_SIM_CAMPAIGN_H
#define MSTLAB_SIM_CAMPAIGN_H

#include "mstp_sim.h"

enum campaign_kind {
	CAMPAIGN_REGION,	/* one MST region, 2 MSTIs */
	CAMPAIGN_REGIONS,	/* 2-3 regions, RSTP and STP bridges mixed in */
	CAMPAIGN_TIMING,	/* 1-5 regions, RSTP and STP: the timed model's
				 * meshes (sim_timing.h) */
};

#define CAMPAIGN_MAX_REGIONS	5

struct campaign_result {
	/* The mesh. */
	unsigned int bridges, links, regions, rstp, stp;
	int region[SIM_MAX_BRIDGES];	/* each bridge's; -1: RSTP or STP */
	/* The run. */
	unsigned int link_events;	/* failures and restorations */
	unsigned long bpdus;		/* BPDUs delivered (each checked) */
	unsigned long checks;		/* network checks (BPDUs, ticks, links) */
	unsigned long violations;	/* checks that found a loop */
	unsigned int loop_secs;		/* seconds with a loop */
	unsigned int loop_run_secs;	/* the longest run of such seconds */
	unsigned long overflows;	/* mstp_run_overflows, all bridges */
	char first[sizeof(((struct sim_check *)0)->first)];
	char mesh[512];			/* the mesh, one line */
};

const char *campaign_name(enum campaign_kind kind);
/* CAMPAIGN_REGION for "region", and so on; -1 if no such campaign. */
int campaign_kind(const char *name);
/*
 * Builds the mesh of @seed in @sim (reset first), brings it up, fails and
 * restores each link in turn, and fills @r.  Returns true if no loop was
 * found.  With @verbose the bridges' logs and the violations go to
 * stdout as they happen.
 */
bool campaign_run(struct sim *sim, enum campaign_kind kind, uint64_t seed,
		  bool verbose, struct campaign_result *r);

/* The xorshift64 state of @seed's run. */
uint64_t campaign_rng(uint64_t seed);
/*
 * Resets @sim and builds in it the mesh that @kind draws from *@rng
 * (left where the draws end): its bridges, their priorities and costs,
 * its links (down).  Fills the mesh's fields of @r.
 */
bool campaign_build(struct sim *sim, enum campaign_kind kind, uint64_t *rng,
		    bool verbose, struct campaign_result *r);
/* Region @region's configuration for bridge @b (0..4, as the campaigns
 * draw them); false if there is no such region. */
bool campaign_region_config(struct mstp_bridge_config *cfg,
			    struct mst_vid_table *vids, unsigned int b,
			    int region);
/* Advances until no port state changed for a forward delay and two
 * seconds, at most 200 s. */
void campaign_settle(struct sim *sim);

#endif
