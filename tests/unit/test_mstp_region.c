// SPDX-License-Identifier: MIT
/*
 * Regions and legacy peers: a line B0 - B1 - B2 (B0.p0-B1.p0 and
 * B1.p1-B2.p0), B0 and B1 always in region "lab"; B2 varies: another
 * digest, an RSTP bridge, an STP bridge.  Plus max hops on a chain.
 */
#include "unit.h"
#include "sim_unit.h"

#include <stdio.h>
#include <stdlib.h>

#define R MSTP_ROLE_ROOT
#define D MSTP_ROLE_DESIGNATED
#define A MSTP_ROLE_ALTERNATE
#define M MSTP_ROLE_MASTER

static struct sim sim;
static const uint16_t mstids[] = { 1, 2 };

/* @peer_table: B2's VID table; @peer_version: B2's protocol. */
static bool line(const struct mst_vid_table *peer_table,
		 enum mstp_force_version peer_version)
{
	static struct mst_vid_table table;
	struct mstp_bridge_config cfg;

	sim_unit_reset(&sim);
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	for (unsigned int i = 0; i < 3; i++) {
		sim_config(&cfg, i, 2, mstids, 2, i == 2 ? peer_table : &table);
		if (i == 2)
			cfg.force_version = peer_version;
		if (!sim_add_bridge(&sim, &cfg, i == 2 ? peer_table : &table))
			return false;
	}
	sim_connect(&sim, 0, 0, 1, 0);
	sim_connect(&sim, 1, 1, 2, 0);
	return true;
}

static void start(unsigned int secs)
{
	sim_all_up(&sim);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, secs);
}

/* Status of bridge b's port p, or its tree t (all fields 0xff if none). */
#define port(b, p, t) sim_port_status(&sim, b, p, t)
#define tree(b, t) sim_tree_status(&sim, b, t)

/* Control: the same configuration everywhere gives one region. */
TEST(same_digest_one_region)
{
	static struct mst_vid_table t;

	t.mstid[10] = 1;
	t.mstid[20] = 2;
	CHECK(line(&t, MSTP_FORCE_MSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 1, 4096), 0);
	start(3);
	CHECK(!port(2, 0, 0).boundary);
	CHECK(!port(1, 1, 0).boundary);
	CHECK_INT(tree(2, 0).regional_root_id.mac[5], 1);
	CHECK_INT(tree(2, 0).ext_root_path_cost, 0);
	CHECK_INT(tree(2, 0).int_root_path_cost, 40000);
	CHECK_INT(tree(2, 1).regional_root_id.mac[5], 1);
	CHECK_INT(port(2, 0, 1).role, R);
	sim_free(&sim);
}

/* One VID mapped differently: B2 is a region of its own. */
TEST(digest_mismatch_separate_regions)
{
	static struct mst_vid_table t;

	t.mstid[10] = 2;
	t.mstid[20] = 1;
	CHECK(line(&t, MSTP_FORCE_MSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 1, 4096), 0);
	start(3);
	CHECK(port(2, 0, 0).boundary);
	CHECK(port(1, 1, 0).boundary);
	CHECK(!port(1, 0, 0).boundary);
	/* CIST: one tree across both regions, B2 reaches it externally. */
	CHECK_INT(tree(2, 0).root_id.mac[5], 1);
	CHECK_INT(tree(2, 0).ext_root_path_cost, 20000);
	CHECK_INT(tree(2, 0).regional_root_id.mac[5], 3);
	CHECK_INT(tree(2, 0).int_root_path_cost, 0);
	CHECK_INT(tree(1, 0).regional_root_id.mac[5], 1);
	CHECK_INT(tree(1, 0).ext_root_path_cost, 0);
	/* MSTIs do not cross: B2 is its own MSTI root, its boundary port
	 * is the Master port and forwards like the CIST root port. */
	CHECK_INT(port(2, 0, 0).role, R);
	CHECK_INT(port(2, 0, 1).role, M);
	CHECK_INT(port(2, 0, 2).role, M);
	CHECK_INT(sim_state(&sim, 2, 0, 1), MSTP_FORWARDING);
	CHECK_INT(tree(2, 1).regional_root_id.mac[5], 3);
	CHECK_INT(tree(2, 1).root_port, -1);
	CHECK_INT(tree(1, 1).regional_root_id.mac[5], 1);
	CHECK_INT(port(1, 1, 1).role, D);
	CHECK_INT(sim_state(&sim, 1, 1, 1), MSTP_FORWARDING);
	sim_free(&sim);
}

