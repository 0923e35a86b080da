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
	d.ctlfd = -1;
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
	CHECK_STR(reply, "error: cost must be 1..200000000\n");
	CHECK_INT(req("status port p9"), -EINVAL);
	CHECK_STR(reply, "error: no port \"p9\" on br0\n");
	CHECK_INT(req("mcheck p9"), -EINVAL);
	CHECK_INT(req("frobnicate"), -EINVAL);
	CHECK_STR(reply, "error: unknown request \"frobnicate\" (status, set, mcheck)\n");
	CHECK_INT(req("   "), -EINVAL);
	CHECK_STR(reply, "error: empty request\n");
	CHECK_INT(req("a b c d e f g h i j k"), -EINVAL);
	CHECK_STR(reply, "error: too many words\n");
	teardown();
}
