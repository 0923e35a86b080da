// SPDX-License-Identifier: MIT
/*
 * mstd's control requests against a real protocol core with no kernel
 * behind it: what each request answers and what it changes.
 */
#include "daemon.h"
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void nop_tx(void *ctx, unsigned int port, const uint8_t *b, size_t n)
{
	(void)ctx, (void)port, (void)b, (void)n;
}

static void nop_state(void *ctx, unsigned int port, uint16_t mstid,
		      enum mstp_port_state s)
{
	(void)ctx, (void)port, (void)mstid, (void)s;
}

static void nop_flush(void *ctx, unsigned int port, int mstid)
{
	(void)ctx, (void)port, (void)mstid;
}

static const struct mstp_ops ops = {
	.tx_bpdu = nop_tx, .set_state = nop_state, .flush = nop_flush,
};

static struct mstd d;
static char *reply;

/* A bridge br0 with ports p1, p2 and MSTI 1 (VLAN 10). */
static bool setup(void)
{
	static const char text[] = "bridge br0\nregion r\nmsti 1 vlans 10\n"
				   "port p1 edge no\nport p2 edge yes\n";
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct mstp_bridge_config bc;
	char err[MSTD_CONF_ERR_MAX];

	memset(&d, 0, sizeof(d));
	mstd_conf_init(&d.conf);
	if (mstd_conf_parse(&d.conf, "t", text, sizeof(text) - 1, err))
		return false;
	d.nports = 2;
	d.ports = calloc(2, sizeof(*d.ports));
	if (!d.ports)
		return false;
	strcpy(d.ports[0].name, "p1");
	strcpy(d.ports[1].name, "p2");
	d.ports[0].fd = d.ports[1].fd = -1;
	memset(d.ports[0].kstate, 0xff, sizeof(d.ports[0].kstate));
	memset(d.ports[1].kstate, 0xff, sizeof(d.ports[1].kstate));
	if (mst_config_id_init(&d.mcid, "r", 0, &d.conf.vids))
		return false;
	mstp_bridge_config_default(&bc, mac);
	bc.nports = 2;
	bc.nmstis = 1;
	bc.mstids[0] = 1;
	bc.mcid = d.mcid;
	d.br = mstp_bridge_new(&bc, &ops, &d);
	d.ctlfd = d.epfd = -1;
	d.ageing_cs = 30000;
	return d.br != NULL;
}

static void teardown(void)
{
	mstp_bridge_free(d.br);
	free(d.ports);
	mstd_conf_free(&d.conf);
	free(reply);
	reply = NULL;
}

/* Runs @req; the reply lands in the static @reply. */
static int req(const char *r)
{
	char buf[256];
	size_t len = 0;
	FILE *out;
	int ret;

	free(reply);
	reply = NULL;
	snprintf(buf, sizeof(buf), "%s", r);
	out = open_memstream(&reply, &len);
	if (!out)
		return -99;
	ret = ctl_request(&d, out, buf);
	fclose(out);
	return ret;
}

TEST(status_text_and_json)
{
	CHECK(setup());
	CHECK_INT(req("status"), 0);
	CHECK(strstr(reply, "bridge br0 region \"r\" revision 0"));
	CHECK(strstr(reply, "tree cist bridge 8000.020000000001"));
	CHECK(strstr(reply, "tree msti 1 bridge 8001.020000000001"));
	CHECK(strstr(reply, "  p2 "));
	CHECK_INT(req("status json port p2"), 0);
	CHECK(!strncmp(reply, "{\"bridge\":\"br0\",\"region\":\"r\"", 28));
	CHECK(strstr(reply, "\"trees\":[{\"msti\":0,"));
	CHECK(strstr(reply, "{\"port\":\"p2\",\"role\":\"disabled\""));
	CHECK(!strstr(reply, "\"port\":\"p1\""));
	CHECK(strstr(reply, "\"rx_invalid\":0"));
	CHECK_STR(reply + strlen(reply) - 2, "}\n");
	teardown();
}

TEST(set_changes_the_core)
{
	struct mstp_tree_status ts;
	struct mstp_port_status ps;

	CHECK(setup());
	CHECK_INT(req("set bridge priority 1 4096"), 0);
	CHECK_STR(reply, "ok\n");
	CHECK_INT(mstp_get_tree_status(d.br, 1, &ts), 0);
	CHECK_INT(ts.bridge_id.prio, 4096 + 1);
	CHECK_INT(req("set port p1 cost cist 5"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 0, 0, &ps), 0);
	CHECK_INT(ps.path_cost, 5);
	CHECK_INT(req("set port p2 priority 1 32"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 1, 1, &ps), 0);
	CHECK_INT(ps.port_id >> 12, 2);
	CHECK_INT(req("set flush_scope port"), 0);
	CHECK_INT(d.conf.flush_scope, MSTP_FLUSH_PORT);
	CHECK_INT(req("set log_level debug"), 0);
	CHECK_INT(d.log_level, MSTP_LOG_DEBUG);
	CHECK_INT(req("mcheck p1"), 0);
	CHECK_INT(req("mcheck"), 0);
	teardown();
}

