/* SPDX-License-Identifier: MIT */
/*
 * An in-memory network of MSTP bridges for unit tests: point-to-point
 * links between bridge ports, a FIFO of BPDUs in flight, virtual time.
 * Records every port state and every FDB flush the bridges ask for.
 *
 * After every BPDU delivered, every bridge's tick and every link change
 * it checks that the network has no forwarding loop (sim_check.c): in
 * each tree and in each VLAN, the links forwarding at both ends form a
 * forest.  A violation goes to check.report, or, with none set, to
 * stderr and abort().
 */
#ifndef MSTLAB_MSTP_SIM_H
#define MSTLAB_MSTP_SIM_H

#include "mstp.h"

#define SIM_MAX_BRIDGES	8
#define SIM_MAX_PORTS	8
#define SIM_MAX_LINKS	16
#define SIM_MAX_FLUSH	4096
#define SIM_MAX_TXLOG	4096
#define SIM_MAX_VCLASSES 64	/* VLANs mapped alike on every bridge */
#define SIM_MAX_EVENTS	64	/* carrier changes scheduled (timed) */

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

/*
 * The timing model (sim_time.c), opt-in: all zero is the instant model,
 * where every BPDU in flight is delivered at once (sim_deliver), every
 * bridge ticks at the same moment (sim_advance) and both ends of a link
 * see carrier at once.  With @timed set (sim_time_start), time runs in
 * µs through an event queue: a BPDU arrives @latency_us plus a uniform
 * draw in [0, @jitter_us] after it left, never before the one sent
 * before it in the same direction of the same link; bridge b ticks at
 * @phase_us[b] + k s; carrier changes may reach the two ends of a link
 * at different times (sim_link_skewed); bridges fail and come back
 * (sim_bridge_fail, sim_bridge_restore).
 */
struct sim_model {
	bool timed;
	unsigned int latency_us, jitter_us;
	unsigned int phase_us[SIM_MAX_BRIDGES];	/* < 1 s */
	uint64_t rng;				/* the jitter's xorshift64 */
	/* Kept by the simulator. */
	uint64_t now_us;
	uint64_t next_tick_us[SIM_MAX_BRIDGES];
	uint64_t last_at_us[SIM_MAX_LINKS][2];	/* per direction: FIFO */
	bool down[SIM_MAX_BRIDGES];		/* failed: no tick, no BPDU */
	struct sim_event {			/* a carrier change to come */
		uint64_t at_us;
		unsigned int link;
		bool end_b, up;
	} ev[SIM_MAX_EVENTS];
	unsigned int nev;
};

