/* SPDX-License-Identifier: MIT */
/*
 * An in-memory network of MSTP bridges for unit tests: point-to-point
 * links between bridge ports, a FIFO of BPDUs in flight, virtual time.
 * Records every port state and every FDB flush the bridges ask for.
 */
#ifndef MSTLAB_MSTP_SIM_H
#define MSTLAB_MSTP_SIM_H

#include "mstp.h"

#define SIM_MAX_BRIDGES	8
#define SIM_MAX_PORTS	8
#define SIM_MAX_LINKS	16
#define SIM_MAX_FLUSH	4096
#define SIM_MAX_TXLOG	4096

struct sim_flush {
	unsigned int bridge, port;
	int mstid;
	unsigned long seq;	/* in the sequence of BPDUs and flushes */
};

/* A BPDU sent: which trees it says TC for (bit 0 the CIST, bit k the
 * k-th MSTI record). */
struct sim_tx {
	unsigned int bridge, port;
	unsigned int tc_trees;
	unsigned long seq;
};

struct sim_link {
	unsigned int a, pa, b, pb;	/* bridge/port at each end */
	bool up;
	bool drop_a_to_b, drop_b_to_a;	/* silent BPDU loss */
};

struct sim {
	unsigned int nbridges;
	struct mstp_bridge *br[SIM_MAX_BRIDGES];
	struct sim_node {
		struct sim *sim;
		unsigned int index;
		unsigned int ntrees;
		uint16_t mstids[MSTP_MAX_MSTIS + 1];
	} node[SIM_MAX_BRIDGES];
	struct sim_link links[SIM_MAX_LINKS];
	unsigned int nlinks;
	/* state[bridge][port][tree index] as last committed through the
	 * ops; set_state() only takes note (pending) until commit_states(). */
	enum mstp_port_state state[SIM_MAX_BRIDGES][SIM_MAX_PORTS]
				  [MSTP_MAX_MSTIS + 1];
	enum mstp_port_state pending[SIM_MAX_BRIDGES][SIM_MAX_PORTS]
				    [MSTP_MAX_MSTIS + 1];
	unsigned int npending[SIM_MAX_BRIDGES];
	unsigned long commits;
	/* BPDUs sent or flushes asked for with states still pending. */
	unsigned long uncommitted;
	bool immediate;			/* bridges added now: no commit op */
	struct sim_flush flushes[SIM_MAX_FLUSH];
	unsigned int nflushes;
	struct sim_tx txlog[SIM_MAX_TXLOG];
	unsigned int ntx;
	unsigned long seq;		/* numbers BPDUs sent and flushes */
	unsigned long delivered;	/* BPDUs delivered so far */
	/* The last BPDU each port sent. */
	uint8_t last_tx[SIM_MAX_BRIDGES][SIM_MAX_PORTS][BPDU_MST_MAX_LEN];
	size_t last_tx_len[SIM_MAX_BRIDGES][SIM_MAX_PORTS];
	unsigned long now_ms;
	bool verbose;			/* print the bridges' logs */
};

/* Fills @cfg with defaults, MAC 02:00:00:00:00:<index+1>, @nports,
 * MSTIs @mstids, region "lab" revision 1 with @table. */
void sim_config(struct mstp_bridge_config *cfg, unsigned int index,
		unsigned int nports, const uint16_t *mstids,
		unsigned int nmstis, const struct mst_vid_table *table);

/* Creates bridge @index of @sim; returns false on error. */
bool sim_add_bridge(struct sim *sim, const struct mstp_bridge_config *cfg);
/* Connects a.pa to b.pb (link down until sim_link_up). */
unsigned int sim_connect(struct sim *sim, unsigned int a, unsigned int pa,
			 unsigned int b, unsigned int pb);
void sim_link_set(struct sim *sim, unsigned int link, bool up);
/* Brings every link up. */
void sim_all_up(struct sim *sim);
/* Delivers BPDUs until none is in flight or @max were delivered;
 * returns the number delivered. */
unsigned long sim_deliver(struct sim *sim, unsigned long max);
/* @secs ticks, each followed by delivering everything in flight. */
void sim_advance(struct sim *sim, unsigned int secs);
void sim_free(struct sim *sim);

enum mstp_role sim_role(struct sim *sim, unsigned int b, unsigned int p,
			unsigned int tree);
enum mstp_port_state sim_state(struct sim *sim, unsigned int b,
			       unsigned int p, unsigned int tree);
/* The status of bridge @b's port @p in @tree, or of its tree @t; every
 * field 0xff when there is no such port or tree. */
struct mstp_port_status sim_port_status(struct sim *sim, unsigned int b,
					unsigned int p, unsigned int tree);
struct mstp_tree_status sim_tree_status(struct sim *sim, unsigned int b,
					unsigned int t);
/* Decodes the last BPDU bridge @b sent on port @p. */
bool sim_last_bpdu(struct sim *sim, unsigned int b, unsigned int p,
		   struct bpdu *out);
unsigned int sim_flush_count(struct sim *sim, unsigned int b,
			     unsigned int p, int mstid);

#endif
