/* SPDX-License-Identifier: MIT */
/*
 * A release matrix: labs × kernels × repeats, each cell one `mstlab run`
 * of its own (a child process, so a crash or a hung lab in one cell
 * takes none of the others with it) into its own folder:
 *
 *   DIR/matrix.json            the cells and their verdicts, rewritten
 *                              after every cell (what --resume reads)
 *   DIR/junit.xml              one testcase per check and cell
 *   DIR/matrix.html            a row per cell, linked to its report
 *   DIR/cells/CELL/try-N/      attempt N's results folder: its run
 *                              folder LAB-…/, run.tap and run.log
 *
 * A cell whose run fails is tried again (retries, default 1) before it
 * counts: a pass on a retry makes it flaky, which is never a pass (the
 * netdev CI's rule). A cell whose run leaves no verdict (the lab did not
 * come up, mstlab crashed) is an error.
 */
#ifndef MSTLAB_MATRIX_H
#define MSTLAB_MATRIX_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "sbuf.h"
#include "topo.h"

#define MATRIX_MAX_CELLS 512
#define MATRIX_NAME_MAX 64

enum matrix_status {
	MATRIX_PENDING,
	MATRIX_PASS,
	MATRIX_FAIL,
	MATRIX_FLAKY,	/* failed, then passed on a retry */
	MATRIX_ERROR,	/* no verdict: the lab did not come up, a crash */
};

struct matrix_cell {
	char name[MATRIX_NAME_MAX];	/* LAB.KERNEL.rN: stable across runs */
	unsigned index;			/* its place in the whole matrix */
	char topo[PATH_MAX];		/* the topology file, absolute */
	char lab[TOPO_LAB_NAME_MAX + 1];
	char kernel[24];		/* a kernel name; "" the topology's */
	unsigned repeat;		/* 1.. */
	enum matrix_status status;
	unsigned attempts;
	unsigned checks, failed;	/* of its last attempt's verdict */
	double seconds;			/* all its attempts */
	char run_dir[PATH_MAX];		/* its last attempt's run folder */
};

struct matrix {
	char dir[PATH_MAX / 2];		/* the results tree */
	char mstlab[PATH_MAX];		/* the program each cell runs */
	unsigned retries;
	size_t n_cells;
	struct matrix_cell *cells;
	char host[64];			/* where it ran */
	const char *version;		/* mstlab's */
	char version_buf[64];		/* a merge's: its shards' */
};

const char *matrix_status_name(enum matrix_status s);

/*
 * The cells of topos × kernels (n_kernels 0: each topology's own) ×
 * repeats, in that order, into m (dir, mstlab and retries set by the
 * caller). 0, or -1 with why in err (a topology that does not parse, too
 * many cells).
 */
int matrix_plan(struct matrix *m, char *const topos[], size_t n_topos,
		char *const kernels[], size_t n_kernels, unsigned repeats,
		char *err, size_t len);
/* Keeps only shard i of n (1 <= i <= n): every n-th cell from the i-th,
 * so n CI jobs split one matrix; names stay those of the whole. */
void matrix_shard(struct matrix *m, unsigned i, unsigned n);
/* The verdicts of m->dir/matrix.json into the cells of the same name
 * (--resume): 0, or -1 with why. */
int matrix_load(struct matrix *m, char *err, size_t len);
/* Every cell of a shard's DIR/matrix.json appended to m (mstlab merge),
 * in the order of the whole matrix: 0, or -1 with why (unreadable, a
 * cell in two shards). */
int matrix_append(struct matrix *m, const char *dir, char *err, size_t len);
/* m->dir/matrix.json, atomically. 0 or -1 (errno). */
int matrix_save(const struct matrix *m);
/* m->dir/junit.xml from every finished cell's summary.json. 0 or -1. */
int matrix_junit(const struct matrix *m);
/* m->dir/matrix.html: a row per cell, linked to its report. 0 or -1. */
int matrix_html(const struct matrix *m);
/* Writes x to m->dir/name and frees it: 0, or -1. */
int matrix_write(const struct matrix *m, const char *name, struct sbuf *x);

/*
 * Runs every pending cell, one after another (a cell done before keeps
 * its verdict, said again): progress and an ETA on
 * log, one TAP line per cell on out, matrix.json after each. *stop set
 * (by a signal handler) ends it after the cell running then, whose run
 * is asked to stop (SIGTERM) and is left pending. 0 when every cell
 * passed, 1 otherwise.
 */
int matrix_run(struct matrix *m, FILE *out, FILE *log,
	       volatile int *stop);
void matrix_free(struct matrix *m);

#endif
