/* SPDX-License-Identifier: MIT */
/*
 * mstnl: the one rtnetlink module for the kernel bridge's MST mode.
 *
 * Three layers, so that everything but the socket is testable without a
 * kernel:
 *   mstnl_build_*()  build one request into a caller buffer (pure);
 *   mstnl_parse_*()  decode replies, acks and notifications from bytes (pure);
 *   mstnl_*()        a thin socket layer: send, receive, parse.
 *
 * Errors are -errno. When the kernel refuses a request, struct mstnl_err
 * carries its error code and its extended-ack message text.
 */
#ifndef MSTLAB_MSTNL_H
#define MSTLAB_MSTNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#define MSTNL_VID_MIN		1
#define MSTNL_VID_MAX		4094
#define MSTNL_MSTI_MAX		4094	/* MSTI 0 is the CIST */
/* The kernel itself accepts and may report MSTI 4095. */
#define MSTNL_MSTI_KERNEL_MAX	4095
#define MSTNL_STATE_NONE	0xff	/* "no state reported" */
#define MSTNL_IFNAMSIZ		16
#define MSTNL_ALIAS_MAX		256	/* the kernel's IFALIASZ */
#define MSTNL_MSG_MAX		256
/* Enough for every request except a large mstnl_build_port_msti_set(). */
#define MSTNL_REQ_SIZE		512
/* Bytes one MSTI entry adds to mstnl_build_port_msti_set(). */
#define MSTNL_MSTI_ENTRY_SIZE	20

/* Outcome of a request, filled by the parsers and the socket layer. */
struct mstnl_err {
	int code;			/* 0 or -errno */
	bool kernel;			/* code came from the kernel's ack */
	char msg[MSTNL_MSG_MAX];	/* kernel extack text (or why a reply
					 * was rejected), "" if none */
	uint32_t offset;		/* NLMSGERR_ATTR_OFFS, 0 if absent */
};

/*
 * The outcome as one line: "MESSAGE (strerror)" when the kernel (or the
 * socket layer) gave a message, else strerror alone. Returns buf.
 */
const char *mstnl_err_text(const struct mstnl_err *err, char *buf,
			   size_t size);

/* Port states, as the kernel numbers them (BR_STATE_*). */
const char *mstnl_state_name(uint8_t state);	/* "?" if unknown */
int mstnl_state_parse(const char *name);	/* state or -EINVAL */

/* ---- requests: each returns the message length or -errno ------------- */

/* RTM_NEWLINK: IFLA_BR_MULTI_BOOLOPT with BR_BOOLOPT_MST_ENABLE. */
int mstnl_build_mst_set(void *buf, size_t size, uint32_t seq, int br_ifindex,
			bool on);
/* RTM_GETLINK for one device (bridge attributes, MST flag, master). */
/* RTM_NEWLINK IFLA_BR_AGEING_TIME (centiseconds) of an existing bridge. */
int mstnl_build_ageing_set(void *buf, size_t size, uint32_t seq,
			   int br_ifindex, uint32_t cs);
int mstnl_build_link_get(void *buf, size_t size, uint32_t seq, int ifindex);
/* RTM_NEWVLAN global option BRIDGE_VLANDB_GOPTS_MSTI for vid..vid_end. */
int mstnl_build_vlan_msti_set(void *buf, size_t size, uint32_t seq,
			      int br_ifindex, uint16_t vid, uint16_t vid_end,
			      uint16_t msti);
/* RTM_GETVLAN dump of the bridge's global VLAN options. */
int mstnl_build_vlan_dump(void *buf, size_t size, uint32_t seq,
			  int br_ifindex);

struct mstnl_msti_state {
	uint16_t msti;		/* 1..4094 */
	uint8_t state;		/* BR_STATE_* */
};
/* RTM_SETLINK AF_BRIDGE IFLA_AF_SPEC/IFLA_BRIDGE_MST, one entry each. */
int mstnl_build_port_msti_set(void *buf, size_t size, uint32_t seq,
			      int port_ifindex,
			      const struct mstnl_msti_state *entries, size_t n);
/* RTM_GETLINK AF_BRIDGE dump of all ports with RTEXT_FILTER_MST. */
int mstnl_build_port_dump(void *buf, size_t size, uint32_t seq);
/* RTM_SETLINK AF_BRIDGE IFLA_PROTINFO/IFLA_BRPORT_STATE: the CIST state. */
int mstnl_build_port_state_set(void *buf, size_t size, uint32_t seq,
			       int port_ifindex, uint8_t state);

