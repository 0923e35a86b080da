// SPDX-License-Identifier: GPL-2.0
/*
 * Bring-up of the emulated 88E6171: a platform device, the conduit netdev
 * (the CPU port's wire), the backing NICs of ports 0-4 (by MAC, from the
 * command line: mv88e6xxx_sim.ports=MAC,MAC,...), and an MDIO bus whose
 * device 0 carries mv88e6xxx platform data, so the unmodified driver
 * probes the switch without device tree. Nothing happens without ports=.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/rtnetlink.h>
#include <linux/vmalloc.h>

#include "sim.h"

#define SIM_BUS_ID	"mvsim-smi"	/* not mv88e6xxx-N: the driver's own */
#define AGING_PERIOD	HZ

static char *ports;
module_param(ports, charp, 0444);
MODULE_PARM_DESC(ports, "MAC addresses of the NICs behind lan1..lan5, comma separated (empty: no NIC)");

struct sim *sim;

static int sim_mdio_read(struct mii_bus *bus, int addr, int reg)
{
	u16 val;

	spin_lock_bh(&sim->lock);
	val = sim_smi_read_locked(sim, addr, reg);
	spin_unlock_bh(&sim->lock);
	return val;
}

static int sim_mdio_write(struct mii_bus *bus, int addr, int reg, u16 val)
{
	spin_lock_bh(&sim->lock);
	sim_smi_write_locked(sim, addr, reg, val);
	spin_unlock_bh(&sim->lock);
	return 0;
}

static int sim_conduit_open(struct net_device *dev)
{
	netif_carrier_on(dev);
	netif_start_queue(dev);
	return 0;
}

static int sim_conduit_stop(struct net_device *dev)
{
	netif_stop_queue(dev);
	return 0;
}

static const struct net_device_ops sim_conduit_ops = {
	.ndo_open = sim_conduit_open,
	.ndo_stop = sim_conduit_stop,
	.ndo_start_xmit = sim_conduit_xmit,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_mac_address = eth_mac_addr,
};

static int __init sim_conduit_create(struct sim *s)
{
	struct net_device *dev;
	int err;

	dev = alloc_netdev(0, "dsa%d", NET_NAME_ENUM, ether_setup);
	if (!dev)
		return -ENOMEM;
	SET_NETDEV_DEV(dev, &s->pdev->dev);
	dev->netdev_ops = &sim_conduit_ops;
	dev->max_mtu = ETH_MAX_MTU;	/* DSA raises it for the tag */
	/*
	 * Our transmit sends on a NIC of the same lock class: no TX lock.
	 * 6.12 made lockless TX a device flag; 6.1 has the feature bit.
	 */
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;
#endif
	eth_hw_addr_random(dev);
	err = register_netdev(dev);
	if (err) {
		free_netdev(dev);
		return err;
	}
	/* mv88e6xxx drops a reference on every probe failure path. */
	dev_hold(dev);
	s->conduit = dev;
	return 0;
}

/* Takes a virtio NIC for a port: promiscuous, no GRO, frames to us. */
static int __init sim_claim_nic(struct sim *s, int port)
{
	struct sim_port *p = &s->port[port];
	struct net_device *nic;
	int err;

	rtnl_lock();
	nic = dev_getbyhwaddr_rcu(&init_net, ARPHRD_ETHER, p->nic_mac);
	if (!nic) {
		rtnl_unlock();
		pr_warn("lan%d: no NIC with MAC %pM: the port stays down\n", port + 1,
			p->nic_mac);
		return 0;
	}
	err = netdev_rx_handler_register(nic, sim_nic_rx, p);
	if (!err) {
		nic->wanted_features &= ~(NETIF_F_GRO | NETIF_F_LRO);
		netdev_update_features(nic);
		dev_set_promiscuity(nic, 1);
		err = dev_open(nic, NULL);
	}
	if (!err) {
		dev_hold(nic);
		spin_lock_bh(&s->lock);
		p->nic = nic;
		spin_unlock_bh(&s->lock);
	}
	rtnl_unlock();
	if (err)
		pr_err("lan%d: cannot take %s: %d\n", port + 1, nic->name, err);
	else
		pr_info("lan%d is backed by %s (%pM)\n", port + 1, nic->name, p->nic_mac);
	return err;
}

