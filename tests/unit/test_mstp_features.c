// SPDX-License-Identifier: MIT
/*
 * Single behaviours of the MSTP core: backup ports, shared links,
 * restricted role/TCN, mcheck, disputes on unidirectional links, max
 * hops, and the BPDUs it puts on the wire.
 */
#include "unit.h"
#include "sim_unit.h"

#include <stdio.h>
#include <stdlib.h>

#define R MSTP_ROLE_ROOT
#define D MSTP_ROLE_DESIGNATED
#define A MSTP_ROLE_ALTERNATE
#define B MSTP_ROLE_BACKUP

static struct sim sim;

static bool bridges(unsigned int n, unsigned int nports,
		    unsigned int max_hops)
{
	static const uint16_t mstids[] = { 1, 2 };
	static struct mst_vid_table table;
	struct mstp_bridge_config cfg;

	sim_unit_reset(&sim);
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	for (unsigned int i = 0; i < n; i++) {
		sim_config(&cfg, i, nports, mstids, 2, &table);
		cfg.max_hops = max_hops;
		if (!sim_add_bridge(&sim, &cfg, &table))
			return false;
	}
	return true;
}

/* Status of bridge b's port p, or its tree t (all fields 0xff if none). */
#define port(b, p, t) sim_port_status(&sim, b, p, t)
#define tree(b, t) sim_tree_status(&sim, b, t)

/* Two ports of one bridge on the same segment: designated and backup. */
TEST(backup_port_on_self_loop)
{
	CHECK(bridges(2, 3, 20));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	sim_connect(&sim, 0, 0, 0, 1);
	sim_connect(&sim, 0, 2, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 5);
	for (unsigned int t = 0; t < 3; t++) {
		CHECK_INT(port(0, 0, t).role, D);
		CHECK_INT(port(0, 1, t).role, B);
		CHECK_INT(sim_state(&sim, 0, 1, t), MSTP_DISCARDING);
	}
	CHECK_INT(port(1, 0, 0).role, R);
	CHECK_INT(sim_state(&sim, 1, 0, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/*
 * Not point-to-point: no agreement is taken, the designated port waits
 * for its timers (MaxAge from DISABLED_PORT, then forwardDelay, which is
 * HelloTime with RSTP peers, 13.26.9) - far slower than P/A.
 */
TEST(shared_link_waits_for_timers)
{
	unsigned int secs;

	CHECK(bridges(2, 1, 20));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_p2p(sim.br[0], 0, MSTP_P2P_FORCE_FALSE), 0);
	CHECK_INT(mstp_set_p2p(sim.br[1], 0, MSTP_P2P_FORCE_FALSE), 0);
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	CHECK(!port(0, 0, 0).oper_p2p);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_DISCARDING);
	for (secs = 0; secs < 40; secs++) {
		if (sim_state(&sim, 0, 0, 0) == MSTP_FORWARDING)
			break;
		sim_advance(&sim, 1);
	}
	printf("# shared designated port forwarding after %u s\n", secs);
	/* Learning when fdWhile (MaxAge) ran out, forwarding one
	 * forwardDelay (= HelloTime) later. */
	CHECK_INT(secs, MSTP_DEF_MAX_AGE + MSTP_HELLO_TIME);
	sim_free(&sim);
}

/* restrictedRole (root guard): the port never becomes root port. */
TEST(restricted_role_blocks_superior_info)
{
	CHECK(bridges(2, 1, 20));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_restricted(sim.br[1], 0, true, false), 0);
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 5);
	CHECK_INT(port(1, 0, 0).role, A);
	CHECK_INT(sim_state(&sim, 1, 0, 0), MSTP_DISCARDING);
	CHECK_INT(tree(1, 0).root_port, -1);
	CHECK_INT(tree(1, 0).root_id.mac[5], 2);
	sim_free(&sim);
}

/*
 * A TC arriving at B1 from B0 is flushed out of B1's other port unless
 * that receiving port has restrictedTcn.
 */