/* A bridge port's settings for mstnl_build_port_set(); -1: leave it. */
struct mstnl_port_conf {
	int learning;		/* IFLA_BRPORT_LEARNING, 0 or 1 */
	bool flush;		/* IFLA_BRPORT_FLUSH: forget its entries */
	int group_fwd_mask;	/* IFLA_BRPORT_GROUP_FWD_MASK */
	int state;		/* IFLA_BRPORT_STATE (BR_STATE_*) */
	/* IFLA_BRPORT_UNICAST_FLOOD, _MCAST_FLOOD and _BCAST_FLOOD
	 * together: whether flooded frames leave by this port. Unlike the
	 * fields above, 0 leaves it (MSTNL_FLOOD_*), so a conf written
	 * without it never turns flooding off. */
	int flood;
};
enum { MSTNL_FLOOD_LEAVE, MSTNL_FLOOD_ON, MSTNL_FLOOD_OFF };
/* RTM_SETLINK AF_BRIDGE IFLA_PROTINFO with the settings @conf gives. */
int mstnl_build_port_set(void *buf, size_t size, uint32_t seq,
			 int port_ifindex, const struct mstnl_port_conf *conf);
/*
 * RTM_DELNEIGH + NLM_F_BULK: remove the dynamic FDB entries learnt on
 * port_ifindex in VLAN vid (vid 0: in every VLAN). Same request as
 * `bridge fdb flush dev PORT master vlan VID dynamic`.
 */
int mstnl_build_fdb_flush(void *buf, size_t size, uint32_t seq,
			  int port_ifindex, uint16_t vid);

/* ---- host links, by name: what a lab's wire bridges need ------------ */

/* A new bridge's options (IFLA_INFO_DATA), for mstnl_build_bridge_new(). */
struct mstnl_bridge_conf {
	uint32_t stp_state;		/* IFLA_BR_STP_STATE */
	uint32_t ageing_time;		/* IFLA_BR_AGEING_TIME, in cs */
	uint8_t mcast_snooping;		/* IFLA_BR_MCAST_SNOOPING */
	uint16_t group_fwd_mask;	/* IFLA_BR_GROUP_FWD_MASK */
	uint8_t nf_call;		/* IFLA_BR_NF_CALL_{IP,IP6,ARP}TABLES */
};
/* RTM_NEWLINK (create, exclusive) of a bridge called @name, up. */
int mstnl_build_bridge_new(void *buf, size_t size, uint32_t seq,
			   const char *name,
			   const struct mstnl_bridge_conf *conf);
/* RTM_DELLINK of the interface called @name. */
int mstnl_build_link_del(void *buf, size_t size, uint32_t seq,
			 const char *name);
/* RTM_SETLINK IFLA_IFALIAS (shorter than MSTNL_ALIAS_MAX). */
int mstnl_build_link_alias_set(void *buf, size_t size, uint32_t seq,
			       const char *name, const char *alias);
/* RTM_SETLINK IFLA_CARRIER: a tap's carrier as its host side sets it. */
int mstnl_build_link_carrier_set(void *buf, size_t size, uint32_t seq,
				 const char *name, bool on);

/*
 * A VXLAN device carrying one lab link between two hosts, for
 * mstnl_build_vxlan_new(): unicast to the far end's address, nothing
 * learned (every frame goes there), the outer DF bit left unset so that
 * a frame the underlay cannot carry whole goes fragmented rather than
 * lost. Created up, with MTU 1500, as a port of @master.
 */
struct mstnl_vxlan_conf {
	uint32_t vni;			/* 1..2^24-1 */
	int family;			/* AF_INET or AF_INET6 */
	uint8_t local[16], remote[16];	/* 4 or 16 bytes, network order */
	uint16_t port;			/* UDP destination port */
	int master;			/* the link bridge's ifindex */
};
/* RTM_NEWLINK (create, exclusive) of a vxlan called @name. */
int mstnl_build_vxlan_new(void *buf, size_t size, uint32_t seq,
			  const char *name, const struct mstnl_vxlan_conf *conf);
/* RTM_GETROUTE for @addr (4 or 16 bytes by @family): the route this host
 * takes to it, whose RTA_OIF mstnl_parse_route_oif() reads. */
int mstnl_build_route_get(void *buf, size_t size, uint32_t seq, int family,
			  const void *addr);

/*
 * One port's states for mstnl_port_states_set(): the CIST's and/or some
 * MSTIs'. Each part is its own request, so that one the kernel refuses
 * (the CIST of a port without carrier: -ENETDOWN) leaves the other done.
 */
struct mstnl_port_states {
	int ifindex;
	uint8_t cist;			/* BR_STATE_*; MSTNL_STATE_NONE: leave */
	const struct mstnl_msti_state *mstis;
	size_t nmstis;			/* 0: leave the MSTIs */
	struct mstnl_err cist_err, msti_err;	/* out: each part's outcome */
};

