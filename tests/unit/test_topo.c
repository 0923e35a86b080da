// SPDX-License-Identifier: MIT
/*
 * Topology parser: every error class with its exact file:line:col, the
 * shipped topologies, and the resolved model (ports, VLANs, scenarios).
 * Run from the repository root (the shipped topologies are read from
 * topologies/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kernels.h"
#include "topo.h"
#include "unit.h"

static struct topo *parse_ok(const char *yaml)
{
	struct topo_error e;
	struct topo *t;
	struct errbuf msg;

	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &t, &e)) {
		printf("# unexpected error: %s\n",
		       topo_error_format(&e, &msg));
		return NULL;
	}
	return t;
}

/* The whole message must be "t.yaml:LINE:COL: ..." and contain want. */
static void expect_error(const char *yaml, unsigned line, unsigned col,
			 const char *want)
{
	struct topo_error e;
	struct topo *t = (struct topo *)1;
	struct errbuf eb;
	const char *msg;
	char prefix[64];

	CHECK_INT(topo_parse_buffer("t.yaml", yaml, strlen(yaml), &t, &e), -1);
	CHECK(t == NULL);
	msg = topo_error_format(&e, &eb);
	snprintf(prefix, sizeof(prefix), "t.yaml:%u:%u: ", line, col);
	if (strncmp(msg, prefix, strlen(prefix)) != 0 || !strstr(msg, want)) {
		unit_fail(__FILE__, __LINE__, "got \"%s\", want \"%s%s\"", msg,
			  prefix, want);
	}
}

#define ERROR_CASE(name, yaml, line, col, want)                         \
	TEST(name)                                                      \
	{                                                               \
		expect_error(yaml, line, col, want);                    \
	}

#define TWO_BRIDGES                                                     \
	"name: t\n"                                                     \
	"nodes:\n"                                                      \
	"  a: { role: bridge }\n"                                       \
	"  b: { role: bridge }\n"

/* --- what a topology may not name ------------------------------------------ */
ERROR_CASE(err_overlay_absolute,
	   "name: t\nnodes:\n  h: { role: host, overlay: /etc }\n",
	   3, 29, "overlay '/etc': name a folder inside the topology's folder")
ERROR_CASE(err_overlay_climbs,
	   "name: t\nnodes:\n  h: { role: host, overlay: files/../../etc }\n",
	   3, 29, "no absolute path, no '..'")

/* --- the operator controls ------------------------------------------------ */
ERROR_CASE(err_guard_not_bool,
	   "name: t\nnodes:\n  a: { role: bridge, ports: { p1: { loop_guard: 2 } } }\n",
	   3, 49, "loop_guard must be true or false")
ERROR_CASE(err_guard_on_host,
	   "name: t\nnodes:\n  h: { role: host, ports: { eth1: { bpdu_guard: true } } }\n",
	   3, 49, "'bpdu_guard' is only valid on bridge and dsa-switch nodes")
ERROR_CASE(err_ext_cost_zero,
	   "name: t\nnodes:\n  a: { role: bridge, ports: { p1: { ext_cost: 0 } } }\n",
	   3, 47, "ext_cost 0 is outside 1..200000000")
ERROR_CASE(err_ageing_time_short,
	   "name: t\nmst: { ageing_time: 5s }\nnodes:\n  a: { role: bridge }\n",
	   2, 21, "ageing_time must be whole seconds in 10s..86400s")
ERROR_CASE(err_guard_recovery_long,
	   "name: t\nmst: { guard_recovery: 2d }\nnodes:\n  a: { role: bridge }\n",
	   2, 24, "guard_recovery")

/* --- YAML itself ------------------------------------------------------- */
ERROR_CASE(err_syntax_flow, "name: t\nnodes: [a, b\n", 3, 1,
	   "did not find expected ',' or ']'")
ERROR_CASE(err_syntax_tab, "name: t\n\tnodes: 1\n", 2, 1, "tab character")
ERROR_CASE(err_syntax_mapping, "name: t\nnodes:\n  a: {role: bridge\n", 4, 1,
	   "did not find expected ',' or '}'")
ERROR_CASE(err_empty, "", 1, 1, "the file is empty")
ERROR_CASE(err_two_documents, "name: t\n---\nname: u\n", 3, 1,
	   "one YAML document")
ERROR_CASE(err_root_not_map, "- a\n- b\n", 1, 1,
	   "the lab must be a mapping, found a list")

/* --- the encoding: UTF-8, checked before libyaml reads ------------------ */
/* Bytes, not C strings: NULs and non-UTF-8 (no ERROR_CASE: the docs
 * suite writes those as UTF-8 text). */
static void expect_bytes_error(const char *buf, size_t len, unsigned line,
			       unsigned col, const char *want)
{
	struct topo_error e;
	struct topo *t;
	struct errbuf eb;
	const char *msg;
	char prefix[64];

	CHECK_INT(topo_parse_buffer("t.yaml", buf, len, &t, &e), -1);
	msg = topo_error_format(&e, &eb);
	snprintf(prefix, sizeof(prefix), "t.yaml:%u:%u: ", line, col);
	if (strncmp(msg, prefix, strlen(prefix)) || !strstr(msg, want))
		unit_fail(__FILE__, __LINE__, "got \"%s\", want \"%s%s\"", msg,
			  prefix, want);
}

#define BYTES(s) s, sizeof(s) - 1

TEST(encoding_refused)
{
	/* libyaml alone reads this one as the lab "t". */
	expect_bytes_error(BYTES("\xff\xfen\0a\0m\0e\0:\0 \0t\0\n\0"), 1, 1,
			   "the file is UTF-16 (little-endian), not UTF-8");
	expect_bytes_error(BYTES("\xfe\xff\0n\0a"), 1, 1,
			   "the file is UTF-16 (big-endian)");
	expect_bytes_error(BYTES("\xff\xfe\0\0n\0\0\0"), 1, 1,
			   "the file is UTF-32 (little-endian)");
	expect_bytes_error(BYTES("n\0a\0m\0e\0:\0"), 1, 1,
			   "the file looks UTF-16 without a byte order mark (a "
			   "NUL at offset 1)");
	expect_bytes_error(BYTES("\0n\0a\0m\0e"), 1, 1, "looks UTF-16");
	expect_bytes_error(BYTES("name: t\nnodes:\n  a: { role: host }\0\n"),
			   3, 20, "a NUL byte at offset 34: the file must be "
			   "text");
	/* Latin-1 'é' in a node name */
	expect_bytes_error(BYTES("name: t\nnodes:\n  caf\xe9: { role: host }"
				 "\n"), 3, 6, "byte 0xe9 at offset 20 is not "
			   "UTF-8");
	/* an overlong '/', a surrogate, past U+10FFFF, a cut sequence */
	expect_bytes_error(BYTES("name: t\n# \xc0\xaf\n"), 2, 3, "byte 0xc0");
	expect_bytes_error(BYTES("name: t\n# \xed\xa0\x80\n"), 2, 3,
			   "byte 0xed");
	expect_bytes_error(BYTES("name: t\n# \xf4\x90\x80\x80\n"), 2, 3,
			   "byte 0xf4");
	expect_bytes_error(BYTES("name: t\n# \xe2\x82"), 2, 3, "byte 0xe2");
}

