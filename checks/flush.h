/* SPDX-License-Identifier: MIT */
/*
 * FDB flush and its scope, from the captures (docs/checks.md): after a
 * topology change in a tree, frames of that tree's probe flows to a
 * learned address show up on links off their path (flooding) until the
 * address is learned again; flows of trees without a topology change
 * keep to their path. Per link event, the scope seen (none, per-MSTI,
 * whole port) is judged against the scenario's expect.flush, with the
 * topology-change flags of each tree (first and last BPDU carrying TC)
 * as figures.
 */
#ifndef MSTLAB_FLUSH_H
#define MSTLAB_FLUSH_H

#include "analyze.h"

void flush_checks(struct analysis *a, struct result_run *r,
		  struct result_scenario *sc, const struct topo_scenario *tsc,
		  size_t first, int64_t end);

#endif
