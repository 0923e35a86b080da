// SPDX-License-Identifier: MIT
/*
 * A node's NoCloud seed: meta-data, and user-data = the /bin/sh script the
 * guest runs at boot to become what the topology says (NIC names, bridge,
 * VLANs, MST, mstd, addresses, static impairments). Every name and value
 * that comes from the topology is emitted as one single-quoted shell word.
 * And what a node restored from a template is told before it reads its
 * seed: plan_identity().
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

/*
 * iproute2 runs a batch of commands (one per line, quoted words as in
 * the shell) in one process: under TCG each process costs a booting
 * guest 20-40 ms, and a bridge used to start ~40 of them. A failing
 * command stops the batch with its line number, and set -e the script.
 */
static void batch_begin(struct sbuf *o, const char *tool)
{
	sbuf_printf(o, "%s -batch - <<'MSTLAB_EOF'\n", tool);
}

static void batch_end(struct sbuf *o)
{
	sbuf_puts(o, "MSTLAB_EOF\n");
}

static void rename_nics(struct sbuf *o, const struct plan *p,
			const struct topo_node *n)
{
	const struct plan_node *pn = &p->nodes[n->index];

	sbuf_puts(o, "\n# NICs are named after their ports, found by MAC "
		  "(shell builtins only);\n# two passes so names can swap.\n"
		  "mstlab_nic() {\n"
		  "\tfor d in /sys/class/net/*; do\n"
		  "\t\tread -r a <\"$d/address\" 2>/dev/null || continue\n"
		  "\t\tif [ \"$a\" = \"$1\" ]; then nic=${d##*/}; "
		  "return 0; fi\n"
		  "\tdone\n"
		  "\techo \"mstlab: no NIC with MAC $1\" >&2\n"
		  "\treturn 1\n}\n");
	for (size_t j = 0; j < n->n_ports; j++)
		sbuf_printf(o, "mstlab_nic %s; nic%zu=$nic\n",
			    pn->nic[j].mac_str, j);
	/* Unquoted: the batch takes the kernel's names from the shell.
	 * Temporary names contain '.', which no port name can. */
	sbuf_puts(o, "ip -batch - <<MSTLAB_EOF\n");
	for (size_t j = 0; j < n->n_ports; j++)
		sbuf_printf(o, "link set dev $nic%zu name ml.nic%zu\n", j, j);
	for (size_t j = 0; j < n->n_ports; j++) {
		sbuf_printf(o, "link set dev ml.nic%zu name ", j);
		sbuf_shell(o, n->ports[j].name);
		sbuf_puts(o, "\n");
	}
	batch_end(o);
}

/* The ports' impairments, as one tc batch; nothing if there are none. */
static void netem(struct sbuf *o, const struct topo *t,
		  const struct topo_node *n)
{
	bool any = false;

	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];
		const struct topo_impair *im = &t->links[port->link].impair;

		if (!im->delay_ms && !im->loss_ppm)
			continue;
		if (!any)
			batch_begin(o, "tc");
		any = true;
		cmd(o, "qdisc add dev ", port->name, " root netem");
		if (im->delay_ms)
			sbuf_printf(o, " delay %ums", im->delay_ms);
		if (im->loss_ppm)
			sbuf_printf(o, " loss %u.%04u%%", im->loss_ppm / 10000,
				    im->loss_ppm % 10000);
		sbuf_puts(o, "\n");
	}
	if (any)
		batch_end(o);
}

/* Every port's VLANs, then the bridge's own: one bridge batch. Returns
 * the union in @all. */
static void bridge_vlans(struct sbuf *o, const struct topo_node *n,
			 struct topo_vlanset *all)
{
	unsigned vid, lo, hi;

	batch_begin(o, "bridge");
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];

		/* 802.1D's own costs follow the link speed: use the lab's,
		 * as mstd does, so both count the same hops. */
		if (n->kernel_stp) {
			cmd(o, "link set dev ", port->name, "");
			sbuf_printf(o, " cost %u\n",
				    topo_treevals_get(&port->cost, 0,
						      TOPO_DEFAULT_COST));
		}
		vid = 0;
		while (topo_vlan_next_range(&port->vlans.tagged, &vid, &lo,
					    &hi)) {
			cmd(o, "vlan add dev ", port->name, " vid ");
			vid_range(o, lo, hi);
			sbuf_puts(o, "\n");
		}
		if (port->vlans.untagged) {
			cmd(o, "vlan add dev ", port->name, "");
			sbuf_printf(o, " vid %u pvid untagged\n",
				    port->vlans.untagged);
			topo_vlan_add(all, port->vlans.untagged);
		}
		for (size_t w = 0; w < 64; w++)
			all->bits[w] |= port->vlans.tagged.bits[w];
	}
	vid = 0;
	while (topo_vlan_next_range(all, &vid, &lo, &hi)) {
		sbuf_puts(o, "vlan add dev br0 vid ");
		vid_range(o, lo, hi);
		sbuf_puts(o, " self\n");
	}
	batch_end(o);
}