TEST(encoding_utf8_accepted)
{
	/* A byte order mark, and UTF-8 in a comment and a description
	 * (columns count characters). */
	struct topo *t = parse_ok("\xef\xbb\xbfname: t\n# caf\xc3\xa9 "
				  "\xe2\x82\xac \xf0\x9f\x98\x80\nnodes:\n"
				  "  a: { role: host }\n");

	CHECK(t);
	topo_free(t);
	expect_error("name: t\n# \xc3\xa9\xc3\xa9\nnodes:\n"
		     "  a: { role: x }\n", 4, 14, "role");
}

/* --- keys and types ---------------------------------------------------- */
ERROR_CASE(err_unknown_key, "name: t\ncolour: red\n", 2, 1,
	   "unknown key 'colour' in the lab")
ERROR_CASE(err_unknown_node_key,
	   "name: t\nnodes:\n  a: { role: bridge, colour: red }\n", 3, 22,
	   "unknown key 'colour' in a node")
ERROR_CASE(err_duplicate_key,
	   "name: t\nnodes:\n  a: { role: bridge }\n  a: { role: host }\n", 4, 3,
	   "duplicate key 'a' in nodes (first at line 3)")
ERROR_CASE(err_duplicate_top_key, "name: t\nname: u\n", 2, 1,
	   "duplicate key 'name'")
ERROR_CASE(err_wrong_type_memory,
	   "name: t\nnodes:\n  a: { role: bridge, memory: lots }\n", 3, 30,
	   "memory (MiB) must be an integer, found 'lots'")
ERROR_CASE(err_wrong_type_quoted,
	   "name: t\nnodes:\n  a: { role: bridge, vcpus: \"2\" }\n", 3, 29,
	   "vcpus must be an integer, found a quoted string")
ERROR_CASE(err_wrong_type_nodes, "name: t\nnodes: [a, b]\n", 2, 8,
	   "nodes must be a mapping, found a list")
ERROR_CASE(err_wrong_type_bool,
	   "name: t\nnodes:\n  a: { role: bridge }\n  b: { role: bridge }\n"
	   "links:\n  - { ends: [a:p1, b:p1], edge: yes }\n", 6, 33,
	   "edge must be true or false")
ERROR_CASE(err_missing_role, "name: t\nnodes:\n  a: { memory: 64 }\n", 3, 6,
	   "a node has no 'role'")
ERROR_CASE(err_bad_role, "name: t\nnodes:\n  a: { role: router }\n", 3, 14,
	   "role must be one of: bridge, dsa-switch, hsmp-host, host, "
	   "found 'router'")
ERROR_CASE(err_missing_name, "nodes:\n  a: { role: host }\n", 1, 1,
	   "the lab has no 'name'")
ERROR_CASE(err_memory_range,
	   "name: t\nnodes:\n  a: { role: host, memory: 8 }\n", 3, 28,
	   "memory (MiB) 8 is outside 32..65536")
ERROR_CASE(err_kernel_flavour,
	   "name: t\ndefaults: { kernel: fast }\nnodes:\n  a: { role: host }\n",
	   2, 21, "kernel must be one of: default, debug, 6.12, 6.12-debug, "
	   "6.1, 6.1-debug, found 'fast'")
ERROR_CASE(err_kernel_unknown_version,
	   "name: t\nnodes:\n  a: { role: host, kernel: 6.13 }\n",
	   3, 28, "kernel must be one of: default, debug, 6.12")
ERROR_CASE(err_no_nodes, "name: t\nnodes: {}\n", 2, 8,
	   "at least one node")

/* --- names ------------------------------------------------------------- */
ERROR_CASE(err_lab_name_upper, "name: Ring4\nnodes:\n  a: { role: host }\n",
	   1, 7, "lab name 'Ring4' must be 1-12 of a-z, 0-9")
ERROR_CASE(err_lab_name_long,
	   "name: abcdefghijklm\nnodes:\n  a: { role: host }\n", 1, 7,
	   "lab name 'abcdefghijklm'")
ERROR_CASE(err_lab_name_slash, "name: a/b\nnodes:\n  a: { role: host }\n", 1,
	   7, "lab name 'a/b'")
ERROR_CASE(err_lab_name_nul, "name: \"x\\0y\"\nnodes:\n  a: { role: host }\n",
	   1, 7, "NUL character")
ERROR_CASE(err_node_name,
	   "name: t\nnodes:\n  sw_1: { role: bridge }\n", 3, 3,
	   "node name 'sw_1' must be 1-15")
ERROR_CASE(err_node_name_xml,
	   "name: t\nnodes:\n  \"a<b\": { role: bridge }\n", 3, 3,
	   "node name 'a<b'")
ERROR_CASE(err_port_name_long,
	   TWO_BRIDGES "links:\n  - [a:verylongport1, b:p1]\n", 6, 6,
	   "port name 'verylongport1' must be 1-10")
ERROR_CASE(err_port_name_br0,
	   TWO_BRIDGES "links:\n  - [a:br0, b:p1]\n", 6, 6,
	   "port name 'br0'")
/* Names the guests give their own interfaces: no node's, no bridge
 * port's; a host's port is eth1 by custom. */
ERROR_CASE(err_node_name_eth0,
	   "name: t\nnodes:\n  eth0: { role: bridge }\n", 3, 3,
	   "node name 'eth0' is the kernel's name of a NIC before a guest "
	   "names it after its port")
ERROR_CASE(err_node_name_lo,
	   "name: t\nnodes:\n  lo: { role: host }\n", 3, 3,
	   "node name 'lo' is the guests' loopback")
ERROR_CASE(err_port_name_lo,
	   TWO_BRIDGES "links:\n  - [a:lo, b:p1]\n", 6, 6,
	   "port name 'lo' is the guests' loopback: name a's port another "
	   "way")
ERROR_CASE(err_port_name_br1,
	   "name: t\nnodes:\n  h: { role: host }\n  b: { role: bridge }\n"
	   "links:\n  - [b:p1, h:br1]\n", 6, 12,
	   "port name 'br1' is a name of the guests' bridge (br0)")
ERROR_CASE(err_bridge_port_eth0,
	   TWO_BRIDGES "links:\n  - [a:p1, b:eth0]\n", 6, 12,
	   "port name 'eth0' is the kernel's name of a NIC before a guest "
	   "names it after its port: name b's port another way")
ERROR_CASE(err_bridge_port_eth0_configured,
	   "name: t\nnodes:\n  a: { role: bridge, ports: { eth0: { edge: "
	   "true } } }\n", 3, 31, "port name 'eth0' is the kernel's name")

TEST(host_ports_may_be_eth)
{
	struct topo *t = parse_ok("name: t\nnodes:\n  h: { role: host }\n"
				  "  b: { role: bridge }\n"
				  "links:\n  - [h:eth0, b:p1]\n");

	CHECK(t);
	if (t)
		CHECK_STR(t->nodes[0].ports[0].name, "eth0");
	topo_free(t);
	CHECK(!topo_valid_node_name("eth12"));
	CHECK(topo_valid_node_name("eth"));
	CHECK(topo_valid_node_name("ethx1"));
	CHECK(!topo_valid_port_name(TOPO_ROLE_BRIDGE, "eth3"));
	CHECK(topo_valid_port_name(TOPO_ROLE_HOST, "eth3"));
	CHECK(!topo_valid_port_name(TOPO_ROLE_HOST, "br0"));
	CHECK(topo_valid_port_name(TOPO_ROLE_BRIDGE, "bridge1"));
}

ERROR_CASE(err_dsa_port,
	   "name: t\nnodes:\n  d: { role: dsa-switch }\n  b: { role: bridge }\n"
	   "links:\n  - [b:p1, d:p1]\n", 6, 12,
	   "'d' is a dsa-switch: its ports are lan1..lan5, not 'p1'")
