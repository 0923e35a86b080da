// SPDX-License-Identifier: MIT
/*
 * The checks' frame analysis on arbitrary bytes: every captured frame of
 * a run goes through analysis_frame(), so no frame may crash it. The
 * input is split into frames at each 0xff 0xfe pair; the lab is ring4's
 * shape, so BPDUs from its ports are attributed and judged.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

static struct analysis *a;
static struct topo *t;
static struct plan *p;

static const char lab[] =
	"name: fz\n"
	"mst: { instances: { 1: [10], 2: [20] } }\n"
	"nodes: { a: { role: bridge }, b: { role: bridge } }\n"
	"links: [[a:p1, b:p1]]\n"
	"scenarios: { s: { steps: [sleep: 1s], expect: { roots: { 1: a } } } }\n";

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct topo_error te;
	size_t start = 0;
	int tap = 0;
	FILE *null;

	if (!t && (topo_parse_buffer("fz.yaml", lab, sizeof(lab) - 1, &t,
				     &te) || plan_build(t, &p)))
		abort();
	a = calloc(1, sizeof(*a));
	a->t = t;
	a->p = p;
	a->ntrees = 1 + t->mst.n_msti;
	for (size_t s = 0; s < a->ntrees; s++)
		a->tree_id[s] = topo_tree_id(&t->mst, (int)s);
	a->pt = calloc(t->n_nodes * TOPO_MAX_PORTS * a->ntrees, sizeof(*a->pt));
	a->n_events = 2;
	a->ev[0] = (struct an_event){ .ns = 0, .kind = "scenario", .arg = "s" };
	a->ev[1] = (struct an_event){ .ns = 1000, .kind = "run-end" };
	for (size_t i = 0; i + 1 <= size; i++)
		if (i + 1 == size || (data[i] == 0xff && data[i + 1] == 0xfe)) {
			size_t end = i + 1 == size ? size : i;

			analysis_frame(a, (int64_t)start, data + start,
				       end - start);
			start = i + 2;
			i++;
		}
	null = fopen("/dev/null", "w");
	analysis_verdicts(a, null, &tap);
	fclose(null);
	analysis_free(a);
	free(a);
	return 0;
}
