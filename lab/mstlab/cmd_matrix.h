/* SPDX-License-Identifier: MIT */
/* mstlab matrix: labs × kernels × repeats, one verdict (matrix.h);
 * mstlab compare: two of them, statistically (matrix_compare.h). */
#ifndef MSTLAB_CMD_MATRIX_H
#define MSTLAB_CMD_MATRIX_H

#include <stdio.h>

#define MATRIX_USAGE "matrix [--kernel K]... [--repeat N] [--retries N] [--shard I/N|ci]\n" \
	"                    [-o DIR | --resume DIR] TOPO.yaml...  every lab on every kernel, N times"

#define COMPARE_USAGE "compare BASE_DIR NEW_DIR [--json] [--alpha P]  what got worse from one matrix to another"

int cmd_matrix(int argc, char **argv, FILE *out, FILE *err);
#define MERGE_USAGE "merge -o DIR SHARD_DIR...  the shards of one matrix joined: one verdict"

int cmd_compare(int argc, char **argv, FILE *out, FILE *err);
int cmd_merge(int argc, char **argv, FILE *out, FILE *err);

#endif
