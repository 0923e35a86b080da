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
#include "sim_unit.h"

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

/*
 * Two seeds of the bench's campaigns (seeds 20,001-40,000), written out:
 * the mesh with every priority and path cost (MSTI changes send BPDUs
 * too, so all of them shape the run), and the link events up to the
 * failure that looped: a one-step loop of Root Ports with Designated
 * Ports forwarding at the other ends, stale information going round.
 * Without the agreements sync_tree() (mstp_roles.c) drops, a Designated
 * Port keeps the agreement given to its bridge's worse information of a
 * moment before (its own root's, or its own) for the better - but stale
 * - root path it takes next, and the agreements close the cycle.
 */
struct seed_port {
	uint32_t ext;			/* external path cost */
	uint8_t prio[3];		/* per tree: CIST, MSTI 1, MSTI 2 */
	uint32_t cost[3];		/* internal path cost, per tree */
};
/* External path cost, then port priority and path cost per tree. */
#define P(ext, p0, c0, p1, c1, p2, c2) \
	{ ext, { p0, p1, p2 }, { c0, c1, c2 } }

struct seed_bridge {
	int region;		/* 0 or 1, as in sim_campaign.c */
	uint16_t prio[3];	/* per tree, units of 4096 */
	unsigned int nports;
	struct seed_port port[5];
};

struct seed_link {
	unsigned int a, pa, b, pb;
};

static bool seed_mesh(const struct seed_bridge *b, unsigned int n,
		      const struct seed_link *l, unsigned int nlinks)
{
	static const uint16_t mstids[] = { 1, 2 };

	sim_unit_reset(&sim);
	for (unsigned int i = 0; i < n; i++) {
		struct mstp_bridge_config cfg;
		struct mst_vid_table vids = { 0 };
		struct mstp_bridge *br;

		vids.mstid[10] = b[i].region ? 2 : 1;
		vids.mstid[20] = b[i].region ? 1 : 2;
		if (b[i].region)
			vids.mstid[30] = 2;
		sim_config(&cfg, i, b[i].nports, mstids, 2, &vids);
		if (!sim_add_bridge(&sim, &cfg, &vids))
			return false;
		br = sim.br[i];
		for (unsigned int t = 0; t < 3; t++)
			if (mstp_set_bridge_priority(br, t, (uint16_t)(4096 *
							 b[i].prio[t])))
				return false;
		for (unsigned int p = 0; p < b[i].nports; p++) {
			const struct seed_port *sp = &b[i].port[p];

			if (mstp_set_port_ext_path_cost(br, p, sp->ext))
				return false;
			for (unsigned int t = 0; t < 3; t++)
				if (mstp_set_port_priority(br, p, t,
							   sp->prio[t]) ||
				    mstp_set_port_path_cost(br, p, t,
							    sp->cost[t]))
					return false;
		}
	}
	for (unsigned int k = 0; k < nlinks; k++)
		sim_connect(&sim, l[k].a, l[k].pa, l[k].b, l[k].pb);
	return true;
}

/* As the campaigns do: until no port state changed for a forward delay
 * and two seconds. */
static void settle(void)
{
	unsigned int quiet = 0;

	sim_deliver(&sim, ~0ul);
	for (unsigned int s = 0; quiet < MSTP_DEF_FWD_DELAY + 2 && s < 200;
	     s++) {
		unsigned long before = sim.state_changes;

		sim_advance(&sim, 1);
		quiet = sim.state_changes == before ? quiet + 1 : 0;
	}
}

/* The campaign's run up to link @last's failure: every link up, then
 * each link before it failed and restored in turn. */
static void fail_in_turn(unsigned int last)
{
	sim_all_up(&sim);
	settle();
	for (unsigned int l = 0; l < last; l++) {
		sim_link_set(&sim, l, false);
		settle();
		sim_link_set(&sim, l, true);
		settle();
	}
	sim_link_set(&sim, last, false);
	settle();
}

/*
 * Seed 36382 of the one-region campaign: B4 the root; L3, B3's Root
 * Port to B4, fails.  B3, B1 and B2 (a triangle: L9, L1, L2) pass stale
 * root information round.  B1 names itself the root for a moment and B2
 * takes that; B3 agrees to it on L2, and B2.p1 kept that agreement for
 * the stale root path through B1 and B3 that B2 takes next - better
 * than B1's word, worse than B2's path before the failure: a loop
 * B1 -> B3 -> B2 of Root Ports for one step.
 */
