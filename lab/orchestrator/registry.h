/* SPDX-License-Identifier: MIT */
/*
 * The labs that are up on this host, whatever results folder each one
 * writes to: /run/mstlab/labs/<lab>, a symbolic link to the absolute
 * path of the lab's current run folder. It lives with the lab's
 * resources (domain and link names are the host's too, and /run goes
 * with them at a reboot), so down, status, exec, link and watch find a
 * lab from any directory and with any --results.
 * $MSTLAB_RUNTIME_DIR replaces /run/mstlab (the unit tests).
 */
#ifndef MSTLAB_REGISTRY_H
#define MSTLAB_REGISTRY_H

#include <stddef.h>
#include <time.h>

#include "errbuf.h"

/*
 * Records run_dir as lab's current run. Atomic: when the lab has one
 * already, -1 with err naming it.
 */
int registry_claim(const char *lab, const char *run_dir, struct errbuf *err);
/* The lab's current run folder: 0, or -1 when it has none. */
int registry_find(const char *lab, char *run_dir, size_t len);
/* Forgets the lab's run, only if it is still run_dir. */
void registry_release(const char *lab, const char *run_dir);
/*
 * Every lab recorded, by name: fn(ctx, lab, run_dir, since) with since
 * when it was recorded (its entry's time). An entry that is not a lab's
 * (registry_find refuses it) is passed with run_dir "". 0, or -1 when
 * the registry cannot be read (none yet is no lab, 0).
 */
int registry_each(void (*fn)(void *ctx, const char *lab, const char *run_dir,
			     time_t since),
		  void *ctx);

#endif
