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
 * carrier and duplex with mstp_port_set_link().  set_state() maps to the
 * kernel as DISCARDING -> BR_STATE_BLOCKING, LEARNING, FORWARDING; tree 0
 * is the port state, MSTIs go through IFLA_BRIDGE_MST.  On link down the
 * core itself sets every tree of the port to DISCARDING.  flush() gets
 * the MSTID whose VLANs to flush on the port, or MSTP_ALL_TREES with
 * MSTP_FLUSH_PORT.  A new VID->MSTI table means a new MCID: recompute it
 * with mst_config_id_init() and call mstp_set_mcid() (restarts the
 * protocol, as a region change does).
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
#define MSTP_DEF_PATH_COST	20000
#define MSTP_MAX_PATH_COST	200000000u

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
};

/* Fills @cfg with the defaults of Table 13-5, no MSTIs, CIST-only MCID. */
void mstp_bridge_config_default(struct mstp_bridge_config *cfg,
				const uint8_t mac[6]);

struct mstp_bridge;

/*
 * Creates a bridge; every port starts disabled (link down) with default
 * priority 128, path cost 20000, auto edge and auto point-to-point.
 * Returns NULL with errno EINVAL for a bad configuration or ENOMEM.
 */
struct mstp_bridge *mstp_bridge_new(const struct mstp_bridge_config *cfg,
				    const struct mstp_ops *ops, void *ctx);
void mstp_bridge_free(struct mstp_bridge *br);

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

/* Management (12.8); each returns 0 or -EINVAL and reselects as needed. */
int mstp_set_bridge_priority(struct mstp_bridge *br, unsigned int tree,
			     uint16_t prio);
int mstp_set_port_priority(struct mstp_bridge *br, unsigned int port,
			   unsigned int tree, uint8_t prio);
/* tree 0: External (CIST) cost via @external, else the internal cost. */
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
int mstp_set_restricted(struct mstp_bridge *br, unsigned int port,
			bool role, bool tcn);
int mstp_set_mcid(struct mstp_bridge *br, const struct mst_config_id *mcid);
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
};

struct mstp_port_status {
	enum mstp_role role;
	enum mstp_port_state state;
	uint16_t port_id;
	uint32_t path_cost;		/* internal (MSTI) or external (CIST) */
	bool oper_edge;
	bool oper_p2p;
	bool enabled;
	bool send_rstp;			/* false: legacy STP peer */
	bool boundary;			/* CIST info from another region */
	bool disputed;
	bool proposing, proposed, agreed, agree, synced, sync;
	unsigned int tc_while;
	struct mstp_counters {
		unsigned long rx_bpdus, tx_bpdus, rx_invalid;
		unsigned long rx_config, rx_tcn, rx_rst, rx_mst;
		unsigned long tx_config, tx_tcn, tx_rst, tx_mst;
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
