// SPDX-License-Identifier: MIT
/*
 * mstnl request builders: pure functions that write one rtnetlink request
 * into a caller buffer. Sequence numbers come from the caller; the port id
 * stays 0 (the kernel fills in the sender).
 */
#include "mstnl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

/* Starts a message with a zeroed family header of @hdrlen bytes. */
static struct nlmsghdr *put_header(void *buf, size_t size, uint16_t type,
				   uint16_t flags, uint32_t seq, size_t hdrlen)
{
	struct nlmsghdr *nlh;

	if (!buf || size < MNL_NLMSG_HDRLEN + MNL_ALIGN(hdrlen))
		return NULL;
	/* libmnl 1.0.4 leaves attribute padding as it finds it */
	memset(buf, 0, size);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	mnl_nlmsg_put_extra_header(nlh, hdrlen);
	return nlh;
}

/*
 * Opens IFLA_LINKINFO with kind "bridge" and, inside it, IFLA_INFO_DATA
 * (the bridge's options go there); NULL if the buffer is too small.
 * Changelink needs the kind too, or the kernel ignores the data.
 */
static struct nlattr *start_bridge_data(struct nlmsghdr *nlh, size_t size,
					struct nlattr **linkinfo)
{
	*linkinfo = mnl_attr_nest_start_check(nlh, size, IFLA_LINKINFO);
	if (!*linkinfo ||
	    !mnl_attr_put_strz_check(nlh, size, IFLA_INFO_KIND, "bridge"))
		return NULL;
	return mnl_attr_nest_start_check(nlh, size, IFLA_INFO_DATA);
}

static bool valid_ifindex(int ifindex)
{
	return ifindex > 0;
}

static bool valid_state(uint8_t state)
{
	return state <= BR_STATE_BLOCKING;
}

/* One bridge option of an existing bridge: RTM_NEWLINK on @br_ifindex
 * with IFLA_INFO_DATA holding @type (@len bytes of @val). */
static int bridge_option(void *buf, size_t size, uint32_t seq, int br_ifindex,
			 uint16_t type, size_t len, const void *val)
{
	struct nlattr *linkinfo, *data;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	if (!valid_ifindex(br_ifindex))
		return -EINVAL;
	nlh = put_header(buf, size, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK,
			 seq, sizeof(*ifm));
	if (!nlh)
		return -ENOBUFS;
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = br_ifindex;

	data = start_bridge_data(nlh, size, &linkinfo);
	if (!data || !mnl_attr_put_check(nlh, size, type, len, val))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh->nlmsg_len;
}

int mstnl_build_mst_set(void *buf, size_t size, uint32_t seq, int br_ifindex,
			bool on)
{
	struct br_boolopt_multi bm = {
		.optval = on ? 1u << BR_BOOLOPT_MST_ENABLE : 0,
		.optmask = 1u << BR_BOOLOPT_MST_ENABLE,
	};

	return bridge_option(buf, size, seq, br_ifindex, IFLA_BR_MULTI_BOOLOPT,
			     sizeof(bm), &bm);
}

int mstnl_build_ageing_set(void *buf, size_t size, uint32_t seq,
			   int br_ifindex, uint32_t cs)
{
	return bridge_option(buf, size, seq, br_ifindex, IFLA_BR_AGEING_TIME,
			     sizeof(cs), &cs);
}