TEST(refusals_say_why)
{
	CHECK(setup());
	CHECK_INT(req("set bridge priority 1 100"), -EINVAL);
	CHECK_STR(reply, "error: bridge priority must be 0..61440 in steps of 4096\n");
	CHECK_INT(req("set bridge priority 2 4096"), -EINVAL);
	CHECK_STR(reply, "error: no MSTI 2 on br0\n");
	CHECK_INT(req("set port p9 edge yes"), -EINVAL);
	CHECK_STR(reply, "error: no port \"p9\" on br0\n");
	CHECK_INT(req("set port p1 edge perhaps"), -EINVAL);
	CHECK_STR(reply, "error: edge must be yes or no\n");
	CHECK_INT(req("set port p1 cost cist 0"), -EINVAL);
	CHECK_STR(reply, "error: cost \"0\": want 1..200000000 or auto\n");
	CHECK_INT(req("status port p9"), -EINVAL);
	CHECK_STR(reply, "error: no port \"p9\" on br0\n");
	CHECK_INT(req("mcheck p9"), -EINVAL);
	CHECK_INT(req("frobnicate"), -EINVAL);
	CHECK_STR(reply, "error: unknown request \"frobnicate\" (status, set, delete, recover, mcheck)\n");
	CHECK_INT(req("   "), -EINVAL);
	CHECK_STR(reply, "error: empty request\n");
	CHECK_INT(req("a b c d e f g h i j k"), -EINVAL);
	CHECK_STR(reply, "error: too many words\n");
	teardown();
}

/* Costs: internal and external apart, "auto" back to the link speed. */
TEST(costs_and_guards_per_port)
{
	struct mstp_port_status ps;

	CHECK(setup());
	CHECK_INT(req("set port p1 ext_cost 7"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 0, 0, &ps), 0);
	CHECK_INT(ps.ext_path_cost, 7);
	CHECK_INT(ps.int_path_cost, 20000);
	CHECK(!ps.ext_cost_auto && ps.int_cost_auto);
	CHECK_INT(req("set port p1 cost 1 99"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 0, 1, &ps), 0);
	CHECK_INT(ps.int_path_cost, 99);
	CHECK_INT(req("set port p1 cost 1 auto"), 0);
	CHECK_INT(req("set port p1 ext_cost auto"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 0, 1, &ps), 0);
	CHECK_INT(ps.int_path_cost, 20000);
	CHECK_INT(ps.ext_path_cost, 20000);
	CHECK_INT(req("set port p1 ext_cost 200000001"), -EINVAL);
	CHECK_STR(reply, "error: ext_cost \"200000001\": want 1..200000000\n");
	for (unsigned int k = 0; k < 5; k++) {
		static const char *const g[] = { "bpdu_guard", "bpdu_filter",
			"root_guard", "tcn_guard", "loop_guard" };
		char r[64];

		snprintf(r, sizeof(r), "set port p2 %s yes", g[k]);
		CHECK_INT(req(r), 0);
		snprintf(r, sizeof(r), "set port p2 %s maybe", g[k]);
		CHECK_INT(req(r), -EINVAL);
	}
	CHECK_INT(mstp_get_port_status(d.br, 1, 0, &ps), 0);
	CHECK(ps.bpdu_guard && ps.bpdu_filter && ps.loop_guard);
	CHECK(ps.restricted_role && ps.restricted_tcn);
	CHECK_INT(req("set port p2 root_guard no"), 0);
	CHECK_INT(mstp_get_port_status(d.br, 1, 0, &ps), 0);
	CHECK(!ps.restricted_role && ps.restricted_tcn);
	/* Nothing tripped: nothing to recover. */
	CHECK_INT(req("recover p2"), -EINVAL);
	CHECK_STR(reply, "error: port p2 is not disabled by BPDU guard\n");
	CHECK_INT(req("recover p9"), -EINVAL);
	CHECK_INT(req("status json"), 0);
	CHECK(strstr(reply, "\"port\":\"p2\",\"ifindex\":0,\"link_up\":false,"
			    "\"speed_mbps\":0,\"bpdu_guard\":true,"
			    "\"bpdu_filter\":true,\"root_guard\":false,"
			    "\"tcn_guard\":true,\"loop_guard\":true,"
			    "\"guard_tripped\":false"));
	/* Ports that never had their link hold no vector. */
	CHECK(strstr(reply, "\"designated_root\":null,\"disputed\":false,"
			    "\"proposing\":false"));
	CHECK(strstr(reply, "\"last_tc_ms_ago\":null"));
	/* Up, alone: p1 is Designated with this bridge's own vector. */
	mstp_port_set_link(d.br, 0, true, true);
	CHECK_INT(req("status json port p1"), 0);
	CHECK(strstr(reply, "\"role\":\"designated\""));
	CHECK(strstr(reply, "\"designated_root\":\"8000.020000000001\","
			    "\"designated_ext_cost\":0,"));
	CHECK(strstr(reply, "\"designated_port\":\"8.001\","
			    "\"info_received\":false"));
	teardown();
}