/* A name or revision change alone also splits the region. */
TEST(revision_mismatch_separate_regions)
{
	static struct mst_vid_table t;
	struct mst_config_id id;

	t.mstid[10] = 1;
	t.mstid[20] = 2;
	CHECK(line(&t, MSTP_FORCE_MSTP));
	CHECK_INT(mst_config_id_init(&id, "lab", 2, &t), 0);
	CHECK_INT(mstp_set_mcid(sim.br[2], &id), 0);
	start(3);
	CHECK(port(2, 0, 0).boundary);
	CHECK(port(1, 1, 0).boundary);
	/* Back to the same revision: one region again. */
	CHECK_INT(mst_config_id_init(&id, "lab", 1, &t), 0);
	CHECK_INT(mstp_set_mcid(sim.br[2], &id), 0);
	sim_advance(&sim, 3);
	CHECK(!port(2, 0, 0).boundary);
	CHECK(!port(1, 1, 0).boundary);
	sim_free(&sim);
}

/*
 * Two links from B2 (another region) into region "lab", one to B0 and one
 * to B1, at one external cost: the tie goes to the better sending bridge
 * (B0), whose CIST Bridge Identifier is the Designated Bridge of what B2
 * hears (13.10; NOTE 1 puts the Regional Root there for RST and STP
 * BPDUs only). Taking the region's Regional Root for it instead made the
 * two equal up to the senders' port numbers (both p1) and B2's own: its
 * p0, towards B1, won.
 */
