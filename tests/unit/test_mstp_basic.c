// SPDX-License-Identifier: MIT
/* MSTP core on two or three bridges: election, P/A, edge, ageing. */
#include "unit.h"
#include "sim_unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct sim sim;

static bool two_bridges(unsigned int nports, uint16_t prio0)
{
	struct mstp_bridge_config cfg;

	sim_unit_reset(&sim);
	for (unsigned int i = 0; i < 2; i++) {
		sim_config(&cfg, i, nports, NULL, 0, NULL);
		if (!sim_add_bridge(&sim, &cfg, NULL))
			return false;
	}
	if (mstp_set_bridge_priority(sim.br[0], 0, prio0))
		return false;
	sim_connect(&sim, 0, 0, 1, 0);
	return true;
}

TEST(config_validation)
{
	struct mstp_bridge_config cfg;
	static const struct mstp_ops ops;

	sim_config(&cfg, 0, 2, NULL, 0, NULL);
	cfg.max_age = 40;
	cfg.fwd_delay = 15;	/* 2 * (15 - 1) < 40 */
	errno = 0;
	CHECK(mstp_bridge_new(&cfg, &ops, NULL) == NULL);
	CHECK_INT(errno, EINVAL);
	sim_config(&cfg, 0, 2, NULL, 0, NULL);
	cfg.nmstis = 1;
	cfg.mstids[0] = 4095;
	CHECK(mstp_bridge_new(&cfg, &ops, NULL) == NULL);
	sim_config(&cfg, 0, 0, NULL, 0, NULL);
	CHECK(mstp_bridge_new(&cfg, &ops, NULL) == NULL);
}

/* The bridge with the better priority is root; P/A makes both ports
 * forward without any timer running. */
TEST(two_bridges_rapid_agreement)
{
	struct mstp_tree_status ts;
	unsigned long n;

	CHECK(two_bridges(1, 4096));
	sim_all_up(&sim);
	n = sim_deliver(&sim, 1000);
	CHECK(n > 0 && n <= 10);
	CHECK_INT(sim_role(&sim, 0, 0, 0), MSTP_ROLE_DESIGNATED);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_ROOT);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_FORWARDING);
	CHECK_INT(sim_state(&sim, 1, 0, 0), MSTP_FORWARDING);
	CHECK_INT(mstp_get_tree_status(sim.br[1], 0, &ts), 0);
	CHECK_INT(ts.root_id.prio, 4096);
	CHECK_INT(ts.root_id.mac[5], 1);
	CHECK_INT(ts.root_port, 0);
	/* Same region: the root is also the regional root, no ERC. */
	CHECK_INT(ts.ext_root_path_cost, 0);
	CHECK_INT(ts.int_root_path_cost, MSTP_DEF_PATH_COST);
	CHECK_INT(ts.regional_root_id.mac[5], 1);
	sim_free(&sim);
}

/* Two links between the same bridges: one root, one alternate. */
TEST(parallel_links_alternate)
{
	CHECK(two_bridges(2, 32768));
	sim_connect(&sim, 0, 1, 1, 1);
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	/* Bridge 0 has the lower MAC: it is root. */
	CHECK_INT(sim_role(&sim, 0, 0, 0), MSTP_ROLE_DESIGNATED);
	CHECK_INT(sim_role(&sim, 0, 1, 0), MSTP_ROLE_DESIGNATED);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_ROOT);
	CHECK_INT(sim_role(&sim, 1, 1, 0), MSTP_ROLE_ALTERNATE);
	CHECK_INT(sim_state(&sim, 1, 0, 0), MSTP_FORWARDING);
	CHECK_INT(sim_state(&sim, 1, 1, 0), MSTP_DISCARDING);
	CHECK_INT(sim_state(&sim, 0, 0, 0), MSTP_FORWARDING);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_FORWARDING);
	/* Lose the root port's link: the alternate takes over at once. */
	sim_link_set(&sim, 0, false);
	sim_deliver(&sim, 1000);
	CHECK_INT(sim_role(&sim, 1, 1, 0), MSTP_ROLE_ROOT);
	CHECK_INT(sim_state(&sim, 1, 1, 0), MSTP_FORWARDING);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_DISABLED);
	sim_free(&sim);
}