/* ---- replies ------------------------------------------------------------ */

typedef int (*mstnl_msg_cb)(const struct nlmsghdr *nlh, void *data);

/*
 * Walks one datagram answering request @seq. Data messages go to @cb (may
 * be NULL); a negative return from @cb stops the walk and is returned.
 * Returns 1 when more datagrams follow, 0 when the answer is complete (ack
 * or NLMSG_DONE), or -errno: the kernel's error (err->kernel set), -EBADMSG
 * for malformed bytes, -EPROTO for a foreign sequence number, -EINTR when a
 * dump was interrupted by a concurrent change. @err may be NULL.
 */
int mstnl_parse_reply(const void *buf, size_t len, uint32_t seq,
		      mstnl_msg_cb cb, void *data, struct mstnl_err *err);

/*
 * Walks one datagram of answers to a batch of @n requests numbered @seq to
 * @seq + n - 1: request i's ack or error goes to errs[i] and sets done[i].
 * Answers to other sequence numbers (a request given up on earlier) are
 * skipped. Returns the number of answers taken, or -EBADMSG.
 */
int mstnl_parse_acks(const void *buf, size_t len, uint32_t seq, size_t n,
		     struct mstnl_err *errs, bool *done);

struct mstnl_link {
	int ifindex;
	char ifname[MSTNL_IFNAMSIZ];
	int master;		/* 0: none */
	uint8_t operstate;	/* IF_OPER_* */
	bool is_bridge;		/* IFLA_INFO_KIND "bridge" */
	bool is_bridge_port;	/* IFLA_INFO_SLAVE_KIND "bridge" */
	bool vlan_filtering;	/* bridges only */
	bool mst_supported;	/* the bridge knows BR_BOOLOPT_MST_ENABLE */
	bool mst_enabled;
	uint32_t ageing_time;	/* bridges: IFLA_BR_AGEING_TIME, cs */
	unsigned mtu;			/* IFLA_MTU, 0 if absent */
	char alias[MSTNL_ALIAS_MAX];	/* IFLA_IFALIAS, "" if none */
};
/* Decodes an RTM_NEWLINK (AF_UNSPEC) message. */
int mstnl_parse_link(const struct nlmsghdr *nlh, struct mstnl_link *link);

/* An RTM_NEWROUTE answer's output interface (RTA_OIF): 0, -ENOENT when
 * it has none, -EBADMSG. */
int mstnl_parse_route_oif(const struct nlmsghdr *nlh, int *oif);

struct mstnl_vid_map {
	uint16_t msti[4096];
	uint8_t present[4096 / 8];
};
static inline bool mstnl_vid_map_has(const struct mstnl_vid_map *m,
				     uint16_t vid)
{
	return vid < 4096 && (m->present[vid / 8] & (1u << (vid % 8)));
}
/* Adds one RTM_NEWVLAN global-options dump message to @map (zero it first);
 * messages for other devices than @br_ifindex are ignored. */
int mstnl_parse_vlan_global(const struct nlmsghdr *nlh, int br_ifindex,
			    struct mstnl_vid_map *map);

struct mstnl_port {
	int ifindex;
	char ifname[MSTNL_IFNAMSIZ];
	int master;
	uint8_t state;			/* CIST, MSTNL_STATE_NONE if absent */
	bool has_mst;			/* message carried IFLA_BRIDGE_MST */
	uint8_t msti_state[4096];	/* MSTNL_STATE_NONE: no VLAN there */
};
/* Decodes one AF_BRIDGE RTM_NEWLINK (dump entry or notification). */
int mstnl_parse_port(const struct nlmsghdr *nlh, struct mstnl_port *port);

enum mstnl_event_type {
	MSTNL_EV_LINK,		/* any link changed (AF_UNSPEC) */
	MSTNL_EV_PORT,		/* bridge port info (AF_BRIDGE link) */
	MSTNL_EV_VLAN,		/* port/bridge VLAN added, changed, removed */
	MSTNL_EV_VLAN_GLOBAL,	/* bridge global VLAN options (MSTI) */
	MSTNL_EV_FDB,		/* bridge FDB entry added/removed */
};

