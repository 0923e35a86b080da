// SPDX-License-Identifier: MIT
/*
 * mstnl reply parsers: pure functions over bytes. Every length is checked
 * before it is trusted; malformed input gives -EBADMSG and a reason in
 * struct mstnl_err, never a read outside the buffer.
 */
#include "mstnl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

const char *mstnl_err_text(const struct mstnl_err *err, char *buf,
			   size_t size)
{
	if (err->msg[0])
		snprintf(buf, size, "%s (%s)", err->msg, strerror(-err->code));
	else
		snprintf(buf, size, "%s", strerror(-err->code));
	return buf;
}

static const char *const state_names[] = {
	[BR_STATE_DISABLED] = "disabled",
	[BR_STATE_LISTENING] = "listening",
	[BR_STATE_LEARNING] = "learning",
	[BR_STATE_FORWARDING] = "forwarding",
	[BR_STATE_BLOCKING] = "blocking",
};

const char *mstnl_state_name(uint8_t state)
{
	if (state < sizeof(state_names) / sizeof(state_names[0]))
		return state_names[state];
	return "?";
}

int mstnl_state_parse(const char *name)
{
	if (!name)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]);
	     i++)
		if (strcmp(name, state_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

static void set_msg(struct mstnl_err *err, const char *fmt, const char *what)
{
	if (err)
		snprintf(err->msg, sizeof(err->msg), fmt, what);
}

/* ---- attribute walking -------------------------------------------------- */

typedef int (*attr_fn)(const struct nlattr *attr, void *data);

/*
 * Calls @fn for each attribute in [p, p + len). Unlike mnl_attr_parse()
 * a broken attribute is an error, not a silent end of the list.
 */
static int walk_attrs(const void *p, size_t len, attr_fn fn, void *data)
{
	const struct nlattr *attr = p;
	int rem = (int)len;
	int ret;

	if (len > (size_t)1 << 30)
		return -EBADMSG;
	while (rem >= (int)sizeof(*attr)) {
		if (!mnl_attr_ok(attr, rem))
			return -EBADMSG;
		ret = fn(attr, data);
		if (ret < 0)
			return ret;
		rem -= MNL_ALIGN(attr->nla_len);
		attr = (const struct nlattr *)((const char *)attr +
					       MNL_ALIGN(attr->nla_len));
	}
	/* rem < 0 only if the last attribute lacked its padding: fine */
	return rem > 0 ? -EBADMSG : 0;
}

static int walk_nested(const struct nlattr *nest, attr_fn fn, void *data)
{
	return walk_attrs(mnl_attr_get_payload(nest),
			  mnl_attr_get_payload_len(nest), fn, data);
}

/* Walks a message's attributes after a family header of @hdrlen bytes. */
static int walk_msg(const struct nlmsghdr *nlh, size_t hdrlen, attr_fn fn,
		    void *data)
{
	size_t plen = mnl_nlmsg_get_payload_len(nlh);

	if (plen < hdrlen)
		return -EBADMSG;
	hdrlen = MNL_ALIGN(hdrlen);
	if (plen < hdrlen)
		return 0;	/* header without padding and no attributes */
	return walk_attrs((const char *)mnl_nlmsg_get_payload(nlh) + hdrlen,
			  plen - hdrlen, fn, data);
}

static int get_u8(const struct nlattr *a, uint8_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return -EBADMSG;
	*v = mnl_attr_get_u8(a);
	return 0;
}

static int get_u16(const struct nlattr *a, uint16_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return -EBADMSG;
	*v = mnl_attr_get_u16(a);
	return 0;
}

static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return -EBADMSG;
	*v = mnl_attr_get_u32(a);
	return 0;
}

/* Copies a string attribute; it must be NUL-terminated and fit. */
static int get_str(const struct nlattr *a, char *dst, size_t size)
{
	const char *s = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);
	size_t slen = strnlen(s, n);

	if (slen == n || slen >= size)
		return -EBADMSG;
	memcpy(dst, s, slen + 1);
	return 0;
}

