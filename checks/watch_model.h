/* SPDX-License-Identifier: MIT */
/*
 * mstlab watch's picture of a running lab, built only from what crossed
 * the links (BPDUs, decoded with the daemon's codec) and the run's event
 * log, so it stays true when a guest hangs. Pure: frames and event lines
 * go in with their host timestamps, changes come out as struct
 * watch_event through a callback.
 *
 * What a port shows for a tree is what its last BPDU advertised: role,
 * learning/forwarding, root. RSTP/MSTP root and alternate ports go
 * quiet once agreed, so their last BPDU may be old: that is why the
 * watcher replays each capture from its start. A TC flag is taken as
 * cleared when the port's next BPDU lacks it, or when the port has sent
 * nothing for tc_hold (twice the hello time, longer than tcWhile =
 * HelloTime + 1), since a quiet root port never says "TC over".
 *
 * One inference fills the gap the wire leaves: a bridge has one root
 * port per tree, so when another port of it announces itself root, the
 * old root port has stopped being one; facing a designated port it can
 * only be alternate, discarding (a port event with inferred set).
 */
#ifndef MSTLAB_WATCH_MODEL_H
#define MSTLAB_WATCH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "events.h"
#include "plan.h"
#include "topo.h"

enum watch_state {
	WATCH_UNKNOWN,		/* no BPDU seen from the port yet */
	WATCH_DISCARDING,
	WATCH_LEARNING,
	WATCH_FORWARDING,
	WATCH_DOWN,		/* its link failed (event log) */
};

enum watch_role {		/* enum bpdu_role values, then our own */
	WATCH_ROLE_MASTER = 0,
	WATCH_ROLE_ALTERNATE = 1,	/* alternate or backup */
	WATCH_ROLE_ROOT = 2,
	WATCH_ROLE_DESIGNATED = 3,
	WATCH_ROLE_NONE = 4,		/* STP config BPDU: no role on wire */
};

struct watch_port {
	uint8_t role;		/* enum watch_role */
	uint8_t state;		/* enum watch_state */
	bool tc;
	uint64_t root;		/* bridge_id_u64 of the advertised root */
	int64_t last_ns;	/* its last BPDU */
};

struct watch_tree {
	int root_node;		/* node index, -1 none, -2 not a lab node */
	uint64_t root;		/* what most ports advertise, 0 = none */
	bool tc;		/* some port advertises TC */
};

enum watch_kind {
	WATCH_EV_PORT,		/* a port's role, state or root changed */
	WATCH_EV_ROOT,		/* a tree's root changed */
	WATCH_EV_TC,		/* a tree's TC set or cleared */
	WATCH_EV_LINK,		/* link-down / link-up from the event log */
	WATCH_EV_BAD_BPDU,	/* to the bridge group address, undecodable */
	WATCH_EV_UNKNOWN_SENDER,	/* a BPDU from a MAC not in the plan */
	WATCH_EV_LAB,		/* any other event-log line */
};

struct watch_event {
	enum watch_kind kind;
	int64_t ns;
	int tree;		/* tree slot (0 = CIST) or -1 */
	int node, port;		/* port events, senders; -1 if none */
	int link;		/* link position or -1 */
	struct watch_port was, now;	/* WATCH_EV_PORT */
	bool inferred;		/* not from the port's own BPDU (below) */
	int root_node, was_root_node;	/* WATCH_EV_ROOT */
	uint64_t root, was_root;
	bool on;		/* TC set / link up */
	uint8_t src[6];		/* sender MAC (bad BPDU, unknown sender) */
	const char *error;	/* bad BPDU: bpdu_strerror() */
	char kind_word[24];	/* event-log kind ("link-down", "step", …) */
	char arg[EVENT_ARG_MAX];	/* event-log arguments */
};

typedef void (*watch_emit_fn)(void *ctx, const struct watch_event *e);

#define WATCH_MAX_UNKNOWN 32	/* unknown senders reported once each */

struct watch_model {
	const struct topo *t;
	const struct plan *p;
	size_t ntrees;		/* CIST + the lab's MSTIs */
	uint16_t tree_id[TOPO_MAX_TREES];
	struct watch_port *ports;	/* [node][TOPO_MAX_PORTS][tree] */
	bool *link_down;		/* by link position */
	struct watch_tree trees[TOPO_MAX_TREES];
	int64_t tc_hold_ns;
	int64_t now_ns;		/* latest time seen */
	unsigned long bpdus, bad, unknown, events;
	size_t n_unknown;
	uint8_t unknown_mac[WATCH_MAX_UNKNOWN][6];
	watch_emit_fn emit;	/* NULL: fold silently (history) */
	void *emit_ctx;
};

/* 0, or -1 when out of memory. t and p must outlive m. */
int watch_model_init(struct watch_model *m, const struct topo *t,
		     const struct plan *p);
void watch_model_free(struct watch_model *m);

/* One captured frame of link (position) at ns; non-BPDUs are ignored. */
void watch_frame(struct watch_model *m, int64_t ns, int link,
		 const uint8_t *frame, size_t len);
/* One line of the run's event log ("<ns> <kind> <args>"). */
void watch_event_line(struct watch_model *m, const char *line);
/* Time passes (host ns): expires TC flags nobody refreshed. */
void watch_tick(struct watch_model *m, int64_t ns);

const struct watch_port *watch_port_get(const struct watch_model *m,
					int node, int port, int tree);
/* The node index of a bridge id's MAC, -1 if none. */
int watch_node_of_bridge(const struct watch_model *m, uint64_t id);

/* "root", "designated", "alternate", "master", "none". */
const char *watch_role_name(unsigned role);
/* "unknown", "discarding", "learning", "forwarding", "down". */
const char *watch_state_name(unsigned state);
/* "cist" or "msti N", like summary.json's "tree". */
const char *watch_tree_name(const struct watch_model *m, int tree,
			    char *buf, size_t len);

#endif
