/* SPDX-License-Identifier: MIT */
/*
 * Internal state of the MSTP core.  Variable and procedure names follow
 * 802.1Q-2018 clause 13 (13.25-13.27) so the code reads like the standard.
 */
#ifndef MSTLAB_MSTP_INT_H
#define MSTLAB_MSTP_INT_H

#include "mstp.h"

/* A CIST or MSTI priority vector (13.9, 13.10); the MSTI form leaves
 * root and ext_cost zero.  rport is only set in root path vectors. */
struct mstp_prio {
	struct bridge_id root;
	uint32_t ext_cost;
	struct bridge_id rroot;
	uint32_t int_cost;
	struct bridge_id dbridge;
	uint16_t dport;
	uint16_t rport;
};

/* Timer parameters in whole seconds (13.26.x portTimes etc.). */
struct mstp_times {
	unsigned int msg_age, max_age, fwd_delay, hello;
	unsigned int hops;
};

enum mstp_info_is { INFO_DISABLED, INFO_MINE, INFO_AGED, INFO_RECEIVED };

enum mstp_rcvd_info {
	SUPERIOR_DESIGNATED, REPEATED_DESIGNATED, INFERIOR_DESIGNATED,
	INFERIOR_ROOT_ALTERNATE, OTHER_INFO,
};

/* State machine states. */
enum pim_state {
	PIM_DISABLED, PIM_AGED, PIM_UPDATE, PIM_CURRENT, PIM_RECEIVE,
	PIM_SUPERIOR_DESIGNATED, PIM_REPEATED_DESIGNATED,
	PIM_INFERIOR_DESIGNATED, PIM_NOT_DESIGNATED, PIM_OTHER,
};
enum prt_state {
	PRT_INIT_PORT, PRT_DISABLE_PORT, PRT_DISABLED_PORT,
	PRT_MASTER_PORT, PRT_MASTER_PROPOSED, PRT_MASTER_AGREED,
	PRT_MASTER_SYNCED, PRT_MASTER_RETIRED, PRT_MASTER_DISCARD,
	PRT_MASTER_LEARN, PRT_MASTER_FORWARD,
	PRT_ROOT_PORT, PRT_ROOT_PROPOSED, PRT_ROOT_AGREED, PRT_ROOT_SYNCED,
	PRT_REROOT, PRT_ROOT_FORWARD, PRT_ROOT_LEARN, PRT_REROOTED,
	PRT_ROOT_DISCARD,	/* not in 13.37: see may_forward() */
	PRT_DESIGNATED_PORT, PRT_DESIGNATED_PROPOSE, PRT_DESIGNATED_AGREED,
	PRT_DESIGNATED_SYNCED, PRT_DESIGNATED_RETIRED,
	PRT_DESIGNATED_DISCARD, PRT_DESIGNATED_LEARN,
	PRT_DESIGNATED_FORWARD,
	PRT_BLOCK_PORT, PRT_ALTERNATE_PORT, PRT_ALTERNATE_PROPOSED,
	PRT_ALTERNATE_AGREED, PRT_BACKUP_PORT,
};
enum pst_state { PST_DISCARDING, PST_LEARNING, PST_FORWARDING };
enum tcm_state {
	TCM_INACTIVE, TCM_LEARNING, TCM_DETECTED, TCM_ACTIVE,
	TCM_NOTIFIED_TCN, TCM_NOTIFIED_TC, TCM_PROPAGATING,
	TCM_ACKNOWLEDGED,
};
enum prx_state { PRX_DISCARD, PRX_RECEIVE };
enum ppm_state { PPM_CHECKING_RSTP, PPM_SELECTING_STP, PPM_SENSING };
enum bdm_state { BDM_EDGE, BDM_NOT_EDGE };
enum ptx_state {
	PTX_TRANSMIT_INIT, PTX_IDLE, PTX_TRANSMIT_PERIODIC,
	PTX_TRANSMIT_CONFIG, PTX_TRANSMIT_TCN, PTX_TRANSMIT_RSTP,
};