/* Port priority decides between parallel links. */
TEST(port_priority_picks_root_port)
{
	CHECK(two_bridges(2, 32768));
	sim_connect(&sim, 0, 1, 1, 1);
	CHECK_INT(mstp_set_port_priority(sim.br[0], 1, 0, 64), 0);
	CHECK_INT(mstp_set_port_priority(sim.br[0], 1, 0, 7), -EINVAL);
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	CHECK_INT(sim_role(&sim, 1, 1, 0), MSTP_ROLE_ROOT);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_ALTERNATE);
	sim_free(&sim);
}

/* An admin edge port forwards at once, with no BPDU and no tick. */
TEST(admin_edge_forwards_at_once)
{
	struct mstp_port_status st;

	CHECK(two_bridges(2, 32768));
	CHECK_INT(mstp_set_admin_edge(sim.br[0], 1, true), 0);
	mstp_port_set_link(sim.br[0], 1, true, true);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_FORWARDING);
	CHECK_INT(mstp_get_port_status(sim.br[0], 1, 0, &st), 0);
	CHECK(st.oper_edge);
	CHECK_INT(st.role, MSTP_ROLE_DESIGNATED);
	/* No topology change from an edge port. */
	struct mstp_tree_status ts;
	CHECK_INT(mstp_get_tree_status(sim.br[0], 0, &ts), 0);
	CHECK_INT(ts.tc_count, 0);
	sim_free(&sim);
}

