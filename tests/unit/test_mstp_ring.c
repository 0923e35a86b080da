// SPDX-License-Identifier: MIT
/*
 * A ring of four MSTP bridges in one region with two MSTIs whose roots
 * differ: B0 is CIST root, B1 root of MSTI 1, B3 root of MSTI 2.
 *
 *        p1 B0 p0
 *       /        \
 *   p0 B3        B1 p1
 *   p1  \        /  p0
 *        p0 B2 p1
 *
 * Links: L0 = B0.p0-B1.p1, L1 = B1.p0-B2.p1, L2 = B2.p0-B3.p1,
 *        L3 = B3.p0-B0.p1.  All path costs 20000.
 */
#include "unit.h"
#include "sim_unit.h"

#include <stdio.h>
#include <stdlib.h>

enum { CIST = 0, MSTI1 = 1, MSTI2 = 2 };
#define R MSTP_ROLE_ROOT
#define D MSTP_ROLE_DESIGNATED
#define A MSTP_ROLE_ALTERNATE
#define X MSTP_ROLE_DISABLED

static struct sim sim;
static unsigned int settle_secs;
static bool quiet;
static bool immediate;	/* bridges without the commit_states op */

static bool roles_are(unsigned int tree, const enum mstp_role want[4][2]);
static const enum mstp_role want_cist[4][2], want_msti1[4][2],
	want_msti2[4][2];

static bool converged(void)
{
	bool ok;

	quiet = true;
	ok = roles_are(0, want_cist) && roles_are(1, want_msti1) &&
	     roles_are(2, want_msti2);
	quiet = false;
	return ok;
}

static bool ring(enum mstp_flush_scope scope)
{
	static const uint16_t mstids[] = { 1, 2 };
	static struct mst_vid_table table;
	struct mstp_bridge_config cfg;

	sim_unit_reset(&sim);
	sim.immediate = immediate;
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	for (unsigned int i = 0; i < 4; i++) {
		sim_config(&cfg, i, 2, mstids, 2, &table);
		cfg.flush_scope = scope;
		if (!sim_add_bridge(&sim, &cfg, &table))
			return false;
	}
	if (mstp_set_bridge_priority(sim.br[0], CIST, 4096) ||
	    mstp_set_bridge_priority(sim.br[1], MSTI1, 4096) ||
	    mstp_set_bridge_priority(sim.br[3], MSTI2, 4096))
		return false;
	for (unsigned int i = 0; i < 4; i++)
		sim_connect(&sim, i, 0, (i + 1) % 4, 1);
	sim_all_up(&sim);
	sim_deliver(&sim, 100000);
	settle_secs = 0;
	while (!converged() && settle_secs < 30) {
		sim_advance(&sim, 1);
		settle_secs++;
	}
	return true;
}

/* Expected roles, [bridge][port], computed by hand (see test names). */
static const enum mstp_role want_cist[4][2] = {
	{ D, D }, { D, R }, { A, R }, { R, D },
};
static const enum mstp_role want_msti1[4][2] = {
	{ R, D }, { D, D }, { D, R }, { R, A },
};
static const enum mstp_role want_msti2[4][2] = {
	{ D, R }, { A, R }, { R, D }, { D, D },
};

static bool roles_are(unsigned int tree, const enum mstp_role want[4][2])
{
	bool ok = true;

	for (unsigned int b = 0; b < 4; b++) {
		for (unsigned int p = 0; p < 2; p++) {
			enum mstp_role r = sim_role(&sim, b, p, tree);
			enum mstp_port_state s = sim_state(&sim, b, p, tree);
			enum mstp_port_state ws =
				want[b][p] == R || want[b][p] == D ?
				MSTP_FORWARDING : MSTP_DISCARDING;

			if ((r != want[b][p] || s != ws) && !quiet)
				printf("# tree %u B%u p%u: %s/%s, want %s/%s\n",
				       tree, b, p, mstp_role_name(r),
				       mstp_state_name(s),
				       mstp_role_name(want[b][p]),
				       mstp_state_name(ws));
			if (r != want[b][p] || s != ws)
				ok = false;
		}
	}
	return ok;
}

/*
 * All three trees converge by proposal/agreement: within the first
 * second or two (the Transmit Hold Count allows 6 BPDUs per port per
 * second), long before any forward delay could expire.
 */
