/* SPDX-License-Identifier: MIT */
/*
 * mstlab watch's output: the screen (a table of trees × bridge ports,
 * then the latest events), one text line per event, one JSON object per
 * event or per tree's state, all from the tree-state engine's live state
 * and changes. Pure: everything is written into a buffer or a FILE the
 * caller owns, so tests read exactly what a terminal would get.
 */
#ifndef MSTLAB_WATCH_RENDER_H
#define MSTLAB_WATCH_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "sbuf.h"
#include "trees.h"

#define WATCH_LOG_LINES 64
#define WATCH_LINE_MAX 200

/*
 * One event as text, "TIME HEAD CHANGE": HEAD names what changed (tree
 * and port, or link), CHANGE says how, the part a line must not lose.
 */
struct watch_line {
	char text[WATCH_LINE_MAX];
	unsigned short head, change;	/* where they start in text */
};

/* The latest event lines, oldest first. */
struct watch_log {
	struct watch_line line[WATCH_LOG_LINES];
	size_t n, next;
};

void watch_log_add(struct watch_log *log, const struct watch_line *line);
/* The i-th newest line (0 = newest) or NULL. */
const struct watch_line *watch_log_newest(const struct watch_log *log,
					  size_t i);

struct watch_screen {
	int width, height;	/* the terminal's size; at least 40 × 10 */
	bool colour;		/* ANSI SGR sequences */
	const char *title;	/* lab and run */
	int64_t now_ns;		/* host clock, for the title's time */
};

/*
 * The whole screen as lines ending in "\n", no cursor movement; each
 * line's visible text fits the width (escapes aside) and there are at
 * most height - 1 lines, so the last row stays free for the cursor.
 * Events that fit are shown whole (watch_line_fit), newest at the bottom.
 */
void watch_render_screen(const struct trees *tr, const struct watch_log *log,
			 const struct watch_screen *scr, struct sbuf *out);

/* One event as a line of text. */
void watch_event_line(const struct trees *tr, const struct trees_change *e,
		      struct watch_line *l);
/*
 * l in rows of at most width columns, each ending in "\n": as it is if
 * it fits; else the unchanged part shortened: the time without its hour
 * (the screen's title has it), then HEAD without padding; else CHANGE on
 * rows of its own below, indented, wrapped at spaces. Returns the rows.
 */
int watch_line_fit(const struct watch_line *l, int width, struct sbuf *out);
/* l with "MM:SS.mmm" for its time. */
void watch_line_hourless(const struct watch_line *l, struct watch_line *out);
/* One event as one JSON object on one line. */
void watch_event_json(const struct trees *tr, const struct trees_change *e,
		      FILE *out);
/* A tree's state now (trees_now) as one JSON object on one line, "type"
 * "state", at ns: its root, TC and every bridge port. */
void watch_state_json(const struct trees *tr, int tree, int64_t ns,
		      FILE *out);
/* The same for a view of the tree (trees_view_at: an instant of a
 * finished run), at ns. */
void watch_view_json(const struct trees *tr, const struct tree_view *v,
		     int tree, int64_t ns, FILE *out);

#endif