static unsigned int tc_flushes_at_b1(bool restricted)
{
	unsigned int l;

	if (!bridges(4, 3, 20))
		return 99;
	mstp_set_bridge_priority(sim.br[0], 0, 4096);
	if (restricted)
		mstp_set_restricted(sim.br[1], 0, false, true);
	sim_connect(&sim, 0, 0, 1, 0);
	sim_connect(&sim, 1, 1, 2, 0);
	l = sim_connect(&sim, 0, 1, 3, 0);
	sim_link_set(&sim, 0, true);
	sim_link_set(&sim, 1, true);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 10);
	sim.nflushes = 0;
	/* A new bridge behind B0: B0's port forwards, a TC in every tree. */
	sim_link_set(&sim, l, true);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 1);
	return sim_flush_count(&sim, 1, 1, 0) + sim_flush_count(&sim, 1, 1, 1);
}

TEST(restricted_tcn_stops_propagation)
{
	CHECK(tc_flushes_at_b1(false) >= 2);
	CHECK_INT(tc_flushes_at_b1(true), 0);
	sim_free(&sim);
}

/* mcheck makes a port that fell back to STP try RSTP/MSTP again. */
TEST(mcheck_retries_rstp)
{
	struct mstp_bridge_config cfg;

	CHECK(bridges(1, 1, 20));
	sim_config(&cfg, 1, 1, NULL, 0, NULL);
	cfg.force_version = MSTP_FORCE_STP;
	CHECK(sim_add_bridge(&sim, &cfg, NULL));
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_advance(&sim, 6);
	CHECK(!port(0, 0, 0).send_rstp);
	unsigned long mst = port(0, 0, 0).counters.tx_mst;
	CHECK_INT(mstp_mcheck(sim.br[0], 0), 0);
	CHECK(port(0, 0, 0).send_rstp);
	CHECK(port(0, 0, 0).counters.tx_mst > mst);
	/* The STP bridge is still there: back to STP after migrate time. */
	sim_advance(&sim, 5);
	CHECK(!port(0, 0, 0).send_rstp);
	/* mcheck needs an RSTP-capable bridge. */
	CHECK_INT(mstp_mcheck(sim.br[1], 0), -22);
	sim_free(&sim);
}

/*
 * Unidirectional link: B1 stops hearing B0, ages out B0's info, claims
 * to be designated and forwarding; B0 sees inferior designated info with
 * Learning set and blocks (recordDispute), so no loop can form.
 */
TEST(dispute_blocks_unidirectional_link)
{
	CHECK(bridges(2, 1, 20));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 5);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_FORWARDING);
	sim.links[0].drop_a_to_b = true;
	sim_advance(&sim, 8);
	CHECK_INT(port(1, 0, 0).role, D);
	CHECK_INT(port(0, 0, 0).role, D);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_DISCARDING);
	sim_advance(&sim, 30);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_DISCARDING);
	/* Healed: back to normal. */
	sim.links[0].drop_a_to_b = false;
	sim_advance(&sim, 4);
	CHECK_INT(port(1, 0, 0).role, R);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/*
 * Max hops: a chain of 8 bridges in one region with MaxHops 6.  Each
 * bridge passes on one hop less; info that arrives with 1 hop left is
 * aged at once, so the region's trees end at B5.
 */
TEST(max_hops_limit_the_region)
{
	CHECK(bridges(8, 2, 6));
	for (unsigned int t = 0; t < 3; t++)
		CHECK_INT(mstp_set_bridge_priority(sim.br[0], t, 0), 0);
	for (unsigned int i = 0; i + 1 < 8; i++)
		sim_connect(&sim, i, 1, i + 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 30);
	for (unsigned int b = 1; b <= 5; b++) {
		CHECK_INT(tree(b, 0).root_id.mac[5], 1);
		CHECK_INT(tree(b, 1).regional_root_id.mac[5], 1);
		CHECK_INT(tree(b, 1).remaining_hops, 6 - b);
	}
	for (unsigned int b = 6; b < 8; b++) {
		CHECK(tree(b, 0).root_id.mac[5] != 1);
		CHECK(tree(b, 1).regional_root_id.mac[5] != 1);
	}
	/* On the wire: B2's MST BPDU carries 4 hops for the CIST and each
	 * MSTI, and the MSTI messages in MSTID order. */
	struct bpdu b;
	CHECK(sim_last_bpdu(&sim, 2, 1, &b));
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.remaining_hops, 4);
	CHECK_INT(b.msti_count, 2);
	CHECK_INT(bpdu_msti_mstid(&b.msti[0]), 1);
	CHECK_INT(bpdu_msti_mstid(&b.msti[1]), 2);
	CHECK_INT(b.msti[0].remaining_hops, 4);
	CHECK_INT(b.msti[1].remaining_hops, 4);
	sim_free(&sim);
}

