/* SPDX-License-Identifier: MIT */
/*
 * The run's event log, <run>/events: "<ns> <kind> <args...>" per line on
 * the host's CLOCK_REALTIME, the clock of the captures, so the checks can
 * place every injected event among the frames (results/README.md).
 */
#ifndef MSTLAB_EVENTS_H
#define MSTLAB_EVENTS_H

#include <stdio.h>

struct events {
	FILE *f;
};

int events_open(struct events *ev, const char *run_dir);
void events_close(struct events *ev);
/* Writes and flushes one event: kind, then the formatted arguments. */
void events_log(struct events *ev, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
