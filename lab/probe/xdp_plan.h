/* SPDX-License-Identifier: MIT */
/* Filling in the plan of one run (struct probe_xdp_plan, probe_xdp.h). */
#ifndef MSTLAB_XDP_PLAN_H
#define MSTLAB_XDP_PLAN_H

#include <stdint.h>

#include "probe_xdp.h"

/*
 * Plans a run that sends @n[i] frames of flow i, for i < @nflows (at
 * most PROBE_XDP_FLOWS, each n at most PACE_MAX_CHUNK), taking turns
 * from flow 0. Returns the frames in all: the run's repeat.
 */
uint32_t xdp_plan_fill(struct probe_xdp_plan *p, const uint32_t *n,
		       unsigned nflows);

#endif
