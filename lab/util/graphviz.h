/* SPDX-License-Identifier: MIT */
/*
 * The one way Graphviz runs: `dot -K<engine> -T<format>` as a child
 * (child.h), the graph on its stdin, the drawing taken from its stdout or
 * written to a file by dot, no shell.
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
/* The same, in format (svg, png, pdf: dot's -T) into the file path. */
int graphviz_file(const char *engine, const char *format, const char *graph,
		  const char *path, struct errbuf *err);

#endif