TEST(ring_converges_rapidly)
{
	CHECK(ring(MSTP_FLUSH_TREE));
	printf("# converged after %u s, %lu BPDUs\n", settle_secs,
	       sim.delivered);
	CHECK(roles_are(CIST, want_cist));
	CHECK(roles_are(MSTI1, want_msti1));
	CHECK(roles_are(MSTI2, want_msti2));
	CHECK(settle_secs <= 2);
	/* Bounded: a few BPDUs per port, not a storm. */
	CHECK(sim.delivered <= 100);
	/* And it stays so over time. */
	sim_advance(&sim, 60);
	CHECK(roles_are(CIST, want_cist));
	CHECK(roles_are(MSTI1, want_msti1));
	CHECK(roles_are(MSTI2, want_msti2));
	sim_free(&sim);
}

/*
 * The OS gets a run's port states in one batch (commit_states), before
 * any BPDU leaves and before any flush: through convergence, a root port
 * loss and its return, nothing went out while a state was still pending.
 */
TEST(ring_commits_states_before_bpdus_and_flushes)
{
	CHECK(ring(MSTP_FLUSH_TREE));
	CHECK(converged());
	sim_link_set(&sim, 2, false);
	sim_deliver(&sim, 1000);
	sim_link_set(&sim, 2, true);
	sim_deliver(&sim, 1000);
	sim_advance(&sim, 5);
	CHECK(converged());
	CHECK(sim.commits > 0);
	CHECK(sim.nflushes > 0);
	CHECK_INT(sim.uncommitted, 0);
	sim_free(&sim);
}

/* Without commit_states, set_state() must take effect by itself. */
TEST(ring_converges_without_commit_op)
{
	immediate = true;
	CHECK(ring(MSTP_FLUSH_TREE));
	immediate = false;
	CHECK(converged());
	CHECK_INT(sim.commits, 0);
	sim_free(&sim);
}

TEST(ring_roots_per_tree)
{
	struct mstp_tree_status ts;

	CHECK(ring(MSTP_FLUSH_TREE));
	for (unsigned int b = 0; b < 4; b++) {
		CHECK_INT(mstp_get_tree_status(sim.br[b], CIST, &ts), 0);
		CHECK_INT(ts.root_id.mac[5], 1);
		CHECK_INT(ts.regional_root_id.mac[5], 1);
		CHECK_INT(ts.ext_root_path_cost, 0);
		CHECK_INT(mstp_get_tree_status(sim.br[b], MSTI1, &ts), 0);
		CHECK_INT(ts.regional_root_id.mac[5], 2);
		CHECK_INT(ts.regional_root_id.prio, 4096 | 1);
		CHECK_INT(mstp_get_tree_status(sim.br[b], MSTI2, &ts), 0);
		CHECK_INT(ts.regional_root_id.mac[5], 4);
		CHECK_INT(ts.regional_root_id.prio, 4096 | 2);
	}
	/* B2 is two hops from every root. */
	CHECK_INT(mstp_get_tree_status(sim.br[2], CIST, &ts), 0);
	CHECK_INT(ts.int_root_path_cost, 40000);
	CHECK_INT(mstp_get_tree_status(sim.br[2], MSTI2, &ts), 0);
	CHECK_INT(ts.int_root_path_cost, 20000);
	CHECK_INT(ts.root_port, 0);
	sim_free(&sim);
}

/*
 * L2 (B2.p0-B3.p1) carries MSTI 2's B2 root port and MSTI 1's blocked
 * B3 port; in the CIST B2.p0 is the alternate.  Its loss must re-root
 * only MSTI 2, through B1's alternate port.
 */
