/* SPDX-License-Identifier: MIT */
/*
 * The planner: a validated topology → everything the side-effect layer
 * needs, computed without touching the host. Same input, same output.
 *
 * Names (see docs/design/model.md):
 *   domain      mstlab-<lab>-<node>
 *   lab id      5 chars of base32 (a-z, 2-7) of the first 25 bits of
 *               SHA-256(lab name)
 *   link bridge ml-<id>b<link>       (link = 1-based, ≤ 999)
 *   tap         ml-<id>t<link>a|b    (end a = first end written)
 *   MAC         02:h0:h1:h2:<node index + 1>:<port index>, h = that same
 *               SHA-256; port index 0 is the node's bridge (br0)
 *   tunnel      ml-<id>v<link>       (a link between two hosts)
 *   VNI         (h3:h4 & 0x3fff) << 10 | link
 */
#ifndef MSTLAB_PLAN_H
#define MSTLAB_PLAN_H

#include <net/if.h>
#include <stdint.h>
#include <time.h>

#include "sbuf.h"
#include "topo.h"

#define PLAN_LAB_ID_LEN 5

enum plan_err {
	PLAN_OK = 0,
	PLAN_ENOMEM,
	PLAN_EPATH,		/* a host path is empty, relative or too long */
	PLAN_ENODE,		/* no such node */
	PLAN_ENOMSTD,		/* the node runs no mstd */
	PLAN_ENOTEMPLATE,	/* the node's role comes up cold only */
};
const char *plan_strerror(enum plan_err err);

enum plan_virt {
	PLAN_VIRT_QEMU,		/* TCG: works everywhere */
	PLAN_VIRT_KVM,
};

/*
 * How a node's domain comes up (docs/design/templates.md). A template is
 * a guest of one shape (kernel, image, machine, vCPUs, memory, NICs,
 * kernel arguments: plan_template_shape()) booted until its /init waits
 * for an identity, then saved; a clone is a domain of a lab node started
 * from that saved state, its RAM the template's file mapped
 * copy-on-write, which then takes the node's identity (plan_identity()).
 */
enum plan_boot {
	PLAN_BOOT_COLD,		/* the kernel boots with the node's devices */
	PLAN_BOOT_TEMPLATE,	/* the template of the node's shape */
	PLAN_BOOT_CLONE,	/* the node, from its shape's template */
};

/* A template's files stand in its folder as those of a node of this
 * name would in a run folder: seed/template.img, qga/template.sock... */
#define PLAN_TEMPLATE_NODE "template"
/* The kernel argument of a template boot, and the virtio serial port a
 * template waits on: images/boot/identity.h says the same. */
#define PLAN_TEMPLATE_ARG "mstlab.template=1"
#define PLAN_IDENTITY_PORT "org.mstlab.identity.0"
/* QEMU's id for the guest RAM of a template or a clone. */
#define PLAN_TEMPLATE_RAM_ID "mstlab-ram"

/*
 * Host paths the domain XML refers to; all absolute. Inside run_dir the
 * XML expects: seed/<node>.img (NoCloud image made from plan_user_data()
 * and plan_meta_data()), qga/<node>.sock (created by libvirt),
 * console/<node>.log; captures go to plan_link.pcap.
 */
struct plan_params {
	enum plan_virt virt;
	const char *run_dir;		/* results/<run>, shared as 9p "lab" */
	const char *kernel[TOPO_KERNEL_COUNT];	/* by enum topo_kernel */
	const char *initrd;
	const char *tools;		/* 9p "tools", read-only; NULL: none */
	enum plan_boot boot;
	/* Template and clone: the template's guest RAM file, which the
	 * template writes (shared) and a clone maps copy-on-write. */
	const char *template_ram;
	/* Template: its domain's name; run_dir is then its folder. */
	const char *template_name;
	/* Another host's: a node's overlay is its copy there,
	 * overlay_root/NODE (NULL: the topology's folder, on this host). */
	const char *overlay_root;
};

struct plan_nic {
	uint8_t mac[6];
	char mac_str[18];
	char tap[IFNAMSIZ];
};

struct plan_node {
	char domain[64];
	uint8_t bridge_mac[6];		/* br0 in the guest (bridge roles) */
	char bridge_mac_str[18];
	struct plan_nic nic[TOPO_MAX_PORTS];	/* by topo_port position */
};

