/* SPDX-License-Identifier: MIT */
/*
 * What watch and serve are given, TOPO.yaml|LAB|RUN_DIR, as a run
 * folder: a run folder itself (its topology.yaml), or the current run of
 * the lab a topology file or a lab's name gives (the host's registry,
 * registry.h), and whether that run is still its lab's current one.
 */
#ifndef MSTLAB_RUN_REF_H
#define MSTLAB_RUN_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "topo.h"

struct run_ref {
	char run_dir[PATH_MAX];
	char lab[64];		/* what was given, until checked */
	struct topo *t;		/* the run's own topology.yaml */
	bool live;		/* run_dir is its lab's current run */
};

/* 0, or 1 with why on err (a lab that is not up, a topology that does
 * not parse). */
int run_ref_find(struct run_ref *r, const char *what, FILE *err);
/* Whether the run is still its lab's current one (not gone down). */
bool run_ref_still_up(const struct run_ref *r);
void run_ref_free(struct run_ref *r);

#endif