TEST(tie_into_another_region_goes_to_the_better_sender)
{
	static struct mst_vid_table t;

	t.mstid[10] = 2;
	t.mstid[20] = 1;
	CHECK(line(&t, MSTP_FORCE_MSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	CHECK_INT(mstp_set_bridge_priority(sim.br[1], 0, 8192), 0);
	sim_connect(&sim, 0, 1, 2, 1);
	start(3);
	CHECK(port(2, 0, 0).boundary);
	CHECK(port(2, 1, 0).boundary);
	CHECK_INT(tree(2, 0).ext_root_path_cost, 20000);
	CHECK_INT(port(2, 1, 0).role, R);
	CHECK_INT(port(2, 0, 0).role, A);
	CHECK_INT(port(2, 1, 1).role, M);
	sim_free(&sim);
}

/*
 * Remaining hops at a boundary (docs/design/mstd.md): region X is the
 * chain B0 (CIST Root) - ... - B5 with MaxHops 6, so B5 holds the last
 * hop and sends 1; beyond it region Y, B6 - B7, MaxHops 8. B6 is Y's
 * CIST Regional Root (its Root Port a Boundary Port) and restarts the
 * count at its own MaxHops, as it would behind an RST BPDU (13.27.40);
 * B7, inside Y, decrements it (13.29.31 c). Passing X's 1 on, as
 * 13.27.40 and 13.29.31 c read literally do, would have B7 age the
 * CIST information at once (13.29.36) and lose the CIST Root.
 */
TEST(boundary_regional_root_sends_its_own_max_hops)
{
	static struct mst_vid_table x, y;
	struct mstp_bridge_config cfg;
	struct bpdu b;

	sim_unit_reset(&sim);
	x.mstid[10] = 1;
	x.mstid[20] = 2;
	y.mstid[10] = 2;
	y.mstid[20] = 1;
	for (unsigned int i = 0; i < 8; i++) {
		const struct mst_vid_table *t = i < 6 ? &x : &y;

		sim_config(&cfg, i, 2, mstids, 2, t);
		cfg.max_hops = i < 6 ? 6 : 8;
		CHECK(sim_add_bridge(&sim, &cfg, t));
	}
	for (unsigned int i = 0; i < 7; i++)
		sim_connect(&sim, i, 1, i + 1, 0);
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	start(30);
	CHECK_INT(tree(5, 0).remaining_hops, 1);
	CHECK(sim_last_bpdu(&sim, 5, 1, &b));
	CHECK_INT(b.remaining_hops, 1);
	CHECK(port(6, 0, 0).boundary);
	CHECK_INT(port(6, 0, 0).role, R);
	CHECK_INT(tree(6, 0).regional_root_id.mac[5], 7);
	CHECK_INT(tree(6, 0).remaining_hops, 8);
	CHECK(sim_last_bpdu(&sim, 6, 1, &b));
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.remaining_hops, 8);
	CHECK_INT(tree(7, 0).remaining_hops, 7);
	CHECK_INT(tree(7, 0).root_id.mac[5], 1);
	CHECK_INT(tree(7, 0).regional_root_id.mac[5], 7);
	CHECK_INT(port(7, 0, 0).role, R);
	CHECK_INT(sim_state(&sim, 7, 0, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/*
 * An RSTP bridge as CIST root next to the region: B1's boundary port is
 * the CIST root port, hence Master for the MSTIs, and B1 is the CIST
 * Regional Root; B0 reaches the root through B1 inside the region.
 */
TEST(rstp_peer_root_beyond_boundary)
{
	struct mstp_port_status st;

	CHECK(line(NULL, MSTP_FORCE_RSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[2], 0, 0), 0);
	start(0);
	for (unsigned int s = 0; s < 3 && port(0, 0, 1).role != R; s++)
		sim_advance(&sim, 1);
	CHECK(port(1, 1, 0).boundary);
	CHECK_INT(port(1, 1, 0).role, R);
	CHECK_INT(port(1, 1, 1).role, M);
	CHECK_INT(port(1, 1, 2).role, M);
	CHECK_INT(sim_state(&sim, 1, 1, 1), MSTP_FORWARDING);
	CHECK_INT(tree(1, 0).root_id.mac[5], 3);
	CHECK_INT(tree(1, 0).regional_root_id.mac[5], 2);
	CHECK_INT(tree(1, 0).ext_root_path_cost, 20000);
	CHECK_INT(tree(0, 0).regional_root_id.mac[5], 2);
	CHECK_INT(tree(0, 0).ext_root_path_cost, 20000);
	CHECK_INT(tree(0, 0).int_root_path_cost, 20000);
	/* MSTIs inside the region: B0's port to B1 is root (B0 has the
	 * lower MAC, so B0 would be MSTI root; here B1's master port
	 * leads out of the region).  */
	CHECK_INT(port(0, 0, 0).role, R);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_FORWARDING);
	/* The RSTP bridge got MST BPDUs (read as RST), sent RST ones. */
	st = port(1, 1, 0);
	CHECK(st.counters.tx_mst > 0);
	CHECK(st.counters.rx_rst > 0);
	CHECK_INT(st.counters.rx_mst, 0);
	CHECK(port(2, 0, 0).counters.tx_rst > 0);
	/* Rapid across the boundary too. */
	CHECK_INT(sim_state(&sim, 2, 0, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/* An RSTP bridge below the region sees the region as one bridge: the
 * bridge id it hears is the regional root's. */
TEST(rstp_peer_sees_region_as_one_bridge)
{
	CHECK(line(NULL, MSTP_FORCE_RSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	start(2);
	CHECK_INT(port(2, 0, 0).role, R);
	CHECK_INT(sim_state(&sim, 2, 0, 0), MSTP_FORWARDING);
	CHECK_INT(tree(2, 0).root_id.mac[5], 1);
	CHECK_INT(tree(2, 0).ext_root_path_cost, 20000);
	CHECK_INT(port(1, 1, 0).role, D);
	CHECK_INT(port(1, 1, 1).role, D);
	sim_free(&sim);
}

/*
 * An STP (802.1D Config/TCN only) bridge: B1's port falls back to STP
 * after the migrate time, the link forwards only after forward delays,
 * and the TCN from outside reaches every MSTI of the region.
 */
TEST(stp_peer_migration_and_tcn)
{
	struct mstp_port_status st;
	unsigned int secs;

	CHECK(line(NULL, MSTP_FORCE_STP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[0], 0, 4096), 0);
	start(0);
	/* Migrate time (3 s) in CHECKING_RSTP, then the next Config BPDU
	 * switches the port to STP; it answers at its next hello. */
	sim_advance(&sim, 6);
	st = port(1, 1, 0);
	CHECK(!st.send_rstp);
	CHECK(st.counters.rx_config > 0);
	CHECK(st.counters.tx_config > 0);
	CHECK(port(1, 1, 0).boundary);
	unsigned long mst_before = st.counters.tx_mst;
	/* No rapid transition with a legacy peer. */
	CHECK_INT(sim_state(&sim, 1, 1, 0), MSTP_DISCARDING);
	for (secs = 6; secs < 80; secs++) {
		if (sim_state(&sim, 2, 0, 0) == MSTP_FORWARDING &&
		    sim_state(&sim, 1, 1, 0) == MSTP_FORWARDING)
			break;
		sim_advance(&sim, 1);
	}
	printf("# STP link forwarding after %u s\n", secs);
	CHECK(secs >= 30 && secs <= 60);
	CHECK_INT(port(2, 0, 0).role, R);
	CHECK_INT(port(1, 1, 0).role, D);
	CHECK_INT(port(1, 1, 1).role, D);
	CHECK_INT(port(1, 1, 0).counters.tx_mst, mst_before);
	/* A new forwarding port on the STP bridge is a TC: B2 sends TCNs
	 * until B1 acknowledges, and B1 propagates it into every MSTI of
	 * the region (13.29.13: a TCN sets rcvdTc for all MSTIs). */
	sim_advance(&sim, 10);
	unsigned long tcn_before = port(2, 0, 0).counters.tx_tcn;
	unsigned int tc1_before = tree(1, 1).tc_count;
	sim.nflushes = 0;
	mstp_port_set_link(sim.br[2], 1, true, true);
	sim_advance(&sim, 40);
	CHECK_INT(sim_state(&sim, 2, 1, 0), MSTP_FORWARDING);
	CHECK(port(2, 0, 0).counters.tx_tcn > tcn_before);
	CHECK(port(1, 1, 0).counters.rx_tcn > 0);
	CHECK_INT(port(2, 0, 0).tc_while, 0);	/* acknowledged */
	CHECK(tree(1, 1).tc_count > tc1_before);
	CHECK(sim_flush_count(&sim, 1, 0, 0) > 0);
	CHECK(sim_flush_count(&sim, 1, 0, 1) > 0);
	CHECK(sim_flush_count(&sim, 1, 0, 2) > 0);
	/* Not flushed: the port the TCN came in on. */
	CHECK_INT(sim_flush_count(&sim, 1, 1, 1), 0);
	sim_free(&sim);
}

/*
 * Two boundary ports towards an RSTP root R (triangle B0, B1, R): the
 * region picks one way out.  B0 (lower id) is the CIST Regional Root and
 * its boundary port is Root for the CIST, Master for the MSTIs; B1 goes
 * through B0 inside the region, so its own boundary port is Alternate in
 * the CIST and - following the CIST - in every MSTI, and discards.
 */
TEST(two_boundary_ports_master_and_alternate)
{
	CHECK(line(NULL, MSTP_FORCE_RSTP));
	CHECK_INT(mstp_set_bridge_priority(sim.br[2], 0, 0), 0);
	sim_connect(&sim, 0, 1, 2, 1);
	start(0);
	for (unsigned int s = 0; s < 5; s++)
		sim_advance(&sim, 1);
	CHECK(port(0, 1, 0).boundary);
	CHECK_INT(port(0, 1, 0).role, R);
	CHECK_INT(port(0, 1, 1).role, M);
	CHECK_INT(port(0, 1, 2).role, M);
	CHECK_INT(sim_state(&sim, 0, 1, 2), MSTP_FORWARDING);
	CHECK_INT(tree(0, 0).regional_root_id.mac[5], 1);
	CHECK(port(1, 1, 0).boundary);
	CHECK_INT(port(1, 1, 0).role, A);
	CHECK_INT(port(1, 1, 1).role, A);
	CHECK_INT(port(1, 1, 2).role, A);
	for (unsigned int t = 0; t < 3; t++)
		CHECK_INT(sim_state(&sim, 1, 1, t), MSTP_DISCARDING);
	CHECK_INT(port(1, 0, 0).role, R);
	CHECK_INT(tree(1, 0).regional_root_id.mac[5], 1);
	CHECK_INT(tree(1, 0).ext_root_path_cost, 20000);
	CHECK_INT(tree(1, 0).int_root_path_cost, 20000);
	/* MSTIs inside: B0 (lower MAC, equal priority) is their root. */
	CHECK_INT(tree(1, 1).regional_root_id.mac[5], 1);
	CHECK_INT(port(1, 0, 1).role, R);
	CHECK_INT(sim_state(&sim, 1, 0, 1), MSTP_FORWARDING);
	/* The RSTP root sees one bridge (the region) on two ports. */
	CHECK_INT(port(2, 0, 0).role, D);
	CHECK_INT(port(2, 1, 0).role, D);
	sim_free(&sim);
}

/*
 * The CIST Root outside the region, two ways out: B0 (RSTP, the CIST
 * Root) - B1 is the master link, B0 - B4 the backup (External Root Path
 * Cost 40000).  Inside: B1 - B2, B2 - B3, B3 - B4, B4 - B2 (a cycle that
 * does not pass the Regional Root B1, where stale information about it
 * used to circulate).
 */
static bool two_ways_out(void)
{
	struct mstp_bridge_config cfg;
	static struct mst_vid_table table;

	sim_unit_reset(&sim);
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	sim_config(&cfg, 0, 4, NULL, 0, NULL);
	cfg.force_version = MSTP_FORCE_RSTP;
	if (!sim_add_bridge(&sim, &cfg, NULL))
		return false;
	for (unsigned int i = 1; i < 5; i++) {
		sim_config(&cfg, i, 4, mstids, 2, &table);
		if (!sim_add_bridge(&sim, &cfg, &table))
			return false;
	}
	if (mstp_set_bridge_priority(sim.br[0], 0, 0) ||
	    mstp_set_port_ext_path_cost(sim.br[4], 0, 40000))
		return false;
	sim_connect(&sim, 0, 0, 1, 0);	/* L0: the master link */
	sim_connect(&sim, 0, 1, 4, 0);	/* L1: the backup */
	sim_connect(&sim, 1, 1, 2, 0);
	sim_connect(&sim, 2, 1, 3, 0);
	sim_connect(&sim, 3, 1, 4, 1);
	sim_connect(&sim, 4, 2, 2, 2);
	start(30);
	return true;
}

/* What the watcher saw of the backup's port B4.p0 and the Master Ports. */
static struct watch {
	unsigned long since_ms;		/* the failure or restoration */
	long master_ms;			/* B4.p0 forwarding as Master, or -1 */
	long settled_ms;		/* and for the last time */
	bool was_master;
	unsigned int flaps;		/* B4.p0 leaving Root/Master after */
	unsigned int most_masters;	/* forwarding Master Ports, one MSTI */
} w;

static unsigned int forwarding_masters(unsigned int tree)
{
	unsigned int n = 0;

	for (unsigned int b = 1; b < sim.nbridges; b++)
		for (unsigned int p = 0; p < 4; p++)
			n += sim_role(&sim, b, p, tree) == M &&
			     sim_state(&sim, b, p, tree) == MSTP_FORWARDING;
	return n;
}

/* After every BPDU, tick and link change. */
static void watch_step(struct sim *s)
{
	bool master = true;

	(void)s;
	for (unsigned int t = 1; t < 3; t++) {
		unsigned int n = forwarding_masters(t);

		w.most_masters = n > w.most_masters ? n : w.most_masters;
		master = master && sim_role(&sim, 4, 0, t) == M &&
			 sim_state(&sim, 4, 0, t) == MSTP_FORWARDING;
	}
	master = master && sim_role(&sim, 4, 0, 0) == R &&
		 sim_state(&sim, 4, 0, 0) == MSTP_FORWARDING;
	if (master && !w.was_master) {
		w.settled_ms = (long)(sim.now_ms - w.since_ms);
		if (w.master_ms < 0)
			w.master_ms = w.settled_ms;
	}
	if (!master && w.was_master)
		w.flaps++;
	w.was_master = master;
}

static void watch_from_now(void)
{
	w = (struct watch){ .since_ms = sim.now_ms, .master_ms = -1,
			    .settled_ms = -1 };
	sim.check.observe = watch_step;
}

/*
 * The master link fails: the region re-elects B4 its Regional Root, and
 * B4.p0 becomes Root Port and Master Port, forwarding within the bound
 * and for good.  Bound: B1 withdraws its claim on its Designated Ports at
 * once and every bridge hears the withdrawal on its Root Port first, so
 * no stale copy of B1's old claim is used again (stale() in mstp_roles.c;
 * before, they went round B2 - B3 - B4 until their remainingHops ran out,
 * a hop per HelloTime or per TxHoldCount second: B4.p0 flapped root ->
 * alternate three times and forwarded after 7 s here, ~21 s in larger
 * meshes).  The news takes a BPDU per hop (0 s in the simulator), plus
 * at most 1 s where a port spent its TxHoldCount; B4.p0 was an
 * Alternate Port, so it forwards in the CIST at once, and in the MSTIs
 * once the new Regional Root's Master Ports waited out their hold of two
 * ticks (<= HelloTime, master_held() in mstp_prt.c).
 * Bound: HelloTime + 1 s = 3 s.
 */
TEST(regional_root_reelection_is_bounded)
{
	const unsigned long bound_ms = (MSTP_HELLO_TIME + 1) * 1000;

	CHECK(two_ways_out());
	CHECK_INT(port(1, 0, 0).role, R);
	CHECK_INT(port(1, 0, 1).role, M);
	CHECK_INT(sim_state(&sim, 1, 0, 1), MSTP_FORWARDING);
	CHECK_INT(port(4, 0, 0).role, A);
	CHECK_INT(tree(4, 0).regional_root_id.mac[5], 2);
	watch_from_now();
	sim_link_set(&sim, 0, false);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, 30);
	printf("# new Master Port forwarding after %ld ms, for good after "
	       "%ld ms, %u flaps\n", w.master_ms, w.settled_ms, w.flaps);
	CHECK(w.master_ms >= 0);
	CHECK(w.master_ms <= (long)bound_ms);
	CHECK_INT(w.flaps, 0);
	CHECK_INT(w.most_masters, 1);
	for (unsigned int b = 1; b < 5; b++)
		CHECK_INT(tree(b, 0).regional_root_id.mac[5], 5);
	sim_free(&sim);
}

/*
 * The master link comes back: B1 is the Regional Root again and B4's
 * Master Port gives way - at no step do two Master Ports forward in an
 * MSTI (the old code let B1's forward while B4's still did: a loop
 * through B0 for a BPDU step), and no loop at any step.
 */
TEST(master_link_restore_one_master_at_a_time)
{
	CHECK(two_ways_out());
	sim_link_set(&sim, 0, false);
	sim_advance(&sim, 30);
	CHECK_INT(forwarding_masters(1), 1);
	CHECK_INT(sim_role(&sim, 4, 0, 1), M);
	watch_from_now();
	sim_link_set(&sim, 0, true);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, 30);
	CHECK_INT(w.most_masters, 1);
	CHECK_INT(sim_role(&sim, 1, 0, 1), M);
	CHECK_INT(sim_state(&sim, 1, 0, 1), MSTP_FORWARDING);
	CHECK_INT(port(4, 0, 0).role, A);
	CHECK_INT(sim.check.violations, 0);
	sim_free(&sim);
}