/* Bridge values at run time, each with its range; the pair rule. */
TEST(bridge_values_at_run_time)
{
	struct mstp_tree_status ts;

	CHECK(setup());
	CHECK_INT(req("set max_age 40"), -EINVAL);
	CHECK_STR(reply, "error: need 2 * (forward_delay - 1) >= max_age, "
			 "would have forward_delay 15 and max_age 40\n");
	CHECK_INT(req("set forward_delay 30"), 0);
	CHECK_INT(req("set max_age 40"), 0);
	CHECK_INT(mstp_get_tree_status(d.br, 0, &ts), 0);
	CHECK_INT(ts.max_age, 40);
	CHECK_INT(ts.fwd_delay, 30);
	CHECK_INT(req("set max_age 5"), -EINVAL);
	CHECK_STR(reply, "error: max_age \"5\": want 6..40\n");
	CHECK_INT(req("set max_hops 41"), -EINVAL);
	CHECK_STR(reply, "error: max_hops \"41\": want 6..40\n");
	CHECK_INT(req("set max_hops 7"), 0);
	CHECK_INT(mstp_get_tree_status(d.br, 0, &ts), 0);
	CHECK_INT(ts.remaining_hops, 7);
	CHECK_INT(req("set tx_hold 0"), -EINVAL);
	CHECK_INT(req("set tx_hold 3"), 0);
	CHECK_INT(d.conf.tx_hold, 3);
	CHECK_INT(req("set force_version rstp"), 0);
	CHECK_INT(d.conf.force_version, MSTP_FORCE_RSTP);
	CHECK_INT(req("set force_version 802.1d"), -EINVAL);
	CHECK_STR(reply, "error: force_version \"802.1d\": want stp, rstp or mstp\n");
	CHECK_INT(req("set ageing_time 9"), -EINVAL);
	CHECK_STR(reply, "error: ageing_time \"9\": want 10..1000000\n");
	CHECK_INT(req("set ageing_time 600"), 0);
	CHECK_INT(d.ageing_cs, 60000);
	CHECK_INT(req("set guard_recovery 30"), 0);
	CHECK_INT(req("status"), 0);
	CHECK(strstr(reply, " max_age 40 forward_delay 30 max_hops 7 tx_hold 3 "
			    "force_version rstp ageing_time 600 rapid_ageing false "
			    "guard_recovery 30"));
	teardown();
}

