/* SPDX-License-Identifier: MIT */
/*
 * The FDB dumps mstlab takes from every bridge before an injected event
 * and after the next convergence (fdb/<scenario>-step<N>-before|converged
 * -<node>.json): which learnt entries each tree lost meanwhile. A
 * cross-check of the flush the captures show, where a node could be asked.
 */
#ifndef MSTLAB_FDB_DUMPS_H
#define MSTLAB_FDB_DUMPS_H

#include <stdbool.h>

#include "analyze.h"

struct fdb_delta {
	bool found;			/* dumps on both sides for some bridge */
	unsigned long forgotten[TOPO_MAX_TREES];	/* by tree slot */
	char example[TOPO_MAX_TREES][96];	/* "sw3 p1 02:..:01 vlan 20" */
};

/*
 * For the link event a->ev[event] of scenario: dynamic entries that were
 * in a bridge's FDB before the event's step and are gone from the first
 * dump after it, by the tree of their VLAN. Entries on the event's own
 * link are left out: the port that lost carrier loses them all.
 */
void fdb_delta(const struct analysis *a, const char *scenario, size_t event,
	       int event_link, struct fdb_delta *d);

#endif
