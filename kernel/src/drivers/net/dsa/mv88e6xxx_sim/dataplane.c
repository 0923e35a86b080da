// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding model: frames from a backing NIC enter at their user
 * port, EDSA-tagged frames from the conduit enter at the CPU port. The
 * decision (classification, port state per STU, learning, ATU lookup,
 * flooding, VLAN and PVT filtering, egress tagging) is taken under the
 * switch lock; the copies are built and sent after it is dropped.
 */
#include <linux/if_vlan.h>

#include "sim.h"
#include "../mv88e6xxx/global1.h"
#include "../mv88e6xxx/global2.h"
#include "../mv88e6xxx/port.h"

#define EDSA_LEN	8
#define DSA_CMD_TO_CPU	0
#define DSA_CMD_FROM_CPU 1
#define DSA_CMD_FORWARD	3
#define PORT_STATE(s, p) ((s)->port[p].reg[MV88E6XXX_PORT_CTL0] & 3)

enum egress_tag { EGRESS_AS_RECEIVED, EGRESS_UNTAGGED, EGRESS_TAGGED };

/* What happens to one frame, decided under the lock. */
struct verdict {
	u16 dest;			/* egress ports */
	u16 vid;			/* classified VID */
	u8 pcp;
	u8 tag[SIM_PORTS];		/* enum egress_tag per user port */
	bool to_cpu_forward;		/* a FORWARD copy to the CPU port */
	bool trap;			/* TO_CPU, management */
};

struct frame {
	struct sk_buff *skb;		/* plain Ethernet, maybe 802.1Q */
	int in_port;
	bool tagged;			/* an 802.1Q tag in the data */
	u16 tag_vid;
	u8 pcp;
	int src_dev, src_port;		/* FORWARD from the CPU */
};

static bool parse_vlan(struct frame *f)
{
	struct vlan_ethhdr *veth = (struct vlan_ethhdr *)f->skb->data;

	f->tagged = f->skb->len >= VLAN_ETH_HLEN &&
		    veth->h_vlan_proto == htons(ETH_P_8021Q);
	if (f->tagged) {
		f->tag_vid = ntohs(veth->h_vlan_TCI) & VLAN_VID_MASK;
		f->pcp = ntohs(veth->h_vlan_TCI) >> VLAN_PRIO_SHIFT;
	}
	return f->tagged;
}

/* 01:80:C2:00:00:0x and 2x trapped when Global2 enables them. */
static bool is_mgmt(struct sim *s, const u8 *da)
{
	static const u8 base[5] = { 0x01, 0x80, 0xc2, 0x00, 0x00 };
	u16 en;

	if (memcmp(da, base, 5) || !(s->g2[MV88E6XXX_G2_SWITCH_MGMT] &
				     MV88E6XXX_G2_SWITCH_MGMT_RSVD2CPU))
		return false;
	if ((da[5] & 0xf0) == 0x00)
		en = s->g2[MV88E6XXX_G2_MGMT_EN_0X];
	else if ((da[5] & 0xf0) == 0x20)
		en = s->g2[MV88E6XXX_G2_MGMT_EN_2X];
	else
		return false;
	return en & BIT(da[5] & 0xf);
}

static u16 port_fid(struct sim *s, int p)
{
	return (s->port[p].reg[MV88E6XXX_PORT_BASE_VLAN] >> 12) |
	       ((s->port[p].reg[MV88E6XXX_PORT_CTL1] & 0xff) << 4);
}

/* The STU state of port p for SID sid, or the port's own state. */
static u8 port_state(struct sim *s, int p, const struct sim_vtu *v)
{
	const struct sim_stu *stu = v ? &s->stu[v->sid] : NULL;
	u8 st = PORT_STATE(s, p);

	if (st == SIM_STATE_DISABLED)
		return st;
	if (stu && stu->valid && stu->state[p])
		return stu->state[p];
	return st;
}