/* Per port and tree (13.27). */
struct mstp_pt {
	unsigned int port, tree;	/* indices */
	enum pim_state pim;
	enum prt_state prt;
	enum pst_state pst;
	enum tcm_state tcm;

	bool agree, agreed, disputed, fdb_flush, forward, forwarding;
	bool flush_pending;	/* ops->flush due once run() settles */
	bool learn, learning, master, mastered, proposed, proposing;
	bool rcvd_msg, rcvd_tc, re_root, reselect, selected, sync, synced;
	bool tc_prop, updt_info;
	bool stale;		/* see stale() in mstp_roles.c */
	/* CIST: the bridge that sent the information port_prio holds (its
	 * CIST Bridge Identifier, not the Regional Root 13.9 puts in
	 * port_prio for a message from another region), and when (the
	 * bridge's rx_seq then). */
	struct bridge_id sender;
	unsigned long heard;
	enum mstp_info_is info_is;
	enum mstp_rcvd_info rcvd_info;
	enum mstp_role role, selected_role;
	uint16_t port_id;
	uint32_t int_path_cost;		/* InternalPortPathCost */
	struct mstp_prio port_prio, msg_prio, designated_prio;
	struct mstp_times port_times, msg_times, designated_times;
	/* Flags of the received message for this tree. */
	struct bpdu_flags msg_flags;

	/* Timers (13.25), seconds. */
	unsigned int fd_while, rr_while, rb_while, tc_while, rcvd_info_while;
	/* Not in the standard: agreements are not taken while it runs, see
	 * mstp_hold_agreements() in mstp_rx.c. */
	unsigned int agree_hold;
	unsigned int desig_left;	/* counts down after Designated */
};

/* Per port (13.27). */
struct mstp_port {
	unsigned int index;
	bool port_enabled, full_duplex;
	bool admin_edge, auto_edge, oper_edge;
	enum mstp_p2p admin_p2p;
	bool oper_p2p;
	bool info_internal, rcvd_internal;
	bool rx_seen;			/* a BPDU since the link came up */
	/* The CIST Regional Root the neighbour last named (in any BPDU
	 * but a TCN since the link came up, nbr_known). */
	bool nbr_known;
	struct bridge_id nbr_rroot;
	uint32_t nbr_ext_cost;		/* and External Root Path Cost */
	/* The last CIST message on the port: its sender (CIST Bridge
	 * Identifier), message priority vector and rx_seq. */
	struct bridge_id last_sender;
	struct mstp_prio last_msg;
	unsigned long last_heard;
	bool mcheck, new_info, new_info_msti;
	bool rcvd_bpdu, rcvd_rstp, rcvd_stp, rcvd_tc_ack, rcvd_tcn;
	bool restricted_role, restricted_tcn;
	bool send_rstp, tc_ack;
	uint32_t ext_path_cost;		/* ExternalPortPathCost */
	unsigned int tx_count;
	unsigned int edge_delay_while, hello_when, mdelay_while;
	enum prx_state prx;
	enum ppm_state ppm;
	enum bdm_state bdm;
	enum ptx_state ptx;
	struct bpdu rx;			/* the BPDU being received */
	struct mstp_counters counters;
};

/* Per tree. */
struct mstp_tree {
	unsigned int index;
	uint16_t mstid;
	struct bridge_id bridge_id;
	struct mstp_prio bridge_prio, root_prio;
	struct mstp_times bridge_times, root_times;
	int root_port;			/* -1: none */
	bool prs_begun;
	unsigned int tc_count;
	uint64_t last_tc_ms;
	int last_tc_port;
	/* The best root path from a port in the last best_ttl ticks (see
	 * sync_tree() in mstp_roles.c). */
	struct mstp_prio best_recent;
	unsigned int best_ttl;
};

