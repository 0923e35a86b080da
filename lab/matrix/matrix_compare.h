/* SPDX-License-Identifier: MIT */
/*
 * mstlab compare A B: did anything get worse from matrix A (the
 * baseline) to matrix B? Cells are matched by family (the cell's name
 * without its repeat: ring4.6.12), checks by scenario and id.
 *
 * - A check is a regression when it passed in every run of its family in
 *   A and failed in every run of B; when it failed in some runs of B and
 *   passed in others, or its cell was flaky, it is flaky, never a
 *   regression (the netdev CI's rule); fixed is the other way round.
 * - A figure of a check (summary.json's figures: settle_s, outage_ms…)
 *   is compared between its values in A and in B with a two-sided
 *   permutation test of the rank sum (Mann-Whitney's statistic; every
 *   split when there are at most 20,000 of them, else 20,000 drawn with
 *   a fixed seed, so the same inputs give the same p); the medians say
 *   by how much. A time (_s, _ms) whose
 *   median grew with p < alpha is a regression; one that shrank is an
 *   improvement; any other figure that moved is reported as changed.
 *   Fewer than 3 values on a side: not compared (said).
 */
#ifndef MSTLAB_MATRIX_COMPARE_H
#define MSTLAB_MATRIX_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

struct compare_opts {
	double alpha;		/* 0.05 */
	bool json;
};

/* Two-sided permutation p of the rank sum of a against b. */
double compare_p(const double *a, size_t na, const double *b, size_t nb);

/* 0: nothing got worse; 1: a regression; 2: a matrix cannot be read
 * (why on err). */
int matrix_compare(const char *dir_a, const char *dir_b,
		   const struct compare_opts *o, FILE *out, FILE *err);

#endif
