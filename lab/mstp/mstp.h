/* SPDX-License-Identifier: MIT */
/*
 * The MSTP protocol core of mstd (IEEE 802.1Q-2018 clause 13): the state
 * machines of the CIST and of every MSTI for one bridge.  It never touches
 * the OS: BPDUs go out, port states are set and FDBs flushed through
 * struct mstp_ops, and time advances only when the caller calls
 * mstp_tick() once a second.  Unit tests wire several bridges in memory
 * and run them in virtual time.
 *
 * Ports are numbered 0..nports-1 here (their Port Identifier number is
 * index + 1); trees are numbered 0 (CIST) .. ntrees-1, each with an MSTID.
 * Events (mstp_rx_bpdu, link changes, parameter changes, ticks) run the
 * state machines to completion before returning.  The ops callbacks must
 * not call back into the same bridge (queue received frames instead).
 *
 * For the daemon: call mstp_tick() every second (timerfd), hand every
 * received BPDU to mstp_rx_bpdu() (the octets after LLC 42 42 03), report
 * carrier and duplex with mstp_port_set_link() and the link speed with
 * mstp_set_port_speed(); a port that joins the bridge later is
 * mstp_add_port().  set_state() maps to the kernel as DISCARDING ->
 * BR_STATE_BLOCKING, LEARNING, FORWARDING; tree 0 is the port state, MSTIs
 * go through IFLA_BRIDGE_MST.  On link down the core itself sets every
 * tree of the port to DISCARDING.  flush() gets the MSTID whose VLANs to
 * flush on the port, or MSTP_ALL_TREES with MSTP_FLUSH_PORT.  A new
 * region name, revision or VID->MSTI table means a new MCID: recompute it
 * with mst_config_id_init() and call mstp_set_mcid(), or mstp_set_mstis()
 * when MSTIs come or go (both restart the protocol, as BEGIN would).
 */
#ifndef MSTLAB_MSTP_H
#define MSTLAB_MSTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpdu.h"
#include "mst_config.h"

#define MSTP_MAX_MSTIS		64	/* plus the CIST (13.29.28) */
#define MSTP_MAX_PORTS		4095
#define MSTP_ALL_TREES		(-1)	/* flush scope: every tree */

/* Defaults and limits (802.1Q-2018 Table 13-5 and 13-3). */
#define MSTP_DEF_MAX_AGE	20
#define MSTP_DEF_FWD_DELAY	15
#define MSTP_HELLO_TIME		2	/* fixed since 802.1Q-2014 */
#define MSTP_MIGRATE_TIME	3
#define MSTP_DEF_MAX_HOPS	20
#define MSTP_DEF_TX_HOLD	6
#define MSTP_DEF_BRIDGE_PRIO	32768
#define MSTP_DEF_PORT_PRIO	128
#define MSTP_DEF_PATH_COST	20000	/* 1 Gb/s; a link of unknown speed */
#define MSTP_MAX_PATH_COST	200000000u
#define MSTP_MIN_MAX_HOPS	6
#define MSTP_MAX_MAX_HOPS	40
#define MSTP_MAX_TX_HOLD	10

enum mstp_port_state {
	MSTP_DISCARDING,
	MSTP_LEARNING,
	MSTP_FORWARDING,
};

enum mstp_role {
	MSTP_ROLE_DISABLED,
	MSTP_ROLE_ROOT,
	MSTP_ROLE_DESIGNATED,
	MSTP_ROLE_ALTERNATE,
	MSTP_ROLE_BACKUP,
	MSTP_ROLE_MASTER,
};

enum mstp_force_version {
	MSTP_FORCE_STP = 0,
	MSTP_FORCE_RSTP = 2,
	MSTP_FORCE_MSTP = 3,
};

enum mstp_p2p {
	MSTP_P2P_AUTO,		/* from the link's duplex */
	MSTP_P2P_FORCE_TRUE,
	MSTP_P2P_FORCE_FALSE,
};

/* What a topology change in one tree flushes on a port. */
enum mstp_flush_scope {
	MSTP_FLUSH_TREE,	/* only that tree's VLANs (ops->flush tree) */
	MSTP_FLUSH_PORT,	/* every VLAN of the port (MSTP_ALL_TREES) */
};

enum mstp_log_level { MSTP_LOG_ERR, MSTP_LOG_INFO, MSTP_LOG_DEBUG };

