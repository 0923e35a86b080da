/* SPDX-License-Identifier: MIT */
/*
 * The verdicts of a run, as data: the analysers fill it, the renderers
 * (TAP, summary.json, junit.xml, report.md, report.html) only read it,
 * so every output says the same thing.
 *
 * A run has scenarios; a scenario has checks and the events that fell in
 * its window; a check has a status, a short message, figures (named
 * numbers such as settle_s) and evidence (pcap, frame, time).
 *
 * Strings entering the model are copied and made valid UTF-8 without
 * control characters, so no renderer has to cope with raw bytes.
 * Allocation failure is sticky (r->oom) and makes adds no-ops.
 */
#ifndef MSTLAB_RESULT_H
#define MSTLAB_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "provenance.h"
#include "roles.h"

/* A check (or figure) about no single tree. 0 is the CIST. */
#define RESULT_NO_TREE (-1)
#define RESULT_MAX_TREES 65

enum result_status {
	RESULT_PASS,
	RESULT_FAIL,
	RESULT_SKIP,
};

struct result_figure {
	char *name;		/* unit in the name: settle_s, outage_ms */
	double value;
	int msti;		/* the tree it measures, or RESULT_NO_TREE */
};

struct result_evidence {
	char *pcap;		/* relative to the run folder */
	unsigned long frame;	/* 1-based, Wireshark's frame.number */
	int64_t ns;		/* capture time, host clock */
};

struct result_check {
	char *name;		/* what is checked: "settle-link-down" */
	/* The test name, unique in its scenario and made of what the check
	 * is about, never of its place in the run (docs/results.md): name,
	 * then [tree], [link] and [subject] where there are. */
	char *id;
	char *text;		/* one line for people (the TAP description) */
	int msti;		/* 0 CIST, 1..4094 an MSTI, RESULT_NO_TREE */
	char *link;		/* "link4", or NULL */
	/* What else it is about: a flow "h1->h2 vlan 10", a guest suite's
	 * test "sw1: reads the SMU version"; or NULL. */
	char *subject;
	enum result_status status;
	char *message;		/* why it failed / what was seen; or NULL */
	int64_t at_ns;		/* the instant judged (an event), 0: none */
	size_t n_figures, n_evidence;
	struct result_figure *figures;
	struct result_evidence *evidence;
};

struct result_event {
	int64_t ns;
	char *kind;		/* link-down, link-up, mark, ... */
	char *arg;
};

/* A port's part in one tree, as the tree-state engine (trees.h) has it. */
struct result_port {
	enum port_role role;
	enum port_state state;	/* advertised or inferred; never DOWN */
	/* Its role deduced, not said: RSTP root and alternate ports send
	 * nothing once agreed (trees.h). */
	bool inferred;
	bool down;		/* its link was down: the BPDU is history */
	unsigned long frame;	/* the BPDU in its link's pcap, 0: none */
};

struct result_node {
	char *name;
	int role;		/* enum topo_role */
};

struct result_link {
	char *name;		/* "link4" */
	char *pcap;		/* relative to the run folder */
	size_t node[2];		/* indexes into result_run.nodes */
	char *port[2];
};

/*
 * One tree at one instant of a scenario: the root and every link end's
 * role and state. at: "before-failure", "after-event" (the state just
 * before the next link event) or "end".
 */
struct result_snapshot {
	char *at;
	char *event;		/* the link event, for "after-event" */
	int64_t ns;
	int msti;
	int root;		/* node index; -1 no BPDU, -2 outside the lab */
	struct result_port *ports;	/* [link * 2 + end] */
};

struct result_scenario {
	char *name;
	bool run_wide;		/* not a scenario: the run as a whole */
	int64_t start_ns, end_ns;
	size_t n_checks, n_events, n_snapshots;
	struct result_check *checks;
	struct result_event *events;
	struct result_snapshot *snapshots;
};

struct result_run {
	char *lab;
	size_t n_trees;
	int trees[RESULT_MAX_TREES];	/* tree ids, CIST (0) first */
	bool analysed;			/* the captures were read */
	unsigned long frames, bpdus, bad_bpdus;
	char *warning;			/* a capture that could not be read */
	size_t n_nodes, n_links;	/* the lab, for topology drawings */
	struct result_node *nodes;
	struct result_link *links;
	size_t n_scenarios;
	struct result_scenario *scenarios;
	/* What produced the run (provenance.h), or NULL: not recorded. */
	struct provenance *prov;
	bool oom;
};

struct result_counts {
	unsigned checks, failed, skipped;
};

void result_init(struct result_run *r, const char *lab);
void result_free(struct result_run *r);
void result_set_warning(struct result_run *r, const char *warning);

/* A new scenario (NULL name: checks about the whole run), or NULL. */
struct result_scenario *result_add_scenario(struct result_run *r,
					    const char *name, int64_t start_ns,
					    int64_t end_ns);
void result_add_event(struct result_run *r, struct result_scenario *sc,
		      int64_t ns, const char *kind, const char *arg);

/* A copy of what produced the run, its strings made safe as above. */
void result_set_provenance(struct result_run *r, const struct provenance *pv);

/*
 * A new check, or NULL; link, subject and message may be NULL. Its id is
 * name[tree][link][subject]; should the scenario have that id already (a
 * check of the very same things: the same link failed twice), "#2",
 * "#3"... counts the checks of that id alone, so no other check moves
 * it.
 */
struct result_check *result_add_check_on(struct result_run *r,
					 struct result_scenario *sc,
					 const char *name, int msti,
					 const char *link, const char *subject,
					 bool ok, const char *text,
					 const char *message);
/* The same about no subject. */
struct result_check *result_add_check(struct result_run *r,
				      struct result_scenario *sc,
				      const char *name, int msti,
				      const char *link, bool ok,
				      const char *text, const char *message);
/* Marks a check skipped (not judged), with the reason. */
void result_skip(struct result_run *r, struct result_check *c,
		 const char *reason);
void result_add_figure(struct result_run *r, struct result_check *c,
		       const char *name, double value, int msti);
void result_add_evidence(struct result_run *r, struct result_check *c,
			 const char *pcap, unsigned long frame, int64_t ns);

/* The lab's nodes and links, before any snapshot. */
void result_add_node(struct result_run *r, const char *name, int role);
void result_add_link(struct result_run *r, const char *name,
		     const char *pcap, const size_t node[2],
		     const char *const port[2]);
/* A snapshot of every link end (all silent, root -1), or NULL. event
 * may be NULL. */
struct result_snapshot *result_add_snapshot(struct result_run *r,
					    struct result_scenario *sc,
					    const char *at, const char *event,
					    int64_t ns, int msti);
/* Not forwarding in its tree (port_blocked). */
bool result_port_blocked(const struct result_port *p);

/* The figure of that name and tree, or NULL. */
const struct result_figure *result_figure(const struct result_check *c,
					  const char *name, int msti);

/* Checks, failures and skips in one scenario, or in the run (sc NULL). */
struct result_counts result_count(const struct result_run *r,
				  const struct result_scenario *sc);
/* Checks of one scenario about one tree. */
struct result_counts result_count_tree(const struct result_scenario *sc,
				       int msti);

const char *result_status_name(enum result_status s);	/* pass/fail/skip */
/* "cist", "msti 3", or "" for RESULT_NO_TREE. */
const char *result_tree_name(int msti, char *buf, size_t len);

#endif
