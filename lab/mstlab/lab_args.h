/* SPDX-License-Identifier: MIT */
#ifndef MSTLAB_LAB_ARGS_H
#define MSTLAB_LAB_ARGS_H

#include <stdio.h>

#include "runtime.h"

/* down LAB of a lab that is not up: said so on out, nothing to do. */
#define LAB_ARGS_NOT_UP (-1)

/*
 * Parses "TOPO [options] [words...]" (options anywhere) into rt, loads
 * the topology; TOPO may be the name of a lab that is up (registry.h).
 * Returns 0, LAB_ARGS_NOT_UP, or the exit status to return (usage 2,
 * bad input 1).
 */
int lab_args_parse(struct runtime *rt, int argc, char **argv, FILE *out,
		   FILE *err, const char *usage);

#endif