int mstnl_build_link_get(void *buf, size_t size, uint32_t seq, int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	if (!valid_ifindex(ifindex))
		return -EINVAL;
	nlh = put_header(buf, size, RTM_GETLINK, NLM_F_REQUEST | NLM_F_ACK,
			 seq, sizeof(*ifm));
	if (!nlh)
		return -ENOBUFS;
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	if (!mnl_attr_put_u32_check(nlh, size, IFLA_EXT_MASK,
				    RTEXT_FILTER_SKIP_STATS))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

static struct nlmsghdr *put_vlan_header(void *buf, size_t size, uint16_t type,
					uint16_t flags, uint32_t seq,
					int ifindex)
{
	struct nlmsghdr *nlh;
	struct br_vlan_msg *bvm;

	nlh = put_header(buf, size, type, flags, seq, sizeof(*bvm));
	if (!nlh)
		return NULL;
	bvm = mnl_nlmsg_get_payload(nlh);
	bvm->family = AF_BRIDGE;
	bvm->ifindex = ifindex;
	return nlh;
}

int mstnl_build_vlan_msti_set(void *buf, size_t size, uint32_t seq,
			      int br_ifindex, uint16_t vid, uint16_t vid_end,
			      uint16_t msti)
{
	struct nlmsghdr *nlh;
	struct nlattr *opts;

	if (!valid_ifindex(br_ifindex) || vid < MSTNL_VID_MIN ||
	    vid > MSTNL_VID_MAX || vid_end > MSTNL_VID_MAX ||
	    (vid_end && vid_end < vid) || msti > MSTNL_MSTI_MAX)
		return -EINVAL;
	nlh = put_vlan_header(buf, size, RTM_NEWVLAN,
			      NLM_F_REQUEST | NLM_F_ACK, seq, br_ifindex);
	if (!nlh)
		return -ENOBUFS;
	opts = mnl_attr_nest_start_check(nlh, size,
					 BRIDGE_VLANDB_GLOBAL_OPTIONS);
	if (!opts ||
	    !mnl_attr_put_u16_check(nlh, size, BRIDGE_VLANDB_GOPTS_ID, vid))
		return -ENOBUFS;
	/* the kernel wants RANGE only for a real range (end > start) */
	if (vid_end > vid &&
	    !mnl_attr_put_u16_check(nlh, size, BRIDGE_VLANDB_GOPTS_RANGE,
				    vid_end))
		return -ENOBUFS;
	if (!mnl_attr_put_u16_check(nlh, size, BRIDGE_VLANDB_GOPTS_MSTI, msti))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, opts);
	return nlh->nlmsg_len;
}

