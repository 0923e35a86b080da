/* SPDX-License-Identifier: MIT */
/* The SVG drawings report.html has per scenario and tree: a timeline
 * and the topology at each snapshot. */
#ifndef MSTLAB_REPORT_SVG_H
#define MSTLAB_REPORT_SVG_H

#include <stdio.h>

#include "report.h"
#include "sbuf.h"

/* One <svg> element; CSS classes tree, tick, ev, bar, bar-fail, budget. */
void report_svg_timeline(FILE *out, const struct result_scenario *sc,
			 int msti);

/* The snapshot as DOT text (report_topo.c): node classes bridge, root,
 * host; edge classes port, rootport, blocked, down, inferred. */
void report_topo_dot(const struct result_run *r,
		     const struct result_snapshot *s, struct sbuf *o);
/* Drawn by Graphviz (neato) as one inline <svg class="topology">; if
 * dot fails, a <p class="topo-missing"> saying why. */
void report_svg_topology(FILE *out, const struct result_run *r,
			 const struct result_snapshot *s);

#endif
