// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated AMD northbridge PCI functions on a private PCI domain.
 *
 * Layout, as on a real 2P Rome/Milan apart from the domain:
 *   bus 00: 00.0 root complex of socket 0, 18.0-7 data fabric of socket 0,
 *           19.0-7 data fabric of socket 1, ...
 *   bus 20*s: 00.0 root complex of socket s (s > 0)
 * amd_nb pairs roots and DF function 3 in registration order, so socket 0
 * comes first everywhere. It caches them once, at fs_initcall: hence a
 * built-in emulator at subsys_initcall_sync.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/topology.h>
#include <asm/amd_nb.h>
#include <asm/processor.h>
#include <asm/smp.h>

#include "smu_sim.h"

#define BUSES_PER_SOCKET	0x20
#define DF_SLOT			0x18
#define ROOT_SMN_INDEX		0x60
#define ROOT_SMN_DATA		0x64
#define ROOT_HSMP_INDEX		0xc4
#define ROOT_HSMP_DATA		0xc8
#define COMMAND_WRITABLE	0x0547

struct smu_sim_ids {
	u8 model_lo, model_hi;
	u16 root;
	u16 df0;		/* DF functions 0-7 are df0 + function */
	u8 proto;		/* the HSMP protocol its SMU firmware answers */
	const char *name;
};

/*
 * Family 19h parts the emulator knows: amd_nb's ids for them and the HSMP
 * protocol their SMU answers. The model ranges are AMD's (E-SMI's README,
 * "Supported hardware": Zen3 models 0h-Fh, Zen4 models 10h-1Fh); the
 * protocol of each is E-SMI's message table for it (src/e_smi_plat.c:
 * tbl_milan is "hsmp_proto_ver2", messages 1h-14h; tbl_genoa is
 * "hsmp_proto_ver5", 1h-22h without 15h). Trento (models 30h-3Fh, 4) and
 * Turin (family 1Ah, 7) are not presented: their protocols remain to
 * choose with the proto_ver parameter.
 */
static const struct smu_sim_ids smu_sim_id_table[] = {
	{ 0x00, 0x0f, 0x1480, 0x1650, 2, "Milan" },	/* QEMU EPYC-Milan */
	{ 0x10, 0x1f, 0x14a4, 0x14ad, 5, "Genoa" },
};

static unsigned int sockets = 1;
module_param(sockets, uint, 0444);
MODULE_PARM_DESC(sockets, "emulated sockets (0 disables the emulator)");

static unsigned int proto_ver;
module_param(proto_ver, uint, 0444);
MODULE_PARM_DESC(proto_ver, "HSMP protocol version (2, 4, 5 or 7; 0: the CPU's own)");

static unsigned int latency_us = 100;
module_param(latency_us, uint, 0444);
MODULE_PARM_DESC(latency_us, "firmware answer latency in microseconds");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the telemetry generator");

static bool hsmp_bios = true;
module_param(hsmp_bios, bool, 0444);
MODULE_PARM_DESC(hsmp_bios, "0: the mailbox never answers, as when disabled in the BIOS");

static unsigned int domain = 0x10000;
module_param(domain, uint, 0444);
MODULE_PARM_DESC(domain, "PCI domain of the emulated devices (above ACPI's 16 bits)");

struct smu_sim smu_sim;
static const struct smu_sim_ids *ids;
static unsigned int boot_proto_ver;	/* proto_ver, or the part's */
static struct pci_sysdata sysdata[SMU_SIM_MAX_SOCKETS];

/* Which socket and which function (0 root, 1-8 DF 0-7) bus/devfn is. */
static bool locate(struct pci_bus *bus, unsigned int devfn,
		   struct smu_sim_socket **s, unsigned int *func)
{
	unsigned int n = bus->number / BUSES_PER_SOCKET, slot = PCI_SLOT(devfn);

	if (bus->number % BUSES_PER_SOCKET || n >= smu_sim.nsockets)
		return false;
	if (devfn == 0) {
		*s = &smu_sim.sock[n];
		*func = 0;
		return true;
	}
	if (n || slot < DF_SLOT || slot >= DF_SLOT + smu_sim.nsockets)
		return false;
	*s = &smu_sim.sock[slot - DF_SLOT];
	*func = 1 + PCI_FUNC(devfn);
	return true;
}

static u32 config_dword(struct smu_sim_socket *s, unsigned int func, int where)
{
	bool root = func == 0;

	switch (where) {
	case PCI_VENDOR_ID:
		return (root ? ids->root : ids->df0 + func - 1) << 16 | PCI_VENDOR_ID_AMD;
	case PCI_COMMAND:
		return s->command[func];
	case PCI_CLASS_REVISION:
		return PCI_CLASS_BRIDGE_HOST << 16;
	case PCI_CACHE_LINE_SIZE:
		/* DF function 0 says multi-function, or 1-7 are never scanned. */
		return func == 1 ? 0x80 << 16 : 0;
	}
	if (!root)
		return 0;
	switch (where) {
	case ROOT_SMN_INDEX:
		return s->smn_index;
	case ROOT_SMN_DATA:
		return smu_sim_smn_read(s, s->smn_index);
	case ROOT_HSMP_INDEX:
		return s->hsmp_index;
	case ROOT_HSMP_DATA:
		return smu_sim_smn_read(s, s->hsmp_index);
	}
	return 0;
}

