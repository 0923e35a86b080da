/* SPDX-License-Identifier: MIT */
/* What the tree-state engine's files share (trees.h is the API). */
#ifndef MSTLAB_TREES_PRIV_H
#define MSTLAB_TREES_PRIV_H

#include "trees.h"

/* The history: every BPDU kept, link events in the log's order. */
int trees_history_init(struct trees *tr);
void trees_history_free(struct trees *tr);
void trees_history_add(struct trees *tr, int node, int port, int tree,
		       const struct tree_adv *a);
void trees_history_add_tcn(struct trees *tr, int node, int port,
			   const struct tree_adv *a);
void trees_history_link(struct trees *tr, int64_t ns, int link, bool up);

/* The port that sent a BPDU captured on link: by its source MAC, or the
 * link's end whose bridge the BPDU's bridge id names (DSA user ports all
 * send with the switch's own address). */
bool trees_place(const struct trees *tr, int link, const struct bpdu_frame *f,
		 const struct bpdu *b, int *node, int *port);
/* What the BPDU says for each tree of the lab it carries: a[k] for tree
 * slot tree[k]; their number (0 for a TCN, whose a[0] still holds when
 * and where it was captured). */
size_t trees_adverts(const struct trees *tr, int64_t ns, int link,
		     uint32_t frame_no, const struct bpdu *b,
		     struct tree_adv *a, int *tree);

#endif
