// SPDX-License-Identifier: MIT
/*
 * mstnl without a kernel: every request is compared byte for byte with a
 * hand-written expectation (little-endian host), and the parsers decode
 * canned replies, including every truncation of them.
 */
#include "unit.h"
#include "mstnl.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if_bridge.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#define U16(x) ((x) & 0xff), (((x) >> 8) & 0xff)
#define U32(x) U16((x) & 0xffff), U16(((x) >> 16) & 0xffff)
#define SEQ 0x01020304u
/* nlmsghdr: len, type, flags, seq, pid 0 */
#define HDR(len, type, flags) U32(len), U16(type), U16(flags), U32(SEQ), U32(0)
#define NESTED 0x8000

/* ---- request bytes ---------------------------------------------------- */

/* Builds with exactly the expected size, and checks one byte less fails. */
#define CHECK_BUILD(call_with_buf_size, want)                               \
	do {                                                                \
		uint8_t buf_[1024];                                         \
		size_t size_ = sizeof(want);                                \
		int len_;                                                   \
		memset(buf_, 0xaa, sizeof(buf_));                           \
		len_ = call_with_buf_size;                                  \
		CHECK_INT(len_, sizeof(want));                              \
		CHECK_MEM(buf_, (size_t)len_, want, sizeof(want));          \
		size_ = sizeof(want) - 1;                                   \
		CHECK_INT(call_with_buf_size, -ENOBUFS);                    \
	} while (0)

TEST(build_mst_enable)
{
	static const uint8_t want[] = {
		HDR(64, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK),
		/* ifinfomsg: AF_UNSPEC, ifindex 5 */
		0, 0, U16(0), U32(5), U32(0), U32(0),
		U16(32), U16(IFLA_LINKINFO | NESTED),
		U16(11), U16(IFLA_INFO_KIND), 'b', 'r', 'i', 'd', 'g', 'e', 0, 0,
		U16(16), U16(IFLA_INFO_DATA | NESTED),
		U16(12), U16(46 /* IFLA_BR_MULTI_BOOLOPT */),
		U32(1u << 2), U32(1u << 2),	/* optval, optmask: MST_ENABLE */
	};

	CHECK_BUILD(mstnl_build_mst_set(buf_, size_, SEQ, 5, true), want);
}

TEST(build_mst_disable)
{
	static const uint8_t want[] = {
		HDR(64, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK),
		0, 0, U16(0), U32(5), U32(0), U32(0),
		U16(32), U16(IFLA_LINKINFO | NESTED),
		U16(11), U16(IFLA_INFO_KIND), 'b', 'r', 'i', 'd', 'g', 'e', 0, 0,
		U16(16), U16(IFLA_INFO_DATA | NESTED),
		U16(12), U16(46), U32(0), U32(1u << 2),
	};

	CHECK_BUILD(mstnl_build_mst_set(buf_, size_, SEQ, 5, false), want);
}

/* IFLA_BR_AGEING_TIME in centiseconds: 4 s of STP's rapid ageing. */
TEST(build_ageing_set)
{
	static const uint8_t want[] = {
		HDR(60, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK),
		0, 0, U16(0), U32(5), U32(0), U32(0),
		U16(28), U16(IFLA_LINKINFO | NESTED),
		U16(11), U16(IFLA_INFO_KIND), 'b', 'r', 'i', 'd', 'g', 'e', 0, 0,
		U16(12), U16(IFLA_INFO_DATA | NESTED),
		U16(8), U16(4 /* IFLA_BR_AGEING_TIME */), U32(400),
	};

	CHECK_BUILD(mstnl_build_ageing_set(buf_, size_, SEQ, 5, 400), want);
}

TEST(build_link_get)
{
	static const uint8_t want[] = {
		HDR(40, RTM_GETLINK, NLM_F_REQUEST | NLM_F_ACK),
		0, 0, U16(0), U32(7), U32(0), U32(0),
		U16(8), U16(IFLA_EXT_MASK), U32(RTEXT_FILTER_SKIP_STATS),
	};

	CHECK_BUILD(mstnl_build_link_get(buf_, size_, SEQ, 7), want);
}

