/* SPDX-License-Identifier: MIT */
/*
 * The sink's accounting for one flow: every sequence number seen once,
 * duplicates, frames that arrive after a later one (reordered), and
 * every jump forward in the sequence as a gap with the receive times
 * around it (the outage the data plane felt).
 */
#ifndef MSTLAB_FLOWS_H
#define MSTLAB_FLOWS_H

#include <stdint.h>
#include <stdio.h>

#define FLOW_MAX_GAPS 256

struct flow_gap {
	uint32_t first, last;		/* the missing sequence numbers */
	int64_t before_ns, after_ns;	/* receive times around the hole */
};

struct flow {
	uint16_t id, vid;
	uint64_t received, dups, reordered;
	uint32_t low;			/* the lowest seq seen */
	uint32_t next;			/* one past the highest seq seen */
	int64_t last_ns;
	uint8_t *seen;			/* bitmap by seq */
	size_t seen_bytes;
	size_t n_gaps;
	uint64_t gaps_dropped;		/* beyond FLOW_MAX_GAPS */
	struct flow_gap gaps[FLOW_MAX_GAPS];
};

/* Accounts one frame; -1 when out of memory. */
int flow_add(struct flow *f, uint32_t seq, int64_t ns);
/* Sequence numbers below the highest one seen that never arrived. */
uint64_t flow_lost(const struct flow *f);
/* The longest gap in receive time, in ns (0 without gaps). */
int64_t flow_longest_gap_ns(const struct flow *f);
void flow_free(struct flow *f);
/* One JSON object; with frames received, "first_seq" and "last_seq"
 * bound them, so a reader sees the frames lost before the first one
 * (counted in "lost", in no gap). */
void flow_json(const struct flow *f, FILE *out);

#endif
