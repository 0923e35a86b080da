/* SPDX-License-Identifier: MIT */
/*
 * Runs a scenario's steps on a lab that is up, one TAP line per step on
 * out, progress on the lab's log, every step and injected event in the
 * event log. A scenario passes when every step succeeded (the checks
 * then judge the captures).
 */
#ifndef MSTLAB_SCENARIO_H
#define MSTLAB_SCENARIO_H

#include <stdio.h>

#include "lab.h"

/* Returns the number of failed steps; stops at the first failure. */
int scenario_run(struct lab *l, const struct topo_scenario *sc, FILE *out,
		 int *tap_index);

#endif
