/* SPDX-License-Identifier: MIT */
/*
 * A tree's active topology at one instant (a view of the tree-state
 * engine, trees.h): which links forward in it, and the path a frame
 * takes along them between two nodes. The flush checks judge flooding
 * against it, and mstlab serve counts a probe frame off its flow's path
 * as flooded, live.
 */
#ifndef MSTLAB_TREE_PATH_H
#define MSTLAB_TREE_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"
#include "trees.h"

/* In tree_toward()'s toward[]: not reached, and the node searched from. */
#define TREE_NOT_REACHED (-2)
#define TREE_THE_NODE (-1)

/* One tree at one instant, and whether each link is up then (by the
 * event log: the caller's clock, the verdicts' or the live engine's). */
struct tree_topo {
	const struct topo *t;
	const struct tree_view *v;
	bool (*link_up)(const void *ctx, size_t link);
	const void *ctx;
};

/*
 * Whether a port forwards in the tree. Designated ports repeat their
 * flags every hello; a root port speaks rarely (an agreement) and
 * forwards once the tree is stable, and a port nothing is known of (a
 * host's NIC, an edge port not yet heard, an STP port: its BPDUs carry
 * no state) forwards.
 */
bool tree_port_forwards(const struct topo *t, const struct tree_view *v,
			int node, int port);
/* A link forwards when it is up and both its ends forward. */
bool tree_link_forwards(const struct tree_topo *tt, size_t link);
/* The active topology searched from node to: each node's link towards
 * it in toward[] (TREE_THE_NODE for to, TREE_NOT_REACHED). */
void tree_toward(const struct tree_topo *tt, int to, int *toward);
/* The links from node from along toward[] marked in on_path[]; false if
 * it was not reached. */
bool tree_path(const struct topo *t, const int *toward, int from,
	       bool *on_path);

#endif