int mstnl_build_vlan_dump(void *buf, size_t size, uint32_t seq,
			  int br_ifindex)
{
	struct nlmsghdr *nlh;

	if (!valid_ifindex(br_ifindex))
		return -EINVAL;
	nlh = put_vlan_header(buf, size, RTM_GETVLAN,
			      NLM_F_REQUEST | NLM_F_DUMP, seq, br_ifindex);
	if (!nlh)
		return -ENOBUFS;
	if (!mnl_attr_put_u32_check(nlh, size, BRIDGE_VLANDB_DUMP_FLAGS,
				    BRIDGE_VLANDB_DUMPF_GLOBAL))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

static struct nlmsghdr *put_bridge_link(void *buf, size_t size, uint16_t type,
					uint16_t flags, uint32_t seq,
					int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	nlh = put_header(buf, size, type, flags, seq, sizeof(*ifm));
	if (!nlh)
		return NULL;
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_family = AF_BRIDGE;
	ifm->ifi_index = ifindex;
	return nlh;
}

int mstnl_build_port_msti_set(void *buf, size_t size, uint32_t seq,
			      int port_ifindex,
			      const struct mstnl_msti_state *entries, size_t n)
{
	struct nlattr *af, *mst, *entry;
	struct nlmsghdr *nlh;

	if (!valid_ifindex(port_ifindex) || !entries || n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (entries[i].msti < 1 || entries[i].msti > MSTNL_MSTI_MAX ||
		    !valid_state(entries[i].state))
			return -EINVAL;
	nlh = put_bridge_link(buf, size, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK,
			      seq, port_ifindex);
	if (!nlh)
		return -ENOBUFS;
	af = mnl_attr_nest_start_check(nlh, size, IFLA_AF_SPEC);
	mst = af ? mnl_attr_nest_start_check(nlh, size, IFLA_BRIDGE_MST) : NULL;
	if (!mst)
		return -ENOBUFS;
	for (size_t i = 0; i < n; i++) {
		/* NLA_F_NESTED matters: the kernel parses entries strictly */
		entry = mnl_attr_nest_start_check(nlh, size,
						  IFLA_BRIDGE_MST_ENTRY);
		if (!entry ||
		    !mnl_attr_put_u16_check(nlh, size,
					    IFLA_BRIDGE_MST_ENTRY_MSTI,
					    entries[i].msti) ||
		    !mnl_attr_put_u8_check(nlh, size,
					   IFLA_BRIDGE_MST_ENTRY_STATE,
					   entries[i].state))
			return -ENOBUFS;
		mnl_attr_nest_end(nlh, entry);
	}
	mnl_attr_nest_end(nlh, mst);
	mnl_attr_nest_end(nlh, af);
	return nlh->nlmsg_len;
}

int mstnl_build_port_dump(void *buf, size_t size, uint32_t seq)
{
	struct nlmsghdr *nlh;

	nlh = put_bridge_link(buf, size, RTM_GETLINK,
			      NLM_F_REQUEST | NLM_F_DUMP, seq, 0);
	if (!nlh)
		return -ENOBUFS;
	if (!mnl_attr_put_u32_check(nlh, size, IFLA_EXT_MASK,
				    RTEXT_FILTER_MST))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

int mstnl_build_port_set(void *buf, size_t size, uint32_t seq,
			 int port_ifindex, const struct mstnl_port_conf *conf)
{
	struct nlmsghdr *nlh;
	struct nlattr *protinfo;
	bool ok;

	/* negative: leave as it is */
	if (!valid_ifindex(port_ifindex) || conf->learning > 1 ||
	    conf->group_fwd_mask > 0xffff || conf->state > BR_STATE_BLOCKING ||
	    conf->flood < MSTNL_FLOOD_LEAVE || conf->flood > MSTNL_FLOOD_OFF)
		return -EINVAL;
	nlh = put_bridge_link(buf, size, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK,
			      seq, port_ifindex);
	if (!nlh)
		return -ENOBUFS;
	/* nested form: a flat u8 IFLA_PROTINFO is the legacy RSTP encoding */
	protinfo = mnl_attr_nest_start_check(nlh, size, IFLA_PROTINFO);
	ok = protinfo != NULL;
	if (ok && conf->learning >= 0)
		ok = mnl_attr_put_u8_check(nlh, size, IFLA_BRPORT_LEARNING,
					   (uint8_t)conf->learning);
	if (ok && conf->flush)
		ok = mnl_attr_put_check(nlh, size, IFLA_BRPORT_FLUSH, 0, NULL);
	if (ok && conf->group_fwd_mask >= 0)
		ok = mnl_attr_put_u16_check(nlh, size,
					    IFLA_BRPORT_GROUP_FWD_MASK,
					    (uint16_t)conf->group_fwd_mask);
	if (ok && conf->state >= 0)
		ok = mnl_attr_put_u8_check(nlh, size, IFLA_BRPORT_STATE,
					   (uint8_t)conf->state);
	for (int i = 0; ok && conf->flood != MSTNL_FLOOD_LEAVE && i < 3; i++) {
		static const uint16_t floods[] = { IFLA_BRPORT_UNICAST_FLOOD,
			IFLA_BRPORT_MCAST_FLOOD, IFLA_BRPORT_BCAST_FLOOD };

		ok = mnl_attr_put_u8_check(nlh, size, floods[i],
					   conf->flood == MSTNL_FLOOD_ON);
	}
	if (!ok)
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, protinfo);
	return nlh->nlmsg_len;
}

int mstnl_build_port_state_set(void *buf, size_t size, uint32_t seq,
			       int port_ifindex, uint8_t state)
{
	struct mstnl_port_conf conf = {
		.learning = -1, .group_fwd_mask = -1, .state = state,
	};

	return mstnl_build_port_set(buf, size, seq, port_ifindex, &conf);
}

int mstnl_build_fdb_flush(void *buf, size_t size, uint32_t seq,
			  int port_ifindex, uint16_t vid)
{
	struct nlmsghdr *nlh;
	struct ndmsg *ndm;

	if (!valid_ifindex(port_ifindex) || vid > MSTNL_VID_MAX)
		return -EINVAL;
	nlh = put_header(buf, size, RTM_DELNEIGH,
			 NLM_F_REQUEST | NLM_F_ACK | NLM_F_BULK, seq,
			 sizeof(*ndm));
	if (!nlh)
		return -ENOBUFS;
	ndm = mnl_nlmsg_get_payload(nlh);
	ndm->ndm_family = AF_BRIDGE;
	ndm->ndm_ifindex = port_ifindex;
	/* master: the bridge flushes the entries that point at this port */
	ndm->ndm_flags = NTF_MASTER;
	/* dynamic: state 0 under the mask {permanent, static} */
	ndm->ndm_state = 0;
	if (vid && !mnl_attr_put_u16_check(nlh, size, NDA_VLAN, vid))
		return -ENOBUFS;
	if (!mnl_attr_put_u16_check(nlh, size, NDA_NDM_STATE_MASK,
				    NUD_PERMANENT | NUD_NOARP))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

/* ---- host links by name --------------------------------------------- */

static bool valid_ifname(const char *name)
{
	return name && name[0] && strlen(name) < MSTNL_IFNAMSIZ;
}

/* An AF_UNSPEC link message for the interface called @name. */
static struct nlmsghdr *put_named_link(void *buf, size_t size, uint16_t type,
				       uint16_t flags, uint32_t seq,
				       const char *name)
{
	struct nlmsghdr *nlh;

	nlh = put_header(buf, size, type, flags, seq, sizeof(struct ifinfomsg));
	if (!nlh || !mnl_attr_put_strz_check(nlh, size, IFLA_IFNAME, name))
		return NULL;
	return nlh;
}

/* RTM_NEWLINK creating @name (never an existing one), up at once. */
static struct nlmsghdr *put_new_link_up(void *buf, size_t size, uint32_t seq,
					const char *name)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	nlh = put_named_link(buf, size, RTM_NEWLINK,
			     NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
			     NLM_F_EXCL, seq, name);
	if (!nlh)
		return NULL;
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	return nlh;
}

int mstnl_build_bridge_new(void *buf, size_t size, uint32_t seq,
			   const char *name,
			   const struct mstnl_bridge_conf *conf)
{
	struct nlattr *linkinfo, *data;
	struct nlmsghdr *nlh;

	if (!valid_ifname(name))
		return -EINVAL;
	nlh = put_new_link_up(buf, size, seq, name);
	if (!nlh)
		return -ENOBUFS;
	data = start_bridge_data(nlh, size, &linkinfo);
	if (!data ||
	    !mnl_attr_put_u32_check(nlh, size, IFLA_BR_STP_STATE,
				    conf->stp_state) ||
	    !mnl_attr_put_u32_check(nlh, size, IFLA_BR_AGEING_TIME,
				    conf->ageing_time) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_BR_MCAST_SNOOPING,
				   conf->mcast_snooping) ||
	    !mnl_attr_put_u16_check(nlh, size, IFLA_BR_GROUP_FWD_MASK,
				    conf->group_fwd_mask) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_BR_NF_CALL_IPTABLES,
				   conf->nf_call) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_BR_NF_CALL_IP6TABLES,
				   conf->nf_call) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_BR_NF_CALL_ARPTABLES,
				   conf->nf_call))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh->nlmsg_len;
}

