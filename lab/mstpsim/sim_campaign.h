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
};

struct campaign_result {
	/* The mesh. */
	unsigned int bridges, links, regions, rstp, stp;
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

#endif
