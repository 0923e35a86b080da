/* SPDX-License-Identifier: MIT */
/*
 * Data-plane outage of one probe flow, from its sink's report
 * (share/<to>/probe-<flow>.json): the longest run of missing sequence
 * numbers, times the flow's interval.
 */
#ifndef MSTLAB_OUTAGE_H
#define MSTLAB_OUTAGE_H

#include <stdbool.h>
#include <stdbool.h>
#include <stddef.h>

struct flow_outage {
	unsigned long received, lost, duplicated, reordered;
	unsigned long longest_missing;	/* frames in the longest gap */
	double outage_ms;		/* longest_missing x interval */
	/* Missing frames the sender never put on the wire, and the first
	 * range of them: a stalled guest, not the network. */
	unsigned long unsent, unsent_first, unsent_last;
	/* Frames the sink's own receive ring had no room for (all its
	 * flows'): the sink's loss, not the network's. */
	unsigned long sink_dropped;
};

/* Whether frame seq went out on the sender's wire (the captures say). */
typedef bool (*outage_sent_fn)(const void *ctx, unsigned long seq);

/*
 * Reads flow @flow from the sink's report; -1 with a sentence in @err if
 * it cannot. With @sent, a gap counts only the frames that left the
 * sender: the outage is the network's.
 */
int outage_load(const char *path, unsigned flow, unsigned pps,
		outage_sent_fn sent, const void *ctx, struct flow_outage *o,
		char *err, size_t len);

#endif
