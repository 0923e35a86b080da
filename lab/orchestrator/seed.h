/* SPDX-License-Identifier: MIT */
/* NoCloud seed images: the planner's meta-data and user-data on a vfat
 * disk labelled cidata, made by cloud-localds. */
#ifndef MSTLAB_SEED_H
#define MSTLAB_SEED_H

#include "ops.h"
#include "plan.h"

/* For every node on host (topo_node.host): run_dir/seed/<node>/
 * {user-data,meta-data} and the image run_dir/seed/<node>.img, made in
 * parallel. */
int seed_make_all(const struct plan *p, const char *run_dir, unsigned host,
		  struct errbuf *err);
/*
 * A seed of the same make and size with nothing in it, dir/seed/name.img:
 * what a template's guest has for a disk until its clones get theirs
 * (template.h).
 */
int seed_make_blank(const char *dir, const char *name, struct errbuf *err);

#endif
