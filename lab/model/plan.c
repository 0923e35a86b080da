// SPDX-License-Identifier: MIT
/* Names and MACs: everything the lab owns on the host is derived here. */
#include "plan.h"

#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plan_strerror(enum plan_err err)
{
	switch (err) {
	case PLAN_OK:
		return "success";
	case PLAN_ENOMEM:
		return "out of memory";
	case PLAN_EPATH:
		return "a host path is empty, relative or too long";
	case PLAN_ENODE:
		return "no such node";
	case PLAN_ENOMSTD:
		return "that node runs no mstd (a host, or stp: kernel)";
	case PLAN_ENOTEMPLATE:
		return "that node's role comes up cold only (a dsa-switch)";
	}
	return "unknown error";
}

static void mac_format(const uint8_t mac[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
}

/*
 * 02 = locally administered, unicast. The lab hash keeps two labs apart;
 * node and port indexes keep NICs of one lab apart by construction, and
 * make bridge-id ties break in declaration order (earlier node wins).
 */
static void derive_mac(const struct plan *p, unsigned node, unsigned port,
		       uint8_t mac[6], char str[18])
{
	mac[0] = 0x02;
	memcpy(mac + 1, p->mac_prefix, 3);
	mac[4] = (uint8_t)(node + 1);
	mac[5] = (uint8_t)port;
	mac_format(mac, str);
}

static void derive_lab_id(struct plan *p, const char *lab)
{
	static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char h[SHA256_DIGEST_LENGTH];
	uint32_t bits;

	SHA256((const unsigned char *)lab, strlen(lab), h);
	bits = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
	       (uint32_t)h[2] << 8 | h[3];
	for (int i = 0; i < PLAN_LAB_ID_LEN; i++)
		p->lab_id[i] = b32[(bits >> (27 - 5 * i)) & 31];
	p->lab_id[PLAN_LAB_ID_LEN] = '\0';
	memcpy(p->mac_prefix, h, 3);
	/* 14 bits of the lab above 10 of the link (1..999): two links of
	 * a lab never share a VNI; two labs do with probability 2^-14, and
	 * then the kernel refuses the second tunnel (EEXIST). */
	p->vni_base = ((uint32_t)h[3] << 8 | h[4]) & 0x3fff;
}

/* Captured here when an end is here, else at end a. */
static void plan_link_hosts(struct plan *p, const struct topo_link *link,
			    struct plan_link *pl)
{
	const struct topo *t = p->topo;

	pl->host[0] = t->nodes[link->end[0].node].host;
	pl->host[1] = t->nodes[link->end[1].node].host;
	pl->crosses = pl->host[0] != pl->host[1];
	pl->capture_host = pl->host[1] == TOPO_LOCAL_HOST ? pl->host[1] :
							    pl->host[0];
	pl->far_host = pl->capture_host;
	if (!pl->crosses)
		return;
	pl->far_host = pl->host[0] == pl->capture_host ? pl->host[1] :
							 pl->host[0];
	snprintf(pl->tunnel, sizeof(pl->tunnel), "ml-%sv%u", p->lab_id,
		 link->index);
	pl->vni = p->vni_base << 10 | link->index;
	snprintf(pl->pcap_far, sizeof(pl->pcap_far), "pcap/%s/%s",
		 t->hosts[pl->far_host].name, pl->pcap + strlen("pcap/"));
}

enum plan_err plan_build(const struct topo *t, struct plan **out)
{
	struct plan *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return PLAN_ENOMEM;
	p->topo = t;
	p->nodes = calloc(t->n_nodes ? t->n_nodes : 1, sizeof(*p->nodes));
	p->links = calloc(t->n_links ? t->n_links : 1, sizeof(*p->links));
	if (!p->nodes || !p->links) {
		plan_free(p);
		return PLAN_ENOMEM;
	}
	derive_lab_id(p, t->name);
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		struct plan_node *pn = &p->nodes[i];

		snprintf(pn->domain, sizeof(pn->domain), "mstlab-%s-%s",
			 t->name, n->name);
		derive_mac(p, n->index, 0, pn->bridge_mac, pn->bridge_mac_str);
		for (size_t j = 0; j < n->n_ports; j++) {
			const struct topo_port *port = &n->ports[j];
			struct plan_nic *nic = &pn->nic[j];

			derive_mac(p, n->index, port->index, nic->mac,
				   nic->mac_str);
			snprintf(nic->tap, sizeof(nic->tap), "ml-%st%u%c",
				 p->lab_id, t->links[port->link].index,
				 port->end ? 'b' : 'a');
		}
	}
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];
		const struct topo_node *a = &t->nodes[link->end[0].node];
		const struct topo_node *b = &t->nodes[link->end[1].node];

		snprintf(p->links[l].bridge, sizeof(p->links[l].bridge),
			 "ml-%sb%u", p->lab_id, link->index);
		snprintf(p->links[l].pcap, sizeof(p->links[l].pcap),
			 "pcap/link%u-%s.%s-%s.%s.pcap", link->index, a->name,
			 a->ports[link->end[0].port].name, b->name,
			 b->ports[link->end[1].port].name);
		plan_link_hosts(p, link, &p->links[l]);
	}
	*out = p;
	return PLAN_OK;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->nodes);
	free(p->links);
	free(p);
}

bool plan_port_of_mac(const struct plan *p, const uint8_t mac[6], int *node,
		      int *port)
{
	for (size_t i = 0; i < p->topo->n_nodes; i++)
		for (size_t j = 0; j < p->topo->nodes[i].n_ports; j++)
			if (!memcmp(p->nodes[i].nic[j].mac, mac, 6)) {
				*node = (int)i;
				*port = (int)j;
				return true;
			}
	return false;
}

int plan_node_of_bridge_id(const struct plan *p, uint64_t id)
{
	for (size_t i = 0; i < p->topo->n_nodes; i++) {
		uint64_t mac = 0;

		for (int k = 0; k < 6; k++)
			mac = mac << 8 | p->nodes[i].bridge_mac[k];
		if ((id & 0xffffffffffffULL) == mac)
			return (int)i;
	}
	return -1;
}

bool plan_link_on_host(const struct plan *p, size_t link, unsigned host)
{
	const struct plan_link *pl = &p->links[link];

	return pl->host[0] == host || pl->host[1] == host;
}

int plan_link_of_ifname(const struct plan *p, const char *ifname, int *end)
{
	for (size_t l = 0; l < p->topo->n_links; l++) {
		const struct topo_link *tl = &p->topo->links[l];

		*end = -1;
		if (!strcmp(ifname, p->links[l].bridge) ||
		    (p->links[l].crosses && !strcmp(ifname, p->links[l].tunnel)))
			return (int)l;
		for (int e = 0; e < 2; e++)
			if (!strcmp(ifname, p->nodes[tl->end[e].node]
						    .nic[tl->end[e].port].tap)) {
				*end = e;
				return (int)l;
			}
	}
	return -1;
}

void plan_host_addr(int node, unsigned vid, char buf[32])
{
	snprintf(buf, 32, "10.%u.%u.%d", vid / 256, vid % 256, node + 1);
}