ERROR_CASE(err_dsa_port_lan6,
	   "name: t\nnodes:\n  d: { role: dsa-switch }\n  b: { role: bridge }\n"
	   "links:\n  - [b:p1, d:lan6]\n", 6, 12, "not 'lan6'")

/* --- links ------------------------------------------------------------- */
ERROR_CASE(err_port_twice,
	   TWO_BRIDGES "links:\n  - [a:p1, b:p1]\n  - [a:p2, b:p1]\n", 7, 12,
	   "port 'b:p1' is already used by link 1 (line 6)")
ERROR_CASE(err_port_twice_same_link,
	   TWO_BRIDGES "links:\n  - [a:p1, a:p1]\n", 6, 12,
	   "link 1 joins a:p1 to itself: its ends must be two ports")

/* Two ports of one bridge on one segment: one of them a Backup port
 * (802.1Q 13.12), wired as any link. */
TEST(self_link_between_two_ports)
{
	struct topo *t = parse_ok(TWO_BRIDGES "links:\n  - [a:p1, a:p2]\n"
				  "  - [a:p3, b:p1]\n");

	CHECK(t);
	if (!t)
		return;
	CHECK_INT(t->nodes[0].n_ports, 3);
	CHECK_INT(t->links[0].end[0].node, 0);
	CHECK_INT(t->links[0].end[1].node, 0);
	CHECK(t->links[0].end[0].port != t->links[0].end[1].port);
	CHECK_INT(t->nodes[0].ports[t->links[0].end[1].port].index, 2);
	CHECK(!topo_link_crosses(t, 0));
	topo_free(t);
}

/* A fail step's direction on such a link names ports, not the node. */
ERROR_CASE(err_self_link_direction_by_node,
	   TWO_BRIDGES "links:\n  - [a:p1, a:p2]\nscenarios:\n  s:\n"
	   "    steps:\n      - fail: { link: a:p1, mode: silent, "
	   "direction: a->a }\n", 10, 54,
	   "both ends of the link are on 'a': name the port (a:PORT)")
ERROR_CASE(err_undeclared_node,
	   TWO_BRIDGES "links:\n  - [a:p1, sw9:p1]\n", 6, 12,
	   "link end 'sw9:p1' names no node")
ERROR_CASE(err_end_syntax, TWO_BRIDGES "links:\n  - [a:p1, b]\n", 6, 12,
	   "link end 'b' must be node:port")
ERROR_CASE(err_three_ends,
	   TWO_BRIDGES "links:\n  - [a:p1, b:p1, b:p2]\n", 6, 5,
	   "exactly two ends")
ERROR_CASE(err_link_scalar, TWO_BRIDGES "links:\n  - a:p1\n", 6, 5,
	   "a link must be [node:port, node:port]")
ERROR_CASE(err_link_no_ends,
	   TWO_BRIDGES "links:\n  - { cost: 100 }\n", 6, 5,
	   "a link has no 'ends'")
ERROR_CASE(err_unlinked_port,
	   "name: t\nnodes:\n  a: { role: bridge, ports: { p4: { edge: true } } }\n",
	   3, 31, "port 'a:p4' is configured but not linked")
ERROR_CASE(err_loss_range,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], impair: { loss: 101 } }\n",
	   6, 43, "loss 101 is outside 0..100")
ERROR_CASE(err_delay_unit,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], impair: { delay: 20 } }\n",
	   6, 44, "delay must be a duration like 500ms, 2s or 1m, found '20'")

/* --- VLANs and MSTIs --------------------------------------------------- */
ERROR_CASE(err_vlan_4095,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], vlans: { tagged: [10, 4095] } }\n",
	   6, 49, "VLAN 4095 is outside 1..4094")
ERROR_CASE(err_vlan_0,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], vlans: { untagged: 0 } }\n",
	   6, 46, "VLAN 0 is outside 1..4094")
ERROR_CASE(err_vlan_range,
	   "name: t\nmst: { instances: { 1: [4000-4095] } }\nnodes:\n  a: { role: host }\n",
	   2, 25, "VLAN range 4000-4095 is outside 1..4094")
ERROR_CASE(err_vlan_both,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], vlans: { tagged: [10], untagged: 10 } }\n",
	   6, 60, "VLAN 10 cannot be both tagged and untagged")
ERROR_CASE(err_vlan_word,
	   "name: t\nmst: { instances: { 1: [ten] } }\nnodes:\n  a: { role: host }\n",
	   2, 25, "a VLAN must be an integer, found 'ten'")
ERROR_CASE(err_msti_0,
	   "name: t\nmst:\n  instances:\n    0: [10]\nnodes:\n  a: { role: host }\n",
	   4, 5, "MSTI 0 is outside 1..4094 (MSTI 0 is the CIST)")
ERROR_CASE(err_msti_4095,
	   "name: t\nmst:\n  instances:\n    4095: [10]\nnodes:\n  a: { role: host }\n",
	   4, 5, "MSTI 4095 is outside 1..4094")
ERROR_CASE(err_vlan_two_mstis,
	   "name: t\nmst:\n  instances:\n    1: [10]\n    2: [11, 10]\nnodes:\n"
	   "  a: { role: host }\n", 5, 8, "VLAN 10 is in two MSTIs")
ERROR_CASE(err_msti_undeclared,
	   "name: t\nmst: { instances: { 1: [10] } }\nnodes:\n"
	   "  a: { role: bridge, priority: { 2: 4096 } }\n", 4, 34,
	   "MSTI 2 is not declared in mst.instances")
ERROR_CASE(err_link_cost_other_region,
	   "name: t\nmst: { instances: { 1: [10] } }\nnodes:\n"
	   "  a: { role: bridge, mst: { instances: { 2: [20] } } }\n"
	   "  b: { role: bridge }\nlinks:\n"
	   "  - { ends: [a:p1, b:p1], cost: { 1: 5 } }\n", 7, 5,
	   "link cost names MSTI 1, unknown to 'a'")
ERROR_CASE(err_region_name,
	   "name: t\nmst: { region: \"a b\" }\nnodes:\n  a: { role: host }\n", 2,
	   16, "region name 'a b' may only use")
ERROR_CASE(err_timers,
	   "name: t\nmst: { hello: 2s, max_age: 40s, forward_delay: 4s }\nnodes:\n"
	   "  a: { role: host }\n", 2, 6, "timers break")

/* --- priorities, roles ------------------------------------------------- */
ERROR_CASE(err_bridge_prio,
	   "name: t\nnodes:\n  a: { role: bridge, priority: 1000 }\n", 3, 32,
	   "bridge priority 1000 is not a multiple of 4096 in 0..61440")
ERROR_CASE(err_bridge_prio_tree,
	   "name: t\nmst: { instances: { 1: [10] } }\nnodes:\n"
	   "  a: { role: bridge, priority: { cist: 4096, 1: 4097 } }\n", 4, 49,
	   "bridge priority 4097 is not a multiple of 4096")
ERROR_CASE(err_port_prio,
	   "name: t\nnodes:\n  a: { role: bridge, ports: { p1: { priority: 100 } } }\n"
	   "  b: { role: bridge }\nlinks:\n  - [a:p1, b:p1]\n", 3, 47,
	   "port priority 100 is not a multiple of 16 in 0..240")
ERROR_CASE(err_cost_zero,
	   TWO_BRIDGES "links:\n  - { ends: [a:p1, b:p1], cost: 0 }\n", 6, 33,
	   "path cost 0 is outside 1..200000000")
