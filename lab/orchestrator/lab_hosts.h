/* SPDX-License-Identifier: MIT */
/*
 * A lab's other hosts from the runner's side (lab.c): each host's tables
 * with its part of the run open, the run's start there (recorded in this
 * host's state first, its own guest files asked, the clocks measured,
 * the seed images put), its nodes' templates (built there), and its end
 * (the clocks again, its teardown, its files fetched back).
 */
#ifndef MSTLAB_LAB_HOSTS_H
#define MSTLAB_LAB_HOSTS_H

#include <stdbool.h>
#include <stdio.h>

#include "lab.h"

/* Exchanges per clock measurement (clock_sync.h). */
#define LAB_CLOCK_SAMPLES 16

/*
 * The tables of host h (TOPO_LOCAL_HOST: l->ops) with its part of the
 * run open (attached when lab_hosts_up did not open it): NULL with err.
 */
const struct lab_ops *lab_host_ops(struct lab *l, unsigned h,
				   struct errbuf *err);
/* Those of the host of node i. */
const struct lab_ops *lab_node_ops(struct lab *l, size_t i,
				   struct errbuf *err);
/* Whether the lab spans hosts. */
bool lab_spans_hosts(const struct lab *l);
/*
 * Every other host the lab uses: recorded ("host NAME RUN"), its part of
 * the run created, its clock measured (the run folder's clock file), the
 * seed images of its nodes made here and put there; its plan_params in
 * l->hpp. 0, or -1 with err.
 */
int lab_hosts_up(struct lab *l, struct errbuf *err);
/*
 * The templates of every other host's nodes that can have one, each
 * built and cached there by its agent (from its own files, through its
 * own libvirt), into l->nodes[i] (key and RAM path there). 0, or the
 * number of hosts whose templates could not all be had (those nodes
 * then boot cold) with the first reason in err.
 */
int lab_hosts_templates(struct lab *l, struct errbuf *err);
/* A node of another host: its user-data status (as seed_status). */
int lab_hosts_seed_status(struct lab *l, size_t i);
/* Before a teardown: each host the run's state names, reached and its
 * part of the run attached (one that cannot be is left to
 * lab_hosts_down to say). */
void lab_hosts_attach(const char *run_dir, const struct lab_ops *ops);
/*
 * After this host's teardown: for each host the state names, its clock
 * measured again, its teardown, its files fetched into run_dir. The
 * number of resources left (an unreachable host counts one), said on log.
 */
int lab_hosts_down(const char *run_dir, const struct lab_ops *ops, FILE *log);

#endif
