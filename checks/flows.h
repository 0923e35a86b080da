/* SPDX-License-Identifier: MIT */
/*
 * The probe flows of a run (from the event log) and where their frames
 * appeared (from the captures): per flow and link, runs of frames close
 * together in time. A steady flow on its path is one run per link for
 * its whole life, so memory follows the events, not the frame count;
 * only the sender's link keeps a time per frame, to time the gaps.
 */
#ifndef MSTLAB_FLOWS_H
#define MSTLAB_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLOWS_MAX 256

struct flow_run {
	int64_t first_ns, last_ns;
	uint32_t frames;
	uint32_t first_frame;	/* frame number in the link's pcap */
};

struct flow_link {
	size_t n, cap;
	struct flow_run *r;	/* in time order */
};

struct flow {
	unsigned id, vid, pps;
	int from, to;		/* node indexes */
	int sender_link;	/* the link of from's NIC, -1 if none */
	/* When each seq first crossed sender_link: us after start_ns, plus
	 * one (0: not seen; all ones: seen, too late to time). 4 octets per
	 * seq, up to 16 MiB a flow. */
	uint32_t *wire;
	uint32_t *wire_frame;	/* its frame number there (0: unknown) */
	size_t wire_n;
	int64_t start_ns, stop_ns;	/* stop: INT64_MAX if never stopped */
	struct flow_link *link;	/* [n_links] */
};

struct flows {
	size_t n, n_links;
	struct flow f[FLOWS_MAX];
};

/* An empty table for a lab with n_links links. */
void flows_init(struct flows *fl, size_t n_links);
void flows_free(struct flows *fl);

/* Takes a flow from a "probe-start" event's argument ("ID FROM TO VID
 * PPS", node indexes already resolved) or ends one on "probe-stop". */
int flows_start(struct flows *fl, unsigned id, int from, int to,
		int sender_link, unsigned vid, unsigned pps, int64_t ns);
void flows_stop(struct flows *fl, unsigned id, int64_t ns);

/* Counts a captured frame if it is a probe frame of a known flow. Frames
 * of one link must come in time order. */
void flows_frame(struct flows *fl, size_t link, int64_t ns, uint32_t frame_no,
		 const uint8_t *frame, size_t len);

/* Frames of flow f on link in [from, to), and the earliest run's first
 * frame (0 if none) in *first / its time in *first_ns. */
unsigned long flows_count(const struct flow *f, size_t link, int64_t from,
			  int64_t to, uint32_t *first, int64_t *first_ns);

/* Whether frame seq of the flow crossed its sender's link; true when
 * that link's capture holds none of the flow (no evidence either way). */
bool flows_sent(const struct flow *f, unsigned long seq);

/* The highest seq of the flow its sender's link carried; false if it
 * carried none. */
bool flows_last_sent(const struct flow *f, unsigned long *seq);

/* When frame seq crossed its sender's link (capture time, *ns); false if
 * the capture does not hold it. */
bool flows_wire_ns(const struct flow *f, unsigned long seq, int64_t *ns);
/* Its frame number in the sender's link's pcap; false if not captured. */
bool flows_wire_frame(const struct flow *f, unsigned long seq,
		      uint32_t *frame);

#endif
