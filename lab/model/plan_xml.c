// SPDX-License-Identifier: MIT
/*
 * libvirt domain XML for one node. Every string that is not a literal of
 * ours goes through sbuf_xml(); names are validated anyway.
 */
#include "plan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

/* loglevel=4: warnings and worse on the console; a serial console is
 * slow under TCG and the full log stays in the guest's dmesg.
 * no_timer_check: with many guests booting on few host CPUs the IO-APIC
 * timer check sees too few ticks and panics the guest.
 * acpi=noirq: PCI interrupts routed from the BIOS tables, not by running
 * the ACPI interrupt links' methods, ~0.3 s of a TCG boot (every virtio
 * device uses MSI-X anyway). */
#define CMDLINE "console=ttyS0 panic=-1 loglevel=4 no_timer_check acpi=noirq"
/* Two spins of a one-vCPU TCG boot, measured from its printk times:
 * noapictimer: TCG has no TSC deadline timer, so the kernel calibrates
 * the local APIC timer by spinning 100 ms; the HPET gives the clock
 * events instead (with more vCPUs it would become a broadcast device, so
 * they keep theirs). noreplace-smp: on one CPU the kernel rewrites every
 * lock prefix of its text, 50 ms of TCG code invalidation; the prefixes
 * cost nothing there, as TCG translates them as plain accesses when a
 * guest has one vCPU. */
#define CMDLINE_TCG_UP " noapictimer noreplace-smp"
/* norandmaps: this QEMU's TCG finds a translation by virtual address,
 * so a process at random addresses (a PIE and its libraries) is
 * translated afresh on every run: ~1.8 MB of host code per mstctl, of
 * which `wait: converged` runs one per bridge every 500 ms. */
#define CMDLINE_TCG " norandmaps"

static bool path_ok(const char *s)
{
	return s && s[0] == '/' && strlen(s) < 4000;
}

/* A unix socket path must fit sun_path. */
static bool socket_path_ok(const char *run_dir, const char *node)
{
	struct sockaddr_un sun;

	return strlen(run_dir) + strlen("/qga/") + strlen(node) +
	       strlen(".sock") < sizeof(sun.sun_path);
}

/* The name of the node's files in the run folder (seed, agent socket,
 * console log); a template's stand-in in its own folder. */
static const char *file_name(const struct plan_params *pp,
			     const struct topo_node *n)
{
	return pp->boot == PLAN_BOOT_TEMPLATE ? PLAN_TEMPLATE_NODE : n->name;
}

/* A word of a QEMU option list (key=value,...): a comma is doubled. */
static void qemu_opt_xml(struct sbuf *x, const char *s)
{
	for (; *s; s++) {
		char c[2] = { *s, 0 };

		sbuf_xml(x, c);
		if (*s == ',')
			sbuf_puts(x, ",");
	}
}

/* dir[/sub/name.ext], escaped */
static void path_xml(struct sbuf *x, const char *dir, const char *sub,
		     const char *name, const char *ext)
{
	sbuf_xml(x, dir);
	if (!sub)
		return;
	sbuf_printf(x, "/%s/", sub);
	sbuf_xml(x, name);
	sbuf_puts(x, ext);
}

/* The emulated switch finds the NICs behind lan1..lan5 by MAC, in port
 * order; a port without a link has an empty slot. */
static void dsa_ports_arg(struct sbuf *x, const struct plan *p, int node)
{
	const struct topo_node *n = &p->topo->nodes[node];
	const char *mac[TOPO_DSA_PORTS + 1] = { 0 };
	unsigned int last = 0;

	for (size_t j = 0; j < n->n_ports; j++) {
		unsigned int lan = n->ports[j].index;

		if (lan >= 1 && lan <= TOPO_DSA_PORTS) {
			mac[lan] = p->nodes[node].nic[j].mac_str;
			last = lan > last ? lan : last;
		}
	}
	sbuf_puts(x, " mv88e6xxx_sim.ports=");
	for (unsigned int lan = 1; lan <= last; lan++)
		sbuf_printf(x, "%s%s", lan > 1 ? "," : "", mac[lan] ? mac[lan] : "");
}

static void cpu_xml(struct sbuf *x, const struct topo_node *n,
		    enum plan_virt virt)
{
	const char *model = n->cpu[0] ? n->cpu : NULL;