int mstnl_build_vxlan_new(void *buf, size_t size, uint32_t seq,
			  const char *name, const struct mstnl_vxlan_conf *conf)
{
	bool v6 = conf->family == AF_INET6;
	size_t alen = v6 ? 16 : 4;
	struct nlattr *linkinfo, *data;
	struct nlmsghdr *nlh;

	if (!valid_ifname(name) || !conf->vni || conf->vni >= 1u << 24 ||
	    (conf->family != AF_INET && !v6) || !valid_ifindex(conf->master))
		return -EINVAL;
	nlh = put_new_link_up(buf, size, seq, name);
	if (!nlh)
		return -ENOBUFS;
	if (!mnl_attr_put_u32_check(nlh, size, IFLA_MTU, 1500) ||
	    !mnl_attr_put_u32_check(nlh, size, IFLA_MASTER,
				    (uint32_t)conf->master))
		return -ENOBUFS;
	linkinfo = mnl_attr_nest_start_check(nlh, size, IFLA_LINKINFO);
	if (!linkinfo ||
	    !mnl_attr_put_strz_check(nlh, size, IFLA_INFO_KIND, "vxlan"))
		return -ENOBUFS;
	data = mnl_attr_nest_start_check(nlh, size, IFLA_INFO_DATA);
	if (!data ||
	    !mnl_attr_put_u32_check(nlh, size, IFLA_VXLAN_ID, conf->vni) ||
	    !mnl_attr_put_check(nlh, size,
				v6 ? IFLA_VXLAN_GROUP6 : IFLA_VXLAN_GROUP,
				alen, conf->remote) ||
	    !mnl_attr_put_check(nlh, size,
				v6 ? IFLA_VXLAN_LOCAL6 : IFLA_VXLAN_LOCAL,
				alen, conf->local) ||
	    !mnl_attr_put_u16_check(nlh, size, IFLA_VXLAN_PORT,
				    htons(conf->port)) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_VXLAN_LEARNING, 0) ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_VXLAN_DF, VXLAN_DF_UNSET))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh->nlmsg_len;
}

