/* SPDX-License-Identifier: MIT */
/*
 * The tree-state engine: from the BPDUs that crossed the links (decoded
 * with the daemon's codec) and the run's event log, each tree's root and
 * every port's role, state and TC, for the CIST and each MSTI. The
 * verdicts, the reports' snapshots and mstlab watch all take tree state
 * from here, so they cannot disagree.
 *
 * Two ways in, one set of rules:
 * - live (TREES_LIVE): frames and events fed in time order, as mstlab
 *   watch follows the growing captures; the state now is in trees_now()
 *   and every change comes out through the emit callback;
 * - history (TREES_KEEP): every BPDU kept (fed in any order, then
 *   trees_seal()), so a finished run can be asked about any instant:
 *   trees_view_at().
 * Both build what each port said last and hand it to the same rules
 * (trees_rules.c), so the live state after the inputs up to t is the
 * state trees_view_at() gives for t.
 *
 * The rules:
 * - A port shows what its last BPDU for the tree said: role, learning
 *   or forwarding, root, TC. An STP configuration BPDU has no role and
 *   no state on the wire (PORT_ROLE_NONE, PORT_STATE_UNKNOWN).
 * - A link the event log has down shows both ends down; they keep what
 *   they said last (history) but count for nothing. A link that comes
 *   back up makes both ends silent until they speak again.
 * - At an instant t the tree holds every BPDU captured up to t and the
 *   events logged before t: a BPDU captured at the very instant of a
 *   failure was sent before it.
 * - A word stands until a later frame on its link contradicts it, and
 *   then it is void: the port is taken as silent, for the deductions
 *   below. A port's word for a tree is contradicted by
 *   - the port's own later BPDU that does not carry the tree (an STP or
 *     RST BPDU, or an MST BPDU without that MSTI): it has not said the
 *     tree's role since;
 *   - for a root, master or alternate word (roles a port takes from
 *     the designated port facing it): the peer's later word for the
 *     tree that is not designated (one end of a point-to-point link is;
 *     an STP configuration BPDU is a designated port's), or that names
 *     another root than the word did (the port's role was chosen on
 *     information its peer no longer sends). Across a region boundary
 *     the MSTIs follow the CIST instead (below).
 * - The root: each bridge counts once, for the root its latest BPDU
 *   (on a port that is up) names; the root most bridges name wins, a tie
 *   goes to the better bridge id. A bridge's quiet root and alternate
 *   ports repeat nothing, so their last word may be old: a bridge's
 *   newest BPDU is what it thinks now.
 * - RSTP/MSTP root and alternate ports go quiet once agreed, so two
 *   deductions fill what the wire leaves out (inferred):
 *   - a bridge has one root port per tree: when it names a later root
 *     port (on a link that is up), the earlier one is alternate and
 *     discarding;
 *   - a silent port facing a designated port, on a bridge that is not
 *     the root: alternate and discarding if the bridge has a root port,
 *     else, if it is the bridge's only such port, its root port.
 * - A boundary port (802.1Q-2018 13.13) is one whose link crosses a
 *   region boundary: either end speaks STP or RSTP, or the two ends'
 *   MST configuration identifiers differ (trees_region_boundary; a
 *   silent end speaks as its bridge's newest BPDU). There every MSTI
 *   shows the CIST's role and state, the CIST's root port as the
 *   master port, whatever the port's MSTI messages said: so no MSTI
 *   role outlives the CIST's evidence. It is inferred where the CIST's
 *   is, or where the port's last BPDU did not say just that for the
 *   MSTI.
 * - TC lasts until the port's next BPDU without it, or two hello times
 *   of silence (longer than tcWhile = HelloTime + 1): a quiet root port
 *   never says "TC over". A TCN sets it on the CIST.
 */
#ifndef MSTLAB_TREES_H
#define MSTLAB_TREES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "plan.h"
#include "roles.h"
#include "topo.h"

/* What one BPDU of a port said for one tree. */
struct tree_adv {
	int64_t ns;		/* capture time; 0: nothing */
	uint8_t role;		/* enum port_role: the BPDU's, or NONE (STP) */
	uint8_t state;		/* enum port_state, never DOWN */
	bool tc;
	bool mst;		/* an MST BPDU (else STP or RSTP) */
	uint32_t mcid;		/* hash of its MST configuration id */
	uint64_t root;		/* bridge_id_u64 of the (regional) root */
	uint32_t frame;		/* its frame number in its link's pcap */
	uint16_t link;		/* the link (position) it crossed */
};