TEST(build_vlan_msti_set_range)
{
	static const uint8_t want[] = {
		HDR(52, 112 /* RTM_NEWVLAN */, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(5),	/* br_vlan_msg */
		U16(28), U16(2 /* GLOBAL_OPTIONS */ | NESTED),
		U16(6), U16(1 /* GOPTS_ID */), U16(10), 0, 0,
		U16(6), U16(2 /* GOPTS_RANGE */), U16(20), 0, 0,
		U16(6), U16(18 /* GOPTS_MSTI */), U16(1), 0, 0,
	};

	CHECK_BUILD(mstnl_build_vlan_msti_set(buf_, size_, SEQ, 5, 10, 20, 1),
		    want);
}

TEST(build_vlan_msti_set_single)
{
	static const uint8_t want[] = {
		HDR(44, 112, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(5),
		U16(20), U16(2 | NESTED),
		U16(6), U16(1), U16(30), 0, 0,
		U16(6), U16(18), U16(4094), 0, 0,
	};

	/* no RANGE for a single VID, whether vid_end is 0 or equal */
	CHECK_BUILD(mstnl_build_vlan_msti_set(buf_, size_, SEQ, 5, 30, 0,
					      4094), want);
	CHECK_BUILD(mstnl_build_vlan_msti_set(buf_, size_, SEQ, 5, 30, 30,
					      4094), want);
}

TEST(build_vlan_dump)
{
	static const uint8_t want[] = {
		HDR(32, 114 /* RTM_GETVLAN */, NLM_F_REQUEST | NLM_F_DUMP),
		AF_BRIDGE, 0, U16(0), U32(5),
		U16(8), U16(1 /* DUMP_FLAGS */), U32(2 /* DUMPF_GLOBAL */),
	};

	CHECK_BUILD(mstnl_build_vlan_dump(buf_, size_, SEQ, 5), want);
}

TEST(build_port_msti_set)
{
	static const struct mstnl_msti_state e[] = {
		{ 1, BR_STATE_BLOCKING }, { 2, BR_STATE_FORWARDING },
	};
	static const uint8_t want[] = {
		HDR(80, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(9), U32(0), U32(0),
		U16(48), U16(IFLA_AF_SPEC | NESTED),
		U16(44), U16(6 /* IFLA_BRIDGE_MST */ | NESTED),
		U16(20), U16(1 /* MST_ENTRY */ | NESTED),
		U16(6), U16(1 /* _MSTI */), U16(1), 0, 0,
		U16(5), U16(2 /* _STATE */), 4, 0, 0, 0,
		U16(20), U16(1 | NESTED),
		U16(6), U16(1), U16(2), 0, 0,
		U16(5), U16(2), 3, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_port_msti_set(buf_, size_, SEQ, 9, e, 2),
		    want);
	/* the size the socket layer reserves per entry is enough */
	CHECK(MSTNL_MSTI_ENTRY_SIZE >= 20);
}

TEST(build_port_dump)
{
	static const uint8_t want[] = {
		HDR(40, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP),
		AF_BRIDGE, 0, U16(0), U32(0), U32(0), U32(0),
		U16(8), U16(IFLA_EXT_MASK), U32(1u << 7 /* RTEXT_FILTER_MST */),
	};

	CHECK_BUILD(mstnl_build_port_dump(buf_, size_, SEQ), want);
}

TEST(build_port_state_set)
{
	static const uint8_t want[] = {
		HDR(44, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(9), U32(0), U32(0),
		U16(12), U16(IFLA_PROTINFO | NESTED),
		U16(5), U16(1 /* IFLA_BRPORT_STATE */), 3, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_port_state_set(buf_, size_, SEQ, 9,
					       BR_STATE_FORWARDING), want);
}

TEST(build_port_set_wire_port)
{
	/* What a lab's link port gets: learning off, flushed, every
	 * link-local group but 01:80:c2:00:00:01 forwarded. */
	static const struct mstnl_port_conf conf = {
		.learning = 0, .flush = true, .group_fwd_mask = 0xfffd,
		.state = -1,
	};
	static const uint8_t want[] = {
		HDR(56, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(9), U32(0), U32(0),
		U16(24), U16(IFLA_PROTINFO | NESTED),
		U16(5), U16(IFLA_BRPORT_LEARNING), 0, 0, 0, 0,
		U16(4), U16(IFLA_BRPORT_FLUSH),
		U16(6), U16(IFLA_BRPORT_GROUP_FWD_MASK), U16(0xfffd), 0, 0,
	};

	CHECK_BUILD(mstnl_build_port_set(buf_, size_, SEQ, 9, &conf), want);
}

TEST(build_port_set_flood_off)
{
	/* A one-way silent failure: nothing flooded out of the port (on a
	 * link bridge, which learns nothing, that is every frame). */
	static const struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1, .state = -1,
		.flood = MSTNL_FLOOD_OFF,
	};
	static const uint8_t want[] = {
		HDR(60, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(9), U32(0), U32(0),
		U16(28), U16(IFLA_PROTINFO | NESTED),
		U16(5), U16(IFLA_BRPORT_UNICAST_FLOOD), 0, 0, 0, 0,
		U16(5), U16(IFLA_BRPORT_MCAST_FLOOD), 0, 0, 0, 0,
		U16(5), U16(IFLA_BRPORT_BCAST_FLOOD), 0, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_port_set(buf_, size_, SEQ, 9, &conf), want);
}

TEST(build_port_set_flood_on)
{
	static const struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1, .state = -1,
		.flood = MSTNL_FLOOD_ON,
	};
	static const uint8_t want[] = {
		HDR(60, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		AF_BRIDGE, 0, U16(0), U32(9), U32(0), U32(0),
		U16(28), U16(IFLA_PROTINFO | NESTED),
		U16(5), U16(IFLA_BRPORT_UNICAST_FLOOD), 1, 0, 0, 0,
		U16(5), U16(IFLA_BRPORT_MCAST_FLOOD), 1, 0, 0, 0,
		U16(5), U16(IFLA_BRPORT_BCAST_FLOOD), 1, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_port_set(buf_, size_, SEQ, 9, &conf), want);
}

TEST(build_port_set_state_is_port_state_set)
{
	static const struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1,
		.state = BR_STATE_DISABLED,
	};
	uint8_t a[64], b[64];
	int la = mstnl_build_port_set(a, sizeof(a), SEQ, 9, &conf);

	CHECK_INT(la, 44);
	CHECK_INT(mstnl_build_port_state_set(b, sizeof(b), SEQ, 9,
					     BR_STATE_DISABLED), la);
	CHECK_MEM(a, (size_t)la, b, (size_t)la);
}

TEST(build_bridge_new)
{
	/* A wire (mstlab's link bridges): no STP, 1 s ageing, no
	 * snooping, link-local groups forwarded, no netfilter. */
	static const struct mstnl_bridge_conf conf = {
		.stp_state = 0, .ageing_time = 100, .mcast_snooping = 0,
		.group_fwd_mask = 0xfff8, .nf_call = 0,
	};
	static const uint8_t want[] = {
		HDR(120, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK |
		    NLM_F_CREATE | NLM_F_EXCL),
		/* ifinfomsg: AF_UNSPEC, no index, IFF_UP in flags and change */
		0, 0, U16(0), U32(0), U32(1), U32(1),
		U16(10), U16(IFLA_IFNAME), 'm', 'l', '-', 'l', '1', 0, 0, 0,
		U16(76), U16(IFLA_LINKINFO | NESTED),
		U16(11), U16(IFLA_INFO_KIND), 'b', 'r', 'i', 'd', 'g', 'e', 0, 0,
		U16(60), U16(IFLA_INFO_DATA | NESTED),
		U16(8), U16(IFLA_BR_STP_STATE), U32(0),
		U16(8), U16(IFLA_BR_AGEING_TIME), U32(100),
		U16(5), U16(IFLA_BR_MCAST_SNOOPING), 0, 0, 0, 0,
		U16(6), U16(IFLA_BR_GROUP_FWD_MASK), U16(0xfff8), 0, 0,
		U16(5), U16(IFLA_BR_NF_CALL_IPTABLES), 0, 0, 0, 0,
		U16(5), U16(IFLA_BR_NF_CALL_IP6TABLES), 0, 0, 0, 0,
		U16(5), U16(IFLA_BR_NF_CALL_ARPTABLES), 0, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_bridge_new(buf_, size_, SEQ, "ml-l1", &conf),
		    want);
}

TEST(build_link_del)
{
	static const uint8_t want[] = {
		HDR(44, RTM_DELLINK, NLM_F_REQUEST | NLM_F_ACK),
		0, 0, U16(0), U32(0), U32(0), U32(0),
		U16(10), U16(IFLA_IFNAME), 'm', 'l', '-', 'l', '1', 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_link_del(buf_, size_, SEQ, "ml-l1"), want);
}

TEST(build_link_alias_set)
{
	static const uint8_t want[] = {
		HDR(60, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
		0, 0, U16(0), U32(0), U32(0), U32(0),
		U16(10), U16(IFLA_IFNAME), 'm', 'l', '-', 'l', '1', 0, 0, 0,
		U16(14), U16(IFLA_IFALIAS),
		'l', 'a', 'b', ' ', 'r', 'i', 'n', 'g', '4', 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_link_alias_set(buf_, size_, SEQ, "ml-l1",
					       "lab ring4"), want);
}

TEST(build_link_carrier_set)
{
	for (uint8_t on = 0; on <= 1; on++) {
		const uint8_t want[] = {
			HDR(52, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK),
			0, 0, U16(0), U32(0), U32(0), U32(0),
			U16(12), U16(IFLA_IFNAME),
			'm', 'l', '-', 't', 'a', 'p', '7', 0,
			U16(5), U16(IFLA_CARRIER), on, 0, 0, 0,
		};

		CHECK_BUILD(mstnl_build_link_carrier_set(buf_, size_, SEQ,
							 "ml-tap7", on),
			    want);
	}
}

TEST(build_host_links_reject_bad_arguments)
{
	static const struct mstnl_bridge_conf br = { 0 };
	struct mstnl_port_conf port = { -1, false, -1, -1, MSTNL_FLOOD_LEAVE };
	char alias[MSTNL_ALIAS_MAX + 1];
	uint8_t b[MSTNL_REQ_SIZE + MSTNL_ALIAS_MAX];
	size_t n = sizeof(b);

	CHECK_INT(mstnl_build_bridge_new(b, n, 1, NULL, &br), -EINVAL);
	CHECK_INT(mstnl_build_bridge_new(b, n, 1, "", &br), -EINVAL);
	CHECK_INT(mstnl_build_bridge_new(b, n, 1, "ml-0123456789abc", &br),
		  -EINVAL);	/* 16 characters: one too many */
	CHECK(mstnl_build_bridge_new(b, n, 1, "ml-0123456789ab", &br) > 0);
	CHECK_INT(mstnl_build_link_del(b, n, 1, ""), -EINVAL);
	CHECK_INT(mstnl_build_link_carrier_set(b, n, 1, NULL, true),
		  -EINVAL);
	memset(alias, 'a', sizeof(alias) - 1);
	alias[sizeof(alias) - 1] = 0;
	CHECK_INT(mstnl_build_link_alias_set(b, n, 1, "ml-l1", alias),
		  -EINVAL);
	alias[MSTNL_ALIAS_MAX - 1] = 0;
	CHECK(mstnl_build_link_alias_set(b, n, 1, "ml-l1", alias) > 0);
	CHECK_INT(mstnl_build_link_alias_set(b, n, 1, "ml-l1", NULL), -EINVAL);
	CHECK(mstnl_build_port_set(b, n, 1, 9, &port) > 0);	/* nothing */
	CHECK_INT(mstnl_build_port_set(b, n, 1, 0, &port), -EINVAL);
	port.learning = 2;
	CHECK_INT(mstnl_build_port_set(b, n, 1, 9, &port), -EINVAL);
	port.learning = 1;
	port.state = 5;
	CHECK_INT(mstnl_build_port_set(b, n, 1, 9, &port), -EINVAL);
	port.state = 4;
	port.group_fwd_mask = 0x10000;
	CHECK_INT(mstnl_build_port_set(b, n, 1, 9, &port), -EINVAL);
	port.group_fwd_mask = -1;
	port.flood = MSTNL_FLOOD_OFF + 1;
	CHECK_INT(mstnl_build_port_set(b, n, 1, 9, &port), -EINVAL);
	port.flood = -1;
	CHECK_INT(mstnl_build_port_set(b, n, 1, 9, &port), -EINVAL);
}

/* A lab link's tunnel: VNI, both ends, VXLAN's port, nothing learned,
 * DF left unset, created up with MTU 1500 as a port of its bridge. */
TEST(build_vxlan_new)
{
	static const struct mstnl_vxlan_conf conf = {
		.vni = 0x57f << 10 | 2, .family = AF_INET,
		.local = { 10, 9, 0, 1 }, .remote = { 10, 9, 0, 2 },
		.port = 4789, .master = 7,
	};
	static const uint8_t want[] = {
		HDR(128, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK |
		    NLM_F_CREATE | NLM_F_EXCL),
		0, 0, U16(0), U32(0), U32(1), U32(1),
		U16(10), U16(IFLA_IFNAME), 'm', 'l', '-', 'v', '2', 0, 0, 0,
		U16(8), U16(IFLA_MTU), U32(1500),
		U16(8), U16(IFLA_MASTER), U32(7),
		U16(68), U16(IFLA_LINKINFO | NESTED),
		U16(10), U16(IFLA_INFO_KIND), 'v', 'x', 'l', 'a', 'n', 0, 0, 0,
		U16(52), U16(IFLA_INFO_DATA | NESTED),
		U16(8), U16(IFLA_VXLAN_ID), U32(0x57f << 10 | 2),
		U16(8), U16(IFLA_VXLAN_GROUP), 10, 9, 0, 2,
		U16(8), U16(IFLA_VXLAN_LOCAL), 10, 9, 0, 1,
		/* the port in network order */
		U16(6), U16(IFLA_VXLAN_PORT), 0x12, 0xb5, 0, 0,
		U16(5), U16(IFLA_VXLAN_LEARNING), 0, 0, 0, 0,
		U16(5), U16(IFLA_VXLAN_DF), 0, 0, 0, 0,
	};

	CHECK_BUILD(mstnl_build_vxlan_new(buf_, size_, SEQ, "ml-v2", &conf),
		    want);
}

TEST(build_vxlan_new_ipv6_and_bad_arguments)
{
	struct mstnl_vxlan_conf c = {
		.vni = 5, .family = AF_INET6, .port = 4789, .master = 3,
		.local = { 0xfd, [15] = 1 }, .remote = { 0xfd, [15] = 2 },
	};
	uint8_t b[MSTNL_REQ_SIZE];
	int len = mstnl_build_vxlan_new(b, sizeof(b), 1, "ml-v5", &c);
	const uint8_t group6[] = { U16(20), U16(IFLA_VXLAN_GROUP6), 0xfd };

	CHECK(len > 0);
	CHECK(memmem(b, (size_t)len, group6, sizeof(group6)) != NULL);
	c.vni = 0;
	CHECK_INT(mstnl_build_vxlan_new(b, sizeof(b), 1, "ml-v5", &c), -EINVAL);
	c.vni = 1u << 24;
	CHECK_INT(mstnl_build_vxlan_new(b, sizeof(b), 1, "ml-v5", &c), -EINVAL);
	c.vni = 5;
	c.family = AF_UNIX;
	CHECK_INT(mstnl_build_vxlan_new(b, sizeof(b), 1, "ml-v5", &c), -EINVAL);
	c.family = AF_INET;
	c.master = 0;
	CHECK_INT(mstnl_build_vxlan_new(b, sizeof(b), 1, "ml-v5", &c), -EINVAL);
	c.master = 3;
	CHECK_INT(mstnl_build_vxlan_new(b, sizeof(b), 1, "", &c), -EINVAL);
}

TEST(build_route_get)
{
	static const uint8_t addr[4] = { 10, 9, 0, 2 };
	static const uint8_t want[] = {
		HDR(36, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_ACK),
		/* rtmsg: AF_INET, /32, the rest 0 */
		AF_INET, 32, 0, 0, 0, 0, 0, 0, U32(0),
		U16(8), U16(RTA_DST), 10, 9, 0, 2,
	};
	uint8_t b[64];

	CHECK_BUILD(mstnl_build_route_get(buf_, size_, SEQ, AF_INET, addr),
		    want);
	CHECK_INT(mstnl_build_route_get(b, sizeof(b), 1, AF_UNIX, addr),
		  -EINVAL);
}

TEST(build_fdb_flush_vid)
{
	static const uint8_t want[] = {
		HDR(44, RTM_DELNEIGH,
		    NLM_F_REQUEST | NLM_F_ACK | 0x200 /* NLM_F_BULK */),
		/* ndmsg: family, pad, pad, ifindex, state 0, NTF_MASTER, type */
		AF_BRIDGE, 0, U16(0), U32(9), U16(0), 0x04, 0,
		U16(6), U16(5 /* NDA_VLAN */), U16(10), 0, 0,
		U16(6), U16(16 /* NDA_NDM_STATE_MASK */),
		U16(0xc0 /* NUD_PERMANENT | NUD_NOARP */), 0, 0,
	};

	CHECK_BUILD(mstnl_build_fdb_flush(buf_, size_, SEQ, 9, 10), want);
}

TEST(build_fdb_flush_all_vids)
{
	static const uint8_t want[] = {
		HDR(36, RTM_DELNEIGH, NLM_F_REQUEST | NLM_F_ACK | 0x200),
		AF_BRIDGE, 0, U16(0), U32(9), U16(0), 0x04, 0,
		U16(6), U16(16), U16(0xc0), 0, 0,
	};

	CHECK_BUILD(mstnl_build_fdb_flush(buf_, size_, SEQ, 9, 0), want);
}

TEST(build_rejects_bad_arguments)
{
	struct mstnl_msti_state e = { 1, BR_STATE_BLOCKING };
	uint8_t b[MSTNL_REQ_SIZE];
	size_t n = sizeof(b);

	CHECK_INT(mstnl_build_mst_set(b, n, 1, 0, true), -EINVAL);
	CHECK_INT(mstnl_build_link_get(b, n, 1, -3), -EINVAL);
	CHECK_INT(mstnl_build_vlan_msti_set(b, n, 1, 5, 0, 0, 1), -EINVAL);
	CHECK_INT(mstnl_build_vlan_msti_set(b, n, 1, 5, 4095, 0, 1), -EINVAL);
	CHECK_INT(mstnl_build_vlan_msti_set(b, n, 1, 5, 10, 4095, 1),
		  -EINVAL);
	CHECK_INT(mstnl_build_vlan_msti_set(b, n, 1, 5, 20, 10, 1), -EINVAL);
	CHECK_INT(mstnl_build_vlan_msti_set(b, n, 1, 5, 10, 0, 4095),
		  -EINVAL);
	CHECK(mstnl_build_vlan_msti_set(b, n, 1, 5, 4094, 0, 0) > 0);
	CHECK_INT(mstnl_build_vlan_dump(b, n, 1, 0), -EINVAL);
	CHECK_INT(mstnl_build_port_msti_set(b, n, 1, 9, &e, 0), -EINVAL);
	CHECK_INT(mstnl_build_port_msti_set(b, n, 1, 9, NULL, 1), -EINVAL);
	e.msti = 0;
	CHECK_INT(mstnl_build_port_msti_set(b, n, 1, 9, &e, 1), -EINVAL);
	e.msti = 4095;
	CHECK_INT(mstnl_build_port_msti_set(b, n, 1, 9, &e, 1), -EINVAL);
	e.msti = 4094;
	e.state = 5;
	CHECK_INT(mstnl_build_port_msti_set(b, n, 1, 9, &e, 1), -EINVAL);
	CHECK_INT(mstnl_build_port_state_set(b, n, 1, 9, 5), -EINVAL);
	CHECK_INT(mstnl_build_port_state_set(b, n, 1, 0, 0), -EINVAL);
	CHECK_INT(mstnl_build_fdb_flush(b, n, 1, 9, 4095), -EINVAL);
	CHECK_INT(mstnl_build_fdb_flush(b, n, 1, 0, 10), -EINVAL);
	CHECK_INT(mstnl_build_port_dump(NULL, 100, 1), -ENOBUFS);
	CHECK_INT(mstnl_build_port_dump(b, 0, 1), -ENOBUFS);
}

TEST(state_names)
{
	CHECK_STR(mstnl_state_name(BR_STATE_DISABLED), "disabled");
	CHECK_STR(mstnl_state_name(BR_STATE_LISTENING), "listening");
	CHECK_STR(mstnl_state_name(BR_STATE_LEARNING), "learning");
	CHECK_STR(mstnl_state_name(BR_STATE_FORWARDING), "forwarding");
	CHECK_STR(mstnl_state_name(BR_STATE_BLOCKING), "blocking");
	CHECK_STR(mstnl_state_name(5), "?");
	CHECK_STR(mstnl_state_name(MSTNL_STATE_NONE), "?");
	CHECK_INT(mstnl_state_parse("blocking"), BR_STATE_BLOCKING);
	CHECK_INT(mstnl_state_parse("forwarding"), BR_STATE_FORWARDING);
	CHECK_INT(mstnl_state_parse("disabled"), BR_STATE_DISABLED);
	CHECK_INT(mstnl_state_parse("Forwarding"), -EINVAL);
	CHECK_INT(mstnl_state_parse("discarding"), -EINVAL);
	CHECK_INT(mstnl_state_parse("3"), -EINVAL);
	CHECK_INT(mstnl_state_parse(""), -EINVAL);
	CHECK_INT(mstnl_state_parse(NULL), -EINVAL);
}

/* ---- canned replies: a tiny independent message writer -------------------- */

struct msg {
	uint8_t b[2048];
	size_t len;	/* of the whole buffer (several messages) */
	size_t start;	/* of the current message */
	size_t nest[8];
	int depth;
};

static void put(struct msg *m, const void *p, size_t n)
{
	memcpy(m->b + m->len, p, n);
	m->len += n;
	while (m->len % 4)
		m->b[m->len++] = 0;
}

static void msg_begin(struct msg *m, uint16_t type, uint16_t flags,
		      uint32_t seq, const void *fam, size_t famlen)
{
	struct nlmsghdr h = { 0, type, flags, seq, 0 };

	m->start = m->len;
	m->depth = 0;
	put(m, &h, sizeof(h));
	put(m, fam, famlen);
}

static void msg_end(struct msg *m)
{
	uint32_t len = (uint32_t)(m->len - m->start);

	memcpy(m->b + m->start, &len, sizeof(len));
}

static void attr(struct msg *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr a = { (uint16_t)(sizeof(a) + n), type };
	size_t at = m->len;

	put(m, &a, sizeof(a));
	memcpy(m->b + at + sizeof(a), p, n);
	m->len = at + sizeof(a) + n;
	while (m->len % 4)
		m->b[m->len++] = 0;
}

static void attr_u8(struct msg *m, uint16_t type, uint8_t v)
{
	attr(m, type, &v, 1);
}

static void attr_u16(struct msg *m, uint16_t type, uint16_t v)
{
	attr(m, type, &v, 2);
}

static void attr_u32(struct msg *m, uint16_t type, uint32_t v)
{
	attr(m, type, &v, 4);
}

static void attr_str(struct msg *m, uint16_t type, const char *s)
{
	attr(m, type, s, strlen(s) + 1);
}

static void nest(struct msg *m, uint16_t type)
{
	struct nlattr a = { 0, type };

	m->nest[m->depth++] = m->len;
	put(m, &a, sizeof(a));
}

static void nest_end(struct msg *m)
{
	size_t at = m->nest[--m->depth];
	uint16_t len = (uint16_t)(m->len - at);

	memcpy(m->b + at, &len, sizeof(len));
}

static void ack(struct msg *m, uint32_t seq, int error, const char *text,
		bool capped, uint32_t offs)
{
	struct nlmsgerr e = { .error = error };
	uint16_t flags = 0;

	if (capped)
		flags |= NLM_F_CAPPED;
	if (text || offs)
		flags |= NLM_F_ACK_TLVS;
	/* the echoed header of the request we "sent" */
	e.msg.nlmsg_len = capped ? 16 : 16 + 8;
	e.msg.nlmsg_type = RTM_SETLINK;
	e.msg.nlmsg_seq = seq;
	msg_begin(m, NLMSG_ERROR, flags, seq, &e, sizeof(e));
	if (!capped) {
		static const uint8_t payload[8] = { 7, 0, 0, 0, 9, 0, 0, 0 };

		put(m, payload, sizeof(payload));
	}
	if (text)
		attr_str(m, 1 /* NLMSGERR_ATTR_MSG */, text);
	if (offs)
		attr_u32(m, 2 /* NLMSGERR_ATTR_OFFS */, offs);
	msg_end(m);
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return 0;
}

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	static struct mstnl_port port;

	(void)data;
	return nlh->nlmsg_type == RTM_NEWLINK ? mstnl_parse_port(nlh, &port)
					      : 0;
}

/* Every strict prefix must give an error or "more", never a crash. */
static int parse_prefixes(const struct msg *m, uint32_t seq)
{
	for (size_t n = 0; n < m->len; n++) {
		struct mstnl_err err;
		int ret = mstnl_parse_reply(m->b, n, seq, port_cb, NULL, &err);

		if (ret == 0)
			return (int)n;	/* complete before the end: wrong */
	}
	return -1;
}

TEST(reply_plain_ack)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ, 0, NULL, true, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err), 0);
	CHECK_INT(err.code, 0);
	CHECK(!err.kernel);
	CHECK_STR(err.msg, "");
	CHECK_INT(parse_prefixes(&m, SEQ), -1);
}

/* A batch's acks come in any grouping; each lands at its own index. */
TEST(acks_of_a_batch)
{
	struct mstnl_err errs[3];
	bool done[3] = { false };
	struct msg m = { 0 };

	memset(errs, 0x5a, sizeof(errs));
	ack(&m, SEQ - 1, -EINVAL, "stale", true, 0);	/* given up on */
	ack(&m, SEQ + 2, 0, NULL, true, 0);
	ack(&m, SEQ, -ENETDOWN, "port down", true, 0);
	CHECK_INT(mstnl_parse_acks(m.b, m.len, SEQ, 3, errs, done), 2);
	CHECK(done[0] && !done[1] && done[2]);
	CHECK_INT(errs[0].code, -ENETDOWN);
	CHECK(errs[0].kernel);
	CHECK_STR(errs[0].msg, "port down");
	CHECK_INT(errs[2].code, 0);
	/* A repeated ack counts once; the last one completes the batch. */
	m.len = 0;
	ack(&m, SEQ + 2, 0, NULL, true, 0);
	ack(&m, SEQ + 1, 0, NULL, false, 0);
	CHECK_INT(mstnl_parse_acks(m.b, m.len, SEQ, 3, errs, done), 1);
	CHECK(done[1]);
	CHECK_INT(errs[1].code, 0);
	CHECK_INT(errs[0].code, -ENETDOWN);
	/* Truncated bytes are an error, not a guess. */
	done[0] = done[1] = done[2] = false;
	CHECK_INT(mstnl_parse_acks(m.b, m.len - 1, SEQ, 3, errs, done),
		  -EBADMSG);
	CHECK_INT(mstnl_parse_acks(m.b, 0, SEQ, 3, errs, done), -EBADMSG);
	/* fewer bytes than a header, at the start or after an ack */
	for (size_t n = 1; n < sizeof(struct nlmsghdr); n++)
		CHECK_INT(mstnl_parse_acks(m.b, n, SEQ, 3, errs, done),
			  -EBADMSG);
}

/* Sequence numbers wrap: a batch straddling 2^32 still matches. */
TEST(acks_of_a_batch_across_seq_wrap)
{
	struct mstnl_err errs[2];
	bool done[2] = { false };
	struct msg m = { 0 };

	ack(&m, 0, 0, NULL, true, 0);
	ack(&m, UINT32_MAX, 0, NULL, true, 0);
	CHECK_INT(mstnl_parse_acks(m.b, m.len, UINT32_MAX, 2, errs, done), 2);
	CHECK(done[0] && done[1]);
}

TEST(reply_error_with_extack_capped)
{
	static const char text[] =
		"MST mode can't be changed while VLANs exist";
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ, -EBUSY, text, true, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBUSY);
	CHECK_INT(err.code, -EBUSY);
	CHECK(err.kernel);
	CHECK_STR(err.msg, text);
	CHECK_INT(parse_prefixes(&m, SEQ), -1);
}

