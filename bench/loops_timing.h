/* SPDX-License-Identifier: MIT */
/*
 * mstp-loop-bench's timed campaign (lab/mstpsim/sim_timing.h): seeds run
 * without loop_guard, with it on every connected port, or both; every
 * failing seed printed with its classes and replay command, then a table
 * of loops by class, partitions and the re-election distribution.
 */
#ifndef MSTLAB_LOOPS_TIMING_H
#define MSTLAB_LOOPS_TIMING_H

#include "mstp_sim.h"

enum lg_mode { LG_OFF = 1, LG_ON = 2, LG_BOTH = 3 };

struct timing_options {
	enum lg_mode lg;
	bool verbose;
	bool list;		/* a line of figures per seed */
	unsigned long progress;	/* the figures so far every that many seeds */
	unsigned int fail_on;	/* bit c: a loop of class c fails the run */
};

/* Returns false if a seed split a VLAN once healed, overflowed, or
 * looped in a class of o->fail_on. */
bool timing_campaign(struct sim *sim, uint64_t first, unsigned long seeds,
		     const struct timing_options *o);

#endif