/* A BPDU on the wire: its capture time, its frame in its link's pcap. */
struct tree_frame {
	int64_t ns;		/* 0: none */
	uint32_t frame;
	uint16_t link;		/* the link (position) it crossed */
};

/* A port's part in one tree at one instant. */
struct tree_port {
	uint8_t role;		/* enum port_role */
	uint8_t state;		/* advertised or inferred; never DOWN: down */
	bool down;		/* its link is down, by the event log */
	bool inferred;		/* role and state deduced (above) */
	bool boundary;		/* a boundary port: MSTIs follow the CIST */
	bool tc;		/* it announces a topology change */
	uint64_t root;		/* the root its last BPDU names; 0 none */
	int64_t last_ns;	/* its last BPDU for the tree; 0 none */
	uint32_t frame;		/* that BPDU in its link's pcap; 0 none */
	/* The BPDU its role and state stand on: its last, or, deduced, the
	 * one they are deduced from (the bridge's later root port's, the
	 * designated peer's; at a boundary port the CIST's). */
	struct tree_frame why;
};

/* One tree at one instant. */
struct tree_view {
	int64_t ns;
	int root_node;		/* node index; -1 none, -2 not a lab bridge */
	uint64_t root;		/* its bridge id; 0 none */
	bool tc;		/* some port that is up announces TC */
	int root_by_node;	/* the port whose BPDU, the latest naming */
	int root_by_port;	/* the root, is the evidence; -1 none */
	struct tree_port *port;	/* [node * TOPO_MAX_PORTS + port] */
};

/* A port's state as shown: DOWN when its link is. */
static inline enum port_state tree_port_state(const struct tree_port *p)
{
	return p->down ? PORT_STATE_DOWN : (enum port_state)p->state;
}

enum trees_change_kind {
	TREES_PORT,		/* a port's role, state or root changed */
	TREES_ROOT,		/* a tree's root changed */
	TREES_TC,		/* a tree's TC set or cleared */
	TREES_LINK,		/* link-down / link-up from the event log */
	TREES_BAD_BPDU,		/* to the bridge group address, undecodable */
	TREES_UNKNOWN_SENDER,	/* a BPDU from a MAC not in the plan */
	TREES_LAB,		/* any other event-log line */
};

/* A change of the live state, or an input worth showing. */
struct trees_change {
	enum trees_change_kind kind;
	int64_t ns;
	int tree;		/* tree slot (0 = CIST) or -1 */
	int node, port;		/* the port (PORT, TC, bad BPDU); -1 none */
	int link;		/* link position or -1 */
	struct tree_port was, now;	/* TREES_PORT */
	int root_node, was_root_node;	/* TREES_ROOT */
	uint64_t root, was_root;
	bool on;		/* TC set / link up */
	uint8_t src[6];		/* the sender (bad BPDU, unknown sender) */
	const char *error;	/* bad BPDU: bpdu_strerror() */
	/* TREES_LINK, TREES_LAB: the line (during the callback only). */
	const struct event *event;
};

typedef void (*trees_emit_fn)(void *ctx, const struct trees_change *c);

enum {
	TREES_LIVE = 1,		/* keep the state now; emit its changes */
	TREES_KEEP = 2,		/* keep every BPDU: views at any instant */
};

#define TREES_MAX_UNKNOWN 32	/* unknown senders reported once each */

/* One port's BPDUs for one tree, in time order (history). */
struct trees_track {
	size_t n, cap;
	struct tree_adv *adv;
};

/* What a port said last for one tree, since its link came up. */
struct tree_own {
	struct tree_adv adv;	/* adv.ns 0: nothing */
	bool tc;		/* the BPDU's TC, or a TCN's */
	int64_t tc_ns;		/* when it was said */
};

struct trees_link_event {
	int64_t ns;
	int link;
	bool up;
};