TEST(seed_36382_root_port_fails_in_a_triangle)
{
	static const struct seed_bridge b[] = {
		{ 0, { 7, 9, 11 }, 4, {
			P(30000, 0x40, 30000, 0x40, 30000, 0x40, 20000),
			P(30000, 0xc0, 30000, 0xc0, 10000, 0x40, 20000),
			P(30000, 0xc0, 20000, 0x80, 30000, 0x40, 10000),
			P(20000, 0x80, 10000, 0xc0, 30000, 0x40, 30000) } },
		{ 0, { 5, 7, 10 }, 3, {
			P(30000, 0x80, 20000, 0x80, 30000, 0x80, 10000),
			P(10000, 0xc0, 30000, 0x80, 20000, 0x80, 20000),
			P(30000, 0x40, 10000, 0xc0, 20000, 0xc0, 20000) } },
		{ 0, { 5, 10, 5 }, 2, {
			P(30000, 0x80, 10000, 0x80, 20000, 0x80, 10000),
			P(10000, 0xc0, 20000, 0x40, 30000, 0x40, 20000) } },
		{ 0, { 5, 9, 11 }, 4, {
			P(30000, 0xc0, 10000, 0x80, 20000, 0x40, 20000),
			P(30000, 0xc0, 20000, 0x80, 10000, 0xc0, 30000),
			P(30000, 0x80, 20000, 0xc0, 10000, 0x40, 20000),
			P(30000, 0x40, 20000, 0x80, 30000, 0x40, 20000) } },
		{ 0, { 4, 6, 11 }, 2, {
			P(30000, 0x40, 30000, 0x80, 20000, 0xc0, 20000),
			P(30000, 0xc0, 20000, 0x40, 30000, 0x80, 10000) } },
		{ 0, { 5, 4, 10 }, 2, {
			P(30000, 0x80, 10000, 0x40, 20000, 0xc0, 10000),
			P(10000, 0xc0, 10000, 0xc0, 10000, 0x80, 30000) } },
		{ 0, { 7, 6, 5 }, 2, {
			P(20000, 0x40, 20000, 0x80, 20000, 0x40, 20000),
			P(10000, 0x40, 20000, 0x80, 10000, 0xc0, 20000) } },
		{ 0, { 9, 9, 6 }, 5, {
			P(20000, 0x40, 30000, 0xc0, 20000, 0xc0, 20000),
			P(20000, 0x80, 10000, 0x40, 10000, 0x40, 10000),
			P(10000, 0xc0, 30000, 0x40, 20000, 0xc0, 20000),
			P(30000, 0x40, 20000, 0x40, 10000, 0x40, 20000),
			P(30000, 0x80, 10000, 0x80, 20000, 0xc0, 20000) } },
	};
	static const struct seed_link l[] = {
		{ 0, 0, 1, 0 }, { 1, 1, 2, 0 }, { 2, 1, 3, 0 },
		{ 3, 1, 4, 0 }, { 4, 1, 5, 0 }, { 5, 1, 6, 0 },
		{ 6, 1, 7, 0 }, { 7, 1, 0, 1 }, { 0, 2, 7, 2 },
		{ 3, 2, 1, 2 }, { 7, 3, 0, 3 }, { 3, 3, 7, 4 },
	};

	CHECK(seed_mesh(b, 8, l, 12));
	fail_in_turn(3);
	CHECK_INT(sim.check.violations, 0);
	/* B3 reaches the root through B7 (L11). */
	CHECK_INT(sim_role(&sim, 3, 3, 0), MSTP_ROLE_ROOT);
	sim_free(&sim);
}

/*
 * Seed 35456 of the regions campaign: B0 in region 0, B1-B4 in region 1,
 * where B3 is the CIST Root and B1 MSTI 2's Regional Root.  L1, B2's
 * MSTI 2 Root Port to B1, fails; B1 is then out of reach inside the
 * region.  MSTI 2 information naming B1 goes round B2, B4 and B3 (L6,
 * L3, L2) until its remaining hops run out; B2 names itself the root in
 * between, B2.p3 is agreed for that and kept the agreement for the
 * stale root path through B3: a loop B2 -> B4 -> B3 of MSTI 2 Root
 * Ports for one step.
 */
TEST(seed_35456_msti_root_port_fails_in_a_triangle)
{
	static const struct seed_bridge b[] = {
		{ 0, { 10, 8, 10 }, 3, {
			P(20000, 0x40, 10000, 0x80, 10000, 0x40, 20000),
			P(20000, 0x80, 10000, 0x40, 10000, 0x40, 30000),
			P(10000, 0xc0, 30000, 0xc0, 30000, 0x80, 10000) } },
		{ 1, { 10, 11, 5 }, 2, {
			P(20000, 0x40, 10000, 0x40, 20000, 0x40, 30000),
			P(30000, 0xc0, 30000, 0xc0, 10000, 0x80, 10000) } },
		{ 1, { 10, 6, 5 }, 4, {
			P(10000, 0xc0, 20000, 0x80, 10000, 0x80, 20000),
			P(10000, 0x80, 20000, 0xc0, 20000, 0x80, 20000),
			P(30000, 0xc0, 20000, 0x40, 10000, 0x40, 20000),
			P(30000, 0x80, 30000, 0xc0, 10000, 0xc0, 10000) } },
		{ 1, { 4, 9, 10 }, 2, {
			P(30000, 0x80, 10000, 0xc0, 10000, 0x40, 20000),
			P(10000, 0x40, 10000, 0x80, 20000, 0xc0, 10000) } },
		{ 1, { 7, 4, 6 }, 3, {
			P(20000, 0x40, 10000, 0xc0, 10000, 0x40, 20000),
			P(10000, 0xc0, 20000, 0x40, 30000, 0x80, 30000),
			P(30000, 0x40, 30000, 0xc0, 20000, 0xc0, 20000) } },
	};
	static const struct seed_link l[] = {
		{ 0, 0, 1, 0 }, { 1, 1, 2, 0 }, { 2, 1, 3, 0 },
		{ 3, 1, 4, 0 }, { 4, 1, 0, 1 }, { 0, 2, 2, 2 },
		{ 4, 2, 2, 3 },
	};

	CHECK(seed_mesh(b, 5, l, 7));
	fail_in_turn(1);
	CHECK_INT(sim.check.violations, 0);
	/* B2 is MSTI 2's Regional Root in region 1 now. */
	CHECK_INT(sim_tree_status(&sim, 2, 2).root_port, -1);
	sim_free(&sim);
}
