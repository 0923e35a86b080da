/* SPDX-License-Identifier: MIT */
/*
 * The run's state file: every host resource a run creates is appended to
 * <run>/state (and synced) *before* it is created; teardown walks the
 * file backwards and removes what it lists, and nothing else. It works the
 * same in a later process after a crash or kill -9.
 *
 * Lines: "bridge NAME", "tap NAME", "tunnel NAME" (a link's VXLAN
 *        device to another host), "domain NAME",
 *        "capture IFNAME PCAP_PATH" then "capture-pid IFNAME PID START",
 *        "domain NAME HOST" and "tap NAME HOST" for another host's
 *        (removed through ops->host), "host NAME RUN" (another host has
 *        its part of the run: lab_hosts_down tears that down),
 *        "forget KIND NAME" after a creation that failed: nothing was
 *        made, and the name may be someone else's (a lab of the same
 *        name in another results folder).
 */
#ifndef MSTLAB_STATE_H
#define MSTLAB_STATE_H

#include <stdio.h>

#include "ops.h"

struct state {
	int fd;
};

/* Opens (creating) run_dir/state for appending. */
int state_open(struct state *st, const char *run_dir, struct errbuf *err);
void state_close(struct state *st);
/* Appends one line and syncs it to disk. */
int state_add(struct state *st, struct errbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Removes, last first, everything run_dir/state lists, reporting each
 * step on log. Returns the number of resources that could not be removed
 * (0: the run left nothing behind), or -1 if the file cannot be read.
 */
int state_teardown(const char *run_dir, const struct lab_ops *ops,
		   FILE *log);

#endif