struct trees {
	const struct topo *t;
	const struct plan *p;
	unsigned flags;
	size_t ntrees;		/* CIST + the lab's MSTIs */
	uint16_t tree_id[TOPO_MAX_TREES];
	int64_t tc_hold_ns;
	/* history */
	struct trees_track *track;	/* [(node * MAX_PORTS + port) * ntrees + tree] */
	struct trees_track *tcn;	/* [node * MAX_PORTS + port] */
	size_t n_links_ev, cap_links_ev;
	struct trees_link_event *link_ev;	/* in the log's order */
	/* live */
	struct tree_own *own;		/* [tree * nports + node * MAX_PORTS + port] */
	bool *down;			/* by link position */
	struct tree_view *now;		/* [tree] */
	struct tree_view scratch;
	int64_t now_ns;			/* the latest time seen */
	/* both */
	unsigned long bpdus, bad, unknown, changes;
	struct tree_adv first;		/* the earliest BPDU (ns 0: none) */
	size_t n_unknown;
	uint8_t unknown_mac[TREES_MAX_UNKNOWN][6];
	trees_emit_fn emit;		/* NULL: fold silently (history) */
	void *emit_ctx;
};

/* 0, or -1 when out of memory. t and p must outlive tr. */
int trees_init(struct trees *tr, const struct topo *t, const struct plan *p,
	       unsigned flags);
void trees_free(struct trees *tr);

/*
 * One captured frame of link (position) at ns, frame_no its number in
 * the link's pcap (from 1; 0 unknown). Frames not to the bridge group
 * address are ignored.
 */
void trees_frame(struct trees *tr, int64_t ns, int link, uint32_t frame_no,
		 const uint8_t *frame, size_t len);
/* One event of the run's log. */
void trees_event(struct trees *tr, const struct event *e);
/* Time passes (host ns): TC nobody refreshed lapses (live). */
void trees_tick(struct trees *tr, int64_t ns);
/* History fed in any order (link by link): put each port in time order
 * before the first view. */
void trees_seal(struct trees *tr);

/* Live: a tree now, a port now. */
const struct tree_view *trees_now(const struct trees *tr, int tree);
const struct tree_port *trees_port_now(const struct trees *tr, int node,
				       int port, int tree);

/*
 * History: a tree at instant t into v (from tree_view_alloc). Every
 * BPDU captured up to t counts, and the events logged before t.
 */
void trees_view_at(const struct trees *tr, int tree, int64_t t,
		   struct tree_view *v);
int tree_view_alloc(const struct trees *tr, struct tree_view *v);
void tree_view_free(struct tree_view *v);
static inline const struct tree_port *tree_view_port(
	const struct tree_view *v, int node, int port)
{
	return &v->port[(size_t)node * TOPO_MAX_PORTS + (size_t)port];
}

/* History: a port's BPDUs for a tree in time order (*n of them), and its
 * last one by t since its link last came up (NULL: none). */
const struct tree_adv *trees_track(const struct trees *tr, int node, int port,
				   int tree, size_t *n);
const struct tree_adv *trees_heard_at(const struct trees *tr, int node,
				      int port, int tree, int64_t t);

/* The node whose bridge MAC is in a bridge id; -2 if none. */
int trees_node_of_bridge(const struct trees *tr, uint64_t id);
/* "cist" or "msti N", like summary.json's "tree". */
const char *trees_tree_name(const struct trees *tr, int tree, char *buf,
			    size_t len);
/* The port at the other end of node:port's link, in *pnode, *pport;
 * false if it has no link. */
bool trees_peer(const struct trees *tr, int node, int port, int *pnode,
		int *pport);

/* The rules (trees_rules.c): one tree at t from what each port said
 * last (own, [node * MAX_PORTS + port]) and which links are down; an
 * MSTI's also from the CIST's view at t (cist; NULL for the CIST). */
void trees_compute(const struct trees *tr, int64_t t,
		   const struct tree_own *own, const bool *down,
		   const struct tree_view *cist, struct tree_view *v);
/* Whether a link's two ends, by their CIST words (NULL: not known),
 * meet across a region boundary: either speaks STP or RSTP, or both MST
 * with different configuration identifiers. */
bool trees_region_boundary(const struct tree_adv *x, const struct tree_adv *y);

#endif
