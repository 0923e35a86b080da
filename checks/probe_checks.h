/* SPDX-License-Identifier: MIT */
/*
 * Verdicts on the probe flows of a scenario: the outage each flow's sink
 * measured against the scenario's bound for the flow's tree, and whether
 * the sink counted what the capture of its own link carried.
 */
#ifndef MSTLAB_PROBE_CHECKS_H
#define MSTLAB_PROBE_CHECKS_H

#include "analyze.h"

void probe_checks(struct analysis *a, struct result_run *r,
		  struct result_scenario *sc, const struct topo_scenario *tsc,
		  size_t first, int64_t end);

#endif