ERROR_CASE(err_priority_on_host,
	   "name: t\nnodes:\n  h: { role: host, priority: 4096 }\n", 3, 30,
	   "'priority' is only valid on bridge and dsa-switch nodes")
ERROR_CASE(err_sockets_on_bridge,
	   "name: t\nnodes:\n  a: { role: bridge, sockets: 2 }\n", 3, 31,
	   "'sockets' is only valid on hsmp-host nodes")
ERROR_CASE(err_vcpus_sockets,
	   "name: t\nnodes:\n  e: { role: hsmp-host, sockets: 2, vcpus: 3 }\n",
	   3, 44, "vcpus 3 is not a multiple of sockets 2")
ERROR_CASE(err_hsmp_on_host,
	   "name: t\nnodes:\n  h: { role: host, hsmp: { protocol: 5 } }\n", 3,
	   26, "'hsmp' is only valid on hsmp-host nodes")
ERROR_CASE(err_hsmp_protocol,
	   "name: t\nnodes:\n  e: { role: hsmp-host, hsmp: { protocol: 3 } }\n",
	   3, 43, "HSMP protocol 3 is not one of 2, 4, 5, 7")
ERROR_CASE(err_hsmp_key,
	   "name: t\nnodes:\n  e: { role: hsmp-host, hsmp: { proto: 5 } }\n",
	   3, 33, "unknown key 'proto' in hsmp")

/* --- scenarios --------------------------------------------------------- */
#define SCEN TWO_BRIDGES "links:\n  - [a:p1, b:p1]\nscenarios:\n  s:\n    steps:\n"
ERROR_CASE(err_step_unknown, SCEN "      - jump: high\n", 10, 9,
	   "unknown key 'jump' in a step")
ERROR_CASE(err_step_two_actions, SCEN "      - { sleep: 1s, mark: x }\n", 10,
	   9, "exactly one action")
ERROR_CASE(err_step_link, SCEN "      - fail: { link: a:p9 }\n", 10, 23,
	   "link 'a:p9' names no linked port")
ERROR_CASE(err_step_mode, SCEN "      - fail: { link: a:p1, mode: cut }\n", 10,
	   35, "mode must be one of: carrier, silent, found 'cut'")
ERROR_CASE(err_step_duration, SCEN "      - sleep: 5\n", 10, 16,
	   "sleep must be a duration")
ERROR_CASE(err_step_wait, SCEN "      - wait: forever\n", 10, 15,
	   "wait must be one of: converged, agents, command")
ERROR_CASE(err_step_flap_count, SCEN
	   "      - flap: { link: a:p1, up: 1s, down: 1s }\n", 10, 15,
	   "flap has no 'count'")
ERROR_CASE(err_step_probe_node, SCEN "      - probe: { from: a, to: z }\n",
	   10, 31, "to 'z' names no node")
ERROR_CASE(err_step_probe_vlan, SCEN
	   "      - probe: { from: a, to: b, vlans: [1, 40] }\n", 10, 45,
	   "VLAN 40 is on no port of 'a'")
ERROR_CASE(err_step_exec_node, SCEN "      - exec: { node: q, cmd: ls }\n",
	   10, 23, "node 'q' names no node")
ERROR_CASE(err_expect_root,
	   "name: t\nnodes:\n  a: { role: bridge }\n  h: { role: host }\n"
	   "links:\n  - [a:p1, h:eth1]\nscenarios:\n  s:\n    steps: [ { sleep: 1s } ]\n"
	   "    expect: { roots: { cist: h } }\n", 10, 30,
	   "root 'h' is a host, not a bridge")
/* A one-way failure and a send (the conformance library's steps). */
#define FAIL1 "      - fail: { link: a:p1, mode: silent, direction: "
ERROR_CASE(err_dir_needs_silent, SCEN
	   "      - fail: { link: a:p1, direction: a->b }\n", 10, 40,
	   "direction needs mode: silent")
ERROR_CASE(err_dir_arrow, SCEN FAIL1 "a<-b }\n", 10, 54,
	   "direction 'a<-b' must be FROM->TO")
ERROR_CASE(err_dir_node, SCEN FAIL1 "a->z }\n", 10, 57, "'z' names no node")
ERROR_CASE(err_dir_same_end, SCEN FAIL1 "a:p1->a }\n", 10, 60,
	   "direction goes from an end to itself")
ERROR_CASE(err_dir_port, SCEN FAIL1 "a:p2->b }\n", 10, 54,
	   "'a:p2' is at neither end of the link")
ERROR_CASE(err_dir_loop_link, TWO_BRIDGES
	   "links:\n  - [a:p1, a:p2]\nscenarios:\n  s:\n    steps:\n"
	   FAIL1 "a->a:p2 }\n", 10, 54,
	   "both ends of the link are on 'a': name the port")
ERROR_CASE(err_dir_on_restore, SCEN
	   "      - restore: { link: a:p1, direction: a->b }\n", 10, 32,
	   "unknown key 'direction' in restore")
ERROR_CASE(err_send_node, SCEN "      - send: { node: z, frames: \"0000\" }\n",
	   10, 23, "node 'z' names no node")
ERROR_CASE(err_send_port, SCEN
	   "      - send: { node: a, port: p7, frames: \"0000\" }\n", 10, 32,
	   "'a' has no port 'p7'")
ERROR_CASE(err_send_no_frames, SCEN "      - send: { node: a }\n", 10, 15,
	   "send has no 'frames'")
ERROR_CASE(err_send_hex_digit, SCEN
	   "      - send: { node: a, frames: [\"0026 42x2\"] }\n", 10, 43,
	   "'x' in a frame is not a hex digit")
ERROR_CASE(err_send_odd, SCEN
	   "      - send: { node: a, frames: \"002 61\" }\n", 10, 34,
	   "odd number of hex digits (5)")
ERROR_CASE(err_send_short, SCEN
	   "      - send: { node: a, frames: \"00\" }\n", 10, 34,
	   "1 octets after its source address; 2..1502")
ERROR_CASE(err_send_empty, SCEN "      - send: { node: a, frames: [] }\n",
	   10, 34, "frames is empty")
ERROR_CASE(err_send_dst, SCEN
	   "      - send: { node: a, dst: 01-80-c2-00-00-00, frames: \"0000\" }\n",
	   10, 31, "dst '01-80-c2-00-00-00' is not a MAC address")
ERROR_CASE(err_send_count, SCEN
	   "      - send: { node: a, frames: \"0000\", count: 0 }\n", 10, 49,
	   "count")
ERROR_CASE(err_send_key, SCEN
	   "      - send: { node: a, frames: \"0000\", vlan: 10 }\n", 10, 42,
	   "unknown key 'vlan' in send")
ERROR_CASE(err_expect_tree, SCEN "      - sleep: 1s\n    expect: { blocked: { 7: [a:p1] } }\n",
	   11, 26, "MSTI 7 is not declared")
ERROR_CASE(err_expect_flush, SCEN "      - sleep: 1s\n    expect: { flush: some }\n",
	   11, 22, "flush must be one of: per-msti, all, none")

ERROR_CASE(err_stp_on_host, "name: t\nnodes:\n  h: { role: host, stp: kernel }\n",
	   3, 25, "'stp' is only valid on bridge nodes")
ERROR_CASE(err_stp_value, "name: t\nnodes:\n  b: { role: bridge, stp: rstp }\n",
	   3, 27, "stp must be one of: mstp, kernel")

