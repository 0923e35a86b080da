// SPDX-License-Identifier: MIT
/*
 * A node's NoCloud seed: meta-data, and user-data = the /bin/sh script the
 * guest runs at boot to become what the topology says (NIC names, bridge,
 * VLANs, MST, mstd, addresses, static impairments). Every name and value
 * that comes from the topology is emitted as one single-quoted shell word.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#define MSTD_CONF "/etc/mstd.conf"

enum plan_err plan_meta_data(const struct plan *p, int node, struct sbuf *out)
{
	if (node < 0 || (size_t)node >= p->topo->n_nodes)
		return PLAN_ENODE;
	sbuf_printf(out, "instance-id: %s\nlocal-hostname: %s\n",
		    p->nodes[node].domain, p->topo->nodes[node].name);
	return sbuf_failed(out) ? PLAN_ENOMEM : PLAN_OK;
}

static void vid_range(struct sbuf *o, unsigned lo, unsigned hi)
{
	if (lo == hi)
		sbuf_printf(o, "%u", lo);
	else
		sbuf_printf(o, "%u-%u", lo, hi);
}

static void vid_list(struct sbuf *o, const struct topo_vlanset *s)
{
	unsigned vid = 0, lo, hi;
	bool first = true;

	while (topo_vlan_next_range(s, &vid, &lo, &hi)) {
		if (!first)
			sbuf_puts(o, ",");
		vid_range(o, lo, hi);
		first = false;
	}
}

static void cmd(struct sbuf *o, const char *fmt, const char *word,
		const char *rest)
{
	sbuf_puts(o, fmt);
	sbuf_shell(o, word);
	sbuf_puts(o, rest);
}

static void rename_nics(struct sbuf *o, const struct plan *p,
			const struct topo_node *n)
{
	const struct plan_node *pn = &p->nodes[n->index];

	sbuf_puts(o, "\n# NICs are named after their ports, found by MAC; "
		  "two passes so names can swap.\n"
		  "mstlab_nic() {\n"
		  "\tfor d in /sys/class/net/*; do\n"
		  "\t\tif [ \"$(cat \"$d/address\" 2>/dev/null)\" = \"$1\" ]; "
		  "then echo \"${d##*/}\"; return 0; fi\n"
		  "\tdone\n"
		  "\techo \"mstlab: no NIC with MAC $1\" >&2\n"
		  "\treturn 1\n}\n");
	/* Temporary names contain '.', which no port name can. */
	for (size_t j = 0; j < n->n_ports; j++)
		sbuf_printf(o, "nic=$(mstlab_nic %s)\n"
			    "ip link set dev \"$nic\" name ml.nic%zu\n",
			    pn->nic[j].mac_str, j);
	for (size_t j = 0; j < n->n_ports; j++) {
		sbuf_printf(o, "ip link set dev ml.nic%zu name ", j);
		sbuf_shell(o, n->ports[j].name);
		sbuf_puts(o, "\n");
	}
}

static void netem(struct sbuf *o, const struct topo *t,
		  const struct topo_port *port)
{
	const struct topo_impair *im = &t->links[port->link].impair;

	if (!im->delay_ms && !im->loss_ppm)
		return;
	cmd(o, "tc qdisc add dev ", port->name, " root netem");
	if (im->delay_ms)
		sbuf_printf(o, " delay %ums", im->delay_ms);
	if (im->loss_ppm)
		sbuf_printf(o, " loss %u.%04u%%", im->loss_ppm / 10000,
			    im->loss_ppm % 10000);
	sbuf_puts(o, "\n");
}