static bool decide(struct sim *s, struct frame *f, struct verdict *vd)
{
	struct sim_port *in = &s->port[f->in_port];
	u16 ctl2 = in->reg[MV88E6XXX_PORT_CTL2], vlan_table, mode;
	const u8 *da = f->skb->data, *sa = da + ETH_ALEN;
	const struct sim_vtu *v = NULL;
	bool secure, from_cpu = f->in_port == SIM_CPU_PORT;
	struct sim_atu *hit;
	u16 fid, pvid;
	u8 state;
	int e;

	if (!from_cpu && (!sim_port_link(s, f->in_port) ||
			  PORT_STATE(s, f->in_port) == SIM_STATE_DISABLED)) {
		in->drops[SIM_DROP_LINK]++;
		return false;
	}
	if (!from_cpu && is_mgmt(s, da)) {
		vd->trap = true;	/* BPDUs reach the CPU in every state */
		in->trapped++;
		return true;
	}
	mode = ctl2 & MV88E6XXX_PORT_CTL2_8021Q_MODE_MASK;
	secure = mode == MV88E6XXX_PORT_CTL2_8021Q_MODE_SECURE;
	pvid = in->reg[MV88E6XXX_PORT_DEFAULT_VLAN] & VLAN_VID_MASK;
	/* FORWARD frames carry their VID in the DSA tag, tagged or not. */
	if (from_cpu)
		vd->vid = f->tag_vid ? f->tag_vid : pvid;
	else
		vd->vid = f->tagged && f->tag_vid && secure ? f->tag_vid : pvid;
	if (s->vtu[vd->vid].valid)
		v = &s->vtu[vd->vid];
	if (secure) {
		if (!v || v->member[f->in_port] == SIM_MEMBER_NONE) {
			in->drops[SIM_DROP_VTU]++;
			return false;
		}
		if ((f->tagged && (ctl2 & MV88E6XXX_PORT_CTL2_DISCARD_TAGGED)) ||
		    (!f->tagged && (ctl2 & MV88E6XXX_PORT_CTL2_DISCARD_UNTAGGED))) {
			in->drops[SIM_DROP_TAGGING]++;
			return false;
		}
	}
	fid = v ? v->fid : port_fid(s, f->in_port);
	state = from_cpu ? SIM_STATE_FORWARDING : port_state(s, f->in_port, v);
	if (state == SIM_STATE_BLOCKING) {
		in->drops[SIM_DROP_STATE]++;
		return false;
	}
	if (!is_multicast_ether_addr(sa) &&
	    (in->reg[MV88E6XXX_PORT_ASSOC_VECTOR] & SIM_PORT_MASK))
		sim_atu_learn(s, fid, sa, f->in_port);
	if (state == SIM_STATE_LEARNING) {
		in->drops[SIM_DROP_STATE]++;
		return false;
	}

	vlan_table = in->reg[MV88E6XXX_PORT_BASE_VLAN] & SIM_PORT_MASK;
	if (!(ctl2 & MV88E6XXX_PORT_CTL2_MAP_DA)) {
		vd->dest = vlan_table;
	} else {
		hit = sim_atu_find(s, fid, da);
		if (hit) {
			vd->dest = hit->portvec;
		} else {
			u16 flood = is_multicast_ether_addr(da) ?
				    MV88E6352_PORT_CTL0_EGRESS_FLOODS_MC :
				    MV88E6352_PORT_CTL0_EGRESS_FLOODS_UC;

			for (e = 0; e < SIM_PORTS; e++)
				if (s->port[e].reg[MV88E6XXX_PORT_CTL0] & flood)
					vd->dest |= BIT(e);
		}
	}
	vd->dest &= vlan_table & ~BIT(f->in_port);
	/* The PVT limits frames from other devices (the bridge's TX
	 * forwarding offload uses device 1 + bridge number).
	 */
	if (from_cpu && f->src_dev != (s->g1[MV88E6XXX_G1_CTL2] & 0x1f))
		vd->dest &= s->pvt[(f->src_dev << 4 | f->src_port) & (SIM_PVT_SIZE - 1)];
	for (e = 0; e < SIM_PORTS; e++) {
		if (!(vd->dest & BIT(e)))
			continue;
		if ((secure && v->member[e] == SIM_MEMBER_NONE) || !sim_port_link(s, e) ||
		    (e != SIM_CPU_PORT && port_state(s, e, v) != SIM_STATE_FORWARDING)) {
			vd->dest &= ~BIT(e);
			continue;
		}
		vd->tag[e] = EGRESS_AS_RECEIVED;
		if (secure && v->member[e] == SIM_MEMBER_UNTAGGED)
			vd->tag[e] = EGRESS_UNTAGGED;
		else if (secure && v->member[e] == SIM_MEMBER_TAGGED)
			vd->tag[e] = EGRESS_TAGGED;
	}
	vd->to_cpu_forward = vd->dest & BIT(SIM_CPU_PORT);
	vd->dest &= ~BIT(SIM_CPU_PORT);
	vd->pcp = f->pcp;
	if (!vd->dest && !vd->to_cpu_forward)
		in->drops[SIM_DROP_NO_DEST]++;
	return true;
}

