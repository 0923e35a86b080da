/* SPDX-License-Identifier: MIT */
/*
 * The timed campaign: a mesh of CAMPAIGN_TIMING (1-5 regions, RSTP and
 * STP bridges among them) run in the simulator's timed model - BPDU
 * latency and jitter, each bridge ticking at its own phase, carrier
 * changes reaching a link's two ends at different times - through link
 * failures, one-way losses, a bridge's failure and a region change, each
 * undone again.  Every loop found is counted in a class; after each heal
 * the network must connect every VLAN again (a partition otherwise).  A
 * seed replays exactly, with loop_guard on every connected port or not.
 */
#ifndef MSTLAB_SIM_TIMING_H
#define MSTLAB_SIM_TIMING_H

#include "sim_campaign.h"

/* Seconds after a restore or heal in which a loop is TIMING_RESTORE's. */
#define TIMING_RESTORE_WINDOW_S	10

/* Seconds after a heal by which every VLAN must connect every bridge. */
#define TIMING_HEAL_S		60

enum timing_class {
	TIMING_NO_ONEWAY,	/* (a) no one-way loss in force */
	TIMING_ONEWAY_STP,	/* (b) one-way on a link to an STP bridge */
	TIMING_ONEWAY_PEERS,	/* (c) one-way between RSTP/MSTP peers */
	TIMING_RESTORE,		/* (d) within the window after a restore */
	TIMING_CLASSES,
};

struct timing_result {
	struct campaign_result mesh;	/* the mesh, BPDUs, checks */
	/* The model this seed drew. */
	unsigned int latency_us, jitter_us, skew_us;
	unsigned int events;		/* failures, losses, restores, ... */
	/* Loops: episodes (from the first check that finds one to the
	 * first that does not) by class, the longest, and the first's
	 * description with the step it came in. */
	unsigned int loops[TIMING_CLASSES];
	uint64_t loop_us[TIMING_CLASSES];
	char what[TIMING_CLASSES][640];
	/* Heals after which a VLAN did not connect every bridge. */
	unsigned int partitions;
	char partition[384];
	/* Regional-root re-election after the master link failed: whether
	 * measured (a region with a Master Port that gets another), the
	 * time until the last change of the forwarding Master Ports of
	 * MSTI 1 in that region, how often one of them stopped forwarding,
	 * and how long two forwarded at once. */
	bool reelected;
	uint64_t reelect_us;
	unsigned int master_flaps;
	uint64_t dual_master_us;
};

/* Runs @seed; true if no loop, no partition, no overflow. */
bool timing_run(struct sim *sim, uint64_t seed, bool loop_guard,
		bool verbose, struct timing_result *r);
/* "a" .. "d", and a few words on what the class means. */
const char *timing_class_name(enum timing_class c);
const char *timing_class_text(enum timing_class c);

#endif
