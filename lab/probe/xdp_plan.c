// SPDX-License-Identifier: MIT
#include "xdp_plan.h"

#include "probe_opts.h"

_Static_assert(PROBE_XDP_FLOWS == PROBE_MAX_FLOWS,
	       "one program copy serves all of a probe-gen's flows");

uint32_t xdp_plan_fill(struct probe_xdp_plan *p, const uint32_t *n,
		       unsigned nflows)
{
	uint32_t total = 0;

	if (nflows > PROBE_XDP_FLOWS)
		nflows = PROBE_XDP_FLOWS;
	/* Every field: in xdp mode @p is the map, last run's leftovers
	 * and all. */
	for (unsigned i = 0; i < PROBE_XDP_FLOWS; i++) {
		p->left[i] = i < nflows ? n[i] : 0;
		total += p->left[i];
	}
	p->nflows = nflows;
	p->cursor = 0;
	return total;
}