/* A copy of the frame with its 802.1Q tag set, removed or kept. */
static struct sk_buff *retag(const struct frame *f, enum egress_tag how, u16 vid,
			     u8 pcp)
{
	struct sk_buff *skb = skb_copy(f->skb, GFP_ATOMIC);

	if (!skb)
		return NULL;
	if (how == EGRESS_UNTAGGED && f->tagged) {
		memmove(skb->data + VLAN_HLEN, skb->data, 2 * ETH_ALEN);
		skb_pull(skb, VLAN_HLEN);
	} else if (how == EGRESS_TAGGED) {
		if (f->tagged) {
			struct vlan_ethhdr *veth = (struct vlan_ethhdr *)skb->data;

			veth->h_vlan_TCI = htons(pcp << VLAN_PRIO_SHIFT | vid);
		} else {
			skb = vlan_insert_tag(skb, htons(ETH_P_8021Q),
					      pcp << VLAN_PRIO_SHIFT | vid);
		}
	}
	if (skb)
		skb_reset_mac_header(skb);
	return skb;
}

/* To the CPU: the 802.1Q tag (if any) becomes the EDSA tag's VID. */
static void to_cpu(struct sim *s, const struct frame *f, bool trap, u16 vid, u8 pcp)
{
	struct net_device *conduit = s->conduit;
	bool tagged = f->tagged;
	struct sk_buff *skb;
	u8 *tag;

	if (!conduit || !netif_running(conduit))
		return;
	skb = skb_copy_expand(f->skb, EDSA_LEN, 0, GFP_ATOMIC);
	if (!skb)
		return;
	if (tagged) {
		memmove(skb->data + VLAN_HLEN, skb->data, 2 * ETH_ALEN);
		skb_pull(skb, VLAN_HLEN);
	}
	skb_push(skb, EDSA_LEN);
	memmove(skb->data, skb->data + EDSA_LEN, 2 * ETH_ALEN);
	tag = skb->data + 2 * ETH_ALEN;
	put_unaligned_be16(s->port[SIM_CPU_PORT].reg[MV88E6XXX_PORT_ETH_TYPE], tag);
	tag[2] = 0;
	tag[3] = 0;
	/* TO_CPU code 0 (management) for traps, FORWARD for the rest. */
	tag[4] = (trap ? DSA_CMD_TO_CPU : DSA_CMD_FORWARD) << 6 | (tagged ? 0x20 : 0);
	tag[5] = f->in_port << 3;
	tag[6] = pcp << 5 | ((vid >> 8) & 0xf);
	tag[7] = vid & 0xff;
	skb->dev = conduit;
	skb->protocol = eth_type_trans(skb, conduit);
	s->port[SIM_CPU_PORT].tx++;
	netif_rx(skb);
}

static void to_port(struct sim *s, int port, struct sk_buff *skb)
{
	struct net_device *nic = s->port[port].nic;

	if (!nic || !skb) {
		kfree_skb(skb);
		return;
	}
	skb->dev = nic;
	skb->ip_summed = CHECKSUM_NONE;
	s->port[port].tx++;
	dev_queue_xmit(skb);
}