static int get_ifname(const struct nlattr *a, char *dst)
{
	return get_str(a, dst, MSTNL_IFNAMSIZ);
}

/*
 * mnl_nlmsg_ok() casts nlmsg_len to int, so a length with the top bit set
 * passes it; compare unsigned instead.
 */
static bool msg_ok(const struct nlmsghdr *nlh, int rem)
{
	return rem >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (unsigned int)rem;
}

/* ---- acks, errors, dumps ------------------------------------------------ */

struct extack {
	struct mstnl_err *err;
};

static int extack_attr(const struct nlattr *a, void *data)
{
	struct mstnl_err *err = ((struct extack *)data)->err;
	char msg[MSTNL_MSG_MAX];
	uint32_t off;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG: {
		const char *s = mnl_attr_get_payload(a);
		size_t n = mnl_attr_get_payload_len(a);
		size_t slen = strnlen(s, n);

		/* a message without its NUL is malformed, not truncated */
		if (slen == n)
			return -EBADMSG;
		snprintf(msg, sizeof(msg), "%s", s);
		if (err)
			memcpy(err->msg, msg, sizeof(msg));
		break;
	}
	case NLMSGERR_ATTR_OFFS:
		if (get_u32(a, &off) < 0)
			return -EBADMSG;
		if (err)
			err->offset = off;
		break;
	}
	return 0;
}

/*
 * The extended-ack TLVs of an NLMSG_ERROR or NLMSG_DONE. @tlv_off is where
 * they start in the payload.
 */
static int parse_extack(const struct nlmsghdr *nlh, size_t tlv_off,
			struct mstnl_err *err)
{
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	struct extack ea = { err };

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	tlv_off = MNL_ALIGN(tlv_off);
	if (tlv_off > plen)
		return -EBADMSG;
	return walk_attrs((const char *)mnl_nlmsg_get_payload(nlh) + tlv_off,
			  plen - tlv_off, extack_attr, &ea);
}

static int parse_error(const struct nlmsghdr *nlh, struct mstnl_err *err)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	size_t tlv_off = sizeof(*e);
	int ret;

	if (plen < sizeof(*e)) {
		set_msg(err, "%s", "truncated netlink error message");
		return -EBADMSG;
	}
	/* without NETLINK_CAP_ACK the kernel echoes our request's payload */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(e->msg)) {
			set_msg(err, "%s", "malformed netlink error message");
			return -EBADMSG;
		}
		tlv_off += e->msg.nlmsg_len - sizeof(e->msg);
	}
	if (e->error > 0 || e->error < -4095) {
		set_msg(err, "%s", "netlink error code out of range");
		return -EBADMSG;
	}
	ret = parse_extack(nlh, tlv_off, err);
	if (ret < 0) {
		set_msg(err, "%s", "malformed extended ack");
		return ret;
	}
	if (err) {
		err->code = e->error;
		err->kernel = e->error != 0;
	}
	return e->error;
}

static int parse_done(const struct nlmsghdr *nlh, struct mstnl_err *err)
{
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	int code = 0;
	int ret;

	/* a dump that failed half-way reports its error here */
	if (plen >= sizeof(int)) {
		memcpy(&code, mnl_nlmsg_get_payload(nlh), sizeof(code));
		if (code > 0 || code < -4095) {
			set_msg(err, "%s", "netlink done code out of range");
			return -EBADMSG;
		}
		ret = parse_extack(nlh, sizeof(int), err);
		if (ret < 0) {
			set_msg(err, "%s", "malformed extended ack");
			return ret;
		}
	}
	if (err) {
		err->code = code;
		err->kernel = code != 0;
	}
	return code;
}