TEST(ring_root_port_loss_moves_only_its_msti)
{
	struct mstp_tree_status before1, after1, before0, after0;
	unsigned long n;
	CHECK(ring(MSTP_FLUSH_TREE));
	sim_advance(&sim, 10);
	CHECK_INT(mstp_get_tree_status(sim.br[2], MSTI1, &before1), 0);
	CHECK_INT(mstp_get_tree_status(sim.br[2], CIST, &before0), 0);
	sim.nflushes = 0;
	sim_link_set(&sim, 2, false);
	/* B1's MSTI 2 alternate learns of the loss from B2 and takes over
	 * by proposal/agreement: a few BPDUs, no tick. */
	n = sim_deliver(&sim, 1000);
	printf("# MSTI 2 re-converged with %lu BPDUs\n", n);
	CHECK(n <= 12);
	/* MSTI 2 now: B3 -> B0 -> B1 -> B2. */
	static const enum mstp_role msti2[4][2] = {
		{ D, R }, { D, R }, { X, R }, { D, X },
	};
	static const enum mstp_role msti1[4][2] = {
		{ R, D }, { D, D }, { X, R }, { R, X },
	};
	static const enum mstp_role cist[4][2] = {
		{ D, D }, { D, R }, { X, R }, { R, X },
	};
	CHECK(roles_are(MSTI2, msti2));
	CHECK(roles_are(MSTI1, msti1));
	CHECK(roles_are(CIST, cist));
	/* MSTI 1 and the CIST had no topology change. */
	CHECK_INT(mstp_get_tree_status(sim.br[2], MSTI1, &after1), 0);
	CHECK_INT(mstp_get_tree_status(sim.br[2], CIST, &after0), 0);
	CHECK_INT(after1.tc_count, before1.tc_count);
	CHECK_INT(after0.tc_count, before0.tc_count);
	for (unsigned int b = 0; b < 4; b++) {
		/* Only the dead ports' own entries, and MSTI 2's VLANs. */
		for (unsigned int p = 0; p < 2; p++) {
			bool dead = (b == 2 && p == 0) || (b == 3 && p == 1);

			if (dead)
				continue;
			CHECK_INT(sim_flush_count(&sim, b, p, 0), 0);
			CHECK_INT(sim_flush_count(&sim, b, p, 1), 0);
		}
	}
	/* TC of MSTI 2 flushed MSTI 2 on the ports away from the change. */
	CHECK(sim_flush_count(&sim, 1, 1, 2) > 0);
	CHECK(sim_flush_count(&sim, 0, 1, 2) > 0);
	CHECK_INT(sim_flush_count(&sim, 2, 1, 2), 0);
	sim_free(&sim);
}

/*
 * L3 (B3.p0-B0.p1) is B3's root port in MSTI 1, whose alternate is p1:
 * it forwards the moment the link is lost, before any BPDU, and MSTI 1's
 * TC flushes MSTI 1's VLANs only (other trees re-converge on their own).
 */
TEST(ring_alternate_takeover_is_immediate)
{
	CHECK(ring(MSTP_FLUSH_TREE));
	sim_advance(&sim, 10);
	CHECK_INT(sim_role(&sim, 3, 1, MSTI1), A);
	sim.nflushes = 0;
	sim_link_set(&sim, 3, false);
	CHECK_INT(sim_role(&sim, 3, 1, MSTI1), R);
	CHECK_INT(sim_state(&sim, 3, 1, MSTI1), MSTP_FORWARDING);
	/* The new root port's TC flushed nothing else on B3 (p0 is down)
	 * but reaches B2, which flushes MSTI 1 on its other port. */
	sim_deliver(&sim, 1000);
	CHECK(sim_flush_count(&sim, 2, 1, 1) > 0);
	CHECK_INT(sim_flush_count(&sim, 2, 0, 1), 0);
	static const enum mstp_role msti1[4][2] = {
		{ R, X }, { D, D }, { D, R }, { X, R },
	};
	CHECK(roles_are(MSTI1, msti1));
	sim_free(&sim);
}

/* With MSTP_FLUSH_PORT a TC flushes every VLAN of the port instead. */
TEST(ring_flush_scope_whole_port)
{
	CHECK(ring(MSTP_FLUSH_PORT));
	sim_advance(&sim, 10);
	sim.nflushes = 0;
	sim_link_set(&sim, 2, false);
	sim_deliver(&sim, 1000);
	CHECK(sim_flush_count(&sim, 1, 1, MSTP_ALL_TREES) > 0);
	CHECK(sim_flush_count(&sim, 0, 1, MSTP_ALL_TREES) > 0);
	for (unsigned int i = 0; i < sim.nflushes; i++)
		CHECK_INT(sim.flushes[i].mstid, MSTP_ALL_TREES);
	/* And back to per tree at run time. */
	for (unsigned int b = 0; b < 4; b++)
		CHECK_INT(mstp_set_flush_scope(sim.br[b], MSTP_FLUSH_TREE), 0);
	sim.nflushes = 0;
	sim_link_set(&sim, 2, true);
	sim_advance(&sim, 3);
	CHECK(sim.nflushes > 0);
	for (unsigned int i = 0; i < sim.nflushes; i++)
		CHECK(sim.flushes[i].mstid != MSTP_ALL_TREES);
	CHECK(converged());
	sim_free(&sim);
}

/* Restoring the link converges back to the original roles. */
TEST(ring_link_restore_converges_back)
{
	CHECK(ring(MSTP_FLUSH_TREE));
	sim_link_set(&sim, 0, false);
	sim_advance(&sim, 5);
	CHECK(!converged());
	sim_link_set(&sim, 0, true);
	sim_deliver(&sim, 1000);
	for (unsigned int s = 0; s < 3 && !converged(); s++)
		sim_advance(&sim, 1);
	CHECK(converged());
	sim_free(&sim);
}