struct mstp_ops {
	/* Send @len octets of BPDU (after the LLC header) on @port. */
	void (*tx_bpdu)(void *ctx, unsigned int port, const uint8_t *bpdu,
			size_t len);
	/* Set @port's state in tree @mstid (0 = CIST). */
	void (*set_state)(void *ctx, unsigned int port, uint16_t mstid,
			  enum mstp_port_state state);
	/* Flush @port's dynamic FDB entries of MSTI @mstid, or of every
	 * VLAN if @mstid is MSTP_ALL_TREES. */
	void (*flush)(void *ctx, unsigned int port, int mstid);
	/* Optional: apply every state set_state() was given since the last
	 * call, ports leaving forwarding first. With it set_state() may
	 * just take note: the core calls this before any BPDU leaves and
	 * before any flush, so no BPDU announces a state not yet in force. */
	void (*commit_states)(void *ctx);
	/* Optional: a line of log text (no newline). */
	void (*log)(void *ctx, enum mstp_log_level level, const char *msg);
	/* Optional: a monotonic clock in ms, for "last TC" timestamps. */
	uint64_t (*now_ms)(void *ctx);
	/*
	 * Optional: STP compatibility (ForceProtocolVersion 0).  There a
	 * topology change does not flush: the port's entries age out in
	 * @secs (Forward Delay) instead of the Ageing Time, for as long
	 * (13.27 ageingTime, fdbFlush; 802.1D 17.19.1); @secs 0 ends it.
	 * Without it the core flushes as it does with RSTP and MSTP.
	 */
	void (*rapid_ageing)(void *ctx, unsigned int port, unsigned int secs);
};

struct mstp_bridge_config {
	uint8_t mac[6];
	unsigned int nports;		/* 1..MSTP_MAX_PORTS */
	unsigned int nmstis;		/* 0..MSTP_MAX_MSTIS */
	uint16_t mstids[MSTP_MAX_MSTIS];/* 1..4094, distinct */
	struct mst_config_id mcid;
	enum mstp_force_version force_version;
	unsigned int max_age;		/* 6..40 s */
	unsigned int fwd_delay;		/* 4..30 s, 2*(fd-1) >= max_age */
	unsigned int max_hops;		/* 6..40 */
	unsigned int tx_hold_count;	/* 1..10 */
	enum mstp_flush_scope flush_scope;
	enum mstp_log_level log_level;
	/* Seconds a port BPDU guard disabled stays so; 0: until
	 * mstp_port_recover() (not in 802.1Q). */
	unsigned int guard_recovery;
};

/* Fills @cfg with the defaults of Table 13-5, no MSTIs, CIST-only MCID. */
void mstp_bridge_config_default(struct mstp_bridge_config *cfg,
				const uint8_t mac[6]);

struct mstp_bridge;

/*
 * Creates a bridge; every port starts disabled (link down) with default
 * priority 128, the path cost of an unknown link speed (20000), auto edge
 * and auto point-to-point.
 * Returns NULL with errno EINVAL for a bad configuration or ENOMEM.
 */
struct mstp_bridge *mstp_bridge_new(const struct mstp_bridge_config *cfg,
				    const struct mstp_ops *ops, void *ctx);
void mstp_bridge_free(struct mstp_bridge *br);
/*
 * A bridge in @br's exact state, its callbacks called with @ctx: what it
 * does from then on is what @br would do (a fuzzer's or simulator's
 * settled start, made once).  NULL with errno ENOMEM.
 */
struct mstp_bridge *mstp_bridge_copy(const struct mstp_bridge *br, void *ctx);

/* One second passed (13.30 Port Timers). */
void mstp_tick(struct mstp_bridge *br);

/*
 * A BPDU arrived on @port (octets after LLC).  Returns BPDU_OK or the
 * decoding error; malformed BPDUs are counted and dropped.
 */
enum bpdu_err mstp_rx_bpdu(struct mstp_bridge *br, unsigned int port,
			   const uint8_t *bpdu, size_t len);

/* Link up/down (portEnabled) and duplex for automatic point-to-point. */
void mstp_port_set_link(struct mstp_bridge *br, unsigned int port, bool up,
			bool full_duplex);
/*
 * A port joined the bridge: a new last port (link down, defaults as in
 * mstp_bridge_new), its machines started as BEGIN starts them.  Returns its
 * index, or -EINVAL (MSTP_MAX_PORTS reached), -ENOMEM.  A port that leaves
 * stays, with its link down: it keeps its index should it come back.
 */
