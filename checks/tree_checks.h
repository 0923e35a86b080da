/* SPDX-License-Identifier: MIT */
/*
 * The control-plane verdicts of a scenario, from the tree-state engine:
 * each tree's root and blocked ports at an instant against the
 * expectations, and how long each link event took to settle.
 */
#ifndef MSTLAB_TREE_CHECKS_H
#define MSTLAB_TREE_CHECKS_H

#include "analyze.h"

/* "<tree> root is <want> <when>" per tree the scenario expects a root of. */
void tree_check_roots(struct analysis *a, struct result_run *r,
		      struct result_scenario *sc,
		      const struct topo_scenario *tsc, int64_t at,
		      const char *name, const char *when);
/* "<tree> blocks exactly <ports> before the first failure". */
void tree_check_blocked(struct analysis *a, struct result_run *r,
			struct result_scenario *sc,
			const struct topo_scenario *tsc, int64_t at);
/* Every link event of the scenario (events first..end) settles within
 * its budget, in every tree. */
void tree_check_settle(struct analysis *a, struct result_run *r,
		       struct result_scenario *sc,
		       const struct topo_scenario *tsc, size_t first,
		       int64_t end);

#endif