ERROR_CASE(err_stp_kernel_cost, "name: t\nnodes:\n  a: { role: bridge, stp: kernel }\n"
	   "  b: { role: bridge }\nlinks:\n  - { ends: [a:p1, b:p1], cost: 70000 }\n",
	   6, 14, "'a:p1' runs the kernel's STP: its cost must be at most 65535")

TEST(shipped_topologies_parse)
{
	static const char *const files[] = { "smoke", "ring4", "triangle",
					     "dsa", "hsmp" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct errbuf msg;
		char path[128];
		struct topo_error e;
		struct topo *t;

		snprintf(path, sizeof(path), "topologies/%s.yaml", files[i]);
		if (topo_parse_file(path, &t, &e)) {
			unit_fail(__FILE__, __LINE__, "%s",
				  topo_error_format(&e, &msg));
			return;
		}
		CHECK_STR(t->name, files[i]);
		topo_free(t);
	}
}

TEST(missing_file)
{
	struct topo_error e;
	struct topo *t;

	CHECK_INT(topo_parse_file("/nonexistent/x.yaml", &t, &e), -1);
	CHECK(t == NULL);
	CHECK(strstr(e.msg, "cannot open") != NULL);
	CHECK_INT(e.mark.line, 1);
}

/* A directory, a FIFO: refused at once, saying what the path is. */
TEST(not_a_regular_file)
{
	char dir[] = "/tmp/mstlab-topo-XXXXXX", fifo[64];
	struct topo_error e;
	struct topo *t;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(topo_parse_file(dir, &t, &e), -1);
	CHECK(strstr(e.msg, "is a directory") != NULL);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK_INT(mkfifo(fifo, 0600), 0);
	/* No writer: a blocking open would never return. */
	CHECK_INT(topo_parse_file(fifo, &t, &e), -1);
	CHECK(strstr(e.msg, "not a regular file") != NULL);
	CHECK_STR(e.file, fifo);
	unlink(fifo);
	rmdir(dir);
}

/* "-" reads standard input; errors name it <stdin>. */
TEST(standard_input)
{
	FILE *in = fopen("topologies/ring4.yaml", "rb");
	int saved = dup(0);
	struct topo_error e;
	struct topo *t = NULL;
	int r;

	CHECK(in && saved >= 0);
	dup2(fileno(in), 0);
	fclose(in);
	r = topo_parse_file("-", &t, &e);
	dup2(saved, 0);
	close(saved);
	clearerr(stdin);
	CHECK_INT(r, 0);
	CHECK_STR(t->name, "ring4");
	topo_free(t);
}

/* Hostile nesting is refused where it crosses the limit, by the linear
 * event parser, before libyaml's loader (40 s on this input) sees it. */
TEST(deep_nesting_refused_at_once)
{
	size_t n = 100000;
	char *yaml = malloc(n + 1);
	struct topo_error e;
	struct topo *t;

	CHECK(yaml != NULL);
	memset(yaml, '[', n);
	yaml[n] = 0;
	CHECK_INT(topo_parse_buffer("deep.yaml", yaml, n, &t, &e), -1);
	free(yaml);
	CHECK(strstr(e.msg, "nested deeper than 32 levels") != NULL);
	CHECK_INT(e.mark.line, 1);
	CHECK_INT(e.mark.col, TOPO_MAX_DEPTH + 1);
}

TEST(ring4_model)
{
	struct topo_error e;
	struct topo *t;
	const struct topo_node *sw1, *h1;

	CHECK_INT(topo_parse_file("topologies/ring4.yaml", &t, &e), 0);
	CHECK_INT(t->n_nodes, 6);
	CHECK_INT(t->n_links, 6);
	CHECK_INT(t->mst.n_msti, 2);
	CHECK_INT(t->mst.msti[0].id, 1);
	CHECK(topo_vlan_has(&t->mst.msti[0].vlans, 20));
	CHECK(!topo_vlan_has(&t->mst.msti[0].vlans, 30));
	sw1 = &t->nodes[topo_node_find(t, "sw1")];
	CHECK_INT(topo_treevals_get(&sw1->priority, TOPO_CIST, 0), 4096);
	CHECK_INT(topo_treevals_get(&sw1->priority, 2, 0), 32768);
	CHECK_INT(sw1->n_ports, 3);
	/* NIC order = order of appearance in links */
	CHECK_STR(sw1->ports[0].name, "p1");
	CHECK_STR(sw1->ports[1].name, "p2");
	CHECK_STR(sw1->ports[2].name, "p3");
	CHECK_INT(sw1->ports[2].index, 3);
	CHECK_INT(sw1->ports[2].edge, 1);
	CHECK_INT(sw1->ports[0].edge, -1);
	CHECK_INT(sw1->ports[2].vlans.untagged, 1);
	CHECK(topo_vlan_has(&sw1->ports[2].vlans.tagged, 30));
	/* link ends point back at the ports */
	for (size_t l = 0; l < t->n_links; l++)
		for (int e2 = 0; e2 < 2; e2++) {
			const struct topo_end *end = &t->links[l].end[e2];
			const struct topo_port *p =
				&t->nodes[end->node].ports[end->port];

			CHECK_INT(p->link, (int)l);
			CHECK_INT(p->end, e2);
		}
	h1 = &t->nodes[topo_node_find(t, "h1")];
	CHECK_INT(h1->role, TOPO_ROLE_HOST);
	CHECK_INT(h1->memory_mib, 128);
	CHECK_INT(t->n_scenarios, 3);
	CHECK_STR(t->scenarios[0].name, "failover");
	CHECK_INT(t->scenarios[0].steps[3].kind, TOPO_STEP_PROBE_START);
	CHECK_INT(t->scenarios[0].steps[3].rate_pps, 200);
	CHECK_INT(t->scenarios[0].steps[4].kind, TOPO_STEP_PROBE_START);
	CHECK_INT(t->scenarios[0].steps[4].from, topo_node_find(t, "h2"));
	CHECK_INT(t->scenarios[0].steps[7].kind, TOPO_STEP_FAIL);
	CHECK_INT(t->scenarios[0].steps[7].mode, TOPO_FAIL_CARRIER);
	CHECK_INT(t->scenarios[0].steps[7].link, 3);	/* sw4:p2-sw1:p2 */
	CHECK_INT(t->scenarios[0].expect.root[2], topo_node_find(t, "sw3"));
	CHECK_INT(t->scenarios[0].expect.outage_max_ms[0], -1);
	CHECK_INT(t->scenarios[0].expect.flush, TOPO_FLUSH_PER_MSTI);
	CHECK_INT(t->scenarios[0].expect.settle_ms, 5000);
	CHECK_INT(t->scenarios[0].expect.n_blocked, 3);
	CHECK_STR(t->scenarios[1].name, "port-flush");
	CHECK_INT(t->scenarios[1].expect.flush, TOPO_FLUSH_ALL);
	CHECK_INT(t->scenarios[2].steps[1].mode, TOPO_FAIL_SILENT);
	topo_free(t);
}

