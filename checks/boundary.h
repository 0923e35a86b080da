/* SPDX-License-Identifier: MIT */
/*
 * Region boundaries: the links where two MST regions, or MSTP and a
 * bridge running STP/RSTP, meet. What the topology says (regions and
 * `stp: kernel` nodes) against what the BPDUs on each link say (an STP or
 * RST BPDU, or two different MST configuration ids).
 */
#ifndef MSTLAB_BOUNDARY_H
#define MSTLAB_BOUNDARY_H

#include "analyze.h"

/* Adds "the boundary ports are where the topology puts them" at ns. */
void boundary_check(struct analysis *a, struct result_run *r,
		    struct result_scenario *sc, int64_t ns);

#endif
