/* SPDX-License-Identifier: MIT */
/*
 * Another host's clock against this one's, for captures merged on one
 * timeline (docs/design/orchestrator.md#clocks). The method is NTP's
 * on-wire exchange without the server's second stamp: this host notes
 * t0 (CLOCK_REALTIME) and asks the agent for its clock over the agent
 * channel; the agent answers t1 (its CLOCK_REALTIME when it read it);
 * the answer arrives at t3. Whatever the two one-way delays, t1 was read
 * at some true local instant in [t0, t3], so
 *
 *     offset = t1 - (t0 + t3) / 2      (far clock minus ours)
 *     |true offset - offset| <= (t3 - t0) / 2  = the error bound
 *
 * Of a burst of exchanges the one with the shortest round trip is kept
 * (the tightest bound). A run measures at its start and at its end; a
 * far timestamp in between is mapped with the offset interpolated
 * linearly between the two (the clocks' drift), and the bound is the
 * larger of the two: linear drift is assumed between them.
 *
 * The run folder keeps them in a file "clock", a line per measurement:
 *   HOST start|end AT OFFSET BOUND RTT SAMPLES   (ns; AT our time)
 */
#ifndef MSTLAB_CLOCK_SYNC_H
#define MSTLAB_CLOCK_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topo.h"

struct clock_sample {
	int64_t t0, t1, t3;	/* ours, theirs, ours (ns) */
};

struct clock_est {
	int64_t at;		/* our time of the exchange kept */
	int64_t offset;		/* theirs minus ours */
	int64_t bound;		/* |error| <= bound */
	int64_t rtt;
	unsigned samples;
};

/* The estimate of a burst: 0, or -1 when no sample is usable (t3 < t0). */
int clock_estimate(const struct clock_sample *s, size_t n,
		   struct clock_est *e);

/* What a run measured of one host. */
struct clock_map {
	bool have[2];		/* start, end */
	struct clock_est est[2];
};

/* The offset at our time t. */
int64_t clock_map_offset(const struct clock_map *m, int64_t t);
/* A far timestamp on our timeline. */
int64_t clock_map_to_local(const struct clock_map *m, int64_t far);
/* The error bound of that mapping (0 when nothing was measured). */
int64_t clock_map_bound(const struct clock_map *m);

/* One line of the clock file, "\n" included; its length. */
int clock_format(char *buf, size_t len, const char *host, bool end,
		 const struct clock_est *e);
/* Reads a clock file's text: the map of host (by name). 0, or -1 when
 * the text has no line of that host; a malformed line is skipped. */
int clock_parse(const char *text, const char *host, struct clock_map *m);

#endif