TEST(defaults_and_overrides)
{
	struct topo *t = parse_ok(
		"name: t\n"
		"defaults: { memory: 96, vcpus: 2, cpu: Haswell, kernel: debug }\n"
		"mst: { region: r, revision: 3, instances: { 5: [5-7, 9], 2: 100 } }\n"
		"nodes:\n"
		"  a:\n"
		"    role: bridge\n"
		"    memory: 64\n"
		"    ports:\n"
		"      p1: { cost: { cist: 100, 5: 300 }, priority: 32, vlans: { tagged: [5] } }\n"
		"  b: { role: bridge, mst: { region: other, instances: { 9: [9] } } }\n"
		"  e: { role: hsmp-host, sockets: 2 }\n"
		"links:\n"
		"  - { ends: [a:p1, b:p1], cost: 7, edge: false, vlans: { tagged: [9], untagged: none } }\n"
		"  - [a:p2, e:eth1]\n");

	CHECK(t != NULL);
	CHECK_INT(t->mst.n_msti, 2);
	CHECK_INT(t->mst.msti[0].id, 2);	/* sorted */
	CHECK_INT(t->mst.msti[1].id, 5);
	CHECK(topo_vlan_has(&t->mst.msti[1].vlans, 6));
	CHECK(!topo_vlan_has(&t->mst.msti[1].vlans, 8));
	CHECK_INT(t->nodes[0].memory_mib, 64);
	CHECK_INT(t->nodes[0].vcpus, 2);
	CHECK_STR(t->nodes[0].cpu, "Haswell");
	CHECK_INT(t->nodes[0].kernel, TOPO_KERNEL_DEBUG);
	/* port settings win over the link's; the rest comes from the link */
	CHECK_INT(topo_treevals_get(&t->nodes[0].ports[0].cost, TOPO_CIST, 0),
		  100);
	CHECK_INT(topo_treevals_get(&t->nodes[0].ports[0].cost, 5, 0), 300);
	CHECK_INT(topo_treevals_get(&t->nodes[0].ports[0].cost, 2, 1), 1);
	CHECK_INT(topo_treevals_get(&t->nodes[0].ports[0].priority, 2, 0), 32);
	CHECK(topo_vlan_has(&t->nodes[0].ports[0].vlans.tagged, 5));
	CHECK(!topo_vlan_has(&t->nodes[0].ports[0].vlans.tagged, 9));
	CHECK_INT(t->nodes[0].ports[0].edge, 0);
	CHECK_INT(topo_treevals_get(&t->nodes[1].ports[0].cost, TOPO_CIST, 0),
		  7);
	CHECK(topo_vlan_has(&t->nodes[1].ports[0].vlans.tagged, 9));
	CHECK_INT(t->nodes[1].ports[0].vlans.untagged, 0);
	/* node-level mst replaces the instances, keeps what it does not say */
	CHECK_STR(t->nodes[1].mst->region, "other");
	CHECK_INT(t->nodes[1].mst->revision, 3);
	CHECK_INT(t->nodes[1].mst->n_msti, 1);
	CHECK(t->nodes[0].mst == &t->mst);
	/* default membership: the MSTIs' VLANs tagged, VLAN 1 untagged */
	CHECK_INT(t->nodes[0].ports[1].vlans.untagged, 1);
	CHECK(topo_vlan_has(&t->nodes[0].ports[1].vlans.tagged, 100));
	CHECK(topo_vlan_has(&t->nodes[0].ports[1].vlans.tagged, 7));
	CHECK(!topo_vlan_has(&t->nodes[0].ports[1].vlans.tagged, 1));
	/* hsmp-host: vcpus rounded up to whole sockets of 2 cores at least */
	CHECK_INT(t->nodes[2].sockets, 2);
	CHECK_INT(t->nodes[2].vcpus, 4);
	topo_free(t);
}

/* kernel: names a version and a flavour, per lab and per node; a bare
 * flavour is 6.1's; --kernel NAME overrides every node. */
TEST(kernel_names_a_version_per_lab_and_per_node)
{
	struct topo *t = parse_ok(
		"name: t\n"
		"defaults: { kernel: 6.12 }\n"
		"nodes:\n"
		"  a: { role: bridge }\n"
		"  b: { role: bridge, kernel: debug }\n"
		"  c: { role: bridge, kernel: \"6.1\" }\n"
		"  d: { role: host, kernel: 6.12-debug }\n"
		"links:\n  - [a:p1, b:p1]\n  - [b:p2, c:p1]\n  - [c:p2, d:eth1]\n");
	enum topo_kernel k;
	bool need[TOPO_KERNEL_COUNT];
	char text[64];

	CHECK(t != NULL);
	CHECK_INT(t->nodes[0].kernel, TOPO_KERNEL_612);
	CHECK_INT(t->nodes[1].kernel, TOPO_KERNEL_DEBUG);
	CHECK_INT(t->nodes[2].kernel, TOPO_KERNEL_DEFAULT);
	CHECK_INT(t->nodes[3].kernel, TOPO_KERNEL_612_DEBUG);
	kernel_needed(t, TOPO_LOCAL_HOST, need);
	kernel_set_text(need, text, sizeof(text));
	CHECK_STR(text, "default debug 6.12 6.12-debug");
	CHECK_INT(kernel_probe(t, TOPO_LOCAL_HOST), TOPO_KERNEL_612);
	CHECK_STR(kernel_known(TOPO_KERNEL_612)->package, "linux-source-6.12");
	CHECK_INT(kernel_arg("6.1-debug", &k), 1);
	CHECK_INT(k, TOPO_KERNEL_DEBUG);
	CHECK_INT(kernel_arg("/boot/vmlinuz", &k), 0);
	CHECK_INT(kernel_arg("6.13", &k), -1);
	kernel_override(t, TOPO_KERNEL_612);
	kernel_needed(t, TOPO_LOCAL_HOST, need);
	kernel_set_text(need, text, sizeof(text));
	CHECK_STR(text, "6.12");
	topo_free(t);
}

TEST(hsmp_host_cpu_shape_and_protocol)
{
	struct topo *t = parse_ok(
		"name: t\nnodes:\n"
		"  a: { role: hsmp-host }\n"
		"  b: { role: hsmp-host, sockets: 2, hsmp: { protocol: 7 } }\n"
		"  c: { role: hsmp-host, sockets: 2, vcpus: 6 }\n"
		"  d: { role: hsmp-host, hsmp: {} }\n");

	/* without vcpus: whole sockets of at least 2 cores; no protocol:
	 * the CPU's own (0) */
	static const unsigned want[][3] = {
		{ 1, 2, 0 }, { 2, 4, 7 }, { 2, 6, 0 }, { 1, 2, 0 },
	};

	CHECK(t != NULL);
	for (size_t i = 0; i < 4; i++) {
		const struct topo_node *n = &t->nodes[i];

		CHECK(n->sockets == want[i][0] && n->vcpus == want[i][1] &&
		      n->hsmp_protocol == want[i][2]);
	}
	topo_free(t);
}

TEST(warning_one_core_a_socket)
{
	struct topo *t = parse_ok(
		"name: t\nnodes:\n"
		"  ok: { role: hsmp-host, sockets: 2, vcpus: 4 }\n"
		"  one: { role: hsmp-host, sockets: 2, vcpus: 2 }\n"
		"  h: { role: host }\n"
		"  up:\n    role: hsmp-host\n    vcpus: 1\n");
	struct topo_error w;
	struct errbuf msg;
	size_t i = 0;

	CHECK(t != NULL);
	CHECK(topo_warning_next(t, &i, &w));
	CHECK_STR(topo_error_format(&w, &msg),
		  "t.yaml:4:46: warning: hsmp-host 'one' has one core a socket "
		  "(vcpus 2, sockets 2): no EPYC has, and its CPUID counts no "
		  "logical processor per package, by which AMD's tools divide; "
		  "give vcpus 4");
	CHECK(topo_warning_next(t, &i, &w));
	CHECK_INT(w.mark.line, 8);	/* at the vcpus it was given */
	CHECK_INT(w.mark.col, 12);
	CHECK(strstr(w.msg, "'up' has one core a socket (vcpus 1, sockets 1)"));
	CHECK(!topo_warning_next(t, &i, &w));
	CHECK(!topo_warning_next(t, &i, &w));
	topo_free(t);
}

