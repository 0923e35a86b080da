/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An emulated Marvell 88E6171 switch for lab guests: the SMI register
 * model, its tables and a data plane over virtio NICs, so that the
 * unmodified mv88e6xxx driver, DSA and the bridge's MST offload run on it.
 */
#ifndef _MV88E6XXX_SIM_H
#define _MV88E6XXX_SIM_H

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/phy.h>
#include <linux/platform_data/mv88e6xxx.h>
#include <linux/spinlock.h>

#define SIM_PORTS		7	/* 0-4 user (internal PHYs), 5 CPU, 6 unused */
#define SIM_USER_PORTS		5
#define SIM_CPU_PORT		5
#define SIM_PORT_MASK		GENMASK(SIM_PORTS - 1, 0)
#define SIM_NUM_VIDS		4096
#define SIM_NUM_SIDS		64
#define SIM_ATU_MAX		4096	/* the driver's ATU snapshot is that big */
#define SIM_PVT_SIZE		512
#define SIM_SWITCH_ID		0x1710

/* SMI addresses in single-chip mode. */
#define SIM_SMI_PORT0		0x10
#define SIM_SMI_G1		0x1b
#define SIM_SMI_G2		0x1c

/* Port states, as in port Ctl0[1:0] and the STU. */
#define SIM_STATE_DISABLED	0
#define SIM_STATE_BLOCKING	1
#define SIM_STATE_LEARNING	2
#define SIM_STATE_FORWARDING	3

/* VTU member tags. */
#define SIM_MEMBER_UNMODIFIED	0
#define SIM_MEMBER_UNTAGGED	1
#define SIM_MEMBER_TAGGED	2
#define SIM_MEMBER_NONE		3

struct sim_vtu {
	bool valid;
	bool policy;
	u16 fid;
	u8 sid;
	u8 member[SIM_PORTS];
};

struct sim_stu {
	bool valid;
	u8 state[SIM_PORTS];
};

struct sim_atu {
	u16 fid;
	u8 mac[ETH_ALEN];
	u8 state;		/* 0 is unused */
	u16 portvec;
	bool trunk;
	unsigned long seen;	/* jiffies of the last learn, for aging */
};

struct sim_phy {
	u16 bmcr, adv, ctrl1000, mmd_ctrl, mmd_data, page;
};

/* Why a frame was dropped: counted per ingress port, shown in debugfs. */
enum sim_drop {
	SIM_DROP_LINK,		/* ingress link down or port disabled */
	SIM_DROP_STATE,		/* blocking/listening/learning */
	SIM_DROP_VTU,		/* VID not in the VTU or port not a member */
	SIM_DROP_TAGGING,	/* discard tagged/untagged */
	SIM_DROP_NO_DEST,	/* nowhere to go */
	SIM_DROP_TAG,		/* malformed or unsupported DSA tag */
	SIM_DROP_NR,
};

struct sim_port {
	u16 reg[32];
	struct sim_phy phy;
	struct net_device *nic;	/* backing NIC of a user port */
	u8 nic_mac[ETH_ALEN];
	bool has_nic;
	u64 rx, tx, trapped, learned;
	u64 drops[SIM_DROP_NR];
};

struct sim {
	spinlock_t lock;	/* all of the below: SMI writers, softirq readers */
	u16 g1[32], g2[32];
	struct sim_port port[SIM_PORTS];
	struct sim_vtu vtu[SIM_NUM_VIDS];
	struct sim_stu stu[SIM_NUM_SIDS];
	struct sim_atu atu[SIM_ATU_MAX];
	unsigned int n_atu;
	u16 pvt[SIM_PVT_SIZE];

	struct platform_device *pdev;
	struct net_device *conduit;
	struct mii_bus *bus;
	struct dsa_mv88e6xxx_pdata pdata;
	struct delayed_work aging;
	struct dentry *debugfs;
};

extern struct sim *sim;

/* regs.c: the SMI register files (caller holds sim->lock). */
u16 sim_smi_read_locked(struct sim *s, int addr, int reg);
void sim_smi_write_locked(struct sim *s, int addr, int reg, u16 val);
void sim_reset_locked(struct sim *s);
bool sim_port_link(struct sim *s, int port);

/* phy.c: the internal PHYs of ports 0-4. */
void sim_phy_reset(struct sim_phy *phy);
u16 sim_phy_read(struct sim *s, int port, int reg);
void sim_phy_write(struct sim *s, int port, int reg, u16 val);
bool sim_phy_link(struct sim *s, int port);

/* tables.c: VTU, STU, ATU and PVT operations (caller holds sim->lock). */
void sim_vtu_op(struct sim *s, u16 op);
void sim_atu_op(struct sim *s, u16 op);
void sim_pvt_op(struct sim *s, u16 op);
struct sim_atu *sim_atu_find(struct sim *s, u16 fid, const u8 *mac);
void sim_atu_learn(struct sim *s, u16 fid, const u8 *mac, int port);
void sim_atu_age(struct sim *s);

/* dataplane.c */
rx_handler_result_t sim_nic_rx(struct sk_buff **pskb);
netdev_tx_t sim_conduit_xmit(struct sk_buff *skb, struct net_device *dev);

/* debugfs.c */
void sim_debugfs_init(struct sim *s);

#endif /* _MV88E6XXX_SIM_H */