static void forward(struct sim *s, struct frame *f)
{
	struct verdict vd = { 0 };
	bool ok;
	int e;

	spin_lock_bh(&s->lock);
	s->port[f->in_port].rx++;
	ok = decide(s, f, &vd);
	spin_unlock_bh(&s->lock);
	if (!ok)
		return;
	if (vd.trap || vd.to_cpu_forward)
		to_cpu(s, f, vd.trap, f->tagged ? f->tag_vid : vd.vid, vd.pcp);
	for (e = 0; e < SIM_USER_PORTS; e++)
		if (vd.dest & BIT(e))
			to_port(s, e, retag(f, vd.tag[e], vd.vid, vd.pcp));
}

rx_handler_result_t sim_nic_rx(struct sk_buff **pskb)
{
	struct sim_port *p = rcu_dereference((*pskb)->dev->rx_handler_data);
	struct sk_buff *skb;
	struct frame f = { .in_port = p - sim->port };

	skb = skb_share_check(*pskb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	skb_push(skb, skb->data - skb_mac_header(skb));
	/* virtio strips the tag into metadata: the switch sees it on the wire. */
	if (skb_vlan_tag_present(skb)) {
		skb = __vlan_hwaccel_push_inside(skb);
		if (!skb)
			return RX_HANDLER_CONSUMED;
	}
	if (skb_linearize(skb) || skb->len < ETH_HLEN) {
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	f.skb = skb;
	parse_vlan(&f);
	forward(sim, &f);
	consume_skb(skb);
	return RX_HANDLER_CONSUMED;
}

/* A FROM_CPU frame goes out of exactly one port, whatever its state. */
static void from_cpu(struct sim *s, struct frame *f, int port)
{
	bool ok;

	spin_lock_bh(&s->lock);
	ok = port < SIM_USER_PORTS && sim_port_link(s, port) &&
	     PORT_STATE(s, port) != SIM_STATE_DISABLED;
	if (!ok)
		s->port[SIM_CPU_PORT].drops[SIM_DROP_LINK]++;
	spin_unlock_bh(&s->lock);
	if (ok)
		to_port(s, port, skb_copy(f->skb, GFP_ATOMIC));
}

/* The conduit's transmit: an EDSA-tagged frame entering the CPU port. */
netdev_tx_t sim_conduit_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct frame f = { .in_port = SIM_CPU_PORT };
	u8 tag[4];
	int cmd;

	/* The header is rewritten in place: taps on dsa0 keep their copy. */
	if (skb_linearize(skb) || skb->len < ETH_HLEN + EDSA_LEN ||
	    skb_ensure_writable(skb, ETH_HLEN + EDSA_LEN))
		goto drop;
	memcpy(tag, skb->data + 2 * ETH_ALEN + 4, 4);
	cmd = tag[0] >> 6;
	/* Drop the EDSA header; a T=1 tag becomes an 802.1Q tag. */
	if (tag[0] & 0x20) {
		u8 *q = skb->data + 2 * ETH_ALEN + 4;

		put_unaligned_be16(ETH_P_8021Q, q);
		put_unaligned_be16((tag[2] >> 5) << VLAN_PRIO_SHIFT |
				   (tag[1] & 1) << 12 | (tag[2] & 0xf) << 8 | tag[3], q + 2);
		memmove(skb->data + 4, skb->data, 2 * ETH_ALEN);
		skb_pull(skb, 4);
	} else {
		memmove(skb->data + EDSA_LEN, skb->data, 2 * ETH_ALEN);
		skb_pull(skb, EDSA_LEN);
	}
	f.skb = skb;
	parse_vlan(&f);
	if (cmd == DSA_CMD_FROM_CPU) {
		from_cpu(sim, &f, tag[1] >> 3);
	} else if (cmd == DSA_CMD_FORWARD) {
		f.src_dev = tag[0] & 0x1f;
		f.src_port = tag[1] >> 3;
		f.tag_vid = (tag[2] & 0xf) << 8 | tag[3];
		forward(sim, &f);
	} else {
		spin_lock_bh(&sim->lock);
		sim->port[SIM_CPU_PORT].drops[SIM_DROP_TAG]++;
		spin_unlock_bh(&sim->lock);
	}
drop:
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}