/* A non-edge port with nobody behind it: auto edge after 3 s (p2p). */
TEST(auto_edge_after_migrate_time)
{
	struct mstp_port_status st;

	CHECK(two_bridges(2, 32768));
	mstp_port_set_link(sim.br[0], 1, true, true);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_DISCARDING);
	sim_advance(&sim, 2);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_DISCARDING);
	sim_advance(&sim, 1);
	CHECK_INT(mstp_get_port_status(sim.br[0], 1, 0, &st), 0);
	CHECK(st.oper_edge);
	CHECK_INT(sim_state(&sim, 0, 1, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/* A BPDU on an edge port makes it a normal bridge port again. */
TEST(bpdu_revokes_edge)
{
	struct mstp_port_status st;

	CHECK(two_bridges(1, 32768));
	CHECK_INT(mstp_set_admin_edge(sim.br[1], 0, true), 0);
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	CHECK_INT(mstp_get_port_status(sim.br[1], 0, 0, &st), 0);
	CHECK(!st.oper_edge);
	CHECK_INT(st.role, MSTP_ROLE_ROOT);
	sim_free(&sim);
}

/* Malformed BPDUs are counted and change nothing. */
TEST(malformed_bpdu_counted)
{
	struct mstp_port_status st;
	static const uint8_t bad[] = { 0x00, 0x01, 0x02, 0x02, 0x00 };
	static const uint8_t short_cfg[20] = { 0 };

	CHECK(two_bridges(1, 32768));
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	CHECK_INT(mstp_rx_bpdu(sim.br[1], 0, bad, sizeof(bad)),
		  BPDU_ERR_PROTOCOL_ID);
	CHECK_INT(mstp_rx_bpdu(sim.br[1], 0, short_cfg, sizeof(short_cfg)),
		  BPDU_ERR_CONFIG_SHORT);
	CHECK_INT(mstp_get_port_status(sim.br[1], 0, 0, &st), 0);
	CHECK_INT(st.counters.rx_invalid, 2);
	CHECK_INT(st.role, MSTP_ROLE_ROOT);
	CHECK_INT(sim_state(&sim, 1, 0, 0), MSTP_FORWARDING);
	sim_free(&sim);
}

/* BPDUs stop (carrier stays up): the info ages out after 3 x hello and
 * the other bridge becomes root of its own. */
TEST(silent_failure_ages_out)
{
	struct mstp_tree_status ts;
	unsigned int t;

	CHECK(two_bridges(1, 4096));
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	sim_advance(&sim, 10);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_ROOT);
	sim.links[0].drop_a_to_b = true;
	for (t = 1; t <= 10; t++) {
		sim_advance(&sim, 1);
		if (sim_role(&sim, 1, 0, 0) != MSTP_ROLE_ROOT)
			break;
	}
	/* rcvdInfoWhile = 6 s after the last BPDU (one came at most 2 s
	 * before the drop started). */
	CHECK(t >= 4 && t <= 6);
	CHECK_INT(sim_role(&sim, 1, 0, 0), MSTP_ROLE_DESIGNATED);
	CHECK_INT(mstp_get_tree_status(sim.br[1], 0, &ts), 0);
	CHECK_INT(ts.root_port, -1);
	CHECK_INT(ts.root_id.mac[5], 2);
	sim_free(&sim);
}

/* Hello: a designated port sends a BPDU every 2 s and no more. */
TEST(hello_and_tx_hold)
{
	struct mstp_port_status st;
	unsigned long before;

	CHECK(two_bridges(1, 4096));
	sim_all_up(&sim);
	sim_deliver(&sim, 1000);
	sim_advance(&sim, 10);
	CHECK_INT(mstp_get_port_status(sim.br[0], 0, 0, &st), 0);
	before = st.counters.tx_bpdus;
	sim_advance(&sim, 20);
	CHECK_INT(mstp_get_port_status(sim.br[0], 0, 0, &st), 0);
	CHECK_INT(st.counters.tx_bpdus - before, 10);
	CHECK_INT(st.counters.tx_mst, st.counters.tx_bpdus);
	sim_free(&sim);
}

/* What a bridge sent, by port, into its ctx. */
struct sent {
	uint8_t log[8192];
	size_t len;
};

static void copy_tx(void *ctx, unsigned int port, const uint8_t *b, size_t n)
{
	struct sent *s = ctx;

	if (s->len + n + 1 <= sizeof(s->log)) {
		s->log[s->len++] = (uint8_t)port;
		memcpy(s->log + s->len, b, n);
		s->len += n;
	}
}

static void copy_state(void *ctx, unsigned int port, uint16_t mstid,
		       enum mstp_port_state state)
{
	(void)ctx, (void)port, (void)mstid, (void)state;
}

static void copy_flush(void *ctx, unsigned int port, int mstid)
{
	(void)ctx, (void)port, (void)mstid;
}

static void copy_drive(struct mstp_bridge *br)
{
	for (int i = 0; i < 25; i++) {
		mstp_tick(br);
		if (i == 4)
			mstp_port_set_link(br, 1, false, true);
	}
}

/* A copy made mid-convergence does what its original would have done
 * (a twin made alike shows it), calls back with its own ctx and outlives
 * the original. */
TEST(bridge_copy_goes_on_as_the_original)
{
	static const struct mstp_ops ops = {
		.tx_bpdu = copy_tx, .set_state = copy_state,
		.flush = copy_flush,
	};
	static struct sent o, t, c;
	struct mstp_bridge_config cfg;
	struct mstp_bridge *orig, *twin, *copy;

	sim_config(&cfg, 0, 3, NULL, 0, NULL);
	orig = mstp_bridge_new(&cfg, &ops, &o);
	twin = mstp_bridge_new(&cfg, &ops, &t);
	CHECK(orig && twin);
	for (unsigned int p = 0; p < 3; p++) {
		mstp_port_set_link(orig, p, true, true);
		mstp_port_set_link(twin, p, true, true);
	}
	mstp_tick(orig);
	mstp_tick(twin);
	copy = mstp_bridge_copy(orig, &c);
	CHECK(copy != NULL);
	mstp_bridge_free(orig);
	o.len = t.len = 0;
	copy_drive(twin);
	copy_drive(copy);
	CHECK(c.len > 0);
	CHECK_INT(o.len, 0);
	CHECK_INT(c.len, t.len);
	CHECK(!memcmp(c.log, t.log, t.len));
	CHECK_INT(mstp_nports(copy), 3);
	mstp_bridge_free(copy);
	mstp_bridge_free(twin);
}
