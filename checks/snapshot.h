/* SPDX-License-Identifier: MIT */
/*
 * Topology snapshots: per tree, the root and every link end's role and
 * state as the captures show them, at the instants a reader compares
 * (before the first failure, after each link event, at the end).
 */
#ifndef MSTLAB_SNAPSHOT_H
#define MSTLAB_SNAPSHOT_H

#include "analyze.h"
#include "result.h"

/* Adds the lab's nodes and links to r, for drawings. */
void snapshot_lab(const struct topo *t, const struct plan *p,
		  struct result_run *r);
/* Adds the snapshots of sc (events first..end of the log) to r, and
 * the lab's nodes and links, once. */
void snapshot_scenario(const struct analysis *a, struct result_run *r,
		       struct result_scenario *sc, size_t first, int64_t end);

#endif
