/* SPDX-License-Identifier: MIT */
/*
 * mstlab watch's output: the screen (a table of trees × bridge ports,
 * then the latest events), one text line per event, one JSON object per
 * event, all from the tree-state engine's live state and changes. Pure: everything is written into a buffer or a FILE the caller
 * owns, so tests read exactly what a terminal would get.
 */
#ifndef MSTLAB_WATCH_RENDER_H
#define MSTLAB_WATCH_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "sbuf.h"
#include "trees.h"

#define WATCH_LOG_LINES 64
#define WATCH_LINE_MAX 200

/* The latest event lines, oldest first. */
struct watch_log {
	char line[WATCH_LOG_LINES][WATCH_LINE_MAX];
	size_t n, next;
};

void watch_log_add(struct watch_log *log, const char *line);
/* The i-th newest line (0 = newest) or NULL. */
const char *watch_log_newest(const struct watch_log *log, size_t i);

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
 */
void watch_render_screen(const struct trees *tr, const struct watch_log *log,
			 const struct watch_screen *scr, struct sbuf *out);

/* One event as a line of text (no newline). */
void watch_event_text(const struct trees *tr, const struct trees_change *e,
		      char *buf, size_t len);
/* One event as one JSON object on one line. */
void watch_event_json(const struct trees *tr, const struct trees_change *e,
		      FILE *out);

#endif
