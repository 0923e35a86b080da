// SPDX-License-Identifier: MIT
/*
 * Loop freedom, at random: the campaigns of lab/mstpsim/sim_campaign.c,
 * a few hundred seeds each (bench/mstp loops runs ten thousand).  Each
 * seed draws a mesh, fails and restores every link in turn; the
 * simulator checks after every BPDU, tick and link change that no tree
 * and no VLAN has a forwarding loop.  A seed that loops prints how to
 * replay it.  MSTP_CAMPAIGN_SEED=n runs only seed n, with the bridges'
 * logs if MSTP_VERBOSE is set.
 */
#include "unit.h"
#include "sim_campaign.h"

#include <stdio.h>
#include <stdlib.h>

#define SEEDS 150

static struct sim sim;

static bool run(enum campaign_kind kind)
{
	const char *only = getenv("MSTP_CAMPAIGN_SEED");
	uint64_t first = 1, n = SEEDS;
	unsigned long events = 0, bpdus = 0, checks = 0, looped = 0;
	struct campaign_result r;

	if (only) {
		first = strtoull(only, NULL, 0);
		n = 1;
	}
	for (uint64_t s = first; s < first + n; s++) {
		if (!campaign_run(&sim, kind, s, getenv("MSTP_VERBOSE") != NULL,
				  &r)) {
			looped++;
			printf("# %s seed %llu: %lu violations, %lu overflows;"
			       " mesh:%s\n# first: %s\n# replay: "
			       "MSTP_CAMPAIGN_SEED=%llu build/tests/"
			       "test_mstp_loops %s, or build/bin/"
			       "mstp-loop-bench --campaign %s --seed %llu "
			       "--verbose\n", campaign_name(kind),
			       (unsigned long long)s, r.violations,
			       r.overflows, r.mesh, r.first,
			       (unsigned long long)s, campaign_name(kind),
			       campaign_name(kind), (unsigned long long)s);
		}
		events += r.link_events;
		bpdus += r.bpdus;
		checks += r.checks;
	}
	printf("# %s: %llu seeds, %lu link events, %lu BPDUs, %lu checks, "
	       "%lu seeds with a loop\n", campaign_name(kind),
	       (unsigned long long)n, events, bpdus, checks, looped);
	return looped == 0;
}

/* One region, two MSTIs, 3..8 bridges. */
TEST(campaign_one_region)
{
	CHECK(run(CAMPAIGN_REGION));
}

/* Two or three regions, RSTP and STP bridges among them. */
TEST(campaign_regions)
{
	CHECK(run(CAMPAIGN_REGIONS));
}