TEST(cli_check_warns_and_passes)
{
	char path[] = "/tmp/mstlab-test-XXXXXX";
	char *args[] = { "mstlab", "check", path, NULL };
	char *shipped[] = { "mstlab", "check", "topologies/hsmp.yaml", NULL };
	const char *want = ":3:44: warning: hsmp-host 'e' has one core a socket";
	char *out, *err;
	FILE *f;
	int fd, rc;

	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fputs("name: t\nnodes:\n  e: { role: hsmp-host, sockets: 2, vcpus: 2 }\n",
	      f);
	fclose(f);
	out = unit_capture(mstlab_cli, 3, args, &rc, &err);
	remove(path);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "lab t ok") != NULL);
	CHECK(strncmp(err, path, strlen(path)) == 0);
	CHECK(strncmp(err + strlen(path), want, strlen(want)) == 0);
	CHECK(strchr(err, '\n') == err + strlen(err) - 1);	/* one line */
	free(out);
	free(err);

	/* the shipped topology has a shape real EPYCs have */
	out = unit_capture(mstlab_cli, 3, shipped, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK_STR(err, "");
	free(out);
	free(err);
}

TEST(dsa_ports_indexed_by_lan_number)
{
	struct topo *t = parse_ok(
		"name: t\nnodes:\n  d: { role: dsa-switch }\n"
		"  a: { role: bridge }\nlinks:\n"
		"  - [a:p1, d:lan4]\n  - [a:p2, d:lan2]\n");

	CHECK(t != NULL);
	CHECK_INT(t->nodes[0].n_ports, 2);
	CHECK_STR(t->nodes[0].ports[0].name, "lan2");
	CHECK_INT(t->nodes[0].ports[0].index, 2);
	CHECK_INT(t->nodes[0].ports[1].index, 4);
	CHECK_INT(t->links[0].end[1].port, 1);
	CHECK_INT(t->links[1].end[1].port, 0);
	topo_free(t);
}

TEST(steps_parse)
{
	struct topo *t = parse_ok(
		SCEN
		"      - wait: { for: command, node: a, cmd: [cat, /x], match: up, timeout: 3s }\n"
		"      - flap: { link: b:p1, count: 3, up: 1s, down: 250ms, mode: silent }\n"
		"      - impair: { link: a:p1, delay: 20ms, loss: 5.5 }\n"
		"      - probe: { from: a, to: b, vlans: [1], rate: 50 }\n"
		"      - probe: stop\n"
		"      - exec: { node: b, cmd: \"echo 'hi'\" }\n"
		"      - mark: here\n"
		"      - sleep: 1m\n");
	const struct topo_step *s;
	char what[64];

	CHECK(t != NULL);
	CHECK_INT(t->scenarios[0].n_steps, 8);
	s = t->scenarios[0].steps;
	CHECK_INT(s[0].kind, TOPO_STEP_WAIT);
	CHECK_INT(s[0].wait_for, TOPO_WAIT_COMMAND);
	CHECK_INT(s[0].timeout_ms, 3000);
	CHECK_INT(s[0].cmd.argc, 2);
	CHECK_STR(s[0].cmd.argv[1], "/x");
	CHECK_STR(s[0].match, "up");
	CHECK_INT(s[1].kind, TOPO_STEP_FLAP);
	CHECK_INT(s[1].link, 0);
	CHECK_INT(s[1].count, 3);
	CHECK_INT(s[1].down_ms, 250);
	CHECK_INT(s[1].mode, TOPO_FAIL_SILENT);
	CHECK_INT(s[2].impair.delay_ms, 20);
	CHECK_INT(s[2].impair.loss_ppm, 55000);
	CHECK_INT(s[3].kind, TOPO_STEP_PROBE_START);
	CHECK_INT(s[3].rate_pps, 50);
	CHECK(topo_vlan_has(&s[3].vlans, 1));
	CHECK(!topo_vlan_has(&s[3].vlans, 2));
	CHECK_INT(s[4].kind, TOPO_STEP_PROBE_STOP);
	CHECK_INT(s[5].cmd.argc, 3);
	CHECK_STR(s[5].cmd.argv[0], "/bin/sh");
	CHECK_STR(s[5].cmd.argv[2], "echo 'hi'");
	topo_step_describe(t, &s[5], what, sizeof(what));
	CHECK_STR(what, "exec on b: echo 'hi'");
	CHECK_STR(s[6].label, "here");
	CHECK_INT(s[7].sleep_ms, 60000);
	CHECK_INT(s[7].mark.line, 17);
	CHECK_INT(s[7].mark.col, 9);
	topo_free(t);
}

TEST(oneway_and_send_parse)
{
	struct topo *t = parse_ok(
		SCEN
		"      - fail: { link: b:p1, mode: silent, direction: a->b }\n"
		"      - fail: { link: a:p1, mode: silent, direction: b:p1 -> a:p1 }\n"
		"      - fail: { link: a:p1, mode: silent }\n"
		"      - send: { node: b, frames: [\"0007 4242.03:00\", \"88CC\"], "
		"count: 5, pad: false, dst: \"01:80:C2:00:00:0E\" }\n"
		"      - send: { node: a, port: p1, frames: \"0026\" }\n");
	const struct topo_step *s;
	char what[256];

	CHECK(t != NULL);
	s = t->scenarios[0].steps;
	/* a->b: b stops hearing a; b is the link's second end */
	CHECK_INT(s[0].deaf_end, 1);
	CHECK_INT(s[0].mode, TOPO_FAIL_SILENT);
	CHECK_INT(s[1].deaf_end, 0);
	CHECK_INT(s[2].deaf_end, -1);
	topo_step_describe(t, &s[1], what, sizeof(what));
	CHECK_STR(what, "fail a:p1--b:p1 (silent, b:p1->a:p1 only)");
	CHECK_INT(s[3].kind, TOPO_STEP_SEND);
	CHECK_INT(s[3].send.node, 1);
	CHECK_INT(s[3].send.port, 0);
	CHECK_INT(s[3].send.n_frames, 2);
	CHECK_STR(s[3].send.frames[0], "000742420300");
	CHECK_STR(s[3].send.frames[1], "88cc");
	CHECK_INT(s[3].send.count, 5);
	CHECK(!s[3].send.pad);
	CHECK_STR(s[3].send.dst, "01:80:c2:00:00:0e");
	CHECK_INT(s[4].send.count, 1);
	CHECK(s[4].send.pad);
	CHECK_STR(s[4].send.dst, "01:80:c2:00:00:00");
	topo_step_describe(t, &s[3], what, sizeof(what));
	CHECK_STR(what, "send 2 frames x 5 from b:p1 to 01:80:c2:00:00:0e");
	topo_free(t);
}

/* A command given as a list reads as all its words, not its last one
 * ("exec on b: 0" said nothing); a long one is cut, never overrun. */
TEST(exec_described_by_its_words)
{
	struct topo *t = parse_ok(
		SCEN
		"      - exec: { node: b, cmd: [mstctl, stp, set, dev, br0, "
		"bridge, priority, cist, \"0\"] }\n");
	char what[256], small[24];

	CHECK(t != NULL);
	topo_step_describe(t, &t->scenarios[0].steps[0], what, sizeof(what));
	CHECK_STR(what, "exec on b: mstctl stp set dev br0 bridge priority "
			"cist 0");
	topo_step_describe(t, &t->scenarios[0].steps[0], small, sizeof(small));
	CHECK_STR(small, "exec on b: mstctl stp s");
	topo_free(t);
}