struct sim {
	unsigned int nbridges;
	struct mstp_bridge *br[SIM_MAX_BRIDGES];
	struct sim_node {
		struct sim *sim;
		unsigned int index;
		unsigned int ntrees;
		uint16_t mstids[MSTP_MAX_MSTIS + 1];
		struct mst_vid_table vids;	/* its VID -> MSTID table */
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
	unsigned long state_changes;	/* set_state() calls that changed one */
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
	/* STP compatibility's rapid ageing, as each port was last told
	 * (ops->rapid_ageing: seconds, 0 = ended), and how often. */
	unsigned int rapid[SIM_MAX_BRIDGES][SIM_MAX_PORTS];
	unsigned long rapid_calls;
	/* A bridge's region changes (sim_set_mstis), and per port the
	 * change its neighbour was at in the last BPDU it got from it: a
	 * bridge cannot know of a new region before that BPDU. */
	unsigned long region_gen[SIM_MAX_BRIDGES];
	unsigned long heard_gen[SIM_MAX_BRIDGES][SIM_MAX_PORTS];
	bool verbose;			/* print the bridges' logs */
	struct sim_model model;
	struct sim_check {
		bool off;		/* no loop checks */
		/* Called for every violation found (NULL: print, abort). */
		void (*report)(struct sim *sim, const char *msg);
		void *ctx;		/* for report and observe */
		/* Optional: called after every check (every BPDU, tick and
		 * link change), to watch the network step by step. */
		void (*observe)(struct sim *sim);
		unsigned long runs;	/* times the network was checked */
		unsigned long violations;
		char first[2304];	/* the first violation, as text */
		/* The VLAN classes: VIDs every bridge maps to the same
		 * trees; tree[c][b] is bridge b's tree index, vid[c] one
		 * VID of the class.  Recomputed as bridges are added. */
		unsigned int nclasses;
		uint16_t vid[SIM_MAX_VCLASSES];
		uint8_t tree[SIM_MAX_VCLASSES][SIM_MAX_BRIDGES];
	} check;
};

/* Fills @cfg with defaults, MAC 02:00:00:00:00:<index+1>, @nports,
 * MSTIs @mstids, region "lab" revision 1 with @table. */
void sim_config(struct mstp_bridge_config *cfg, unsigned int index,
		unsigned int nports, const uint16_t *mstids,
		unsigned int nmstis, const struct mst_vid_table *table);

/* Frees what @sim holds and empties it; verbose if MSTP_VERBOSE is set. */
void sim_reset(struct sim *sim);
/* Creates the next bridge of @sim with @vids, the VID table its
 * cfg->mcid digests (NULL: every VID in the CIST); returns false on error
 * or if the digest or an MSTID of @vids does not match @cfg. */
bool sim_add_bridge(struct sim *sim, const struct mstp_bridge_config *cfg,
		    const struct mst_vid_table *vids);
/* Bridge @b's MSTIs are now @mstids (mstp_set_mstis) with @vids, the
 * table @mcid digests; false if the core refuses. */
bool sim_set_mstis(struct sim *sim, unsigned int b, const uint16_t *mstids,
		   unsigned int n, const struct mst_vid_table *vids,
		   const struct mst_config_id *mcid);
/* Connects a.pa to b.pb (link down until sim_link_up). */
unsigned int sim_connect(struct sim *sim, unsigned int a, unsigned int pa,
			 unsigned int b, unsigned int pb);
void sim_link_set(struct sim *sim, unsigned int link, bool up);
/* The link's medium only, its ends told nothing (sim_time.c tells them):
 * down, the BPDUs in flight on it are lost. */
void sim_link_medium(struct sim *sim, unsigned int link, bool up);
/* Brings every link up. */
void sim_all_up(struct sim *sim);
/* Delivers BPDUs until none is in flight or @max were delivered;
 * returns the number delivered. */
unsigned long sim_deliver(struct sim *sim, unsigned long max);
/* @secs ticks, each followed by delivering everything in flight. */
void sim_advance(struct sim *sim, unsigned int secs);
void sim_free(struct sim *sim);

/* ---- the timing model (sim_time.c) ---- */

/* xorshift64 of *@state (nonzero), reduced to [0, @n). */
unsigned int sim_rnd(uint64_t *state, unsigned int n);
/* Starts the timed model of sim->model (filled in before): every
 * bridge's first tick at its phase from now. */
void sim_time_start(struct sim *sim);
/* Runs every event (BPDU, tick, carrier change) due until @at_us, in
 * order of time, checking the network after each; then now is @at_us. */
void sim_run_until(struct sim *sim, uint64_t at_us);
/* Link @link's medium fails or comes back now; the port at end A sees
 * its carrier change @skew_a_us from now, the one at end B @skew_b_us. */
void sim_link_skewed(struct sim *sim, unsigned int link, bool up,
		     unsigned int skew_a_us, unsigned int skew_b_us);
/* Bridge @b dies: its links fail (each neighbour sees it up to
 * @skew_us later, drawn from the model's rng); it ticks no more. */
void sim_bridge_fail(struct sim *sim, unsigned int b, unsigned int skew_us);
/* Bridge @b boots again: its protocol restarts from BEGIN (its settings
 * kept, as a saved configuration would) and its links come back, each
 * neighbour seeing carrier up to @skew_us after it. */
void sim_bridge_restore(struct sim *sim, unsigned int b,
			unsigned int skew_us);
/* The earliest BPDU in flight's delivery time; false if none. */
bool sim_next_frame_us(uint64_t *at_us);

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

/* ---- loop freedom (sim_check.c) ---- */

/* Bridges @a and @b are in different MST regions (13.8), or one of them
 * runs RSTP or STP: the ports of a link between them are Boundary Ports. */
bool sim_boundary(struct sim *sim, unsigned int a, unsigned int b);
/*
 * Checks the network as it is now; @event says what just happened (for
 * the message).  Per tree (the CIST, and each MSTID over the bridges
 * that have it, a Boundary Port counted in the CIST's state for every
 * MSTI, 13.13 f) and per VLAN (each bridge's state in the tree it maps
 * the VLAN to): the links forwarding at both ends form a forest.  And no
 * MSTI forwards at a Boundary Port where the CIST does not (13.13 f).
 * Returns true if so; reports each violation.
 */
bool sim_check_loops(struct sim *sim, const char *event);
/*
 * Connectivity: in each VLAN class the links forwarding at both ends
 * connect every bridge not failed (meant once the network healed and
 * settled).
 * Returns the number of classes split and describes the first in @msg.
 */
unsigned int sim_check_connected(struct sim *sim, char *msg, size_t len);
/* The VLAN classes, again: after a bridge's VID table changed. */
void sim_check_classes(struct sim *sim);

#endif