TEST(reply_error_with_extack_uncapped)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ, -EINVAL, "Found no MST entries to process", false, 32);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EINVAL);
	CHECK(err.kernel);
	CHECK_STR(err.msg, "Found no MST entries to process");
	CHECK_INT(err.offset, 32);
	CHECK_INT(parse_prefixes(&m, SEQ), -1);
}

TEST(reply_error_without_extack)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ, -ENODEV, NULL, false, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -ENODEV);
	CHECK(err.kernel);
	CHECK_STR(err.msg, "");
}

TEST(reply_ack_with_warning_text)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ, 0, "a warning", true, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err), 0);
	CHECK(!err.kernel);
	CHECK_STR(err.msg, "a warning");
}

TEST(reply_malformed_acks)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	/* extack message without its terminating NUL */
	ack(&m, SEQ, -EBUSY, "x", true, 0);
	m.b[m.len - 4 + 1] = 'y';	/* "x\0" -> "xy", nla_len 6 */
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBADMSG);
	CHECK(err.msg[0] != 0);

	/* an echoed request header whose length lies */
	memset(&m, 0, sizeof(m));
	ack(&m, SEQ, -EBUSY, "text", false, 0);
	m.b[16 + 4] = 200;	/* echoed nlmsg_len: past the end */
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBADMSG);
	m.b[16 + 4] = 3;	/* shorter than a header */
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBADMSG);

	/* a positive error code is not an errno */
	memset(&m, 0, sizeof(m));
	ack(&m, SEQ, 5, NULL, true, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBADMSG);

	/* nlmsg_len larger than the datagram */
	memset(&m, 0, sizeof(m));
	ack(&m, SEQ, 0, NULL, true, 0);
	m.b[0] = 200;
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EBADMSG);
	CHECK_STR(err.msg, "truncated netlink message");

	/* empty datagram, no buffer */
	CHECK_INT(mstnl_parse_reply(m.b, 0, SEQ, NULL, NULL, &err), -EBADMSG);
	CHECK_INT(mstnl_parse_reply(NULL, 10, SEQ, NULL, NULL, NULL), -EINVAL);
}

