// SPDX-License-Identifier: GPL-2.0
/*
 * The 88E6171's SMI register files: per-port registers at SMI 0x10-0x16,
 * Global1 at 0x1b, Global2 at 0x1c. Operations run synchronously in the
 * write that starts them, so the driver never sees a busy bit set.
 */
#include "sim.h"
#include "../mv88e6xxx/global1.h"
#include "../mv88e6xxx/global2.h"
#include "../mv88e6xxx/port.h"

#define G1_STS_READY		0x8800	/* PPU polling, init ready, no IRQ */
#define G1_ATU_CTL_DEFAULT	0x0140	/* age 20 x 15 s = 300 s */

bool sim_port_link(struct sim *s, int port)
{
	u16 mac = s->port[port].reg[MV88E6XXX_PORT_MAC_CTL];

	if (mac & MV88E6XXX_PORT_MAC_CTL_FORCE_LINK)
		return mac & MV88E6XXX_PORT_MAC_CTL_LINK_UP;
	return port < SIM_USER_PORTS && sim_phy_link(s, port);
}

static u16 port_status(struct sim *s, int port)
{
	u16 sts = port < SIM_USER_PORTS ? MV88E6XXX_PORT_STS_PHY_DETECT : 0;

	if (sim_port_link(s, port))
		sts |= MV88E6XXX_PORT_STS_LINK | MV88E6XXX_PORT_STS_DUPLEX |
		       MV88E6XXX_PORT_STS_SPEED_1000;
	/* RGMII on the CPU port, "internal" elsewhere. */
	return sts | (port == SIM_CPU_PORT ? MV88E6XXX_PORT_STS_CMODE_RGMII : 0xf);
}

static u16 port_read(struct sim *s, int port, int reg)
{
	switch (reg) {
	case MV88E6XXX_PORT_STS:
		return port_status(s, port);
	case MV88E6XXX_PORT_SWITCH_ID:
		return SIM_SWITCH_ID;
	}
	return s->port[port].reg[reg];
}

/* The PHYs sit behind Global2's SMI PHY command and data registers. */
static void smi_phy_cmd(struct sim *s, u16 cmd)
{
	int dev = (cmd >> 5) & 0x1f, reg = cmd & 0x1f;
	u16 op = cmd & MV88E6XXX_G2_SMI_PHY_CMD_OP_MASK;

	if ((cmd & MV88E6XXX_G2_SMI_PHY_CMD_MODE_MASK) != MV88E6XXX_G2_SMI_PHY_CMD_MODE_22)
		return;		/* no clause 45 on this chip */
	if (op == MV88E6XXX_G2_SMI_PHY_CMD_OP_22_READ_DATA)
		s->g2[MV88E6XXX_G2_SMI_PHY_DATA] =
			dev < SIM_USER_PORTS ? sim_phy_read(s, dev, reg) : 0xffff;
	else if (op == MV88E6XXX_G2_SMI_PHY_CMD_OP_22_WRITE_DATA && dev < SIM_USER_PORTS)
		sim_phy_write(s, dev, reg, s->g2[MV88E6XXX_G2_SMI_PHY_DATA]);
}

static void g1_write(struct sim *s, int reg, u16 val)
{
	switch (reg) {
	case MV88E6XXX_G1_STS:
		return;
	case MV88E6XXX_G1_CTL1:
		val &= ~MV88E6XXX_G1_CTL1_SW_RESET;
		break;
	case MV88E6XXX_G1_VTU_OP:
		if (val & MV88E6XXX_G1_VTU_OP_BUSY)
			sim_vtu_op(s, val & MV88E6XXX_G1_VTU_OP_MASK);
		val &= ~(MV88E6XXX_G1_VTU_OP_BUSY | MV88E6XXX_G1_VTU_OP_MEMBER_VIOLATION |
			 MV88E6XXX_G1_VTU_OP_MISS_VIOLATION);
		break;
	case MV88E6XXX_G1_ATU_OP:
		s->g1[reg] = val;
		if (val & MV88E6XXX_G1_ATU_OP_BUSY)
			sim_atu_op(s, val & MV88E6XXX_G1_ATU_OP_MASK);
		val &= ~(MV88E6XXX_G1_ATU_OP_BUSY | 0x00f0);	/* no violations */
		break;
	case MV88E6XXX_G1_STATS_OP:
		val &= ~MV88E6XXX_G1_STATS_OP_BUSY;
		break;
	}
	s->g1[reg] = val;
}