/*
 * The CIST root B0 fails (both links down).  B1 and B3 lose their root
 * ports; the CIST re-roots at B1 (next lowest bridge id), MSTI 1 keeps
 * B1 as root and MSTI 2 keeps B3, each re-converging over the remaining
 * chain B1 - B2 - B3.
 */
TEST(ring_root_bridge_failure)
{
	unsigned int secs;
	static const enum mstp_role cist[4][2] = {
		{ X, X }, { D, X }, { D, R }, { X, R },
	};
	static const enum mstp_role msti1[4][2] = {
		{ X, X }, { D, X }, { D, R }, { X, R },
	};
	static const enum mstp_role msti2[4][2] = {
		{ X, X }, { R, X }, { R, D }, { X, D },
	};

	CHECK(ring(MSTP_FLUSH_TREE));
	sim_advance(&sim, 10);
	sim_link_set(&sim, 0, false);
	sim_link_set(&sim, 3, false);
	sim_deliver(&sim, 10000);
	quiet = true;
	for (secs = 0; secs < 60; secs++) {
		if (roles_are(CIST, cist) && roles_are(MSTI1, msti1) &&
		    roles_are(MSTI2, msti2))
			break;
		sim_advance(&sim, 1);
	}
	quiet = false;
	printf("# converged %u s after the root failed\n", secs);
	CHECK(roles_are(CIST, cist));
	CHECK(roles_are(MSTI1, msti1));
	CHECK(roles_are(MSTI2, msti2));
	CHECK(secs <= 3);
	sim_free(&sim);
}

/*
 * The bench ring (bench/mstp-ring.yaml): the CIST and MSTI 1 rooted at
 * B0, MSTI 2 at B3. When B1-B2 fails, B2's alternate takes over and its
 * TC spreads through B3 to B0. Each bridge on the way says it for both
 * trees in one BPDU, and sends it before it flushes: the next bridge
 * waits for neither a second BPDU nor a flush (a netlink round trip per
 * VLAN in mstd).
 */
TEST(tc_spreads_in_one_bpdu_per_hop_ahead_of_the_flush)
{
	static const uint16_t mstids[] = { 1, 2 };
	static const uint16_t prio[4][3] = { { 4096, 4096, 8192 },
					     { 8192, 8192, 32768 },
					     { 32768, 32768, 32768 },
					     { 32768, 32768, 4096 } };
	static struct mst_vid_table table;
	struct mstp_bridge_config cfg;
	unsigned long tc_seq = 0, flush_seq = 0;
	unsigned int tc_bpdus = 0;

	sim_unit_reset(&sim);
	table.mstid[10] = 1;
	table.mstid[30] = 2;
	for (unsigned int i = 0; i < 4; i++) {
		sim_config(&cfg, i, 2, mstids, 2, &table);
		CHECK(sim_add_bridge(&sim, &cfg, &table));
		for (unsigned int t = 0; t < 3; t++)
			CHECK_INT(mstp_set_bridge_priority(sim.br[i], t,
							   prio[i][t]), 0);
	}
	for (unsigned int i = 0; i < 4; i++)
		sim_connect(&sim, i, 0, (i + 1) % 4, 1);
	sim_all_up(&sim);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, 40);
	CHECK_INT(sim_role(&sim, 2, 0, MSTI1), A);
	sim.ntx = 0;
	sim.nflushes = 0;
	sim_link_set(&sim, 1, false);
	sim_deliver(&sim, 1000);
	/* B3 relays the TC to B0 on p0. */
	for (unsigned int i = 0; i < sim.ntx; i++)
		if (sim.txlog[i].bridge == 3 && sim.txlog[i].port == 0 &&
		    sim.txlog[i].tc_trees) {
			if (!tc_bpdus++) {
				tc_seq = sim.txlog[i].seq;
				CHECK_INT(sim.txlog[i].tc_trees & 3, 3);
			}
		}
	for (unsigned int i = 0; i < sim.nflushes && !flush_seq; i++)
		if (sim.flushes[i].bridge == 3)
			flush_seq = sim.flushes[i].seq;
	CHECK_INT(tc_bpdus, 1);
	CHECK(tc_seq && flush_seq > tc_seq);
	/* B0 flushes each tree on p0 once. */
	CHECK_INT(sim_flush_count(&sim, 0, 0, 0), 1);
	CHECK_INT(sim_flush_count(&sim, 0, 0, 1), 1);
	sim_free(&sim);
}