int mstnl_parse_reply(const void *buf, size_t len, uint32_t seq,
		      mstnl_msg_cb cb, void *data, struct mstnl_err *err)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!buf || len > (size_t)1 << 30) {
		set_msg(err, "%s", "bad reply buffer");
		return -EINVAL;
	}
	if (len == 0) {
		set_msg(err, "%s", "empty netlink reply");
		return -EBADMSG;
	}
	while (rem > 0) {
		if (!msg_ok(nlh, rem)) {
			set_msg(err, "%s", "truncated netlink message");
			return -EBADMSG;
		}
		if (nlh->nlmsg_seq != seq) {
			set_msg(err, "%s", "reply to another request");
			return -EPROTO;
		}
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_ERROR:
			ret = parse_error(nlh, err);
			return ret;	/* ack (0) or error: the end either way */
		case NLMSG_DONE:
			return parse_done(nlh, err);
		case NLMSG_OVERRUN:
			set_msg(err, "%s", "netlink overrun");
			return -EOVERFLOW;
		default:
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
				set_msg(err, "%s",
					"dump interrupted by a concurrent change; retry");
				return -EINTR;
			}
			if (cb) {
				ret = cb(nlh, data);
				if (ret < 0) {
					if (ret == -EBADMSG)
						set_msg(err, "%s",
							"malformed netlink attributes");
					return ret;
				}
			}
			break;
		}
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	return 1;
}

int mstnl_parse_acks(const void *buf, size_t len, uint32_t seq, size_t n,
		     struct mstnl_err *errs, bool *done)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len, taken = 0;

	if (!buf || len == 0 || len > (size_t)1 << 30)
		return -EBADMSG;
	while (rem > 0) {
		uint32_t i;

		if (!msg_ok(nlh, rem))
			return -EBADMSG;
		i = nlh->nlmsg_seq - seq;	/* wraps like seq */
		if (nlh->nlmsg_type == NLMSG_ERROR && i < n && !done[i]) {
			if (mstnl_parse_reply(nlh, nlh->nlmsg_len,
					      nlh->nlmsg_seq, NULL, NULL,
					      &errs[i]) == -EBADMSG &&
			    !errs[i].kernel)
				return -EBADMSG;
			done[i] = true;
			taken++;
		}
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	return taken;
}

/* ---- links -------------------------------------------------------------- */

static int link_br_data(const struct nlattr *a, void *data)
{
	struct mstnl_link *link = data;
	const struct br_boolopt_multi *bm;
	uint8_t u8;

	switch (mnl_attr_get_type(a)) {
	case IFLA_BR_AGEING_TIME:
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			return -EBADMSG;
		link->ageing_time = mnl_attr_get_u32(a);
		break;
	case IFLA_BR_VLAN_FILTERING:
		if (get_u8(a, &u8) < 0)
			return -EBADMSG;
		link->vlan_filtering = u8 != 0;
		break;
	case IFLA_BR_MULTI_BOOLOPT:
		if (mnl_attr_get_payload_len(a) < sizeof(*bm))
			return -EBADMSG;
		bm = mnl_attr_get_payload(a);
		link->mst_supported =
			bm->optmask & (1u << BR_BOOLOPT_MST_ENABLE);
		link->mst_enabled = link->mst_supported &&
			(bm->optval & (1u << BR_BOOLOPT_MST_ENABLE));
		break;
	}
	return 0;
}

struct linkinfo {
	struct mstnl_link *link;
	const struct nlattr *data;
};

static int link_info(const struct nlattr *a, void *data)
{
	struct linkinfo *li = data;
	char kind[32];

	switch (mnl_attr_get_type(a)) {
	case IFLA_INFO_KIND:
		if (get_str(a, kind, sizeof(kind)) < 0)
			return -EBADMSG;
		li->link->is_bridge = strcmp(kind, "bridge") == 0;
		break;
	case IFLA_INFO_SLAVE_KIND:
		if (get_str(a, kind, sizeof(kind)) < 0)
			return -EBADMSG;
		li->link->is_bridge_port = strcmp(kind, "bridge") == 0;
		break;
	case IFLA_INFO_DATA:
		li->data = a;
		break;
	}
	return 0;
}