	if (n->role == TOPO_ROLE_HSMP_HOST) {
		/* HSMP probes on AMD family 19h: the model must say so. */
		sbuf_puts(x, "  <cpu mode='custom' match='exact' "
			  "check='none'>\n    <model fallback='allow'>");
		sbuf_xml(x, model ? model : "EPYC-Milan");
		sbuf_printf(x, "</model>\n    <topology sockets='%u' dies='1' "
			    "cores='%u' threads='1'/>\n  </cpu>\n",
			    n->sockets, n->vcpus / n->sockets);
		return;
	}
	if (!model && virt == PLAN_VIRT_KVM) {
		sbuf_puts(x, "  <cpu mode='host-passthrough' check='none'/>\n");
		return;
	}
	sbuf_puts(x, "  <cpu mode='custom' match='exact' check='none'>\n"
		  "    <model fallback='forbid'>");
	sbuf_xml(x, model ? model : "qemu64");
	sbuf_puts(x, "</model>\n  </cpu>\n");
}

/*
 * The nodes under test get four times the host CPU of the end hosts when
 * the host is short of it (cgroup cpu shares, 1024 by default): under
 * TCG a guest's reaction time is its QEMU's turn on a host core, and with
 * probe traffic the end hosts' QEMUs compete for the same two cores. In
 * bench/mstp's takeover, 3 runs each: outage 29-123 ms with, 203-232 ms
 * without; a bridge's TC went out 34-81 ms after the failure instead of
 * 81-220.
 */
static void cputune_xml(struct sbuf *x, const struct topo_node *n)
{
	if (n->role == TOPO_ROLE_HOST)
		return;
	sbuf_puts(x, "  <cputune>\n    <shares>4096</shares>\n"
		  "  </cputune>\n");
}

/*
 * A NIC on its link's bridge; a template's on a tap of its own, linked
 * to nothing (its guest never brings it up), with the template's
 * address: the same virtio device, and nothing of a lab's in the shape.
 */
static void nic_xml(struct sbuf *x, const struct plan *p,
		    const struct plan_params *pp, const struct topo_node *n,
		    size_t j, bool up)
{
	const struct topo_port *port = &n->ports[j];
	const struct plan_nic *nic = &p->nodes[n->index].nic[j];
	bool tpl = pp && pp->boot == PLAN_BOOT_TEMPLATE;
	char mac[18];

	sbuf_printf(x, "    <interface type='%s'>\n      <mac address='",
		    tpl ? "ethernet" : "bridge");
	if (tpl) {
		plan_template_mac(j, mac);
		sbuf_puts(x, mac);
		sbuf_puts(x, "'/>\n");
	} else {
		sbuf_xml(x, nic->mac_str);
		sbuf_puts(x, "'/>\n      <source bridge='");
		sbuf_xml(x, p->links[port->link].bridge);
		sbuf_puts(x, "'/>\n      <target dev='");
		sbuf_xml(x, nic->tap);
		sbuf_puts(x, "'/>\n");
	}
	sbuf_puts(x, "      <model type='virtio'/>\n");
	/* A host's probe-gen sends XDP live frames: virtio_net gives XDP
	 * its own TX queue per CPU only with queue pairs for them on top
	 * of one per CPU; fewer, and XDP shares a queue under a lock. */
	if (n->role == TOPO_ROLE_HOST)
		sbuf_printf(x, "      <driver queues='%u'/>\n",
			    2 * (n->vcpus ? n->vcpus : 1));
	sbuf_printf(x, "      <link state='%s'/>\n", up ? "up" : "down");
	if (!tpl) {
		sbuf_puts(x, "      <alias name='ua-");
		sbuf_xml(x, port->name);
		sbuf_puts(x, "'/>\n");
	}
	sbuf_puts(x, "    </interface>\n");
}

/*
 * The guest RAM of a template or a clone is a file, the template's
 * (QEMU's command line through libvirt's passthrough, which replaces the
 * machine's RAM backend): written through by the template (share=on),
 * mapped copy-on-write by its clones (share=off), whose pages the
 * template's file thus holds once for all of them. A clone waits for
 * the template's saved state (-incoming defer), which mstlab feeds it.
 */
