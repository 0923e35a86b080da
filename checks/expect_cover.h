/* SPDX-License-Identifier: MIT */
/*
 * No expectation is dropped in silence: every `expect:` key a scenario
 * sets yields at least one check line. One the checks could not judge
 * (no link event to settle after, no probe flow of the tree, a scenario
 * that stopped early) becomes a line of its own: a failure naming the
 * step that failed before it could be judged, else a skip saying why.
 */
#ifndef MSTLAB_EXPECT_COVER_H
#define MSTLAB_EXPECT_COVER_H

#include "result.h"
#include "topo.h"

/* After every other check of sc; failed_step: the "steps" check's
 * message when a step failed ("step 2 failed: ..."), else NULL. */
void expect_cover(struct result_run *r, struct result_scenario *sc,
		  const struct topo_scenario *tsc, const struct topo_mst *mst,
		  const char *failed_step);

#endif