struct mstnl_event {
	enum mstnl_event_type type;
	bool deleted;
	int ifindex;
	char ifname[MSTNL_IFNAMSIZ];	/* link and port events */
	int master;			/* link, port, fdb events; 0: none */
	union {
		struct {
			uint8_t operstate;
		} link;
		struct {
			uint8_t state;	/* MSTNL_STATE_NONE if absent */
		} port;
		struct {
			uint16_t vid, vid_end;
			uint16_t flags;	/* BRIDGE_VLAN_INFO_* */
			uint8_t state;	/* MSTNL_STATE_NONE if absent */
		} vlan;
		struct {
			uint16_t vid, vid_end;
			uint16_t msti;
			bool has_msti;
		} vlan_global;
		struct {
			uint8_t mac[6];
			uint16_t vid;	/* 0: none */
			uint16_t ndm_state;
			uint8_t ndm_flags;
		} fdb;
	};
};

typedef int (*mstnl_event_cb)(const struct mstnl_event *ev, void *data);
/*
 * Decodes the events in one notification datagram and hands each to @cb.
 * Messages the module does not watch (other families, routes) are skipped.
 * Returns the number of events or -errno (-EBADMSG for malformed bytes).
 */
int mstnl_parse_events(const void *buf, size_t len, mstnl_event_cb cb,
		       void *data);

/* ---- socket layer ------------------------------------------------------- */

struct mstnl;

struct mstnl *mstnl_open(int *errp);
void mstnl_close(struct mstnl *nl);

int mstnl_mst_set(struct mstnl *nl, int br_ifindex, bool on,
		  struct mstnl_err *err);
int mstnl_ageing_set(struct mstnl *nl, int br_ifindex, uint32_t cs,
		     struct mstnl_err *err);
int mstnl_link_get(struct mstnl *nl, int ifindex, struct mstnl_link *link,
		   struct mstnl_err *err);
int mstnl_vlan_msti_set(struct mstnl *nl, int br_ifindex, uint16_t vid,
			uint16_t vid_end, uint16_t msti, struct mstnl_err *err);
int mstnl_vlan_msti_get(struct mstnl *nl, int br_ifindex,
			struct mstnl_vid_map *map, struct mstnl_err *err);
int mstnl_port_msti_set(struct mstnl *nl, int port_ifindex,
			const struct mstnl_msti_state *entries, size_t n,
			struct mstnl_err *err);
/* Calls @cb once per bridge port; a negative return stops the dump. */
int mstnl_port_dump(struct mstnl *nl,
		    int (*cb)(const struct mstnl_port *port, void *data),
		    void *data, struct mstnl_err *err);
int mstnl_port_state_set(struct mstnl *nl, int port_ifindex, uint8_t state,
			 struct mstnl_err *err);
int mstnl_fdb_flush(struct mstnl *nl, int port_ifindex, uint16_t vid,
		    struct mstnl_err *err);
int mstnl_port_set(struct mstnl *nl, int port_ifindex,
		   const struct mstnl_port_conf *conf, struct mstnl_err *err);
int mstnl_bridge_new(struct mstnl *nl, const char *name,
		     const struct mstnl_bridge_conf *conf,
		     struct mstnl_err *err);
int mstnl_link_del(struct mstnl *nl, const char *name, struct mstnl_err *err);
int mstnl_link_alias_set(struct mstnl *nl, const char *name,
			 const char *alias, struct mstnl_err *err);
int mstnl_link_carrier_set(struct mstnl *nl, const char *name, bool on,
			   struct mstnl_err *err);
int mstnl_vxlan_new(struct mstnl *nl, const char *name,
		    const struct mstnl_vxlan_conf *conf, struct mstnl_err *err);
/* The interface this host's route to @addr leaves by. */
int mstnl_route_oif(struct mstnl *nl, int family, const void *addr, int *oif,
		    struct mstnl_err *err);
/*
 * Sets the states of @n ports in one datagram: the kernel applies the
 * requests in array order (CIST before MSTIs within an entry), then
 * acks each; one round trip however many. Returns 0 when every part was
 * applied, else the first error; each part's outcome is in its entry.
 */
int mstnl_port_states_set(struct mstnl *nl, struct mstnl_port_states *reqs,
			  size_t n);

enum {
	MSTNL_GRP_LINK = 1 << 0,	/* RTNLGRP_LINK */
	MSTNL_GRP_VLAN = 1 << 1,	/* RTNLGRP_BRVLAN */
	MSTNL_GRP_FDB  = 1 << 2,	/* RTNLGRP_NEIGH */
};
/* A socket subscribed to the given groups, for mstnl_monitor_read(). */
struct mstnl *mstnl_open_monitor(unsigned int groups, int *errp);
int mstnl_fd(const struct mstnl *nl);
/* Reads one datagram and decodes it (see mstnl_parse_events). -ENOBUFS
 * means notifications were lost: resynchronise with dumps. */
int mstnl_monitor_read(struct mstnl *nl, mstnl_event_cb cb, void *data);

#endif