static void template_qemu_args(struct sbuf *x, const struct plan_params *pp,
			       const struct topo_node *n)
{
	static const char arg[] = "    <qemu:arg value='";

	sbuf_printf(x, "  <qemu:commandline>\n%s-object'/>\n%s"
		    "memory-backend-file,id=" PLAN_TEMPLATE_RAM_ID
		    ",size=%uM,mem-path=", arg, arg, n->memory_mib);
	qemu_opt_xml(x, pp->template_ram);
	sbuf_printf(x, ",share=%s'/>\n%s-machine'/>\n%smemory-backend="
		    PLAN_TEMPLATE_RAM_ID "'/>\n",
		    pp->boot == PLAN_BOOT_TEMPLATE ? "on" : "off", arg, arg);
	if (pp->boot == PLAN_BOOT_CLONE)
		sbuf_printf(x, "%s-incoming'/>\n%sdefer'/>\n", arg, arg);
	sbuf_puts(x, "  </qemu:commandline>\n");
}

/* The node's domain; @overlay is its overlay folder (a placeholder in
 * the shape), or "". */
static enum plan_err domain_xml(const struct plan *p,
				const struct plan_params *pp, int node,
				const char *overlay, struct sbuf *x)
{
	const struct topo *t = p->topo;
	const struct topo_node *n;
	const char *kernel, *name;
	bool tpl = pp->boot != PLAN_BOOT_COLD;

	if (node < 0 || (size_t)node >= t->n_nodes)
		return PLAN_ENODE;
	n = &t->nodes[node];
	name = file_name(pp, n);
	kernel = pp->kernel[n->kernel];
	if (!path_ok(pp->run_dir) || !path_ok(kernel) || !path_ok(pp->initrd) ||
	    (pp->tools && !path_ok(pp->tools)) ||
	    (overlay[0] && !path_ok(overlay)) ||
	    (tpl && !path_ok(pp->template_ram)) ||
	    (pp->boot == PLAN_BOOT_TEMPLATE && !pp->template_name) ||
	    !socket_path_ok(pp->run_dir, name))
		return PLAN_EPATH;

	sbuf_printf(x, "<domain type='%s'%s>\n  <name>",
		    pp->virt == PLAN_VIRT_KVM ? "kvm" : "qemu",
		    tpl ? " xmlns:qemu='http://libvirt.org/schemas/domain/"
			  "qemu/1.0'" : "");
	if (pp->boot == PLAN_BOOT_TEMPLATE) {
		/* Nothing of a lab: not even the run folder. */
		sbuf_xml(x, pp->template_name);
		sbuf_puts(x, "</name>\n  <title>mstlab template</title>\n");
	} else {
		sbuf_xml(x, p->nodes[node].domain);
		sbuf_puts(x, "</name>\n  <title>mstlab ");
		sbuf_xml(x, t->name);
		sbuf_puts(x, ": ");
		sbuf_xml(x, n->name);
		sbuf_printf(x, " (%s)</title>\n  <description>"
			    PLAN_RUN_LABEL, topo_role_name(n->role));
		path_xml(x, pp->run_dir, NULL, NULL, NULL);
		sbuf_puts(x, "</description>\n");
	}
	sbuf_printf(x, "  <memory unit='MiB'>%u</memory>\n"
		    "  <vcpu placement='static'>%u</vcpu>\n",
		    n->memory_mib, n->vcpus);
	sbuf_puts(x, "  <os>\n    <type arch='x86_64' machine='pc'>hvm"
		  "</type>\n    <kernel>");
	path_xml(x, kernel, NULL, NULL, NULL);
	sbuf_puts(x, "</kernel>\n    <initrd>");
	path_xml(x, pp->initrd, NULL, NULL, NULL);
	sbuf_puts(x, "</initrd>\n");
	sbuf_puts(x, "    <cmdline>" CMDLINE);
	if (pp->virt == PLAN_VIRT_QEMU)
		sbuf_puts(x, CMDLINE_TCG);
	if (pp->virt == PLAN_VIRT_QEMU && n->vcpus == 1)
		sbuf_puts(x, CMDLINE_TCG_UP);
	/* The emulated SMU has as many sockets as the CPU topology, and
	 * answers the CPU's own protocol unless the topology chose one. */
	if (n->role == TOPO_ROLE_HSMP_HOST)
		sbuf_printf(x, " amd_smu_sim.sockets=%u", n->sockets);
	if (n->role == TOPO_ROLE_HSMP_HOST && n->hsmp_protocol)
		sbuf_printf(x, " amd_smu_sim.proto_ver=%u", n->hsmp_protocol);
	if (n->role == TOPO_ROLE_DSA_SWITCH)
		dsa_ports_arg(x, p, node);
	if (pp->boot == PLAN_BOOT_TEMPLATE)
		sbuf_puts(x, " " PLAN_TEMPLATE_ARG);
	sbuf_puts(x, "</cmdline>\n  </os>\n  <features>\n    <acpi/>\n");
	/* TCG's translation cache defaults to 1 GiB per VM. A boot
	 * generates ~50 MiB; what a bridge runs after it (its kernel paths,
	 * the programs mstlab runs in it) fits in 24 (~23 used through ten
	 * scenarios, no flush after boot). With 16 a bridge emptied it
	 * every 3-7 s and each failover ran through the translator again
	 * (ten takeovers in one lab: median 117 ms lost against 28).
	 * 24 keeps a VM at 124 MiB resident (bench/up); more holds boot's
	 * code. */
	if (pp->virt == PLAN_VIRT_QEMU)
		sbuf_puts(x, "    <tcg>\n      <tb-cache unit='MiB'>24"
			  "</tb-cache>\n    </tcg>\n");
	sbuf_puts(x, "  </features>\n");
	cpu_xml(x, n, pp->virt);
	if (pp->boot != PLAN_BOOT_TEMPLATE)
		cputune_xml(x, n);
	/* A guest that reboots or panics (panic=-1) stops: never loops. */
	sbuf_puts(x, "  <clock offset='utc'/>\n"
		  "  <on_poweroff>destroy</on_poweroff>\n"
		  "  <on_reboot>destroy</on_reboot>\n"
		  "  <on_crash>destroy</on_crash>\n  <devices>\n");

	/* libvirt adds a USB controller unless told not to: nothing here
	 * uses one. */
	sbuf_puts(x, "    <controller type='usb' model='none'/>\n");
	sbuf_puts(x, "    <disk type='file' device='disk'>\n"
		  "      <driver name='qemu' type='raw'/>\n"
		  "      <source file='");
	path_xml(x, pp->run_dir, "seed", name, ".img");
	sbuf_puts(x, "'/>\n      <target dev='vda' bus='virtio'/>\n"
		  "      <readonly/>\n    </disk>\n");

	sbuf_puts(x, "    <filesystem type='mount' accessmode='mapped'>\n"
		  "      <source dir='");
	path_xml(x, pp->run_dir, NULL, NULL, NULL);
	sbuf_puts(x, "'/>\n      <target dir='lab'/>\n    </filesystem>\n");
	if (overlay[0]) {
		/* The node's own files, copied over / by its user-data;
		 * passthrough keeps their modes. */
		sbuf_puts(x, "    <filesystem type='mount' "
			  "accessmode='passthrough'>\n      <source dir='");
		path_xml(x, overlay, NULL, NULL, NULL);
		sbuf_puts(x, "'/>\n      <target dir='overlay'/>\n"
			  "      <readonly/>\n    </filesystem>\n");
	}
	if (pp->tools) {
		/* passthrough: the programs keep their modes */
		sbuf_puts(x, "    <filesystem type='mount' "
			  "accessmode='passthrough'>\n      <source dir='");
		path_xml(x, pp->tools, NULL, NULL, NULL);
		sbuf_puts(x, "'/>\n      <target dir='tools'/>\n"
			  "      <readonly/>\n    </filesystem>\n");
	}

	sbuf_puts(x, "    <channel type='unix'>\n"
		  "      <source mode='bind' path='");
	path_xml(x, pp->run_dir, "qga", name, ".sock");
	sbuf_puts(x, "'/>\n      <target type='virtio' "
		  "name='org.qemu.guest_agent.0'/>\n    </channel>\n");
	if (tpl) {
		/* Where a template waits for its identity
		 * (images/boot/identity.h), mstlab at the other end. */
		sbuf_puts(x, "    <channel type='unix'>\n"
			  "      <source mode='bind' path='");
		path_xml(x, pp->run_dir, "qga", name, ".id");
		sbuf_puts(x, "'/>\n      <target type='virtio' name='"
			  PLAN_IDENTITY_PORT "'/>\n    </channel>\n");
	}

	sbuf_puts(x, "    <serial type='pty'>\n      <log file='");
	path_xml(x, pp->run_dir, "console", name, ".log");
	sbuf_puts(x, "' append='off'/>\n      <target port='0'/>\n"
		  "    </serial>\n    <console type='pty'>\n"
		  "      <target type='serial' port='0'/>\n    </console>\n");

	for (size_t j = 0; j < n->n_ports; j++)
		nic_xml(x, p, pp, n, j, true);

	sbuf_puts(x, "    <rng model='virtio'>\n      <backend "
		  "model='random'>/dev/urandom</backend>\n    </rng>\n");
	/* No ballooning: free page reporting alone, through which the guest
	 * hands back what it freed after boot (see images/boot/init.c).
	 * Not from a template: this QEMU would punch the pages a clone
	 * reports out of the file all its template's clones map. */
	sbuf_puts(x, tpl ? "    <memballoon model='none'/>\n" :
		  "    <memballoon model='virtio' freePageReporting='on'/>\n");
	sbuf_puts(x, "    <video>\n      <model type='none'/>\n    </video>\n"
		  "  </devices>\n");
	/* QEMU as root: it writes the run folder (9p share, agent socket)
	 * that mstlab, running as root, created. */
	sbuf_puts(x, "  <seclabel type='static' model='dac' relabel='no'>\n"
		  "    <label>+0:+0</label>\n  </seclabel>\n");
	if (tpl)
		template_qemu_args(x, pp, n);
	sbuf_puts(x, "</domain>\n");
	return sbuf_failed(x) ? PLAN_ENOMEM : PLAN_OK;
}