TEST(reply_foreign_sequence)
{
	struct msg m = { 0 };
	struct mstnl_err err;

	ack(&m, SEQ + 1, 0, NULL, true, 0);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EPROTO);
}

TEST(reply_dump_in_parts)
{
	struct ifinfomsg ifm = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };
	struct msg m = { 0 }, done = { 0 };
	struct mstnl_err err;
	int zero = 0, count = 0;

	msg_begin(&m, RTM_NEWLINK, NLM_F_MULTI, SEQ, &ifm, sizeof(ifm));
	msg_end(&m);
	msg_begin(&m, RTM_NEWLINK, NLM_F_MULTI, SEQ, &ifm, sizeof(ifm));
	msg_end(&m);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, count_cb, &count, &err),
		  1);
	CHECK_INT(count, 2);
	msg_begin(&done, NLMSG_DONE, NLM_F_MULTI, SEQ, &zero, sizeof(zero));
	msg_end(&done);
	CHECK_INT(mstnl_parse_reply(done.b, done.len, SEQ, count_cb, &count,
				    &err), 0);
	CHECK_INT(count, 2);
}

static int fail_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return -ECANCELED;
}

TEST(reply_dump_errors)
{
	struct ifinfomsg ifm = { .ifi_family = AF_BRIDGE };
	int code = -EOPNOTSUPP;
	struct msg m = { 0 };
	struct mstnl_err err;
	int count = 0;

	/* a dump that fails reports its error (and extack) in NLMSG_DONE */
	msg_begin(&m, NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS, SEQ, &code,
		  sizeof(code));
	attr_str(&m, 1, "dump refused");
	msg_end(&m);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, NULL, NULL, &err),
		  -EOPNOTSUPP);
	CHECK(err.kernel);
	CHECK_STR(err.msg, "dump refused");

	/* an interrupted dump cannot be trusted */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, NLM_F_MULTI | NLM_F_DUMP_INTR, SEQ, &ifm,
		  sizeof(ifm));
	msg_end(&m);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, count_cb, &count, &err),
		  -EINTR);
	CHECK_INT(count, 0);

	/* the callback's error stops the walk */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, NLM_F_MULTI, SEQ, &ifm, sizeof(ifm));
	msg_end(&m);
	CHECK_INT(mstnl_parse_reply(m.b, m.len, SEQ, fail_cb, NULL, &err),
		  -ECANCELED);
}

