/* SPDX-License-Identifier: MIT */
/*
 * The one way Graphviz runs: `dot -K<engine> -Tsvg` as a child (child.h),
 * the graph on its stdin, the drawing taken from its stdout, no shell.
 */
#ifndef MSTLAB_GRAPHVIZ_H
#define MSTLAB_GRAPHVIZ_H

#include "errbuf.h"

/*
 * Lays out and renders graph (DOT text) with engine ("dot", "neato").
 * 0 and *svg (malloc'd, NUL-terminated), or -1 with err.
 */
int graphviz_svg(const char *engine, const char *graph, char **svg,
		 struct errbuf *err);

#endif