static int __init sim_parse_ports(struct sim *s)
{
	char *list = kstrdup(ports, GFP_KERNEL), *cur = list, *mac;
	int n = 0;

	if (!list)
		return -ENOMEM;
	while ((mac = strsep(&cur, ",")) && n < SIM_USER_PORTS) {
		if (!*mac) {		/* an empty slot: a port without a NIC */
			n++;
			continue;
		}
		if (!mac_pton(mac, s->port[n].nic_mac)) {
			pr_err("ports: '%s' is not a MAC address\n", mac);
			kfree(list);
			return -EINVAL;
		}
		s->port[n++].has_nic = true;
	}
	kfree(list);
	return n;
}

static void sim_aging_work(struct work_struct *work)
{
	spin_lock_bh(&sim->lock);
	sim_atu_age(sim);
	spin_unlock_bh(&sim->lock);
	schedule_delayed_work(&sim->aging, AGING_PERIOD);
}

/*
 * DSA links the switch to the conduit's parent device as a supplier: it
 * must have a driver, or the driver core warns when the switch binds.
 */
static int sim_pdev_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver sim_pdev_driver = {
	.probe = sim_pdev_probe,
	.driver = { .name = "mv88e6xxx-sim" },
};

static struct mdio_board_info sim_board_info = {
	.bus_id = SIM_BUS_ID,
	.modalias = "mv88e6085",
	.mdio_addr = 0,		/* single-chip, direct SMI */
};

static int __init sim_init(void)
{
	struct sim *s;
	int i, err;

	if (!ports || !*ports)
		return 0;
	s = vzalloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	spin_lock_init(&s->lock);
	sim_reset_locked(s);
	sim = s;
	err = sim_parse_ports(s);
	if (err < 0)
		return err;

	err = platform_driver_register(&sim_pdev_driver);
	if (err)
		return err;
	s->pdev = platform_device_register_simple("mv88e6xxx-sim", PLATFORM_DEVID_NONE,
						  NULL, 0);
	if (IS_ERR(s->pdev))
		return PTR_ERR(s->pdev);
	err = sim_conduit_create(s);
	if (err)
		return err;
	for (i = 0; i < SIM_USER_PORTS; i++) {
		if (s->port[i].has_nic) {
			err = sim_claim_nic(s, i);
			if (err)
				return err;
		}
	}
	INIT_DELAYED_WORK(&s->aging, sim_aging_work);
	schedule_delayed_work(&s->aging, AGING_PERIOD);
	sim_debugfs_init(s);

	for (i = 0; i < SIM_USER_PORTS; i++) {
		s->pdata.cd.port_names[i] = kasprintf(GFP_KERNEL, "lan%d", i + 1);
		if (!s->pdata.cd.port_names[i])
			return -ENOMEM;
	}
	s->pdata.cd.port_names[SIM_CPU_PORT] = "cpu";
	s->pdata.compatible = "marvell,mv88e6085";
	s->pdata.enabled_ports = GENMASK(SIM_CPU_PORT, 0);
	s->pdata.netdev = s->conduit;
	sim_board_info.platform_data = &s->pdata;
	err = mdiobus_register_board_info(&sim_board_info, 1);
	if (err)
		return err;

	s->bus = mdiobus_alloc();
	if (!s->bus)
		return -ENOMEM;
	s->bus->name = "mv88e6xxx-sim SMI";
	strscpy(s->bus->id, SIM_BUS_ID, MII_BUS_ID_SIZE);
	s->bus->read = sim_mdio_read;
	s->bus->write = sim_mdio_write;
	s->bus->parent = &s->pdev->dev;
	s->bus->phy_mask = ~0;	/* the switch, not PHYs, lives on this bus */
	/* Registering the bus probes mv88e6xxx, which registers lan1..lan5. */
	err = mdiobus_register(s->bus);
	if (err)
		pr_err("MDIO bus: %d\n", err);
	return err;
}
late_initcall(sim_init);
