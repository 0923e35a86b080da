// SPDX-License-Identifier: MIT
/*
 * The planner writes mstd's configuration into every seed; mstd must
 * accept what it writes, for every bridge of every shipped topology.
 */
#include "plan.h"
#include "sbuf.h"
#include "topo.h"
#include "conf.h"
#include "unit.h"

#include <stdio.h>

static const char *const topologies[] = {
	"topologies/ring4.yaml", "topologies/triangle.yaml",
	"topologies/dsa.yaml", "topologies/smoke.yaml",
	"topologies/hsmp.yaml", "tests/unit/data/controls.yaml",
};

/* Parses every bridge's configuration; returns how many it parsed. */
static int parse_all(const char *path)
{
	char err[MSTD_CONF_ERR_MAX];
	struct errbuf msg;
	struct topo_error e;
	struct topo *t;
	struct plan *p;
	int n = 0;

	if (topo_parse_file(path, &t, &e)) {
		printf("# %s\n", topo_error_format(&e, &msg));
		return -1;
	}
	if (plan_build(t, &p) != PLAN_OK) {
		topo_free(t);
		return -1;
	}
	for (size_t i = 0; i < t->n_nodes && n >= 0; i++) {
		struct mstd_conf c;
		struct sbuf s;

		if (!topo_role_is_bridge(t->nodes[i].role) || !t->nodes[i].mst)
			continue;
		sbuf_init(&s);
		mstd_conf_init(&c);
		if (plan_mstd_conf(p, (int)i, &s) != PLAN_OK ||
		    mstd_conf_parse(&c, path, sbuf_str(&s), strlen(sbuf_str(&s)),
				    err)) {
			printf("# %s node %s: %s\n", path, t->nodes[i].name, err);
			n = -1;
		} else if (c.nports != t->nodes[i].n_ports ||
			   strcmp(c.bridge, "br0")) {
			printf("# %s node %s: %zu ports, bridge %s\n", path,
			       t->nodes[i].name, c.nports, c.bridge);
			n = -1;
		} else {
			n++;
		}
		mstd_conf_free(&c);
		sbuf_free(&s);
	}
	plan_free(p);
	topo_free(t);
	return n;
}

TEST(planner_output_parses)
{
	int total = 0;

	for (size_t i = 0; i < sizeof(topologies) / sizeof(topologies[0]);
	     i++) {
		int n = parse_all(topologies[i]);

		CHECK(n >= 0);
		total += n;
	}
	/* ring4 alone has four bridges. */
	CHECK(total >= 4);
}

TEST(ring4_values_arrive)
{
	char err[MSTD_CONF_ERR_MAX];
	struct errbuf msg;
	struct topo_error e;
	struct mstd_conf c;
	struct topo *t;
	struct plan *p;
	struct sbuf s;

	CHECK(topo_parse_file("topologies/ring4.yaml", &t, &e) == 0 ||
	      !printf("# %s\n", topo_error_format(&e, &msg)));
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&s);
	mstd_conf_init(&c);
	/* sw3: root of MSTI 2 in ring4 (priority 2 4096, see test_plan). */
	CHECK_INT(plan_mstd_conf(p, 2, &s), PLAN_OK);
	CHECK_INT(mstd_conf_parse(&c, "sw3", sbuf_str(&s),
				  strlen(sbuf_str(&s)), err), 0);
	CHECK_STR(c.region, "ring4");
	CHECK_INT(c.revision, 1);
	CHECK(mstd_conf_tree(&c, 2) > 0);
	CHECK_INT(c.priority[mstd_conf_tree(&c, 2)].v, 4096);
	CHECK(mstd_conf_port(&c, "p3") != NULL);
	CHECK_INT(mstd_conf_port(&c, "p3")->edge, 1);
	mstd_conf_free(&c);
	sbuf_free(&s);
	plan_free(p);
	topo_free(t);
}

/* The operator controls of the YAML reach mstd as given. */
TEST(controls_arrive)
{
	char err[MSTD_CONF_ERR_MAX];
	struct errbuf msg;
	struct topo_error e;
	struct mstd_conf c;
	const struct mstd_conf_port *p1, *p2;
	struct topo *t;
	struct plan *p;
	struct sbuf s;

	CHECK(topo_parse_file("tests/unit/data/controls.yaml", &t, &e) == 0 ||
	      !printf("# %s\n", topo_error_format(&e, &msg)));
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&s);
	mstd_conf_init(&c);
	CHECK_INT(plan_mstd_conf(p, topo_node_find(t, "a"), &s), PLAN_OK);
	CHECK_INT(mstd_conf_parse(&c, "a", sbuf_str(&s), strlen(sbuf_str(&s)),
				  err), 0);
	CHECK_INT(c.force_version, MSTP_FORCE_STP);
	CHECK_INT(c.ageing_time, 600);
	CHECK_INT(c.guard_recovery, 30);
	p1 = mstd_conf_port(&c, "p1");
	p2 = mstd_conf_port(&c, "p2");
	CHECK(p1 && p2);
	CHECK_INT(p1->bpdu_guard, 1);
	CHECK_INT(p1->bpdu_filter, 0);
	CHECK_INT(p1->loop_guard, -1);
	CHECK(!p1->cost[0].set);
	CHECK_INT(p2->root_guard, 1);
	CHECK_INT(p2->tcn_guard, 1);
	CHECK_INT(p2->loop_guard, 1);
	CHECK(p2->ext_cost.set && p2->ext_cost.v == 4000);
	CHECK(p2->cost[0].set && p2->cost[0].v == 100);
	mstd_conf_free(&c);
	sbuf_free(&s);
	plan_free(p);
	topo_free(t);
}