TEST(link_impairment_percent)
{
	struct topo *t = parse_ok(
		TWO_BRIDGES "links:\n"
		"  - { ends: [a:p1, b:p1], impair: { delay: 5ms, loss: 0.25% } }\n");

	CHECK(t != NULL);
	CHECK_INT(t->links[0].impair.delay_ms, 5);
	CHECK_INT(t->links[0].impair.loss_ppm, 2500);
	topo_free(t);
}

TEST(key_order_does_not_matter)
{
	/* links before nodes in the file: references still resolve */
	struct topo *t = parse_ok(
		"links:\n  - [a:p1, b:p1]\nnodes:\n  a: { role: bridge }\n"
		"  b: { role: bridge }\nname: t\n");

	CHECK(t != NULL);
	CHECK_INT(t->n_links, 1);
	topo_free(t);
}

TEST(cli_check)
{
	char *ok[] = { "mstlab", "check", "topologies/ring4.yaml", NULL };
	char *bad[] = { "mstlab", "check", NULL };
	/* A lab command stops at a topology it cannot read, before it
	 * touches libvirt or the host. */
	char *up[] = { "mstlab", "up", "/nonexistent/x.yaml", NULL };
	char *out, *err, path[] = "/tmp/mstlab-test-XXXXXX";
	char *args[] = { "mstlab", "check", path, NULL };
	FILE *f;
	int fd, rc;

	out = unit_capture(mstlab_cli, 3, ok, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "lab ring4 ok") != NULL);
	CHECK_STR(err, "");
	free(out);
	free(err);

	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fputs("name: t\nnodes:\n  a: { role: bridge, memory: x }\n", f);
	fclose(f);
	out = unit_capture(mstlab_cli, 3, args, &rc, &err);
	CHECK_INT(rc, 1);
	remove(path);
	CHECK_STR(out, "");
	CHECK(strncmp(err, path, strlen(path)) == 0);
	CHECK(strncmp(err + strlen(path), ":3:30: ", 7) == 0);
	free(out);
	free(err);

	out = unit_capture(mstlab_cli, 2, bad, &rc, &err);
	CHECK_INT(rc, 2);	/* usage */
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 3, up, &rc, &err);
	CHECK_INT(rc, 1);
	CHECK(strncmp(err, "/nonexistent/x.yaml", 19) == 0);
	free(out);
	free(err);
}

TEST(cli_help_names_every_option)
{
	char *all[] = { "mstlab", "--help", NULL };
	char *run[] = { "mstlab", "run", "--help", NULL };
	char *decode[] = { "mstlab", "decode", "-h", NULL };
	char *none[] = { "mstlab", "run", NULL };
	char *out, *err;
	int rc;

	out = unit_capture(mstlab_cli, 2, all, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "  mstlab verdict RUN_DIR"));
	CHECK(strstr(out, "--results DIR"));
	CHECK_STR(err, "");
	free(out);
	free(err);
	/* A lab command's help: its usage on stdout, then the lab options. */
	out = unit_capture(mstlab_cli, 3, run, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strncmp(out, "usage: mstlab run TOPO.yaml", 27) == 0);
	CHECK(strstr(out, "--uri URI"));
	CHECK(strstr(out, "--initrd PATH"));
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 3, decode, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strncmp(out, "usage: mstlab decode FILE.pcap", 30) == 0);
	CHECK(!strstr(out, "--uri"));
	free(out);
	free(err);
	/* A usage error says what was wrong, and where the options are. */
	out = unit_capture(mstlab_cli, 2, none, &rc, &err);
	CHECK_INT(rc, 2);
	CHECK(strstr(err, "mstlab run: no topology file (or lab) given\n"));
	CHECK(strstr(err, "mstlab run --help"));
	free(out);
	free(err);
}

/* mstlab_cli on a writable copy of argv (getopt permutes it): what it
 * printed (free it), its errors in *err (free it too), its status. */
static char *cli_copy(int argc, const char *const argv[], int *rc, char **err)
{
	char *copy[8] = { 0 }, *out;

	for (int k = 0; k < argc && k < 8; k++)
		copy[k] = strdup(argv[k]);
	out = unit_capture(mstlab_cli, argc, copy, rc, err);
	for (int k = 0; k < argc && k < 8; k++)
		free(copy[k]);
	return out;
}

/* Usage errors name the argument that is wrong (issue 27's list). */
TEST(usage_errors_name_the_offending_argument)
{
	int rc;
	static const struct {
		int argc;
		const char *argv[8];
		const char *says;
	} cases[] = {
		{ 3, { "mstlab", "run", "-x" }, "mstlab run: unknown option '-x'" },
		{ 3, { "mstlab", "up", "--uri" }, "mstlab up: '--uri' needs a value" },
		{ 4, { "mstlab", "check", "topologies/smoke.yaml", "extra" },
		  "mstlab check: unexpected argument 'extra'" },
		{ 5, { "mstlab", "plan", "topologies/smoke.yaml", "--virt", "xen" },
		  "mstlab plan: --virt takes qemu or kvm" },
		{ 5, { "mstlab", "graph", "topologies/smoke.yaml", "-o", "x.jpg" },
		  "cannot tell a format from 'x.jpg'" },
		{ 5, { "mstlab", "graph", "topologies/smoke.yaml", "-o",
		       "/nonexistent/dir/x.svg" },
		  "cannot write /nonexistent/dir/x.svg: No such file or directory" },
		{ 4, { "mstlab", "--bogus", "run", "x.yaml" },
		  "mstlab: unknown option '--bogus'" },
		/* A command's own option before it is still its own. */
		{ 4, { "mstlab", "--keep", "check", "topologies/smoke.yaml" },
		  "mstlab check: unknown option '--keep'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err, *out = cli_copy(cases[i].argc, cases[i].argv, &rc,
					   &err);

		if (!strstr(err, cases[i].says))
			printf("# case %zu: %s", i, err);
		CHECK(strstr(err, cases[i].says) != NULL);
		CHECK(rc == 1 || rc == 2);
		free(out);
		free(err);
	}
}

/* Global options (--results, --uri, --virt, the images) before any
 * command, as git's: passed to the commands they concern, left out
 * before the others; COMMAND --help after them is its usage. */
TEST(global_options_before_any_command)
{
	int rc;
	static const struct {
		int argc;
		const char *argv[8];
		int rc;
		const char *says;
	} cases[] = {
		{ 5, { "mstlab", "--results", "/tmp", "check",
		       "topologies/smoke.yaml" }, 0, "lab smoke ok" },
		{ 4, { "mstlab", "--uri=qemu:///session", "check",
		       "topologies/smoke.yaml" }, 0, "lab smoke ok" },
		{ 5, { "mstlab", "--results", "/tmp", "run", "--help" }, 0,
		  "usage: mstlab run TOPO.yaml" },
		{ 5, { "mstlab", "--uri", "qemu:///session", "serve", "--help" },
		  0, "usage: mstlab serve" },
		{ 6, { "mstlab", "--virt", "kvm", "plan", "topologies/smoke.yaml",
		       "--xml=sw1" }, 0, "<domain type='kvm'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err, *out = cli_copy(cases[i].argc, cases[i].argv, &rc,
					   &err);

		if (!strstr(out, cases[i].says))
			printf("# case %zu: %s%s", i, out, err);
		CHECK(strstr(out, cases[i].says) != NULL);
		CHECK_INT(rc, cases[i].rc);
		free(out);
		free(err);
	}
}
