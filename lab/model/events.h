/* SPDX-License-Identifier: MIT */
/*
 * The run's event log, <run>/events: "<ns> <kind> <args...>" per line on
 * the host's CLOCK_REALTIME, the clock of the captures, so the checks can
 * place every injected event among the frames (results/README.md).
 *
 * One codec: mstlab writes every line through the typed writers below,
 * and every reader (the verdicts, mstlab watch) parses a line with
 * event_parse(). The format on disk is fixed: results folders already
 * recorded must stay readable.
 */
#ifndef MSTLAB_EVENTS_H
#define MSTLAB_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "errbuf.h"

#include "topo.h"

/* The longest line a reader takes whole; a longer one is cut. */
#define EVENT_LINE_MAX 1024
#define EVENT_WORD_MAX 24
#define EVENT_ARG_MAX 512
#define EVENT_NAME_MAX 64

enum event_kind {
	EVENT_OTHER,		/* a kind this build does not know: kept as text */
	EVENT_RUN_START,	/* run-start LAB */
	EVENT_READY,		/* ready SECONDS (every node up) */
	EVENT_LINK_DOWN,	/* link-down linkN carrier|silent [deaf N:P] */
	EVENT_LINK_UP,		/* link-up linkN */
	EVENT_CONVERGED,	/* converged SECONDS */
	EVENT_IMPAIR,		/* impair linkN delay D loss L */
	EVENT_PROBE_START,	/* probe-start FLOW FROM TO VID PPS */
	EVENT_PROBE_STOP,	/* probe-stop FLOW */
	EVENT_MARK,		/* mark LABEL */
	EVENT_SCENARIO,		/* scenario NAME */
	EVENT_STEP,		/* step N TEXT */
	EVENT_STEP_FAILED,	/* step-failed N */
	EVENT_RUN_END,		/* run-end ok|fail */
	EVENT_KINDS
};

/* One line of the log, parsed. */
struct event {
	int64_t ns;
	enum event_kind kind;
	char word[EVENT_WORD_MAX];	/* the kind as written */
	char arg[EVENT_ARG_MAX];	/* the arguments as written */
	/*
	 * What the kind's arguments say. args_ok is false when they do not
	 * parse: the line is still an event of its kind, its fields 0/"".
	 */
	bool args_ok;
	unsigned link;		/* link-down/-up, impair: N of linkN (from 1) */
	enum topo_fail_mode mode;	/* link-down */
	/* link-down one way: the end that stopped hearing ("" both) */
	char deaf[EVENT_NAME_MAX];
	unsigned n;		/* probe-start/-stop: flow; step(-failed): step */
	unsigned vid, pps;	/* probe-start */
	char from[EVENT_NAME_MAX], to[EVENT_NAME_MAX];	/* probe-start */
	size_t text_at;		/* step: where its text starts in arg */
};

/* "link-down" for EVENT_LINK_DOWN, ...; NULL for EVENT_OTHER. */
const char *event_kind_name(enum event_kind kind);
/* The kind a word names; EVENT_OTHER if none. */
enum event_kind event_kind_of(const char *word);
/* A link-down or a link-up. */
bool event_is_link(const struct event *e);

/*
 * One line (its newline optional) into e: 0, or -1 for a comment, a
 * blank line or one that does not start "<ns> <kind>" with ns > 0.
 */
int event_parse(const char *line, struct event *e);

/* Every event of run_dir's log in file order (*ev: free it). 0, or -1
 * with err when the file cannot be read. */
int events_read(const char *run_dir, struct event **ev, size_t *n,
		struct errbuf *err);

/* The writer: the log of a run being made. */
struct events {
	FILE *f;
};

int events_open(struct events *ev, const char *run_dir);
void events_close(struct events *ev);
int64_t events_now(void);

/*
 * One function per kind; each writes and flushes one line stamped now,
 * but a link change is stamped with the time taken (events_now) when
 * mstlab started it: the guests may react (send BPDUs) before the call
 * that caused it has returned.
 */
void events_run_start(struct events *ev, const char *lab);
void events_ready(struct events *ev, double seconds);
void events_link_down(struct events *ev, int64_t ns, unsigned link,
		      enum topo_fail_mode mode);
/* A silent failure one way: deaf ("node:port") hears nothing more. */
void events_link_down_oneway(struct events *ev, int64_t ns, unsigned link,
			     const char *deaf);
void events_link_up(struct events *ev, int64_t ns, unsigned link);
void events_converged(struct events *ev, double seconds);
void events_impair(struct events *ev, unsigned link, const char *delay,
		   const char *loss);
void events_probe_start(struct events *ev, unsigned flow, const char *from,
			const char *to, unsigned vid, unsigned pps);
void events_probe_stop(struct events *ev, unsigned flow);
void events_mark(struct events *ev, const char *label);
void events_scenario(struct events *ev, const char *name);
void events_step(struct events *ev, size_t n, const char *text);
void events_step_failed(struct events *ev, size_t n);
void events_run_end(struct events *ev, bool failed);

#endif