/* Region name, revision, MSTIs created and deleted: digest and core. */
TEST(region_and_mstis_at_run_time)
{
	struct mst_config_id before;
	uint8_t dig[MST_CONFIG_DIGEST_LEN];

	CHECK(setup());
	before = d.mcid;
	CHECK_INT(req("set revision 3"), 0);
	CHECK_INT(d.mcid.revision, 3);
	CHECK_INT(req("set region lab-a"), 0);
	CHECK(!memcmp(d.mcid.name, "lab-a", 5));
	CHECK(!memcmp(d.mcid.digest, before.digest, sizeof(dig)));
	CHECK_INT(req("set region 0123456789012345678901234567890123"), -EINVAL);
	CHECK_INT(req("set revision 65536"), -EINVAL);
	/* A new MSTI 5 with VLANs 20-29: a third tree, a new digest. */
	CHECK_INT(req("set msti 5 vlans 20-29"), 0);
	CHECK_INT(mstp_ntrees(d.br), 3);
	CHECK_INT(mstp_tree_index(d.br, 5), 2);
	CHECK_INT(d.conf.vids.mstid[25], 5);
	CHECK(memcmp(d.mcid.digest, before.digest, sizeof(dig)));
	memcpy(dig, d.mcid.digest, sizeof(dig));
	/* VLAN 10 moves from MSTI 1 to 5; MSTI 1 stays, empty. */
	CHECK_INT(req("set msti 5 vlans 10,20-29"), 0);
	CHECK_INT(d.conf.vids.mstid[10], 5);
	CHECK(memcmp(d.mcid.digest, dig, sizeof(dig)));
	CHECK_INT(req("set msti 5 vlans 10,"), -EINVAL);
	CHECK_STR(reply, "error: bad VLAN list \"10,\" at \"\": VID[-VID][,...] in 1..4094\n");
	CHECK_INT(req("set msti 5 vlans 4095"), -EINVAL);
	CHECK_INT(req("set msti 0 vlans 3"), -EINVAL);
	CHECK_INT(d.conf.vids.mstid[10], 5);
	/* Deleted: its VLANs go to the CIST, the tree is gone. */
	CHECK_INT(req("delete msti 5"), 0);
	CHECK_INT(mstp_ntrees(d.br), 2);
	CHECK_INT(mstp_tree_index(d.br, 5), -1);
	CHECK_INT(d.conf.vids.mstid[10], 0);
	CHECK_INT(d.conf.vids.mstid[25], 0);
	CHECK_INT(req("delete msti 5"), -EINVAL);
	CHECK_STR(reply, "error: no MSTI 5 on br0\n");
	CHECK_INT(req("set port p1 cost 5 10"), -EINVAL);
	teardown();
}

/* Every refusal counts; none stops or changes anything. */
TEST(refusals_are_counted)
{
	CHECK(setup());
	CHECK_INT(req("status"), 0);
	CHECK_INT(req("set max_age x"), -EINVAL);
	CHECK_INT(req("set"), -EINVAL);
	CHECK_INT(req("delete"), -EINVAL);
	CHECK_INT((int)d.ctl_requests, 4);
	CHECK_INT((int)d.ctl_refused, 3);
	CHECK_INT(req("status json"), 0);
	CHECK(strstr(reply, "\"ctl_requests\":4,\"ctl_refused\":3"));
	teardown();
}

/* No region configured: the bridge's MAC as text (13.8). */
TEST(default_region_is_the_mac)
{
	char name[MST_CONFIG_NAME_LEN + 1];

	CHECK(setup());
	memcpy(d.br_mac, (uint8_t[]){ 0x52, 0x54, 0, 0xab, 1, 2 }, 6);
	d.conf.region[0] = 0;
	region_name(&d, name);
	CHECK_STR(name, "52:54:00:ab:01:02");
	CHECK_INT(region_mcid(&d), 0);
	CHECK(!memcmp(d.mcid.name, "52:54:00:ab:01:02", 17));
	teardown();
}

/* A port that joins while mstd runs is a new core port. */
TEST(port_added_at_run_time)
{
	struct mstp_port_status ps;

	CHECK(setup());
	CHECK_INT(mstd_port_add(&d, "p3", 999), 2);
	CHECK_INT((int)d.nports, 3);
	CHECK_INT(mstp_nports(d.br), 3);
	CHECK_INT(mstd_port_by_name(&d, "p3"), 2);
	CHECK_INT(mstp_get_port_status(d.br, 2, 0, &ps), 0);
	CHECK_INT(ps.port_id, 0x8003);
	CHECK_INT(req("set port p3 bpdu_guard yes"), 0);
	CHECK_INT(req("status port p3"), 0);
	CHECK(strstr(reply, "port p3 ifindex 999"));
	CHECK(strstr(reply, "ports_added 1"));
	teardown();
}

/* STP compatibility's rapid ageing: the bridge ages fast while any port
 * does (the kernel has one ageing time per bridge). */
TEST(rapid_ageing_while_any_port)
{
	CHECK(setup());
	ageing_rapid(&d, 0, 15);
	ageing_rapid(&d, 1, 15);
	CHECK(d.ageing_fast);
	CHECK_INT(d.ageing_fast_s, 15);
	CHECK_INT(req("status json"), 0);
	CHECK(strstr(reply, "\"rapid_ageing\":true"));
	ageing_rapid(&d, 0, 0);
	CHECK(d.ageing_fast);
	ageing_rapid(&d, 1, 0);
	CHECK(!d.ageing_fast);
	ageing_rapid(&d, 7, 15);	/* no such port */
	CHECK(!d.ageing_fast);
	/* A new ageing time while fast waits for the end. */
	ageing_rapid(&d, 0, 15);
	CHECK_INT(req("set ageing_time 120"), 0);
	CHECK(d.ageing_fast);
	CHECK_INT(d.ageing_cs, 12000);
	ageing_fini(&d);
	CHECK(!d.ageing_fast);
	teardown();
}
