/* SPDX-License-Identifier: MIT */
/* The SVG timeline report.html draws per scenario and tree. */
#ifndef MSTLAB_REPORT_SVG_H
#define MSTLAB_REPORT_SVG_H

#include <stdio.h>

#include "report.h"

/* One <svg> element; CSS classes tree, tick, ev, bar, bar-fail, budget. */
void report_svg_timeline(FILE *out, const struct result_scenario *sc,
			 int msti);

#endif
