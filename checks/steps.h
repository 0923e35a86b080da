/* SPDX-License-Identifier: MIT */
/*
 * What a scenario's steps left behind, as checks: that every step ran
 * (the event log's step-failed), and the TAP lines of the suites its exec
 * steps ran in the guests (exec/<scenario>-step<N>-<node>.txt), so a
 * guest suite's results sit next to the network checks in every report.
 */
#ifndef MSTLAB_STEPS_H
#define MSTLAB_STEPS_H

#include "result.h"

/* Adds one check per TAP line of each exec output of scenario @name. */
void steps_exec_tap(struct result_run *r, struct result_scenario *sc,
		    const char *run_dir, const char *name);

#endif