/* The MST BPDU a designated port sends, field by field. */
TEST(mst_bpdu_contents)
{
	struct bpdu b;
	char name[33];

	CHECK(bridges(2, 1, 20));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 2, 8192), 0);
	CHECK_INT(mstp_set_port_priority(sim.br[0], 0, 2, 64), 0);
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 5);
	CHECK(sim_last_bpdu(&sim, 0, 0, &b));
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.version, 3);
	CHECK_INT(b.flags.role, BPDU_ROLE_DESIGNATED);
	CHECK(b.flags.learning && b.flags.forwarding && !b.flags.proposal);
	CHECK_INT(b.root_id.prio, 4096);
	CHECK_INT(b.regional_root_id.prio, 4096);
	CHECK_INT(b.bridge_id.prio, 4096);
	CHECK_INT(b.bridge_id.mac[5], 1);
	CHECK_INT(b.port_id, 0x8001);
	CHECK_INT(b.max_age, 20 * 256);
	CHECK_INT(b.hello_time, 2 * 256);
	CHECK_INT(b.forward_delay, 15 * 256);
	CHECK_INT(b.message_age, 0);
	CHECK_INT(b.remaining_hops, 20);
	mst_config_name(&b.mcid, name);
	CHECK_STR(name, "lab");
	CHECK_INT(b.mcid.revision, 1);
	CHECK_INT(b.msti_count, 2);
	CHECK_INT(bpdu_msti_bridge_prio(&b.msti[0]), 32768);
	CHECK_INT(bpdu_msti_bridge_prio(&b.msti[1]), 8192);
	CHECK_INT(bpdu_msti_port_prio(&b.msti[1]), 64);
	CHECK_INT(b.msti[1].regional_root.prio, 8192 | 2);
	CHECK_INT(b.msti[1].flags.role, BPDU_ROLE_DESIGNATED);
	/* B1's root port answers with role Root and Agreement. */
	CHECK(sim_last_bpdu(&sim, 1, 0, &b));
	CHECK_INT(b.flags.role, BPDU_ROLE_ROOT);
	CHECK(b.flags.agreement);
	CHECK_INT(b.int_root_path_cost, 20000);
	CHECK_INT(b.msti[0].flags.role, BPDU_ROLE_ROOT);
	sim_free(&sim);
}

/* However busy the bridge, a port sends at most TxHoldCount BPDUs in a
 * burst, then one more per second (13.30 txCount). */
TEST(tx_hold_count_limits_bursts)
{
	unsigned long before, sent;

	CHECK(bridges(2, 1, 20));
	sim_connect(&sim, 0, 0, 1, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 10000);
	sim_advance(&sim, 10);
	before = port(0, 0, 0).counters.tx_bpdus;
	for (unsigned int i = 0; i < 30; i++)
		CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0,
			  (uint16_t)(4096 * (1 + i % 8))), 0);
	sent = port(0, 0, 0).counters.tx_bpdus - before;
	printf("# %lu BPDUs for 30 priority changes\n", sent);
	CHECK(sent >= 1 && sent <= MSTP_DEF_TX_HOLD);
	before = port(0, 0, 0).counters.tx_bpdus;
	for (unsigned int i = 0; i < 30; i++)
		mstp_set_bridge_priority(sim.br[0], 0,
					 (uint16_t)(4096 * (1 + i % 8)));
	CHECK_INT(port(0, 0, 0).counters.tx_bpdus - before, 0);
	sim_advance(&sim, 1);
	CHECK(port(0, 0, 0).counters.tx_bpdus - before <= 2);
	CHECK_INT(mstp_run_overflows(sim.br[0]), 0);
	sim_free(&sim);
}