/* ---- links, VLANs, ports -------------------------------------------------- */

static void bridge_link(struct msg *m, uint32_t optval, uint32_t optmask)
{
	struct ifinfomsg ifm = { .ifi_index = 5 };
	uint32_t bm[2] = { optval, optmask };

	msg_begin(m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
	attr_str(m, IFLA_IFNAME, "br0");
	attr_u32(m, IFLA_MTU, 1500);
	attr_u8(m, IFLA_OPERSTATE, 6);
	nest(m, IFLA_LINKINFO | NESTED);
	attr_str(m, IFLA_INFO_KIND, "bridge");
	nest(m, IFLA_INFO_DATA | NESTED);
	attr_u32(m, IFLA_BR_FORWARD_DELAY, 1500);
	attr_u8(m, IFLA_BR_VLAN_FILTERING, 1);
	attr(m, IFLA_BR_MULTI_BOOLOPT, bm, sizeof(bm));
	nest_end(m);
	nest_end(m);
	msg_end(m);
}

TEST(parse_link_bridge)
{
	struct msg m = { 0 };
	struct mstnl_link l;

	bridge_link(&m, 1u << 2, 7);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), 0);
	CHECK_INT(l.ifindex, 5);
	CHECK_STR(l.ifname, "br0");
	CHECK_STR(l.alias, "");
	CHECK_INT(l.master, 0);
	CHECK_INT(l.operstate, 6);
	CHECK(l.is_bridge);
	CHECK(!l.is_bridge_port);
	CHECK(l.vlan_filtering);
	CHECK(l.mst_supported);
	CHECK(l.mst_enabled);
	CHECK_INT(l.mtu, 1500);

	memset(&m, 0, sizeof(m));
	bridge_link(&m, 0, 7);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), 0);
	CHECK(l.mst_supported);
	CHECK(!l.mst_enabled);

	/* a kernel without MST: the bit is not in the mask */
	memset(&m, 0, sizeof(m));
	bridge_link(&m, 1u << 2, 3);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), 0);
	CHECK(!l.mst_supported);
	CHECK(!l.mst_enabled);
}

