/* SPDX-License-Identifier: MIT */
/*
 * Data-plane outage of one probe flow, from its sink's report
 * (share/<to>/probe-<flow>.json): the longest run of missing sequence
 * numbers, times the flow's interval.
 */
#ifndef MSTLAB_OUTAGE_H
#define MSTLAB_OUTAGE_H

#include <stdbool.h>
#include <stddef.h>

struct flow_outage {
	unsigned long received, lost, duplicated, reordered;
	unsigned long longest_missing;	/* frames in the longest gap */
	double outage_ms;		/* longest_missing x interval */
};

/* Reads flow @flow from the sink's report; -1 with a sentence in @err if
 * it cannot. */
int outage_load(const char *path, unsigned flow, unsigned pps,
		struct flow_outage *o, char *err, size_t len);

#endif
