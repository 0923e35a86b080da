/* SPDX-License-Identifier: MIT */
/*
 * The watchdog of a lab that must not outlive its command: a `run`
 * without --keep for its whole life, an `up` (and a `run --keep`) until
 * it reported the lab ready. Killed by any signal, SIGKILL and the OOM
 * killer included, the command leaves nothing behind: the guardian, a
 * process of its own forked before the command has threads, holds the
 * end of a socket pair whose other end only the command holds; the kernel
 * closes that end when the command dies, however it dies, and the
 * guardian's blocking read returns at once. If the registry still names
 * the guarded run then, and the command had not released it, the
 * guardian runs `mstlab down LAB` (its output in RUN_DIR/guardian.log).
 */
#ifndef MSTLAB_GUARDIAN_H
#define MSTLAB_GUARDIAN_H

/* Starts the guardian of lab: the command's end to keep (close-on-exec),
 * or -1. uri: the connection to give down, NULL for its default. */
int guardian_start(const char *lab, const char *uri);
/* Tells it the run folder to guard: before the run is registered, so
 * that no instant of a registered run goes unguarded. */
void guardian_arm(int fd, const char *run_dir);
/* The lab is meant to stay (up reported it ready): the guardian leaves
 * without a word, and *fd is closed (-1). */
void guardian_release(int *fd);

#endif
