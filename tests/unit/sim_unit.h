/* SPDX-License-Identifier: MIT */
/*
 * The MSTP simulator in a unit test: a forwarding loop the simulator
 * finds (after any BPDU, tick or link change) fails the running test
 * with the simulator's description, once per network.
 */
#ifndef MSTLAB_SIM_UNIT_H
#define MSTLAB_SIM_UNIT_H

#include "mstp_sim.h"
#include "unit.h"

#include <stdio.h>

static void sim_unit_loop(struct sim *sim, const char *msg)
{
	if (sim->check.violations > 1)
		return;
	unit_fail(__FILE__, __LINE__, "simulator:");
	for (const char *s = msg; *s;) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		printf("#   %.*s\n", n, s);
		s += n + (nl != NULL);
	}
}

/* sim_reset(), with loops failing the test. */
static inline void sim_unit_reset(struct sim *sim)
{
	sim_reset(sim);
	sim->check.report = sim_unit_loop;
}

#endif
