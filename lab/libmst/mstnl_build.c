// SPDX-License-Identifier: MIT
/*
 * mstnl request builders: pure functions that write one rtnetlink request
 * into a caller buffer. Sequence numbers come from the caller; the port id
 * stays 0 (the kernel fills in the sender).
 */
#include "mstnl.h"

#include <errno.h>
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

static bool valid_ifindex(int ifindex)
{
	return ifindex > 0;
}

static bool valid_state(uint8_t state)
{
	return state <= BR_STATE_BLOCKING;
}

int mstnl_build_mst_set(void *buf, size_t size, uint32_t seq, int br_ifindex,
			bool on)
{
	struct br_boolopt_multi bm = {
		.optval = on ? 1u << BR_BOOLOPT_MST_ENABLE : 0,
		.optmask = 1u << BR_BOOLOPT_MST_ENABLE,
	};
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

	/* changelink needs the kind, or the kernel ignores IFLA_INFO_DATA */
	linkinfo = mnl_attr_nest_start_check(nlh, size, IFLA_LINKINFO);
	if (!linkinfo ||
	    !mnl_attr_put_strz_check(nlh, size, IFLA_INFO_KIND, "bridge"))
		return -ENOBUFS;
	data = mnl_attr_nest_start_check(nlh, size, IFLA_INFO_DATA);
	if (!data || !mnl_attr_put_check(nlh, size, IFLA_BR_MULTI_BOOLOPT,
					 sizeof(bm), &bm))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh->nlmsg_len;
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

int mstnl_build_port_state_set(void *buf, size_t size, uint32_t seq,
			       int port_ifindex, uint8_t state)
{
	struct nlmsghdr *nlh;
	struct nlattr *protinfo;

	if (!valid_ifindex(port_ifindex) || !valid_state(state))
		return -EINVAL;
	nlh = put_bridge_link(buf, size, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK,
			      seq, port_ifindex);
	if (!nlh)
		return -ENOBUFS;
	/* nested form: a flat u8 IFLA_PROTINFO is the legacy RSTP encoding */
	protinfo = mnl_attr_nest_start_check(nlh, size, IFLA_PROTINFO);
	if (!protinfo ||
	    !mnl_attr_put_u8_check(nlh, size, IFLA_BRPORT_STATE, state))
		return -ENOBUFS;
	mnl_attr_nest_end(nlh, protinfo);
	return nlh->nlmsg_len;
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
