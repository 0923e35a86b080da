/* SPDX-License-Identifier: MIT */
/* mstlab agent [--results DIR]: another host's side of a lab, over SSH
 * (agent.h; docs/design/orchestrator.md). */
#ifndef MSTLAB_AGENT_MAIN_H
#define MSTLAB_AGENT_MAIN_H

#include <stdio.h>

int agent_main(int argc, char **argv, FILE *out, FILE *err);

#endif