TEST(parse_link_port)
{
	struct ifinfomsg ifm = { .ifi_index = 9 };
	struct msg m = { 0 };
	struct mstnl_link l;

	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
	attr_str(&m, IFLA_IFNAME, "p1");
	attr_u32(&m, IFLA_MASTER, 5);
	attr_str(&m, IFLA_IFALIAS, "mstlab ring4");
	nest(&m, IFLA_LINKINFO | NESTED);
	attr_str(&m, IFLA_INFO_KIND, "veth");
	attr_str(&m, IFLA_INFO_SLAVE_KIND, "bridge");
	nest(&m, IFLA_INFO_DATA | NESTED);
	attr_u8(&m, IFLA_BR_VLAN_FILTERING, 1);	/* ignored: not a bridge */
	nest_end(&m);
	nest_end(&m);
	msg_end(&m);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), 0);
	CHECK_STR(l.ifname, "p1");
	CHECK_STR(l.alias, "mstlab ring4");
	CHECK_INT(l.master, 5);
	CHECK(!l.is_bridge);
	CHECK(l.is_bridge_port);
	CHECK(!l.vlan_filtering);
}

TEST(parse_route_oif)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 32 };
	const uint8_t dst[4] = { 10, 9, 0, 2 };
	struct msg m = { 0 };
	int oif = -1;

	msg_begin(&m, RTM_NEWROUTE, 0, SEQ, &rtm, sizeof(rtm));
	attr(&m, RTA_DST, dst, sizeof(dst));
	attr_u32(&m, RTA_OIF, 9);
	msg_end(&m);
	CHECK_INT(mstnl_parse_route_oif((struct nlmsghdr *)m.b, &oif), 0);
	CHECK_INT(oif, 9);
	/* a route without an interface (unreachable, a blackhole) */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWROUTE, 0, SEQ, &rtm, sizeof(rtm));
	attr(&m, RTA_DST, dst, sizeof(dst));
	msg_end(&m);
	CHECK_INT(mstnl_parse_route_oif((struct nlmsghdr *)m.b, &oif), -ENOENT);
	/* a short RTA_OIF, a short header */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWROUTE, 0, SEQ, &rtm, sizeof(rtm));
	attr(&m, RTA_OIF, dst, 2);
	msg_end(&m);
	CHECK_INT(mstnl_parse_route_oif((struct nlmsghdr *)m.b, &oif), -EBADMSG);
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWROUTE, 0, SEQ, &rtm, 4);
	msg_end(&m);
	CHECK_INT(mstnl_parse_route_oif((struct nlmsghdr *)m.b, &oif), -EBADMSG);
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &rtm, sizeof(rtm));
	msg_end(&m);
	CHECK_INT(mstnl_parse_route_oif((struct nlmsghdr *)m.b, &oif), -EPROTO);
}

TEST(err_text)
{
	struct mstnl_err e = { .code = -EEXIST, .kernel = true };
	char buf[MSTNL_MSG_MAX + 64];

	CHECK_STR(mstnl_err_text(&e, buf, sizeof(buf)), "File exists");
	snprintf(e.msg, sizeof(e.msg), "Port is not a bridge port");
	CHECK_STR(mstnl_err_text(&e, buf, sizeof(buf)),
		  "Port is not a bridge port (File exists)");
}

TEST(parse_link_malformed)
{
	struct ifinfomsg ifm = { .ifi_index = 9 };
	char name[20];
	struct msg m = { 0 };
	struct mstnl_link l;

	/* an interface name longer than IFNAMSIZ */
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
	attr_str(&m, IFLA_IFNAME, name);
	msg_end(&m);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), -EBADMSG);

	/* a u32 attribute with 2 bytes */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
	attr_u16(&m, IFLA_MASTER, 5);
	msg_end(&m);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), -EBADMSG);

	/* an attribute running past the message */
	memset(&m, 0, sizeof(m));
	bridge_link(&m, 0, 7);
	m.b[32] = 0xff;		/* IFLA_IFNAME's nla_len */
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), -EBADMSG);

	/* a message too short for its ifinfomsg, or of the wrong type */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, 8);
	msg_end(&m);
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), -EBADMSG);
	((struct nlmsghdr *)m.b)->nlmsg_type = RTM_DELLINK;
	CHECK_INT(mstnl_parse_link((struct nlmsghdr *)m.b, &l), -EPROTO);
}