struct mstp_bridge {
	struct mstp_bridge_config cfg;
	const struct mstp_ops *ops;
	void *ctx;
	bool begin;
	unsigned int nports, ntrees;
	struct mstp_port *ports;
	struct mstp_tree *trees;
	struct mstp_pt *pts;		/* [port * ntrees + tree] */
	unsigned long run_overflows;
	unsigned long rx_seq;		/* BPDUs received, all ports */
	/* Ticks the Master Ports wait after this bridge became the CIST
	 * Regional Root (not in the standard, see master_held()). */
	unsigned int master_hold;
};

static inline struct mstp_pt *PT(struct mstp_bridge *br, unsigned int port,
				 unsigned int tree)
{
	return &br->pts[port * br->ntrees + tree];
}

static inline struct mstp_port *PORT(struct mstp_bridge *br,
				     const struct mstp_pt *pt)
{
	return &br->ports[pt->port];
}

static inline struct mstp_pt *CIST(struct mstp_bridge *br,
				   const struct mstp_pt *pt)
{
	return PT(br, pt->port, 0);
}

static inline bool rstp_version(const struct mstp_bridge *br)
{
	return br->cfg.force_version >= MSTP_FORCE_RSTP;
}

/* Derived timer values (13.26): from the CIST designated times. */
unsigned int mstp_fwd_delay(struct mstp_bridge *br, const struct mstp_pt *pt);
unsigned int mstp_forward_delay(struct mstp_bridge *br,
				const struct mstp_pt *pt);
unsigned int mstp_max_age(struct mstp_bridge *br, const struct mstp_pt *pt);
unsigned int mstp_hello_time(struct mstp_bridge *br,
			     const struct mstp_pt *pt);
unsigned int mstp_edge_delay(struct mstp_bridge *br,
			     const struct mstp_port *p);

/* 13.13 f: a Boundary Port (another region, RSTP or STP beyond it). */
bool mstp_boundary(const struct mstp_bridge *br, const struct mstp_port *p);

/* Priority vectors. */
int mstp_prio_cmp(const struct mstp_prio *a, const struct mstp_prio *b);
bool mstp_times_equal(const struct mstp_times *a, const struct mstp_times *b);

void mstp_logf(struct mstp_bridge *br, enum mstp_log_level level,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The state machines: each returns true if it made a transition. */
bool mstp_prx(struct mstp_bridge *br, struct mstp_port *p);
bool mstp_ppm(struct mstp_bridge *br, struct mstp_port *p);
bool mstp_bdm(struct mstp_bridge *br, struct mstp_port *p);
bool mstp_ptx(struct mstp_bridge *br, struct mstp_port *p);
bool mstp_pim(struct mstp_bridge *br, struct mstp_pt *pt);
bool mstp_prs(struct mstp_bridge *br, struct mstp_tree *t);
bool mstp_prt(struct mstp_bridge *br, struct mstp_pt *pt);
bool mstp_pst(struct mstp_bridge *br, struct mstp_pt *pt);
bool mstp_tcm(struct mstp_bridge *br, struct mstp_pt *pt);

/* Holds beyond the standard (master_held(), mstp_hold_agreements()):
 * two ticks, at least a second - long past any BPDU in flight. */
#define MSTP_HOLD_TICKS	2

/* Procedures shared between files. */
void mstp_hold_agreements(struct mstp_bridge *br, struct mstp_pt *pt);
void mstp_agree_hold_tick(struct mstp_bridge *br, struct mstp_pt *pt);
void mstp_set_tc_prop_tree(struct mstp_bridge *br, struct mstp_pt *pt);
void mstp_new_info_xst(struct mstp_bridge *br, struct mstp_pt *pt);
/* The FDB flushes the TC machines asked for, through the ops. */
void mstp_flush_pending(struct mstp_bridge *br);
void mstp_update_bridge_prio(struct mstp_bridge *br, struct mstp_tree *t);

#endif