static void bridge_setup(struct sbuf *o, const struct plan *p,
			 const struct topo_node *n)
{
	const struct topo_mst *m = n->mst;
	struct topo_vlanset all = { 0 };
	struct sbuf conf;
	char log[TOPO_NODE_NAME_MAX + 32];

	if (n->kernel_stp)
		/* /sbin/bridge-stp declines bridges listed there: the kernel
		 * then runs its own 802.1D STP, a legacy peer for mstd. */
		sbuf_printf(o, "\n# The kernel's own STP (802.1D): a legacy "
			    "peer.\n"
			    "ip link add name br0 address %s type bridge "
			    "vlan_filtering 1 vlan_default_pvid 0 "
			    "priority %u hello_time %u max_age %u "
			    "forward_delay %u\n"
			    "echo br0 >> /run/bridge-stp.kernel\n",
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
			    "for mstd, never forwarding into a loop.\n",
			    p->nodes[n->index].bridge_mac_str);
	batch_begin(o, "ip");
	sbuf_puts(o, "link set dev br0 type bridge stp_state 1\n");
	for (size_t j = 0; j < n->n_ports; j++)
		cmd(o, "link set dev ", n->ports[j].name, " master br0\n");
	batch_end(o);
	bridge_vlans(o, n, &all);
	netem(o, p->topo, n);
	/* mstd maps the VLANs to their MSTIs from its configuration when
	 * it starts (and whenever the kernel drops a mapping). */
	if (!n->kernel_stp) {
		/* printf is a shell builtin, cat a process. */
		sbuf_init(&conf);
		plan_mstd_conf(p, (int)n->index, &conf);
		sbuf_puts(o, "\nprintf '%s' ");
		sbuf_shell(o, sbuf_str(&conf));
		sbuf_puts(o, " > " MSTD_CONF "\n");
		o->oom |= sbuf_failed(&conf);
		sbuf_free(&conf);
	}
	batch_begin(o, "ip");
	for (size_t j = 0; j < n->n_ports; j++)
		cmd(o, "link set dev ", n->ports[j].name, " up\n");
	sbuf_puts(o, "link set dev br0 up\n");
	batch_end(o);
	if (n->kernel_stp)
		return;
	sbuf_puts(o, "# mstd goes to the background once running; its log "
		  "lands in the run folder.\nmkdir -p ");
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

	if (!n->n_ports)
		return;
	sbuf_puts(o, "\n");
	batch_begin(o, "ip");
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];
		unsigned u = port->vlans.untagged;

		cmd(o, "link set dev ", port->name, " up\n");
		if (u && !topo_vlan_has(&addressed, u)) {
			plan_host_addr((int)n->index, u, addr);
			sbuf_printf(o, "addr add %s/24 dev ", addr);
			sbuf_shell(o, port->name);
			sbuf_puts(o, "\n");
			topo_vlan_add(&addressed, u);
		}
		for (unsigned v = 1; v < 4095; v++) {
			char sub[TOPO_PORT_NAME_MAX + 6];

			if (!topo_vlan_has(&port->vlans.tagged, v))
				continue;
			snprintf(sub, sizeof(sub), "%s.%u", port->name, v);
			cmd(o, "link add link ", port->name, " name ");
			sbuf_shell(o, sub);
			sbuf_printf(o, " type vlan id %u\n", v);
			cmd(o, "link set dev ", sub, " up\n");
			if (topo_vlan_has(&addressed, v))
				continue;
			plan_host_addr((int)n->index, v, addr);
			sbuf_printf(o, "addr add %s/24 dev ", addr);
			sbuf_shell(o, sub);
			sbuf_puts(o, "\n");
			topo_vlan_add(&addressed, v);
		}
	}
	batch_end(o);
	netem(o, t, n);
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
	/* The guest took its name from the meta-data. */
	sbuf_puts(o, "set -eu\n");
	sbuf_puts(o, "# No IPv6 chatter (ND, MLD) in the captures.\n"
		  "for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 "
		  "/proc/sys/net/ipv6/conf/default/disable_ipv6; do\n"
		  "\tif [ -w \"$f\" ]; then echo 1 > \"$f\"; fi\n"
		  "done\n");
	if (n->overlay[0])
		sbuf_puts(o, "# The node's overlay (its domain's share "
			  "'overlay'), over / first.\n"
			  "mkdir -p /run/mstlab/overlay\n"
			  "mount -t 9p -o ro,trans=virtio,version=9p2000.L "
			  "overlay /run/mstlab/overlay\n"
			  "cp -a /run/mstlab/overlay/. /\n"
			  "umount /run/mstlab/overlay\n");
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

enum plan_err plan_identity(const struct plan *p, int node,
			    const struct timespec *now,
			    const uint8_t entropy[32], struct sbuf *o)
{
	const struct topo_node *n;
	char mac[18];

	if (node < 0 || (size_t)node >= p->topo->n_nodes)
		return PLAN_ENODE;
	n = &p->topo->nodes[node];
	sbuf_printf(o, "mstlab-identity 1\nclock %lld %ld\nrandom ",
		    (long long)now->tv_sec, (long)now->tv_nsec);
	for (int i = 0; i < 32; i++)
		sbuf_printf(o, "%02x", entropy[i]);
	sbuf_puts(o, "\n");
	for (size_t j = 0; j < n->n_ports; j++) {
		plan_template_mac(j, mac);
		sbuf_printf(o, "nic %s %s\n", mac, p->nodes[node].nic[j].mac_str);
	}
	sbuf_puts(o, "end\n");
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
		    "hello %u\nmax_age %u\nforward_delay %u\nmax_hops %u\n"
		    "tx_hold %u\nforce_version %s\n",
		    n->name, t->name, m->region, m->revision, m->hello_s,
		    m->max_age_s, m->forward_delay_s, m->max_hops, m->tx_hold,
		    topo_force_version_name(m->force_version));
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