static void bridge_setup(struct sbuf *o, const struct plan *p,
			 const struct topo_node *n)
{
	const struct topo_mst *m = n->mst;
	struct topo_vlanset all = { 0 };
	char log[TOPO_NODE_NAME_MAX + 32];
	unsigned vid, lo, hi;

	if (n->kernel_stp)
		/* /sbin/bridge-stp declines bridges listed there: the kernel
		 * then runs its own 802.1D STP, a legacy peer for mstd. */
		sbuf_printf(o, "\n# The kernel's own STP (802.1D): a legacy "
			    "peer.\n"
			    "ip link add name br0 address %s type bridge "
			    "vlan_filtering 1 vlan_default_pvid 0 "
			    "priority %u hello_time %u max_age %u "
			    "forward_delay %u\n"
			    "echo br0 >> /run/bridge-stp.kernel\n"
			    "ip link set dev br0 type bridge stp_state 1\n",
			    p->nodes[n->index].bridge_mac_str,
			    topo_treevals_get(&n->priority, 0,
					      TOPO_DEFAULT_BRIDGE_PRIO),
			    m->hello_s * 100, m->max_age_s * 100,
			    m->forward_delay_s * 100);
	else
		sbuf_printf(o, "\n# MST must be on before any VLAN exists: "
			    "ports join after it.\n"
			    "ip link add name br0 address %s type bridge "
			    "vlan_filtering 1 vlan_default_pvid 0\n"
			    "mstctl enable dev br0\n"
			    "# User-space STP (/sbin/bridge-stp) before any "
			    "port joins: ports\n# then join blocking and wait "
			    "for mstd, never forwarding into a loop.\n"
			    "ip link set dev br0 type bridge stp_state 1\n",
			    p->nodes[n->index].bridge_mac_str);
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];

		cmd(o, "ip link set dev ", port->name, " master br0\n");
		/* 802.1D's own costs follow the link speed: use the lab's,
		 * as mstd does, so both count the same hops. */
		if (n->kernel_stp) {
			cmd(o, "bridge link set dev ", port->name, "");
			sbuf_printf(o, " cost %u\n",
				    topo_treevals_get(&port->cost, 0,
						      TOPO_DEFAULT_COST));
		}
		vid = 0;
		while (topo_vlan_next_range(&port->vlans.tagged, &vid, &lo,
					    &hi)) {
			cmd(o, "bridge vlan add dev ", port->name, " vid ");
			vid_range(o, lo, hi);
			sbuf_puts(o, "\n");
		}
		if (port->vlans.untagged) {
			cmd(o, "bridge vlan add dev ", port->name, "");
			sbuf_printf(o, " vid %u pvid untagged\n",
				    port->vlans.untagged);
			topo_vlan_add(&all, port->vlans.untagged);
		}
		for (size_t w = 0; w < 64; w++)
			all.bits[w] |= port->vlans.tagged.bits[w];
		netem(o, p->topo, port);
		cmd(o, "ip link set dev ", port->name, " up\n");
	}
	vid = 0;
	while (topo_vlan_next_range(&all, &vid, &lo, &hi)) {
		sbuf_puts(o, "bridge vlan add dev br0 vid ");
		vid_range(o, lo, hi);
		sbuf_puts(o, " self\n");
	}
	if (n->kernel_stp) {
		sbuf_puts(o, "ip link set dev br0 up\n");
		return;
	}
	/* Only VLANs present on the bridge can be mapped to an MSTI. */
	for (size_t i = 0; i < m->n_msti; i++) {
		vid = 0;
		while (topo_vlan_next_range(&m->msti[i].vlans, &vid, &lo,
					    &hi)) {
			sbuf_puts(o, "mstctl vlan set dev br0 vid ");
			vid_range(o, lo, hi);
			sbuf_printf(o, " msti %u\n", m->msti[i].id);
		}
	}
	sbuf_puts(o, "\ncat > " MSTD_CONF " <<'MSTLAB_EOF'\n");
	plan_mstd_conf(p, (int)n->index, o);
	sbuf_puts(o, "MSTLAB_EOF\n"
		  "ip link set dev br0 up\n"
		  "# mstd goes to the background once running; its log lands "
		  "in the run folder.\n"
		  "mkdir -p ");
	snprintf(log, sizeof(log), "/lab/share/%s", n->name);
	sbuf_shell(o, log);
	sbuf_puts(o, "\nmstd -c " MSTD_CONF " -l ");
	snprintf(log, sizeof(log), "/lab/share/%s/mstd.log", n->name);
	sbuf_shell(o, log);
	sbuf_puts(o, "\n");
}

static void host_setup(struct sbuf *o, const struct topo *t,
		       const struct topo_node *n)
{
	struct topo_vlanset addressed = { 0 };
	char addr[32];

	sbuf_puts(o, "\n");
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];
		unsigned u = port->vlans.untagged;

		cmd(o, "ip link set dev ", port->name, " up\n");
		if (u && !topo_vlan_has(&addressed, u)) {
			plan_host_addr((int)n->index, u, addr);
			sbuf_printf(o, "ip addr add %s/24 dev ", addr);
			sbuf_shell(o, port->name);
			sbuf_puts(o, "\n");
			topo_vlan_add(&addressed, u);
		}
		for (unsigned v = 1; v < 4095; v++) {
			char sub[TOPO_PORT_NAME_MAX + 6];

			if (!topo_vlan_has(&port->vlans.tagged, v))
				continue;
			snprintf(sub, sizeof(sub), "%s.%u", port->name, v);
			cmd(o, "ip link add link ", port->name, " name ");
			sbuf_shell(o, sub);
			sbuf_printf(o, " type vlan id %u\n", v);
			cmd(o, "ip link set dev ", sub, " up\n");
			if (topo_vlan_has(&addressed, v))
				continue;
			plan_host_addr((int)n->index, v, addr);
			sbuf_printf(o, "ip addr add %s/24 dev ", addr);
			sbuf_shell(o, sub);
			sbuf_puts(o, "\n");
			topo_vlan_add(&addressed, v);
		}
		netem(o, t, port);
	}
}