int mstnl_build_route_get(void *buf, size_t size, uint32_t seq, int family,
			  const void *addr)
{
	size_t alen = family == AF_INET6 ? 16 : 4;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;

	if (!addr || (family != AF_INET && family != AF_INET6))
		return -EINVAL;
	/* With an ack: the kernel's answer to a lone get is the route
	 * alone, and talk() waits for the end of an answer. */
	nlh = put_header(buf, size, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_ACK,
			 seq, sizeof(*rtm));
	if (!nlh)
		return -ENOBUFS;
	rtm = mnl_nlmsg_get_payload(nlh);
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)(alen * 8);
	if (!mnl_attr_put_check(nlh, size, RTA_DST, alen, addr))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

int mstnl_build_link_del(void *buf, size_t size, uint32_t seq,
			 const char *name)
{
	struct nlmsghdr *nlh;

	if (!valid_ifname(name))
		return -EINVAL;
	nlh = put_named_link(buf, size, RTM_DELLINK, NLM_F_REQUEST | NLM_F_ACK,
			     seq, name);
	return nlh ? (int)nlh->nlmsg_len : -ENOBUFS;
}

int mstnl_build_link_alias_set(void *buf, size_t size, uint32_t seq,
			       const char *name, const char *alias)
{
	struct nlmsghdr *nlh;

	if (!valid_ifname(name) || !alias || strlen(alias) >= MSTNL_ALIAS_MAX)
		return -EINVAL;
	nlh = put_named_link(buf, size, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK,
			     seq, name);
	if (!nlh || !mnl_attr_put_strz_check(nlh, size, IFLA_IFALIAS, alias))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}

int mstnl_build_link_carrier_set(void *buf, size_t size, uint32_t seq,
				 const char *name, bool on)
{
	struct nlmsghdr *nlh;

	if (!valid_ifname(name))
		return -EINVAL;
	nlh = put_named_link(buf, size, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK,
			     seq, name);
	if (!nlh || !mnl_attr_put_u8_check(nlh, size, IFLA_CARRIER, on))
		return -ENOBUFS;
	return nlh->nlmsg_len;
}