int mstp_add_port(struct mstp_bridge *br);

/* The recommended Port Path Cost of a link of @mbps Mb/s (Table 13-4:
 * 20 000 000 000 / speed in kb/s, 1..200 000 000); 0 (unknown):
 * MSTP_DEF_PATH_COST. */
uint32_t mstp_path_cost_for_speed(uint64_t mbps);
/* The link's speed: the costs not set by management follow it. */
int mstp_set_port_speed(struct mstp_bridge *br, unsigned int port,
			uint64_t mbps);

/* Management (12.8); each returns 0 or -EINVAL and reselects as needed. */
int mstp_set_bridge_priority(struct mstp_bridge *br, unsigned int tree,
			     uint16_t prio);
int mstp_set_port_priority(struct mstp_bridge *br, unsigned int port,
			   unsigned int tree, uint8_t prio);
/* InternalPortPathCost of @tree (the CIST's too) and the CIST's
 * ExternalPortPathCost (13.27); @cost 0 takes the cost
 * back from the link speed (mstp_set_port_speed). */
int mstp_set_port_path_cost(struct mstp_bridge *br, unsigned int port,
			    unsigned int tree, uint32_t cost);
int mstp_set_port_ext_path_cost(struct mstp_bridge *br, unsigned int port,
				uint32_t cost);
/* AdminEdge: turning it on takes effect when the link next comes up
 * (Bridge Detection, 13.33); turning it off takes effect at once. */
int mstp_set_admin_edge(struct mstp_bridge *br, unsigned int port,
			bool edge);
int mstp_set_auto_edge(struct mstp_bridge *br, unsigned int port,
		       bool auto_edge);
int mstp_set_p2p(struct mstp_bridge *br, unsigned int port,
		 enum mstp_p2p p2p);
/* restrictedRole ("root guard") and restrictedTcn ("TCN guard"), 13.27. */
int mstp_set_restricted(struct mstp_bridge *br, unsigned int port,
			bool role, bool tcn);
/*
 * Beyond 802.1Q, as operators know them: BPDU guard disables the port
 * when a BPDU arrives (until mstp_port_recover(), or guard_recovery
 * seconds); BPDU filter neither sends nor takes BPDUs on the port; loop
 * guard keeps a Root, Alternate, Backup or Master Port whose information
 * aged out (BPDUs stopped coming: a one-way link) discarding, as "loop
 * inconsistent", until a BPDU arrives again, where 13.35 would make it a
 * Designated Port that forwards.
 */
int mstp_set_bpdu_guard(struct mstp_bridge *br, unsigned int port, bool on);
int mstp_set_bpdu_filter(struct mstp_bridge *br, unsigned int port, bool on);
int mstp_set_loop_guard(struct mstp_bridge *br, unsigned int port, bool on);
int mstp_set_guard_recovery(struct mstp_bridge *br, unsigned int secs);
/* Enables a port BPDU guard disabled; -EINVAL if it is not. */
int mstp_port_recover(struct mstp_bridge *br, unsigned int port);

/* A new MCID for the same MSTIs (region name, revision, VID map). */
int mstp_set_mcid(struct mstp_bridge *br, const struct mst_config_id *mcid);
/* MSTIs created and deleted (12.12.1): the new list @mstids (1..4094,
 * distinct, in the order the BPDUs carry them) and its MCID.  The trees
 * that stay keep their priorities and port settings; new ones start from
 * the defaults. */
int mstp_set_mstis(struct mstp_bridge *br, const uint16_t *mstids,
		   unsigned int n, const struct mst_config_id *mcid);
/* Bridge Max Age and Forward Delay together (Table 13-5, 13.25 rule),
 * MaxHops, TxHoldCount (12.8.1.3.4), ForceProtocolVersion (restarts). */
int mstp_set_bridge_times(struct mstp_bridge *br, unsigned int max_age,
			  unsigned int fwd_delay);
int mstp_set_max_hops(struct mstp_bridge *br, unsigned int hops);
int mstp_set_tx_hold_count(struct mstp_bridge *br, unsigned int n);
int mstp_set_force_version(struct mstp_bridge *br,
			   enum mstp_force_version v);