enum plan_err plan_user_data(const struct plan *p, int node, struct sbuf *o)
{
	const struct topo *t = p->topo;
	const struct topo_node *n;

	if (node < 0 || (size_t)node >= t->n_nodes)
		return PLAN_ENODE;
	n = &t->nodes[node];
	sbuf_puts(o, "#!/bin/sh\n# mstlab seed for node ");
	sbuf_puts(o, n->name);
	sbuf_printf(o, " (%s) of lab %s. Generated: do not edit.\n",
		    topo_role_name(n->role), t->name);
	sbuf_puts(o, "set -eu\n");
	cmd(o, "hostname ", n->name, "\n");
	sbuf_puts(o, "# No IPv6 chatter (ND, MLD) in the captures.\n"
		  "for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 "
		  "/proc/sys/net/ipv6/conf/default/disable_ipv6; do\n"
		  "\tif [ -w \"$f\" ]; then echo 1 > \"$f\"; fi\n"
		  "done\n");
	/* The DSA driver names its user ports lan1..lan5 itself. */
	if (n->role != TOPO_ROLE_DSA_SWITCH && n->n_ports)
		rename_nics(o, p, n);
	if (topo_role_is_bridge(n->role))
		bridge_setup(o, p, n);
	else
		host_setup(o, t, n);
	sbuf_puts(o, "echo ");
	sbuf_shell(o, "mstlab: node configured");
	sbuf_puts(o, "\n");
	return sbuf_failed(o) ? PLAN_ENOMEM : PLAN_OK;
}

static void tree_line(struct sbuf *o, const char *prefix, uint16_t tree,
		      uint32_t v)
{
	if (tree == TOPO_CIST)
		sbuf_printf(o, "%s cist %u\n", prefix, v);
	else
		sbuf_printf(o, "%s %u %u\n", prefix, tree, v);
}

/*
 * mstd's configuration: one setting per line, "key args". Every value is
 * written out, defaults included, so a run's settings are on record.
 */
enum plan_err plan_mstd_conf(const struct plan *p, int node, struct sbuf *o)
{
	const struct topo *t = p->topo;
	const struct topo_node *n;
	const struct topo_mst *m;

	if (node < 0 || (size_t)node >= t->n_nodes)
		return PLAN_ENODE;
	n = &t->nodes[node];
	if (!topo_role_is_bridge(n->role) || n->kernel_stp)
		return PLAN_ENOMSTD;
	m = n->mst;
	sbuf_printf(o, "# mstd configuration for %s (lab %s), generated by "
		    "mstlab\nbridge br0\nregion %s\nrevision %u\n"
		    "hello %u\nmax_age %u\nforward_delay %u\nmax_hops %u\n",
		    n->name, t->name, m->region, m->revision, m->hello_s,
		    m->max_age_s, m->forward_delay_s, m->max_hops);
	for (size_t i = 0; i < m->n_msti; i++) {
		sbuf_printf(o, "msti %u vlans ", m->msti[i].id);
		vid_list(o, &m->msti[i].vlans);
		sbuf_puts(o, "\n");
	}
	for (int s = 0; s <= (int)m->n_msti; s++) {
		uint16_t tree = topo_tree_id(m, s);

		tree_line(o, "priority", tree,
			  topo_treevals_get(&n->priority, tree,
					    TOPO_DEFAULT_BRIDGE_PRIO));
	}
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];
		char prefix[64];

		sbuf_printf(o, "port %s edge %s\n", port->name,
			    port->edge > 0 ? "yes" : "no");
		for (int s = 0; s <= (int)m->n_msti; s++) {
			uint16_t tree = topo_tree_id(m, s);

			snprintf(prefix, sizeof(prefix), "port %s cost",
				 port->name);
			tree_line(o, prefix, tree,
				  topo_treevals_get(&port->cost, tree,
						    TOPO_DEFAULT_COST));
			snprintf(prefix, sizeof(prefix), "port %s priority",
				 port->name);
			tree_line(o, prefix, tree,
				  topo_treevals_get(&port->priority, tree,
						    TOPO_DEFAULT_PORT_PRIO));
		}
	}
	return sbuf_failed(o) ? PLAN_ENOMEM : PLAN_OK;
}
