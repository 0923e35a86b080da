/* SPDX-License-Identifier: MIT */
/*
 * The labs of this host's registry (registry.h), each as its run folder
 * tells it: its topology (nodes, hosts, kernels) and how far its run
 * went (the event log). Nothing is asked of libvirt: `status LAB` says
 * what each node's domain is doing.
 */
#ifndef MSTLAB_LAB_LIST_H
#define MSTLAB_LAB_LIST_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

#include "errbuf.h"
#include "topo.h"

struct lab_entry {
	char name[TOPO_LAB_NAME_MAX + 1];
	char run_dir[PATH_MAX];		/* "": the entry is not a lab's */
	time_t since;			/* registered */
	size_t nodes;
	/* "local", or "local far1 far2": the hosts its nodes run on */
	char hosts[(TOPO_HOST_NAME_MAX + 1) * TOPO_MAX_HOSTS];
	char kernels[48];		/* "default", "default 6.12" */
	/* booting, up, scenario NAME, up (run passed|failed), or what is
	 * wrong with the entry (run folder gone, topology unreadable) */
	char state[96];
};

/* Every lab recorded, by name (*out: free it). 0, or -1 with err. */
int lab_list(struct lab_entry **out, size_t *n, struct errbuf *err);

#endif