enum plan_err plan_domain_xml(const struct plan *p,
			      const struct plan_params *pp, int node,
			      struct sbuf *x)
{
	const struct topo_node *n;
	char copy[PATH_MAX];

	if (node < 0 || (size_t)node >= p->topo->n_nodes)
		return PLAN_ENODE;
	n = &p->topo->nodes[node];
	if (pp->boot != PLAN_BOOT_COLD && !plan_node_templated(p, node))
		return PLAN_ENOTEMPLATE;
	if (!n->overlay[0] || !pp->overlay_root)
		return domain_xml(p, pp, node, n->overlay, x);
	if ((size_t)snprintf(copy, sizeof(copy), "%s/%s", pp->overlay_root,
			     n->name) >= sizeof(copy))
		return PLAN_EPATH;
	return domain_xml(p, pp, node, copy, x);
}

bool plan_node_templated(const struct plan *p, int node)
{
	return node >= 0 && (size_t)node < p->topo->n_nodes &&
	       p->topo->nodes[node].role != TOPO_ROLE_DSA_SWITCH;
}

enum plan_err plan_template_shape(const struct plan *p,
				  const struct plan_params *pp, int node,
				  struct sbuf *x)
{
	struct plan_params shape = {
		.virt = pp->virt, .run_dir = "/template",
		.kernel = { "/kernel", "/kernel" }, .initrd = "/initrd",
		.tools = pp->tools ? "/tools" : NULL,
		.boot = PLAN_BOOT_TEMPLATE, .template_ram = "/ram",
		.template_name = "mstlab-template",
	};

	if (node < 0 || (size_t)node >= p->topo->n_nodes)
		return PLAN_ENODE;
	if (!plan_node_templated(p, node))
		return PLAN_ENOTEMPLATE;
	return domain_xml(p, &shape, node,
			  p->topo->nodes[node].overlay[0] ? "/overlay" : "", x);
}

void plan_template_mac(size_t port, char out[18])
{
	snprintf(out, 18, "06:00:00:00:00:%02zx", (port + 1) & 0xff);
}

enum plan_err plan_nic_xml(const struct plan *p, int node, int port, bool up,
			   struct sbuf *x)
{
	const struct topo *t = p->topo;

	if (node < 0 || (size_t)node >= t->n_nodes || port < 0 ||
	    (size_t)port >= t->nodes[node].n_ports)
		return PLAN_ENODE;
	nic_xml(x, p, NULL, &t->nodes[node], (size_t)port, up);
	return sbuf_failed(x) ? PLAN_ENOMEM : PLAN_OK;
}
