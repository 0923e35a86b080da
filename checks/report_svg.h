/* SPDX-License-Identifier: MIT */
/* The SVG drawings report.html has per scenario and tree: a timeline
 * and the topology at each snapshot. */
#ifndef MSTLAB_REPORT_SVG_H
#define MSTLAB_REPORT_SVG_H

#include <stdio.h>

#include "errbuf.h"
#include "report.h"
#include "sbuf.h"

/* One <svg> element; CSS classes tree, tick, ev, bar, bar-fail, budget. */
void report_svg_timeline(FILE *out, const struct result_scenario *sc,
			 int msti);

/* The snapshot as DOT text (report_topo.c): node classes bridge, root,
 * host; edge classes port, rootport, blocked, down, inferred. */
void report_topo_dot(const struct result_run *r,
		     const struct result_snapshot *s, struct sbuf *o);
/* The same lab for mstlab serve's page, laid out once and coloured by
 * the page: every node also classed n-I (its index), every link end
 * port e-L-E (link position, end 0 or 1) with an arrowhead at the
 * link's midpoint that the page shows on root ports; no other style. */
void report_topo_page_dot(const struct result_run *r,
			  const struct result_snapshot *s, struct sbuf *o);
/* DOT drawn by Graphviz (neato): 0 and *svg (malloc'd), its <svg>
 * element alone and only if plain drawing (no script, no handler, no
 * foreign content), or -1 with err. */
int report_topo_svg(const struct sbuf *dot, char **svg, struct errbuf *err);
/* Drawn by Graphviz (neato) as one inline <svg class="topology">; if
 * dot fails, a <p class="topo-missing"> saying why. */
void report_svg_topology(FILE *out, const struct result_run *r,
			 const struct result_snapshot *s);

#endif
