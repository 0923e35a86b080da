/* SPDX-License-Identifier: MIT */
/*
 * A daemon started under a reaper of its own. A daemon that forks into
 * the background (libvirtd -d), and the processes it leaves behind (its
 * QEMUs daemonize too), are orphans: their exit is reaped by process 1.
 * Where process 1 reaps late (about 2 s in the sandboxes this project
 * runs in), every virDomainDestroy waited for that reap, since libvirt
 * polls until the QEMU process is gone. The reaper is a child subreaper
 * (PR_SET_CHILD_SUBREAPER): the daemon's orphans become its children and
 * it reaps them as they exit. It lives as long as one of them does.
 */
#ifndef MSTLAB_REAPER_H
#define MSTLAB_REAPER_H

/*
 * Runs argv[0] (a path) with argv under a new reaper, after prepare(ctx)
 * in the daemon's process when prepare is not NULL (a non-zero return
 * stops it there, exit status 126). Waits up to timeout_ms for the
 * command's own exit (a daemon's foreground part) and returns its exit
 * status, or -1 (it could not start, was killed or did not exit in
 * time).
 */
int reaper_run_daemon(char *const argv[], int (*prepare)(void *ctx),
		      void *ctx, unsigned timeout_ms);

#endif
