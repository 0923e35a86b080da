/* SPDX-License-Identifier: MIT */
/*
 * The run's event log, <run>/events: "<ns> <kind> <args...>" per line on
 * the host's CLOCK_REALTIME, the clock of the captures, so the checks can
 * place every injected event among the frames (results/README.md).
 */
#ifndef MSTLAB_EVENTS_H
#define MSTLAB_EVENTS_H

#include <stdint.h>
#include <stdio.h>

struct events {
	FILE *f;
};

int events_open(struct events *ev, const char *run_dir);
void events_close(struct events *ev);
/* Writes and flushes one event: kind, then the formatted arguments. */
void events_log(struct events *ev, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a time taken earlier (events_now): an injected failure
 * is stamped when mstlab starts it, since the guests may react (send
 * BPDUs) before the call that caused it has returned. */
void events_log_at(struct events *ev, int64_t ns, const char *kind,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int64_t events_now(void);

#endif
