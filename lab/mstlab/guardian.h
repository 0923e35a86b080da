/* SPDX-License-Identifier: MIT */
/*
 * A run without --keep leaves nothing behind, even killed with SIGKILL:
 * its domains die with its libvirt connection (autodestroy), and a
 * guardian tears down the rest (link bridges, captures) when the run ends
 * without having done so. The guardian is a process of its own, forked
 * before the run has threads; it learns the run folder once the run is
 * registered, waits for the end of a pipe only the run holds, then, if
 * the registry still names that run, runs `mstlab down LAB`, its output
 * in RUN_DIR/guardian.log.
 */
#ifndef MSTLAB_GUARDIAN_H
#define MSTLAB_GUARDIAN_H

/* Starts the guardian of lab: the pipe's end to keep (close-on-exec),
 * or -1. uri: the connection to give down, NULL for its default. */
int guardian_start(const char *lab, const char *uri);
/* Tells it the run folder to guard, once registered. */
void guardian_arm(int fd, const char *run_dir);

#endif