struct plan_link {
	char bridge[IFNAMSIZ];		/* host bridge that is the wire */
	char pcap[96];			/* relative to the run dir */
	/*
	 * Where it is: the host of each end (topo_node.host). A link
	 * between two hosts has a link bridge on each, joined by a VXLAN
	 * tunnel of its own VNI, and is captured on both: pcap on
	 * capture_host (this machine when an end is here, else end a's),
	 * pcap_far on the other, under pcap/<host>/.
	 */
	unsigned host[2];
	bool crosses;
	char tunnel[IFNAMSIZ];		/* "" unless crosses */
	uint32_t vni;			/* 0 unless crosses */
	unsigned capture_host, far_host;
	char pcap_far[96 + TOPO_HOST_NAME_MAX + 2];	/* "" unless crosses */
};

/* VXLAN's port (IANA). */
#define PLAN_VXLAN_PORT 4789

struct plan {
	const struct topo *topo;
	char lab_id[PLAN_LAB_ID_LEN + 1];
	uint8_t mac_prefix[3];
	uint32_t vni_base;		/* the lab's part of every VNI */
	struct plan_node *nodes;	/* by topo node index */
	struct plan_link *links;	/* by topo link position */
};

/* A domain's <description>: this, then its run folder, so a lab whose
 * registry entry is lost is still found by its running domains. */
#define PLAN_RUN_LABEL "mstlab run folder: "

enum plan_err plan_build(const struct topo *t, struct plan **out);
void plan_free(struct plan *p);

/* Generated files, appended to out. */
enum plan_err plan_domain_xml(const struct plan *p,
			      const struct plan_params *pp, int node,
			      struct sbuf *out);
/*
 * Whether the node can come up from a template: not a dsa-switch, whose
 * emulated switch claims its NICs by their lab MACs at boot (its kernel
 * arguments name them), so no two labs share its shape.
 */
bool plan_node_templated(const struct plan *p, int node);
/*
 * The node's shape: its template's domain XML with every host path a
 * placeholder. Two nodes whose shapes are the same text (and whose
 * kernel and image files are the same) can come from one template.
 */
enum plan_err plan_template_shape(const struct plan *p,
				  const struct plan_params *pp, int node,
				  struct sbuf *out);
/* A template's address for NIC @port (by topo_port position):
 * 06:00:00:00:00:<port + 1>, never a lab's (02:...). */
void plan_template_mac(size_t port, char out[18]);
/*
 * What the node's clone is told once it runs (images/boot/identity.h):
 * the host's wall clock @now, 32 bytes of fresh entropy, and each NIC's
 * address in the lab against the template's.
 */
enum plan_err plan_identity(const struct plan *p, int node,
			    const struct timespec *now,
			    const uint8_t entropy[32], struct sbuf *out);
/* One NIC's <interface> element with its link state: what libvirt's
 * virDomainUpdateDeviceFlags needs to change the carrier. */
enum plan_err plan_nic_xml(const struct plan *p, int node, int port, bool up,
			   struct sbuf *out);
enum plan_err plan_meta_data(const struct plan *p, int node,
			     struct sbuf *out);
enum plan_err plan_user_data(const struct plan *p, int node,
			     struct sbuf *out);
enum plan_err plan_mstd_conf(const struct plan *p, int node,
			     struct sbuf *out);
struct printer;
/* Names, MACs and links for people (text) and scripts (JSON), and the
 * scenarios (plan_print_scenarios). */
void plan_print(const struct plan *p, struct printer *pr);
/* Each scenario: its steps with their parameters, its expectations. */
void plan_print_scenarios(const struct topo *t, struct printer *pr);
/* The topology as a Graphviz graph. */
enum plan_err plan_dot(const struct topo *t, struct sbuf *out);
/* Its pieces, shared with the report's per-tree drawings: a node's
 * shape by role, and a name as a quoted Graphviz ID. */
const char *plan_dot_shape(enum topo_role role);
void plan_dot_id(struct sbuf *out, const char *s);

/* The node and port whose NIC has this MAC (a BPDU's sender). */
bool plan_port_of_mac(const struct plan *p, const uint8_t mac[6], int *node,
		      int *port);
/* The node whose bridge MAC is in a bridge id (its low 48 bits), or -1. */
int plan_node_of_bridge_id(const struct plan *p, uint64_t id);

/* Whether host (index) has anything of link (position): an end, or a
 * capture. */
bool plan_link_on_host(const struct plan *p, size_t link, unsigned host);
/* The link (position) an interface of the lab belongs to (bridge, tunnel
 * or tap), and for a tap its end; -1 if it is none of the lab's. */
int plan_link_of_ifname(const struct plan *p, const char *ifname, int *end);

/* Guest address of node on VLAN vid: 10.<vid / 256>.<vid % 256>.<node+1>. */
void plan_host_addr(int node, unsigned vid, char buf[32]);

#endif