static void config_write_dword(struct smu_sim_socket *s, unsigned int func,
			       int where, u32 val)
{
	if (where == PCI_COMMAND) {
		s->command[func] = val & COMMAND_WRITABLE;
		return;
	}
	if (func)
		return;
	switch (where) {
	case ROOT_SMN_INDEX:
		s->smn_index = val;
		break;
	case ROOT_SMN_DATA:
		smu_sim_smn_write(s, s->smn_index, val);
		break;
	case ROOT_HSMP_INDEX:
		s->hsmp_index = val;
		break;
	case ROOT_HSMP_DATA:
		smu_sim_smn_write(s, s->hsmp_index, val);
		break;
	}
}

static bool access_ok_at(int where, int size)
{
	return where >= 0 && where + size <= PCI_CFG_SPACE_EXP_SIZE &&
	       (size == 1 || size == 2 || size == 4) && !(where & (size - 1));
}

static int smu_sim_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct smu_sim_socket *s;
	unsigned int func, shift = (where & 3) * 8;
	unsigned long flags;
	u32 dw;

	if (!access_ok_at(where, size) || !locate(bus, devfn, &s, &func)) {
		*val = ~0;
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	raw_spin_lock_irqsave(&s->lock, flags);
	dw = config_dword(s, func, where & ~3);
	raw_spin_unlock_irqrestore(&s->lock, flags);
	*val = size == 4 ? dw : (dw >> shift) & GENMASK(size * 8 - 1, 0);
	return PCIBIOS_SUCCESSFUL;
}

static int smu_sim_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	struct smu_sim_socket *s;
	unsigned int func, shift = (where & 3) * 8;
	unsigned long flags;
	u32 old = 0, mask;

	if (!access_ok_at(where, size) || !locate(bus, devfn, &s, &func))
		return PCIBIOS_DEVICE_NOT_FOUND;
	raw_spin_lock_irqsave(&s->lock, flags);
	if (size != 4) {
		/* A partial write of a data register must not read it. */
		int reg = where & ~3;

		old = reg == ROOT_SMN_DATA || reg == ROOT_HSMP_DATA ? 0 :
		      config_dword(s, func, reg);
		mask = GENMASK(size * 8 - 1, 0) << shift;
		val = (old & ~mask) | ((val << shift) & mask);
	}
	config_write_dword(s, func, where & ~3, val);
	raw_spin_unlock_irqrestore(&s->lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops smu_sim_pci_ops = {
	.read = smu_sim_read,
	.write = smu_sim_write,
};

static const struct smu_sim_ids *match_cpu(void)
{
	unsigned int i;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_AMD || boot_cpu_data.x86 != 0x19)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(smu_sim_id_table); i++)
		if (boot_cpu_data.x86_model >= smu_sim_id_table[i].model_lo &&
		    boot_cpu_data.x86_model <= smu_sim_id_table[i].model_hi)
			return &smu_sim_id_table[i];
	return NULL;
}

/*
 * The firmware limits cores by APIC id: learn which ones each socket has.
 * Socket n is CPU package n, as amd_nb's node n is: say so when the CPU
 * topology has other packages than the SMU has sockets.
 */
static void collect_cores(void)
{
	unsigned int cpu, pkg, packages = 0, n;
	struct smu_sim_fw *fw;

	for_each_present_cpu(cpu) {
		pkg = topology_physical_package_id(cpu);
		packages = max(packages, pkg + 1);
		if (pkg >= smu_sim.nsockets)
			continue;
		fw = &smu_sim.sock[pkg].fw;
		if (fw->ncores < SMU_SIM_MAX_CORES)
			fw->apic[fw->ncores++] = cpu_physical_id(cpu);
	}
	for (n = 0; n < smu_sim.nsockets; n++)
		if (!smu_sim.sock[n].fw.ncores)
			break;
	if (packages != smu_sim.nsockets || n < smu_sim.nsockets)
		pr_warn("topology mismatch: %u CPU package%s, sockets=%u\n",
			packages, packages == 1 ? "" : "s", smu_sim.nsockets);
}

static int first_node_of(unsigned int pkg)
{
	unsigned int cpu;

	for_each_present_cpu(cpu)
		if (topology_physical_package_id(cpu) == pkg)
			return cpu_to_node(cpu);
	return first_online_node;
}