static void vlan_global(struct msg *m, int ifindex, uint16_t vid,
			uint16_t end, uint16_t msti)
{
	struct br_vlan_msg bvm = { .family = AF_BRIDGE, .ifindex = ifindex };

	msg_begin(m, 112, NLM_F_MULTI, SEQ, &bvm, sizeof(bvm));
	nest(m, 2 | NESTED);
	attr_u16(m, 1, vid);
	if (end)
		attr_u16(m, 2, end);
	attr_u8(m, 3 /* MCAST_SNOOPING: ignored */, 1);
	attr_u16(m, 18, msti);
	nest_end(m);
	msg_end(m);
}

TEST(parse_vlan_global)
{
	static struct mstnl_vid_map map;
	struct msg m = { 0 };
	const struct nlmsghdr *nlh = (const void *)m.b;

	memset(&map, 0, sizeof(map));
	vlan_global(&m, 5, 10, 20, 1);
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), 0);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 5, 30, 0, 2);
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), 0);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 6, 40, 0, 3);	/* another bridge: ignored */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), 0);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 5, 50, 0, 4095);	/* the kernel allows 4095 */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), 0);
	CHECK_INT(map.msti[50], 4095);

	CHECK(!mstnl_vid_map_has(&map, 9));
	CHECK(mstnl_vid_map_has(&map, 10));
	CHECK(mstnl_vid_map_has(&map, 20));
	CHECK(!mstnl_vid_map_has(&map, 21));
	CHECK(mstnl_vid_map_has(&map, 30));
	CHECK(!mstnl_vid_map_has(&map, 40));
	CHECK(!mstnl_vid_map_has(&map, 5000));
	CHECK_INT(map.msti[10], 1);
	CHECK_INT(map.msti[15], 1);
	CHECK_INT(map.msti[20], 1);
	CHECK_INT(map.msti[30], 2);
}

TEST(parse_vlan_global_malformed)
{
	static struct mstnl_vid_map map;
	struct br_vlan_msg bvm = { .family = AF_BRIDGE, .ifindex = 5 };
	struct msg m = { 0 };
	const struct nlmsghdr *nlh = (const void *)m.b;

	vlan_global(&m, 5, 20, 10, 1);		/* range backwards */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), -EBADMSG);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 5, 0, 0, 1);		/* VID 0 */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), -EBADMSG);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 5, 10, 4095, 1);	/* VID 4095 */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), -EBADMSG);
	memset(&m, 0, sizeof(m));
	vlan_global(&m, 5, 10, 0, 4096);	/* MSTI 4096 */
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), -EBADMSG);

	memset(&m, 0, sizeof(m));		/* no VID at all */
	msg_begin(&m, 112, NLM_F_MULTI, SEQ, &bvm, sizeof(bvm));
	nest(&m, 2 | NESTED);
	attr_u16(&m, 18, 1);
	nest_end(&m);
	msg_end(&m);
	CHECK_INT(mstnl_parse_vlan_global(nlh, 5, &map), -EBADMSG);
}

static void port_msg(struct msg *m, bool with_mst)
{
	struct ifinfomsg ifm = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };

	msg_begin(m, RTM_NEWLINK, NLM_F_MULTI, SEQ, &ifm, sizeof(ifm));
	attr_str(m, IFLA_IFNAME, "p1");
	attr_u32(m, IFLA_MASTER, 5);
	attr_u32(m, IFLA_MTU, 1500);
	nest(m, IFLA_PROTINFO | NESTED);
	attr_u8(m, IFLA_BRPORT_STATE, 3);
	attr_u16(m, IFLA_BRPORT_PRIORITY, 32);
	nest_end(m);
	nest(m, IFLA_AF_SPEC);	/* the kernel sets no NLA_F_NESTED here */
	if (with_mst) {
		nest(m, 6 | NESTED);
		nest(m, 1);
		attr_u16(m, 1, 0);
		attr_u8(m, 2, 3);
		nest_end(m);
		nest(m, 1);
		attr_u16(m, 1, 4094);
		attr_u8(m, 2, 4);
		nest_end(m);
		nest_end(m);
	}
	nest_end(m);
	msg_end(m);
}

TEST(parse_port_with_mst)
{
	static struct mstnl_port p;
	struct msg m = { 0 };

	port_msg(&m, true);
	CHECK_INT(mstnl_parse_port((struct nlmsghdr *)m.b, &p), 0);
	CHECK_INT(p.ifindex, 9);
	CHECK_STR(p.ifname, "p1");
	CHECK_INT(p.master, 5);
	CHECK_INT(p.state, 3);
	CHECK(p.has_mst);
	CHECK_INT(p.msti_state[0], 3);
	CHECK_INT(p.msti_state[4094], 4);
	CHECK_INT(p.msti_state[1], MSTNL_STATE_NONE);
	CHECK_INT(p.msti_state[4095], MSTNL_STATE_NONE);
	CHECK_INT(parse_prefixes(&m, SEQ), -1);
}

TEST(parse_port_without_mst)
{
	static struct mstnl_port p;
	struct ifinfomsg ifm = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };
	struct msg m = { 0 };

	port_msg(&m, false);
	CHECK_INT(mstnl_parse_port((struct nlmsghdr *)m.b, &p), 0);
	CHECK(!p.has_mst);
	CHECK_INT(p.msti_state[0], MSTNL_STATE_NONE);

	/* the legacy flat IFLA_PROTINFO carries the state as a u8 */
	memset(&m, 0, sizeof(m));
	msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
	attr_u8(&m, IFLA_PROTINFO, 4);
	msg_end(&m);
	CHECK_INT(mstnl_parse_port((struct nlmsghdr *)m.b, &p), 0);
	CHECK_INT(p.state, 4);

	/* a link of another family is not a bridge port message */
	((struct ifinfomsg *)(m.b + 16))->ifi_family = AF_UNSPEC;
	CHECK_INT(mstnl_parse_port((struct nlmsghdr *)m.b, &p), -EPROTO);
}

TEST(parse_port_malformed_entries)
{
	static struct mstnl_port p;
	struct ifinfomsg ifm = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };
	static const struct {
		int msti;	/* -1: leave out */
		int state;
	} bad[] = { { 5000, 3 }, { 1, 7 }, { -1, 3 }, { 1, -1 } };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct msg m = { 0 };

		msg_begin(&m, RTM_NEWLINK, 0, SEQ, &ifm, sizeof(ifm));
		nest(&m, IFLA_AF_SPEC);
		nest(&m, 6 | NESTED);
		nest(&m, 1);
		if (bad[i].msti >= 0)
			attr_u16(&m, 1, (uint16_t)bad[i].msti);
		if (bad[i].state >= 0)
			attr_u8(&m, 2, (uint8_t)bad[i].state);
		nest_end(&m);
		nest_end(&m);
		nest_end(&m);
		msg_end(&m);
		CHECK_INT(mstnl_parse_port((struct nlmsghdr *)m.b, &p),
			  -EBADMSG);
	}
}

/* ---- notifications ------------------------------------------------------------ */

