// SPDX-License-Identifier: MIT
/*
 * Run-time protocol restarts: a region name, revision or VID-map change,
 * a changed MSTI set, a force-version change, or the same configuration
 * applied again restart every machine (BEGIN).  After one, every port
 * must take its role again and the Designated and Root Ports forward:
 * the Port Role Transitions machine used to leave the role that Port Role
 * Selection had already picked in `role` on its way through DISABLE_PORT,
 * so it never left DISABLED_PORT and the port discarded for good.
 */
#include "unit.h"
#include "sim_unit.h"

#include <stdio.h>

static struct sim sim;
static const uint16_t mstids[] = { 1, 2 };
static struct mst_vid_table table;

/* @n bridges in a ring (or a single link for n = 2), all in region "lab"
 * with MSTIs 1 and 2, converged; B0 is root of every tree. */
static bool ring(unsigned int n)
{
	struct mstp_bridge_config cfg;

	sim_unit_reset(&sim);
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	for (unsigned int i = 0; i < n; i++) {
		sim_config(&cfg, i, 2, mstids, 2, &table);
		if (!sim_add_bridge(&sim, &cfg, &table))
			return false;
	}
	for (unsigned int t = 0; t < 3; t++)
		if (mstp_set_bridge_priority(sim.br[0], t, 4096))
			return false;
	for (unsigned int i = 0; i + 1 < n; i++)
		sim_connect(&sim, i, 1, i + 1, 0);
	if (n > 2)
		sim_connect(&sim, n - 1, 1, 0, 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, 40);
	return true;
}

/* Ports of every tree whose role is Designated, Root or Master but that
 * do not forward; prints each. */
static unsigned int stuck_ports(void)
{
	unsigned int n = 0;

	for (unsigned int b = 0; b < sim.nbridges; b++)
		for (unsigned int p = 0; p < 2; p++)
			for (unsigned int t = 0; t < mstp_ntrees(sim.br[b]);
			     t++) {
				struct mstp_port_status st =
					sim_port_status(&sim, b, p, t);

				if (st.role != MSTP_ROLE_DESIGNATED &&
				    st.role != MSTP_ROLE_ROOT &&
				    st.role != MSTP_ROLE_MASTER)
					continue;
				if (sim_state(&sim, b, p, t) ==
				    MSTP_FORWARDING)
					continue;
				printf("# B%u.p%u tree %u: %s but %s\n", b, p,
				       t, mstp_role_name(st.role),
				       mstp_state_name(sim_state(&sim, b, p,
								 t)));
				n++;
			}
	return n;
}

/* Alternate ports in each tree: exactly one per tree on a ring, none on
 * a line. */
static unsigned int blocked(unsigned int tree)
{
	unsigned int n = 0;

	for (unsigned int b = 0; b < sim.nbridges; b++)
		for (unsigned int p = 0; p < 2; p++)
			n += sim_port_status(&sim, b, p, tree).role ==
			     MSTP_ROLE_ALTERNATE;
	return n;
}

static struct mst_config_id region(const char *name, uint16_t rev,
				   const struct mst_vid_table *t)
{
	struct mst_config_id id;

	mst_config_id_init(&id, name, rev, t);
	return id;
}

/* The reproducer: two bridges, the root's configuration applied
 * again, unchanged; 120 s later its Designated Port must forward. */
TEST(same_config_again_two_bridges)
{
	struct mst_config_id id = region("lab", 1, &table);

	CHECK(ring(2));
	CHECK_INT(stuck_ports(), 0);
	CHECK_INT(mstp_set_mcid(sim.br[0], &id), 0);
	sim_deliver(&sim, 100000);
	sim_advance(&sim, 120);
	CHECK_INT(sim_port_status(&sim, 0, 1, 0).role, MSTP_ROLE_DESIGNATED);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_FORWARDING);
	CHECK_INT(stuck_ports(), 0);
	sim_free(&sim);
}

/* Each kind of restart (the same MCID, another name, revision, MSTI set,
 * force version, VID map), on each bridge of a ring of four in turn, then
 * back: no port left discarding in a forwarding role, one Alternate per
 * tree, no loop at any step. */
TEST(every_restart_on_every_bridge_of_a_ring)
{
	static struct mst_vid_table moved, only1;
	struct mst_config_id same = region("lab", 1, &table);
	struct mst_config_id other_name = region("other", 1, &table);
	struct mst_config_id other_rev = region("lab", 2, &table);
	struct mst_config_id other_map, only_msti1;
	static const uint16_t one[] = { 1 };

	moved = table;
	moved.mstid[30] = 1;
	other_map = region("lab", 1, &moved);
	only1 = table;
	only1.mstid[20] = 0;
	only_msti1 = region("lab", 1, &only1);
	for (unsigned int kind = 0; kind < 6; kind++)
		for (unsigned int b = 0; b < 4; b++) {
			struct mstp_bridge *br;

			CHECK(ring(4));
			br = sim.br[b];
			switch (kind) {
			case 0:
				CHECK_INT(mstp_set_mcid(br, &same), 0);
				break;
			case 1:
				CHECK_INT(mstp_set_mcid(br, &other_name), 0);
				break;
			case 2:
				CHECK_INT(mstp_set_mcid(br, &other_rev), 0);
				break;
			case 3:
				CHECK(sim_set_mstis(&sim, b, one, 1, &only1,
						    &only_msti1));
				break;
			case 4:
				CHECK_INT(mstp_set_force_version(
						  br, MSTP_FORCE_RSTP), 0);
				break;
			case 5:
				CHECK(sim_set_mstis(&sim, b, mstids, 2, &moved,
						    &other_map));
				break;
			}
			sim_deliver(&sim, 100000);
			sim_advance(&sim, 60);
			if (stuck_ports() || blocked(0) != 1 ||
			    sim.check.violations)
				printf("# restart kind %u on B%u\n", kind, b);
			CHECK_INT(stuck_ports(), 0);
			CHECK_INT(blocked(0), 1);
			/* ... and back to the one region. */
			if (kind == 3 || kind == 5)
				CHECK(sim_set_mstis(&sim, b, mstids, 2, &table,
						    &same));
			else if (kind == 4)
				CHECK_INT(mstp_set_force_version(
						  br, MSTP_FORCE_MSTP), 0);
			else
				CHECK_INT(mstp_set_mcid(br, &same), 0);
			sim_deliver(&sim, 100000);
			sim_advance(&sim, 60);
			CHECK_INT(stuck_ports(), 0);
			for (unsigned int t = 0; t < 3; t++)
				CHECK_INT(blocked(t), 1);
			CHECK_INT(sim.check.violations, 0);
			sim_free(&sim);
		}
}

