// SPDX-License-Identifier: MIT
/* `mstlab plan [--json]`: the names and MACs a run will use. */
#include "plan.h"

#include "print.h"

static void plan_print_node(struct printer *pr, const struct plan *p, size_t i)
{
	const struct topo *t = p->topo;
	const struct topo_node *n = &t->nodes[i];
	const struct plan_node *pn = &p->nodes[i];

	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "name", "node %-15s", n->name);
	print_string(pr, PRINT_ANY, "role", " %-10s", topo_role_name(n->role));
	print_string(pr, PRINT_ANY, "domain", " domain %s", pn->domain);
	if (topo_role_is_bridge(n->role))
		print_string(pr, PRINT_ANY, "bridge_mac", " br0 %s",
			     pn->bridge_mac_str);
	print_uint(pr, PRINT_JSON, "memory_mib", NULL, n->memory_mib);
	print_uint(pr, PRINT_JSON, "vcpus", NULL, n->vcpus);
	print_string(pr, PRINT_JSON, "kernel", NULL,
		     topo_kernel_name(n->kernel));
	if (t->hosts_given)
		print_string(pr, PRINT_ANY, "host", " host %s",
			     t->hosts[n->host].name);
	print_nl(pr);
	print_open_array(pr, "ports");
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct topo_port *port = &n->ports[j];

		print_open_object(pr, NULL);
		print_string(pr, PRINT_ANY, "name", "  port %-10s", port->name);
		print_uint(pr, PRINT_JSON, "index", NULL, port->index);
		print_string(pr, PRINT_ANY, "mac", " mac %s",
			     pn->nic[j].mac_str);
		print_string(pr, PRINT_ANY, "tap", " tap %s", pn->nic[j].tap);
		print_uint(pr, PRINT_ANY, "link", " link %u",
			   t->links[port->link].index);
		print_close_object(pr);
		print_nl(pr);
	}
	print_close_array(pr);
	print_close_object(pr);
}

static void plan_print_end(struct printer *pr, const struct plan *p,
			   const struct topo_link *l, int e)
{
	const struct topo_node *n = &p->topo->nodes[l->end[e].node];

	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "node", " %s", n->name);
	print_string(pr, PRINT_ANY, "port", ":%s",
		     n->ports[l->end[e].port].name);
	print_string(pr, PRINT_JSON, "tap", NULL,
		     p->nodes[n->index].nic[l->end[e].port].tap);
	print_close_object(pr);
}

/* The hosts: section, as the planner reads it. */
static void plan_print_hosts(struct printer *pr, const struct topo *t)
{
	print_open_array(pr, "hosts");
	for (size_t i = 0; i < t->n_hosts; i++) {
		const struct topo_host *h = &t->hosts[i];

		print_open_object(pr, NULL);
		print_string(pr, PRINT_ANY, "name", "host %-15s", h->name);
		if (i == TOPO_LOCAL_HOST)
			print_string(pr, PRINT_FP, NULL, " %s",
				     "(this machine)");
		else
			print_string(pr, PRINT_ANY, "uri", " %s", h->uri);
		if (h->address[0])
			print_string(pr, PRINT_ANY, "address",
				     " tunnels from %s", h->address);
		if (i != TOPO_LOCAL_HOST) {
			if (h->results[0])
				print_string(pr, PRINT_ANY, "results",
					     " results %s", h->results);
			print_string(pr, PRINT_JSON, "ssh_host", NULL,
				     h->ssh.host);
		}
		print_close_object(pr);
		print_nl(pr);
	}
	print_close_array(pr);
}

/* Where a link is, and how it crosses: only for a lab with hosts. */
static void plan_print_link_hosts(struct printer *pr, const struct plan *p,
				  size_t l)
{
	const struct plan_link *pl = &p->links[l];
	const struct topo_host *h = p->topo->hosts;

	if (!p->topo->hosts_given)
		return;
	print_open_array(pr, "hosts");
	print_string(pr, PRINT_ANY, NULL, " on %s", h[pl->host[0]].name);
	print_string(pr, PRINT_ANY, NULL, "-%s", h[pl->host[1]].name);
	print_close_array(pr);
	print_string(pr, PRINT_ANY, "capture", " captured on %s",
		     h[pl->capture_host].name);
	if (!pl->crosses)
		return;
	print_string(pr, PRINT_ANY, "tunnel", " tunnel %s", pl->tunnel);
	print_uint(pr, PRINT_ANY, "vni", " vni %u", pl->vni);
	print_string(pr, PRINT_ANY, "pcap_far", " and %s", pl->pcap_far);
}

void plan_print(const struct plan *p, struct printer *pr)
{
	const struct topo *t = p->topo;

	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "lab", "lab %s", t->name);
	print_string(pr, PRINT_ANY, "lab_id", " (id %s)", p->lab_id);
	print_nl(pr);
	if (t->hosts_given)
		plan_print_hosts(pr, t);
	print_open_array(pr, "nodes");
	for (size_t i = 0; i < t->n_nodes; i++)
		plan_print_node(pr, p, i);
	print_close_array(pr);
	print_open_array(pr, "links");
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];

		print_open_object(pr, NULL);
		print_uint(pr, PRINT_ANY, "index", "link %-3u", link->index);
		print_string(pr, PRINT_ANY, "bridge", " bridge %s",
			     p->links[l].bridge);
		print_string(pr, PRINT_ANY, "pcap", " pcap %s",
			     p->links[l].pcap);
		print_open_array(pr, "ends");
		plan_print_end(pr, p, link, 0);
		plan_print_end(pr, p, link, 1);
		print_close_array(pr);
		plan_print_link_hosts(pr, p, l);
		print_close_object(pr);
		print_nl(pr);
	}
	print_close_array(pr);
	plan_print_scenarios(t, pr);
	print_close_object(pr);
}
