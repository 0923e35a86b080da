/* SPDX-License-Identifier: MIT */
/*
 * Data-plane outage of one probe flow, from its sink's report
 * (share/<to>/probe-<flow>.json) and the sender's link capture: for each
 * gap, how far apart the frames either side of it crossed the sender's
 * link. A sender that stalls and then sends its late frames in a burst
 * makes frames x interval wrong either way; the wire times bound it.
 */
#ifndef MSTLAB_OUTAGE_H
#define MSTLAB_OUTAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

/* Where a run of missing frames sits in the flow. */
enum outage_edge {
	GAP_INNER,	/* frames arrived either side */
	GAP_HEAD,	/* before the first frame that arrived */
	GAP_TAIL,	/* after the last one, up to the last sent */
	GAP_ALL,	/* none arrived */
};

struct flow_outage {
	unsigned long received, lost, duplicated, reordered;
	unsigned long longest_missing;	/* frames in the longest gap */
	/*
	 * The worst gap: at most outage_ms (the frames either side of it
	 * crossed the sender's link that far apart), at least min_ms (the
	 * span of its lost frames there). Without wire times, both are
	 * its frames x interval.
	 */
	double outage_ms, min_ms;
	unsigned long worst_first, worst_last;	/* its sequence numbers */
	enum outage_edge worst_edge;
	bool timed;			/* wire times bound it */
	unsigned long gaps;		/* gaps of the network's */
	/* Frames sent after the last that arrived (or of a flow none of
	 * whose frames did): the path had not come back when the flow
	 * stopped, so no outage bound holds. */
	bool open;
	unsigned long open_first, open_last;
	/* Missing frames the sender never put on the wire, and the first
	 * range of them: a stalled guest, not the network. */
	unsigned long unsent, unsent_first, unsent_last;
	/* Frames the sink's own receive ring had no room for (all its
	 * flows'): the sink's loss, not the network's. */
	unsigned long sink_dropped;
};

/* What the sender's link capture says of the flow's frames. */
struct outage_sender {
	/* Whether frame seq is the network's to lose: it went out. */
	bool (*sent)(const void *ctx, unsigned long seq);
	/* When frame seq crossed the sender's link; false if unknown. */
	bool (*wire_ns)(const void *ctx, unsigned long seq, int64_t *ns);
	/* The highest seq that crossed it; false if unknown. */
	bool (*last_sent)(const void *ctx, unsigned long *seq);
	const void *ctx;
};

/*
 * Reads flow @flow from the sink's report; -1 with a sentence in @err if
 * it cannot. With @snd, a gap counts only if frames of it left the
 * sender (the outage is the network's), and is timed on its wire; the
 * frames before the first that arrived and after the last are gaps too.
 */
int outage_load(const char *path, unsigned flow, unsigned pps,
		const struct outage_sender *snd, struct flow_outage *o,
		struct errbuf *err);
/* The frames whose times on the sender's wire bound gap [first, last]
 * of that edge: the ones either side of it, or at an end of the flow its
 * own lost frame there. False for a gap with no frame before it. */
bool outage_bounding_seqs(unsigned long first, unsigned long last,
			  enum outage_edge edge, unsigned long *before,
			  unsigned long *after);

#endif
