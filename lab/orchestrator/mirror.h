/* SPDX-License-Identifier: MIT */
/*
 * The captures another host of a lab makes, mirrored into this host's
 * run folder while the lab runs, so that whoever follows it live (`mstlab
 * run` while its scenarios run, `watch`, `serve`) reads them at the path
 * the teardown's fetch puts them: every MIRROR_EVERY_MS the bytes beyond
 * what is here are appended (remote_mirror: by offset, under a flock of
 * the file, so that mirrors at once and that fetch, which then only
 * completes them, neither repeat nor skip a byte). A thread of its own;
 * one agent session a host, reused: a request per capture and pass.
 */
#ifndef MSTLAB_MIRROR_H
#define MSTLAB_MIRROR_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "plan.h"
#include "remote.h"
#include "topo.h"

#define MIRROR_EVERY_MS 500

struct mirror {
	const struct topo *t;
	const struct plan *p;
	char run_dir[PATH_MAX];
	FILE *log;		/* a host whose copy stops, said once */
	struct remote *rc[TOPO_MAX_HOSTS];	/* NULL: not mirrored */
	struct remote *own[TOPO_MAX_HOSTS];	/* sessions it opened */
	bool said[TOPO_MAX_HOSTS];
	int wake[2];		/* written to stop the thread */
	pthread_t thread;
	bool running;
	unsigned long long bytes;	/* appended so far */
};

/* Whether the plan has a capture made on another host. */
bool mirror_needed(const struct topo *t, const struct plan *p);
/*
 * Mirrors run_dir's captures of other hosts through the sessions rc[h]
 * (a lab's: they stay the caller's), or, rc NULL, through sessions of
 * its own, each host reached by ssh and its part of the run attached
 * (watch, serve). A host that cannot be reached is said on log. 0, or
 * -1 with err (nothing started). What they hold so far is copied
 * before it returns.
 */
int mirror_start(struct mirror *m, const struct topo *t,
		 const struct plan *p, const char *run_dir,
		 struct remote *const rc[TOPO_MAX_HOSTS], FILE *log,
		 struct errbuf *err);
/* One last pass, the thread ended, its own sessions closed. */
void mirror_stop(struct mirror *m);

#endif
