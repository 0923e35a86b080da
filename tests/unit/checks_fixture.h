/* SPDX-License-Identifier: MIT */
/*
 * Pieces the tests of the checks and of mstlab watch share: MST BPDUs
 * from a planned lab's ports, files in a run folder, and a command's
 * output captured in memory.
 */
#ifndef MSTLAB_CHECKS_FIXTURE_H
#define MSTLAB_CHECKS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bpdu.h"
#include "plan.h"
#include "trees.h"

/* triangle.yaml's bridges as the tests' lab "tri": sw1 roots the CIST
 * and MSTI 1, sw2 MSTI 2. FX_TRI_NODES then more nodes, FX_TRI_LINKS
 * then more links. */
#define FX_TRI_NODES							\
	"name: tri\n"							\
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"	\
	"nodes:\n"							\
	"  sw1: { role: bridge, priority: { cist: 4096, 1: 4096 } }\n"	\
	"  sw2: { role: bridge, priority: { 2: 4096 } }\n"		\
	"  sw3: { role: bridge }\n"
#define FX_TRI_LINKS							\
	"links:\n"							\
	"  - [sw1:p1, sw2:p1]\n"					\
	"  - [sw2:p2, sw3:p1]\n"					\
	"  - [sw3:p2, sw1:p2]\n"

/* What a port says about one tree. */
struct fx_adv {
	enum bpdu_role role;
	bool fwd, tc;
};

/*
 * An MST BPDU (region "tri") from node:port saying adv[0] for the CIST
 * (root: node cist_root) and adv[1], adv[2] for MSTIs 1 and 2 (regional
 * roots: nodes msti_root[0], msti_root[1]). Its length, 0 on error.
 */
size_t fx_mst_bpdu(const struct plan *p, int node, int port, int cist_root,
		   const int msti_root[2], const struct fx_adv adv[3],
		   uint8_t *buf, size_t size);

/* How fx_bpdu differs from fx_mst_bpdu's. */
struct fx_bpdu_kind {
	const char *region;	/* the MST configuration name; NULL "tri" */
	bool rst;		/* an RST BPDU: the CIST only */
	bool no_msti2;		/* an MST BPDU without MSTI 2's message */
};

/* fx_mst_bpdu's BPDU, of that kind (NULL: the same). */
size_t fx_bpdu(const struct plan *p, int node, int port, int cist_root,
	       const int msti_root[2], const struct fx_adv adv[3],
	       const struct fx_bpdu_kind *kind, uint8_t *buf, size_t size);

/* What a live engine emitted: the changes, with copies of the event
 * lines they point to (valid during the callback only). */
#define FX_MAX_CHANGES 256
struct fx_changes {
	size_t n;
	struct trees_change ch[FX_MAX_CHANGES];
	struct event ev[FX_MAX_CHANGES];
};

/* An engine's emit callback; ctx is a struct fx_changes. */
void fx_record(void *ctx, const struct trees_change *c);

/* Writes text to dir/name (a test's run folder). */
void fx_write_file(const char *dir, const char *name, const char *text);

/*
 * The tree-state engine run both ways over one run folder: live, as
 * mstlab watch follows the files, and as the verdicts' history asked at
 * each instant. 0 if they show the same trees (root, TC, every port's
 * role, state, down, deduction, last BPDU) just before every event of
 * the log and at the end; -1 with why (the first difference, or why the
 * folder cannot be read) otherwise.
 */
int fx_trees_agree(const char *dir, char *why, size_t len);

/*
 * A test is done with its run folder, about to remove it: the engine
 * must agree with itself over it (fx_trees_agree; the test fails if
 * not). With MSTLAB_KEEP_RUNS=DIR in the environment the folder is
 * copied to DIR/<test>-<n>, so the fixture runs can be judged again by
 * another build of mstlab (verdict, watch) and the outputs compared.
 */
void fx_run_done(const char *dir);

#endif
