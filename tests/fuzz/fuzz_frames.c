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
	struct event *ev;
	size_t start = 0;
	int tap = 0;
	static FILE *null;

	if (!t && (topo_parse_buffer("fz.yaml", lab, sizeof(lab) - 1, &t,
				     &te) || plan_build(t, &p)))
		abort();
	a = calloc(1, sizeof(*a));
	ev = calloc(2, sizeof(*ev));
	if (!a || !ev || analysis_init(a, t, p) ||
	    event_parse("1 scenario s", &ev[0]) ||
	    event_parse("1000 run-end ok", &ev[1]))
		abort();
	analysis_events(a, ev, 2);
	for (size_t i = 0; i + 1 <= size; i++)
		if (i + 1 == size || (data[i] == 0xff && data[i + 1] == 0xfe)) {
			size_t end = i + 1 == size ? size : i;

			analysis_frame(a, (int64_t)start, data + start,
				       end - start);
			start = i + 2;
			i++;
		}
	trees_seal(&a->tr);
	/* Opened once: no file-system work per input. */
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	analysis_verdicts(a, null, &tap);
	analysis_free(a);
	free(a);
	return 0;
}