struct seen {
	struct mstnl_event ev[8];
	int n;
};

static int event_cb(const struct mstnl_event *ev, void *data)
{
	struct seen *s = data;

	if (s->n < 8)
		s->ev[s->n++] = *ev;
	return 0;
}

static void events_datagram(struct msg *m)
{
	struct ifinfomsg link = { .ifi_index = 9 };
	struct ifinfomsg port = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };
	struct br_vlan_msg bvm = { .family = AF_BRIDGE, .ifindex = 9 };
	struct bridge_vlan_info vi = {
		BRIDGE_VLAN_INFO_PVID | BRIDGE_VLAN_INFO_UNTAGGED, 10
	};
	struct ndmsg fdb = { .ndm_family = AF_BRIDGE, .ndm_ifindex = 9,
			     .ndm_state = NUD_REACHABLE,
			     .ndm_flags = NTF_MASTER };
	struct ndmsg arp = { .ndm_family = 2 /* AF_INET */, .ndm_ifindex = 3 };
	struct rtmsg rt = { .rtm_family = 2 };
	static const uint8_t mac[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };

	msg_begin(m, RTM_NEWLINK, 0, 0, &link, sizeof(link));
	attr_str(m, IFLA_IFNAME, "p1");
	attr_u32(m, IFLA_MASTER, 5);
	attr_u8(m, IFLA_OPERSTATE, 2 /* IF_OPER_DOWN */);
	msg_end(m);

	msg_begin(m, RTM_NEWLINK, 0, 0, &port, sizeof(port));
	attr_str(m, IFLA_IFNAME, "p1");
	attr_u32(m, IFLA_MASTER, 5);
	nest(m, IFLA_PROTINFO | NESTED);
	attr_u8(m, IFLA_BRPORT_STATE, 4);
	nest_end(m);
	msg_end(m);

	msg_begin(m, 112, 0, 0, &bvm, sizeof(bvm));
	nest(m, BRIDGE_VLANDB_ENTRY | NESTED);
	attr(m, BRIDGE_VLANDB_ENTRY_INFO, &vi, sizeof(vi));
	attr_u16(m, BRIDGE_VLANDB_ENTRY_RANGE, 12);
	attr_u8(m, BRIDGE_VLANDB_ENTRY_STATE, 3);
	nest_end(m);
	msg_end(m);

	bvm.ifindex = 5;
	msg_begin(m, 112, 0, 0, &bvm, sizeof(bvm));
	nest(m, 2 | NESTED);
	attr_u16(m, 1, 30);
	attr_u16(m, 18, 2);
	nest_end(m);
	msg_end(m);

	msg_begin(m, RTM_NEWNEIGH, 0, 0, &arp, sizeof(arp));	/* skipped */
	msg_end(m);
	msg_begin(m, RTM_NEWROUTE, 0, 0, &rt, sizeof(rt));	/* skipped */
	msg_end(m);

	msg_begin(m, RTM_DELNEIGH, 0, 0, &fdb, sizeof(fdb));
	attr(m, NDA_LLADDR, mac, sizeof(mac));
	attr_u16(m, NDA_VLAN, 10);
	attr_u32(m, NDA_MASTER, 5);
	msg_end(m);
}

TEST(events_decode)
{
	static const uint8_t mac[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
	struct msg m = { 0 };
	struct seen s = { 0 };
	const struct mstnl_event *e = s.ev;

	events_datagram(&m);
	CHECK_INT(mstnl_parse_events(m.b, m.len, event_cb, &s), 5);
	CHECK_INT(s.n, 5);

	CHECK_INT(e[0].type, MSTNL_EV_LINK);
	CHECK_INT(e[0].ifindex, 9);
	CHECK_STR(e[0].ifname, "p1");
	CHECK_INT(e[0].master, 5);
	CHECK_INT(e[0].link.operstate, 2);
	CHECK(!e[0].deleted);

	CHECK_INT(e[1].type, MSTNL_EV_PORT);
	CHECK_INT(e[1].port.state, 4);

	CHECK_INT(e[2].type, MSTNL_EV_VLAN);
	CHECK_INT(e[2].ifindex, 9);
	CHECK_INT(e[2].vlan.vid, 10);
	CHECK_INT(e[2].vlan.vid_end, 12);
	CHECK_INT(e[2].vlan.flags,
		  BRIDGE_VLAN_INFO_PVID | BRIDGE_VLAN_INFO_UNTAGGED);
	CHECK_INT(e[2].vlan.state, 3);

	CHECK_INT(e[3].type, MSTNL_EV_VLAN_GLOBAL);
	CHECK_INT(e[3].ifindex, 5);
	CHECK_INT(e[3].vlan_global.vid, 30);
	CHECK_INT(e[3].vlan_global.vid_end, 30);
	CHECK(e[3].vlan_global.has_msti);
	CHECK_INT(e[3].vlan_global.msti, 2);

	CHECK_INT(e[4].type, MSTNL_EV_FDB);
	CHECK(e[4].deleted);
	CHECK_INT(e[4].ifindex, 9);
	CHECK_INT(e[4].master, 5);
	CHECK_INT(e[4].fdb.vid, 10);
	CHECK_INT(e[4].fdb.ndm_state, NUD_REACHABLE);
	CHECK_MEM(e[4].fdb.mac, 6, mac, 6);
}

TEST(events_port_without_state)
{
	struct ifinfomsg port = { .ifi_family = AF_BRIDGE, .ifi_index = 9 };
	struct msg m = { 0 };
	struct seen s = { 0 };

	msg_begin(&m, RTM_DELLINK, 0, 0, &port, sizeof(port));
	attr_str(&m, IFLA_IFNAME, "p1");
	msg_end(&m);
	CHECK_INT(mstnl_parse_events(m.b, m.len, event_cb, &s), 1);
	CHECK(s.ev[0].deleted);
	CHECK_INT(s.ev[0].port.state, MSTNL_STATE_NONE);
}

TEST(events_truncated_never_crash)
{
	struct msg m = { 0 };

	events_datagram(&m);
	for (size_t n = 0; n < m.len; n++) {
		struct seen s = { 0 };
		int ret = mstnl_parse_events(m.b, n, event_cb, &s);

		/* a cut inside a message is an error; at a boundary, fewer */
		CHECK(ret < 0 ? ret == -EBADMSG : ret < 5);
	}
	/* flipping each length byte must not crash either */
	for (size_t i = 0; i < m.len; i++) {
		struct msg c = m;
		struct seen s = { 0 };

		c.b[i] ^= 0xff;
		(void)mstnl_parse_events(c.b, c.len, event_cb, &s);
	}
}

TEST(events_malformed)
{
	struct ndmsg fdb = { .ndm_family = AF_BRIDGE, .ndm_ifindex = 9 };
	struct msg m = { 0 };
	struct seen s = { 0 };

	/* a MAC address of 4 bytes */
	msg_begin(&m, RTM_NEWNEIGH, 0, 0, &fdb, sizeof(fdb));
	attr_u32(&m, NDA_LLADDR, 0x12345678);
	msg_end(&m);
	CHECK_INT(mstnl_parse_events(m.b, m.len, event_cb, &s), -EBADMSG);
	CHECK_INT(s.n, 0);
	CHECK_INT(mstnl_parse_events(m.b, m.len, NULL, &s), -EINVAL);
}