static int link_attr(const struct nlattr *a, void *data)
{
	struct mstnl_link *link = data;
	struct linkinfo li = { link, NULL };
	uint32_t u32;
	int ret;

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		return get_ifname(a, link->ifname);
	case IFLA_MASTER:
		if (get_u32(a, &u32) < 0)
			return -EBADMSG;
		link->master = (int)u32;
		break;
	case IFLA_OPERSTATE:
		return get_u8(a, &link->operstate);
	case IFLA_MTU:
		if (get_u32(a, &u32) < 0)
			return -EBADMSG;
		link->mtu = u32;
		break;
	case IFLA_IFALIAS:
		return get_str(a, link->alias, sizeof(link->alias));
	case IFLA_LINKINFO:
		ret = walk_nested(a, link_info, &li);
		if (ret < 0)
			return ret;
		/* the data's meaning depends on the kind, seen in any order */
		if (link->is_bridge && li.data)
			return walk_nested(li.data, link_br_data, link);
		break;
	}
	return 0;
}

int mstnl_parse_link(const struct nlmsghdr *nlh, struct mstnl_link *link)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);

	memset(link, 0, sizeof(*link));
	if (nlh->nlmsg_type != RTM_NEWLINK)
		return -EPROTO;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifm))
		return -EBADMSG;
	link->ifindex = ifm->ifi_index;
	return walk_msg(nlh, sizeof(*ifm), link_attr, link);
}

/* ---- routes ------------------------------------------------------------- */

static int route_attr(const struct nlattr *a, void *data)
{
	uint32_t u32;

	if (mnl_attr_get_type(a) != RTA_OIF)
		return 0;
	if (get_u32(a, &u32) < 0)
		return -EBADMSG;
	*(int *)data = (int)u32;
	return 0;
}

int mstnl_parse_route_oif(const struct nlmsghdr *nlh, int *oif)
{
	*oif = 0;
	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return -EPROTO;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct rtmsg))
		return -EBADMSG;
	if (walk_msg(nlh, sizeof(struct rtmsg), route_attr, oif) < 0)
		return -EBADMSG;
	return *oif > 0 ? 0 : -ENOENT;
}

/* ---- VLAN global options ------------------------------------------------ */

struct gopts {
	uint16_t vid, vid_end, msti;
	bool has_vid, has_msti;
};

static int gopts_attr(const struct nlattr *a, void *data)
{
	struct gopts *g = data;

	switch (mnl_attr_get_type(a)) {
	case BRIDGE_VLANDB_GOPTS_ID:
		g->has_vid = true;
		return get_u16(a, &g->vid);
	case BRIDGE_VLANDB_GOPTS_RANGE:
		return get_u16(a, &g->vid_end);
	case BRIDGE_VLANDB_GOPTS_MSTI:
		g->has_msti = true;
		return get_u16(a, &g->msti);
	}
	return 0;
}

/* Decodes one BRIDGE_VLANDB_GLOBAL_OPTIONS nest, range checked. */
static int parse_gopts(const struct nlattr *a, struct gopts *g)
{
	int ret;

	memset(g, 0, sizeof(*g));
	ret = walk_nested(a, gopts_attr, g);
	if (ret < 0)
		return ret;
	if (!g->has_vid || g->vid < MSTNL_VID_MIN || g->vid > MSTNL_VID_MAX)
		return -EBADMSG;
	if (!g->vid_end)
		g->vid_end = g->vid;
	if (g->vid_end < g->vid || g->vid_end > MSTNL_VID_MAX ||
	    g->msti > MSTNL_MSTI_KERNEL_MAX)
		return -EBADMSG;
	return 0;
}