static void g2_write(struct sim *s, int reg, u16 val)
{
	switch (reg) {
	case MV88E6XXX_G2_INT_SRC:
		return;
	case MV88E6XXX_G2_SMI_PHY_CMD:
		if (val & MV88E6XXX_G2_SMI_PHY_CMD_BUSY)
			smi_phy_cmd(s, val);
		val &= ~MV88E6XXX_G2_SMI_PHY_CMD_BUSY;
		break;
	case MV88E6XXX_G2_PVT_ADDR:
		if (val & MV88E6XXX_G2_PVT_ADDR_BUSY)
			sim_pvt_op(s, val);
		val &= ~MV88E6XXX_G2_PVT_ADDR_BUSY;
		break;
	case MV88E6XXX_G2_IRL_CMD:
		val &= ~MV88E6XXX_G2_IRL_CMD_BUSY;
		break;
	case MV88E6XXX_G2_DEVICE_MAPPING:
	case MV88E6XXX_G2_TRUNK_MASK:
	case MV88E6XXX_G2_TRUNK_MAPPING:
	case MV88E6XXX_G2_SWITCH_MAC:
	case MV88E6XXX_G2_PRIO_OVERRIDE:
		/* Update-style tables: nothing reads them back but a dump. */
		val &= ~BIT(15);
		break;
	}
	s->g2[reg] = val;
}

u16 sim_smi_read_locked(struct sim *s, int addr, int reg)
{
	if (addr >= SIM_SMI_PORT0 && addr < SIM_SMI_PORT0 + SIM_PORTS)
		return port_read(s, addr - SIM_SMI_PORT0, reg);
	if (addr == SIM_SMI_G1)
		return reg == MV88E6XXX_G1_STS ? G1_STS_READY : s->g1[reg];
	if (addr == SIM_SMI_G2)
		return reg == MV88E6XXX_G2_INT_SRC ? 0 : s->g2[reg];
	return 0xffff;
}

void sim_smi_write_locked(struct sim *s, int addr, int reg, u16 val)
{
	if (addr >= SIM_SMI_PORT0 && addr < SIM_SMI_PORT0 + SIM_PORTS) {
		if (reg != MV88E6XXX_PORT_STS && reg != MV88E6XXX_PORT_SWITCH_ID)
			s->port[addr - SIM_SMI_PORT0].reg[reg] = val;
	} else if (addr == SIM_SMI_G1) {
		g1_write(s, reg, val);
	} else if (addr == SIM_SMI_G2) {
		g2_write(s, reg, val);
	}
}

/* Power-on state: every port disabled, empty tables. */
void sim_reset_locked(struct sim *s)
{
	int p;

	memset(s->g1, 0, sizeof(s->g1));
	memset(s->g2, 0, sizeof(s->g2));
	s->g1[MV88E6XXX_G1_ATU_CTL] = G1_ATU_CTL_DEFAULT;
	for (p = 0; p < SIM_PORTS; p++) {
		memset(s->port[p].reg, 0, sizeof(s->port[p].reg));
		s->port[p].reg[MV88E6XXX_PORT_MAC_CTL] = MV88E6XXX_PORT_MAC_CTL_SPEED_UNFORCED;
		sim_phy_reset(&s->port[p].phy);
	}
	memset(s->vtu, 0, sizeof(s->vtu));
	memset(s->stu, 0, sizeof(s->stu));
	s->n_atu = 0;
	memset(s->pvt, 0, sizeof(s->pvt));
}
