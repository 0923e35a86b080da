/* SPDX-License-Identifier: MIT */
/* NoCloud seed images: the planner's meta-data and user-data on a vfat
 * disk labelled cidata, made by cloud-localds. */
#ifndef MSTLAB_SEED_H
#define MSTLAB_SEED_H

#include "ops.h"
#include "plan.h"

/* Writes run_dir/seed/<node>/{user-data,meta-data} and run_dir/seed/<node>.img. */
int seed_make(const struct plan *p, int node, const char *run_dir, char *err);

#endif