static int __init add_bus(struct device *parent, unsigned int n)
{
	struct resource *busn;
	struct pci_bus *bus;
	LIST_HEAD(resources);

	busn = kzalloc(sizeof(*busn), GFP_KERNEL);
	if (!busn)
		return -ENOMEM;
	busn->name = "amd_smu_sim bus";
	busn->start = n * BUSES_PER_SOCKET;
	busn->end = busn->start + BUSES_PER_SOCKET - 1;
	busn->flags = IORESOURCE_BUS;
	pci_add_resource(&resources, busn);

	sysdata[n].domain = domain;
	sysdata[n].node = first_node_of(n);
	pci_lock_rescan_remove();
	bus = pci_scan_root_bus(parent, busn->start, &smu_sim_pci_ops,
				&sysdata[n], &resources);
	if (bus)
		pci_bus_add_devices(bus);
	pci_unlock_rescan_remove();
	if (!bus) {
		pci_free_resource_list(&resources);
		return -ENODEV;
	}
	return 0;
}

static int __init smu_sim_init(void)
{
	struct platform_device *pdev;
	unsigned int n;
	int ret;

	ids = match_cpu();
	if (!ids || !sockets)
		return 0;
	boot_proto_ver = proto_ver ? proto_ver : ids->proto;
	if (sockets > SMU_SIM_MAX_SOCKETS ||
	    !smu_sim_proto_valid(boot_proto_ver) || domain <= 0xffff) {
		pr_err("bad parameters: sockets=%u (1-%u) proto_ver=%u (2, 4, 5, 7) domain=%#x (> 0xffff)\n",
		       sockets, SMU_SIM_MAX_SOCKETS, proto_ver, domain);
		return -EINVAL;
	}
	/* Chosen on purpose, but no such part exists: name it. */
	if (boot_proto_ver != ids->proto)
		pr_warn("protocol mismatch: HSMP protocol %u chosen, but family 19h model %#x (%s) answers protocol %u; user space that goes by the CPU expects other messages\n",
			boot_proto_ver, boot_cpu_data.x86_model, ids->name,
			ids->proto);
	smu_sim.nsockets = sockets;
	smu_sim.proto_ver = boot_proto_ver;
	smu_sim.smu_fw_ver = SMU_SIM_FW_VER;
	smu_sim.seed = seed;
	for (n = 0; n < sockets; n++) {
		raw_spin_lock_init(&smu_sim.sock[n].lock);
		smu_sim.sock[n].id = n;
	}
	collect_cores();
	for (n = 0; n < sockets; n++)
		smu_sim_socket_reset(&smu_sim.sock[n], latency_us, !hsmp_bios);

	pdev = platform_device_register_simple("amd_smu_sim", PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	for (n = 0; n < sockets; n++) {
		ret = add_bus(&pdev->dev, n);
		if (ret) {
			pr_err("cannot add the PCI bus of socket %u: %d\n", n, ret);
			return ret;
		}
	}
	smu_sim_debugfs_init();
	pr_info("%u socket%s, family 19h model %#x (%s), HSMP protocol %u, latency %u us, domain %04x\n",
		sockets, sockets == 1 ? "" : "s", boot_cpu_data.x86_model,
		ids->name, boot_proto_ver, latency_us, domain);
	return 0;
}
subsys_initcall_sync(smu_sim_init);

/*
 * amd_nb caches northbridges once: say so if it did not see ours. And how
 * long amd_hsmp's probe talked to the mailbox (its TEST per socket).
 */
static int __init smu_sim_check(void)
{
	if (!smu_sim.nsockets)
		return 0;
	WRITE_ONCE(smu_sim.booted, true);
	if (amd_nb_num() != smu_sim.nsockets)
		pr_err("amd_nb found %u northbridges, expected %u: initcall order changed?\n",
		       amd_nb_num(), smu_sim.nsockets);
	if (!smu_sim.boot_msgs)
		pr_info("boot handshake: no message answered\n");
	else
		pr_info("boot handshake: %u message%s answered in %llu us\n",
			smu_sim.boot_msgs, smu_sim.boot_msgs == 1 ? "" : "s",
			div_u64(smu_sim.boot_last_ns - smu_sim.boot_first_ns,
				NSEC_PER_USEC));
	return 0;
}
late_initcall(smu_sim_check);

/* Reset knob for debugfs: boot parameters again, state and rules cleared. */
void smu_sim_reset_all(void)
{
	unsigned long flags;
	unsigned int n;

	smu_sim.proto_ver = boot_proto_ver;
	smu_sim.smu_fw_ver = SMU_SIM_FW_VER;
	for (n = 0; n < smu_sim.nsockets; n++) {
		raw_spin_lock_irqsave(&smu_sim.sock[n].lock, flags);
		smu_sim_socket_reset(&smu_sim.sock[n], latency_us, !hsmp_bios);
		raw_spin_unlock_irqrestore(&smu_sim.sock[n].lock, flags);
	}
}