static int vlan_global_attr(const struct nlattr *a, void *data)
{
	struct mstnl_vid_map *map = data;
	struct gopts g;
	int ret;

	if (mnl_attr_get_type(a) != BRIDGE_VLANDB_GLOBAL_OPTIONS)
		return 0;
	ret = parse_gopts(a, &g);
	if (ret < 0)
		return ret;
	for (unsigned int vid = g.vid; vid <= g.vid_end; vid++) {
		map->present[vid / 8] |= 1u << (vid % 8);
		map->msti[vid] = g.msti;
	}
	return 0;
}

int mstnl_parse_vlan_global(const struct nlmsghdr *nlh, int br_ifindex,
			    struct mstnl_vid_map *map)
{
	const struct br_vlan_msg *bvm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != RTM_NEWVLAN)
		return -EPROTO;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*bvm))
		return -EBADMSG;
	if ((int)bvm->ifindex != br_ifindex)
		return 0;
	return walk_msg(nlh, sizeof(*bvm), vlan_global_attr, map);
}

/* ---- bridge ports ------------------------------------------------------- */

struct mst_entry {
	uint16_t msti;
	uint8_t state;
	bool has_msti, has_state;
};

static int mst_entry_attr(const struct nlattr *a, void *data)
{
	struct mst_entry *e = data;

	switch (mnl_attr_get_type(a)) {
	case IFLA_BRIDGE_MST_ENTRY_MSTI:
		e->has_msti = true;
		return get_u16(a, &e->msti);
	case IFLA_BRIDGE_MST_ENTRY_STATE:
		e->has_state = true;
		return get_u8(a, &e->state);
	}
	return 0;
}

static int mst_attr(const struct nlattr *a, void *data)
{
	struct mstnl_port *port = data;
	struct mst_entry e = { 0 };
	int ret;

	if (mnl_attr_get_type(a) != IFLA_BRIDGE_MST_ENTRY)
		return 0;
	ret = walk_nested(a, mst_entry_attr, &e);
	if (ret < 0)
		return ret;
	if (!e.has_msti || !e.has_state || e.msti > MSTNL_MSTI_KERNEL_MAX ||
	    e.state > BR_STATE_BLOCKING)
		return -EBADMSG;
	port->msti_state[e.msti] = e.state;
	return 0;
}

static int port_afspec_attr(const struct nlattr *a, void *data)
{
	struct mstnl_port *port = data;

	if (mnl_attr_get_type(a) != IFLA_BRIDGE_MST)
		return 0;
	port->has_mst = true;
	return walk_nested(a, mst_attr, port);
}

static int port_protinfo_attr(const struct nlattr *a, void *data)
{
	struct mstnl_port *port = data;

	if (mnl_attr_get_type(a) == IFLA_BRPORT_STATE)
		return get_u8(a, &port->state);
	return 0;
}

static int port_attr(const struct nlattr *a, void *data)
{
	struct mstnl_port *port = data;
	uint32_t u32;

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		return get_ifname(a, port->ifname);
	case IFLA_MASTER:
		if (get_u32(a, &u32) < 0)
			return -EBADMSG;
		port->master = (int)u32;
		break;
	case IFLA_PROTINFO:
		/* the flat u8 form is the legacy encoding of the state */
		if (!(a->nla_type & NLA_F_NESTED))
			return get_u8(a, &port->state);
		return walk_nested(a, port_protinfo_attr, port);
	case IFLA_AF_SPEC:
		return walk_nested(a, port_afspec_attr, port);
	}
	return 0;
}

int mstnl_parse_port(const struct nlmsghdr *nlh, struct mstnl_port *port)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);

	memset(port, 0, sizeof(*port));
	port->state = MSTNL_STATE_NONE;
	memset(port->msti_state, MSTNL_STATE_NONE, sizeof(port->msti_state));
	if (nlh->nlmsg_type != RTM_NEWLINK)
		return -EPROTO;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifm))
		return -EBADMSG;
	if (ifm->ifi_family != AF_BRIDGE)
		return -EPROTO;
	port->ifindex = ifm->ifi_index;
	return walk_msg(nlh, sizeof(*ifm), port_attr, port);
}

