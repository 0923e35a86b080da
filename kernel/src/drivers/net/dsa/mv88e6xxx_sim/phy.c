// SPDX-License-Identifier: GPL-2.0
/*
 * The internal PHYs of ports 0-4, as genphy sees them: link follows the
 * backing NIC's carrier unless the PHY is powered down.
 */
#include <linux/mii.h>

#include "sim.h"

#define PHY_ID1		0x0141		/* Marvell OUI... */
#define PHY_ID2		0x0eb1		/* ...with a model genphy binds to */
#define BMSR_BASE	0x7909
#define LPA_UP		0x45e1
#define STAT1000_UP	0x3c00

void sim_phy_reset(struct sim_phy *phy)
{
	*phy = (struct sim_phy){
		.bmcr = BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED1000,
		.adv = 0x01e1, .ctrl1000 = 0x0300,
	};
}

bool sim_phy_link(struct sim *s, int port)
{
	struct sim_port *p = &s->port[port];

	/* A NIC set down in the guest is a cable pulled too. */
	return p->nic && netif_running(p->nic) && netif_carrier_ok(p->nic) &&
	       !(p->phy.bmcr & BMCR_PDOWN);
}

u16 sim_phy_read(struct sim *s, int port, int reg)
{
	struct sim_phy *phy = &s->port[port].phy;
	bool up = sim_phy_link(s, port);

	switch (reg) {
	case MII_BMCR:
		return phy->bmcr;
	case MII_BMSR:
		return BMSR_BASE | (up ? BMSR_LSTATUS | BMSR_ANEGCOMPLETE : 0);
	case MII_PHYSID1:
		return PHY_ID1;
	case MII_PHYSID2:
		return PHY_ID2;
	case MII_ADVERTISE:
		return phy->adv;
	case MII_LPA:
		return up ? LPA_UP : 0;
	case MII_CTRL1000:
		return phy->ctrl1000;
	case MII_STAT1000:
		return up ? STAT1000_UP : 0;
	case MII_MMD_CTRL:
		return phy->mmd_ctrl;
	case MII_MMD_DATA:
		return 0;	/* no EEE */
	case MII_ESTATUS:
		return ESTATUS_1000_TFULL | ESTATUS_1000_THALF;
	case 22:		/* Marvell page register */
		return phy->page;
	}
	return 0;
}

void sim_phy_write(struct sim *s, int port, int reg, u16 val)
{
	struct sim_phy *phy = &s->port[port].phy;

	switch (reg) {
	case MII_BMCR:
		if (val & BMCR_RESET) {
			sim_phy_reset(phy);
			return;
		}
		phy->bmcr = val & ~BMCR_ANRESTART;
		break;
	case MII_ADVERTISE:
		phy->adv = val;
		break;
	case MII_CTRL1000:
		phy->ctrl1000 = val;
		break;
	case MII_MMD_CTRL:
		phy->mmd_ctrl = val;
		break;
	case MII_MMD_DATA:
		phy->mmd_data = val;
		break;
	case 22:
		phy->page = val;
		break;
	}
}
