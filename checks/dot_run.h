/* SPDX-License-Identifier: MIT */
/* Graphviz as a child: a fixed argv, the graph on stdin, no shell. */
#ifndef MSTLAB_DOT_RUN_H
#define MSTLAB_DOT_RUN_H

#include <stddef.h>

#include "errbuf.h"

/*
 * Lays out and renders graph (DOT text) with `dot -Kengine -Tsvg`.
 * 0 and *svg (malloc'd, NUL-terminated), or -1 with err.
 */
int dot_run_svg(const char *engine, const char *graph, char **svg,
		struct errbuf *err);

#endif