/* ---- notifications ------------------------------------------------------ */

struct events {
	mstnl_event_cb cb;
	void *data;
	struct mstnl_event ev;	/* filled from the message header */
	int count;
};

static int emit(struct events *e, const struct mstnl_event *ev)
{
	e->count++;
	return e->cb(ev, e->data) < 0 ? -ECANCELED : 0;
}

static int port_event_protinfo(const struct nlattr *a, void *data)
{
	struct mstnl_event *ev = data;

	if (mnl_attr_get_type(a) == IFLA_BRPORT_STATE)
		return get_u8(a, &ev->port.state);
	return 0;
}

/* Attributes of link and port events: name, master, port state. */
static int link_event_attr(const struct nlattr *a, void *data)
{
	struct mstnl_event *ev = data;
	uint32_t u32;

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		return get_ifname(a, ev->ifname);
	case IFLA_MASTER:
		if (get_u32(a, &u32) < 0)
			return -EBADMSG;
		ev->master = (int)u32;
		break;
	case IFLA_OPERSTATE:
		if (ev->type == MSTNL_EV_LINK)
			return get_u8(a, &ev->link.operstate);
		break;
	case IFLA_PROTINFO:
		if (ev->type != MSTNL_EV_PORT)
			break;
		if (!(a->nla_type & NLA_F_NESTED))
			return get_u8(a, &ev->port.state);
		return walk_nested(a, port_event_protinfo, ev);
	}
	return 0;
}

static int event_link(const struct nlmsghdr *nlh, struct events *e)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);
	struct mstnl_event *ev = &e->ev;
	int ret;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifm))
		return -EBADMSG;
	ev->ifindex = ifm->ifi_index;
	if (ifm->ifi_family == AF_BRIDGE) {
		ev->type = MSTNL_EV_PORT;
		ev->port.state = MSTNL_STATE_NONE;
	} else {
		ev->type = MSTNL_EV_LINK;
	}
	ret = walk_msg(nlh, sizeof(*ifm), link_event_attr, ev);
	return ret < 0 ? ret : emit(e, ev);
}

struct vlan_entry {
	bool has_info;
	struct bridge_vlan_info info;
	uint16_t vid_end;
	uint8_t state;
};

static int vlan_entry_attr(const struct nlattr *a, void *data)
{
	struct vlan_entry *v = data;

	switch (mnl_attr_get_type(a)) {
	case BRIDGE_VLANDB_ENTRY_INFO:
		if (mnl_attr_get_payload_len(a) < sizeof(v->info))
			return -EBADMSG;
		memcpy(&v->info, mnl_attr_get_payload(a), sizeof(v->info));
		v->has_info = true;
		break;
	case BRIDGE_VLANDB_ENTRY_RANGE:
		return get_u16(a, &v->vid_end);
	case BRIDGE_VLANDB_ENTRY_STATE:
		return get_u8(a, &v->state);
	}
	return 0;
}

static int vlan_event_attr(const struct nlattr *a, void *data)
{
	struct events *e = data;
	struct mstnl_event ev = e->ev;
	struct vlan_entry v = { .state = MSTNL_STATE_NONE };
	struct gopts g;
	int ret;

	switch (mnl_attr_get_type(a)) {
	case BRIDGE_VLANDB_ENTRY:
		ret = walk_nested(a, vlan_entry_attr, &v);
		if (ret < 0)
			return ret;
		if (!v.has_info || v.info.vid < MSTNL_VID_MIN ||
		    v.info.vid > MSTNL_VID_MAX || v.vid_end > MSTNL_VID_MAX ||
		    (v.vid_end && v.vid_end < v.info.vid))
			return -EBADMSG;
		ev.type = MSTNL_EV_VLAN;
		ev.vlan.vid = v.info.vid;
		ev.vlan.vid_end = v.vid_end ? v.vid_end : v.info.vid;
		ev.vlan.flags = v.info.flags;
		ev.vlan.state = v.state;
		return emit(e, &ev);
	case BRIDGE_VLANDB_GLOBAL_OPTIONS:
		ret = parse_gopts(a, &g);
		if (ret < 0)
			return ret;
		ev.type = MSTNL_EV_VLAN_GLOBAL;
		ev.vlan_global.vid = g.vid;
		ev.vlan_global.vid_end = g.vid_end;
		ev.vlan_global.msti = g.msti;
		ev.vlan_global.has_msti = g.has_msti;
		return emit(e, &ev);
	}
	return 0;
}