int mstp_set_flush_scope(struct mstp_bridge *br, enum mstp_flush_scope s);
/* 12.8.2.5 mcheck: force the port to try RSTP/MSTP again. */
int mstp_mcheck(struct mstp_bridge *br, unsigned int port);

/* Status. */
/* The configuration in force (mstp_set_mcid() and the like update it). */
const struct mstp_bridge_config *mstp_config(const struct mstp_bridge *br);
unsigned int mstp_nports(const struct mstp_bridge *br);
unsigned int mstp_ntrees(const struct mstp_bridge *br);
uint16_t mstp_tree_mstid(const struct mstp_bridge *br, unsigned int tree);
/* Tree index of @mstid, or -1. */
int mstp_tree_index(const struct mstp_bridge *br, uint16_t mstid);

struct mstp_tree_status {
	uint16_t mstid;
	struct bridge_id bridge_id;
	struct bridge_id root_id;	/* CIST root (CIST only) */
	uint32_t ext_root_path_cost;	/* CIST only */
	struct bridge_id regional_root_id;
	uint32_t int_root_path_cost;
	int root_port;			/* port index, -1 if this is root */
	unsigned int tc_count;
	uint64_t last_tc_ms;		/* from ops->now_ms, 0 if none */
	int last_tc_port;		/* -1 if none */
	uint8_t remaining_hops;		/* designated times */
	/* The root times in force (13.26.x rootTimes). */
	unsigned int max_age, fwd_delay, message_age;
};

struct mstp_port_status {
	enum mstp_role role;
	enum mstp_port_state state;
	uint16_t port_id;
	uint32_t path_cost;		/* internal (MSTI) or external (CIST) */
	uint32_t int_path_cost;		/* this tree's InternalPortPathCost */
	uint32_t ext_path_cost;		/* ExternalPortPathCost (per port) */
	bool int_cost_auto, ext_cost_auto;	/* from the link speed */
	/* The port priority vector (13.27 portPriority): what the port
	 * holds, received or its own designated one; the Designated Root
	 * is the CIST Root (CIST) or the Regional Root (MSTI). */
	struct bridge_id designated_root;
	uint32_t designated_ext_cost;	/* CIST */
	struct bridge_id designated_rroot;	/* CIST Regional Root */
	uint32_t designated_cost;	/* Internal Root Path Cost */
	struct bridge_id designated_bridge;
	uint16_t designated_port;
	bool info_received;		/* port_prio came from the neighbour */
	bool oper_edge;
	bool oper_p2p;
	bool enabled;			/* portEnabled */
	bool link_up;			/* carrier, whatever the guards say */
	bool send_rstp;			/* false: legacy STP peer */
	bool boundary;			/* CIST info from another region */
	bool disputed;
	bool proposing, proposed, agreed, agree, synced, sync;
	bool learning, forwarding;
	bool restricted_role, restricted_tcn;	/* root guard, TCN guard */
	bool root_inconsistent;		/* root guard holds better info */
	bool bpdu_guard, bpdu_filter, loop_guard;
	bool guard_tripped;		/* BPDU guard disabled the port */
	unsigned int guard_recovery_in;	/* s until enabled again, 0: none */
	bool loop_inconsistent;		/* loop guard holds it discarding */
	unsigned int tc_while;
	unsigned int rapid_ageing;	/* s of rapid ageing left */
	uint64_t last_tc_ms;		/* ops->now_ms of this port's last TC
					 * in this tree, detected or received;
					 * 0: none */
	struct mstp_counters {
		unsigned long rx_bpdus, tx_bpdus, rx_invalid;
		unsigned long rx_config, rx_tcn, rx_rst, rx_mst;
		unsigned long tx_config, tx_tcn, tx_rst, tx_mst;
		unsigned long rx_filtered, tx_filtered;	/* BPDU filter */
		unsigned long guard_trips;		/* BPDU guard */
	} counters;			/* per port (same for every tree) */
};

int mstp_get_tree_status(const struct mstp_bridge *br, unsigned int tree,
			 struct mstp_tree_status *st);
int mstp_get_port_status(const struct mstp_bridge *br, unsigned int port,
			 unsigned int tree, struct mstp_port_status *st);

/* Times the state machines did not settle in one event (a bug if > 0). */
unsigned long mstp_run_overflows(const struct mstp_bridge *br);

const char *mstp_role_name(enum mstp_role role);
const char *mstp_state_name(enum mstp_port_state state);

#endif