static int event_vlan(const struct nlmsghdr *nlh, struct events *e)
{
	const struct br_vlan_msg *bvm = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*bvm))
		return -EBADMSG;
	if (bvm->family != AF_BRIDGE)
		return 0;
	e->ev.ifindex = (int)bvm->ifindex;
	return walk_msg(nlh, sizeof(*bvm), vlan_event_attr, e);
}

static int fdb_attr(const struct nlattr *a, void *data)
{
	struct mstnl_event *ev = data;
	uint32_t u32;

	switch (mnl_attr_get_type(a)) {
	case NDA_LLADDR:
		if (mnl_attr_get_payload_len(a) != sizeof(ev->fdb.mac))
			return -EBADMSG;
		memcpy(ev->fdb.mac, mnl_attr_get_payload(a),
		       sizeof(ev->fdb.mac));
		break;
	case NDA_VLAN:
		return get_u16(a, &ev->fdb.vid);
	case NDA_MASTER:
		if (get_u32(a, &u32) < 0)
			return -EBADMSG;
		ev->master = (int)u32;
		break;
	}
	return 0;
}

static int event_fdb(const struct nlmsghdr *nlh, struct events *e)
{
	const struct ndmsg *ndm = mnl_nlmsg_get_payload(nlh);
	struct mstnl_event *ev = &e->ev;
	int ret;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ndm))
		return -EBADMSG;
	if (ndm->ndm_family != AF_BRIDGE)
		return 0;	/* ARP and friends share the group */
	ev->type = MSTNL_EV_FDB;
	ev->ifindex = ndm->ndm_ifindex;
	ev->fdb.ndm_state = ndm->ndm_state;
	ev->fdb.ndm_flags = ndm->ndm_flags;
	ret = walk_msg(nlh, sizeof(*ndm), fdb_attr, ev);
	if (ret < 0)
		return ret;
	if (ev->fdb.vid > MSTNL_VID_MAX)
		return -EBADMSG;
	return emit(e, ev);
}

int mstnl_parse_events(const void *buf, size_t len, mstnl_event_cb cb,
		       void *data)
{
	const struct nlmsghdr *nlh = buf;
	struct events e = { .cb = cb, .data = data };
	int rem = (int)len;
	int ret;

	if (!buf || !cb || len > (size_t)1 << 30)
		return -EINVAL;
	while (rem > 0) {
		if (!msg_ok(nlh, rem))
			return -EBADMSG;
		memset(&e.ev, 0, sizeof(e.ev));
		switch (nlh->nlmsg_type) {
		case RTM_NEWLINK:
		case RTM_DELLINK:
			e.ev.deleted = nlh->nlmsg_type == RTM_DELLINK;
			ret = event_link(nlh, &e);
			break;
		case RTM_NEWVLAN:
		case RTM_DELVLAN:
			e.ev.deleted = nlh->nlmsg_type == RTM_DELVLAN;
			ret = event_vlan(nlh, &e);
			break;
		case RTM_NEWNEIGH:
		case RTM_DELNEIGH:
			e.ev.deleted = nlh->nlmsg_type == RTM_DELNEIGH;
			ret = event_fdb(nlh, &e);
			break;
		default:
			ret = 0;
			break;
		}
		if (ret < 0)
			return ret;
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	return e.count;
}
