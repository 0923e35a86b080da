/* SPDX-License-Identifier: MIT */
/* probe-gen's options and the frame it sends, checked before any socket. */
#ifndef MSTLAB_PROBE_OPTS_H
#define MSTLAB_PROBE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_MAX_FRAME 1514
#define IF_NAMESIZE_MAX 16
/* Ethernet + optional tag + EtherType + probe header, padded to 60. */
#define PROBE_MIN_FRAME 60

enum probe_mode {
	PROBE_MODE_AUTO,	/* live frames if the interface can, else
				 * AF_PACKET (saying why) */
	PROBE_MODE_XDP,		/* BPF_PROG_RUN live frames, or fail */
	PROBE_MODE_AF_PACKET,
};

/* Flows one probe-gen sends (one wake-up per tick for all). */
#define PROBE_MAX_FLOWS 16

struct probe_opts {
	const char *ifname;
	uint8_t dst[6], src[6];
	unsigned n_flows;
	uint16_t flows[PROBE_MAX_FLOWS];
	uint16_t vids[PROBE_MAX_FLOWS];	/* 0: untagged */
	unsigned pps;
	size_t size;
	unsigned long count;	/* 0: until stopped */
	enum probe_mode mode;
	unsigned tick_ms;	/* shortest tick (pace.h) */
};

/* Parses argv; prints one line and returns -1 on bad input, the usage
 * on stdout and 1 for -h or --help. */
int probe_gen_opts(int argc, char **argv, struct probe_opts *o);

/* "xdp", "af_packet" or "auto". */
const char *probe_mode_name(enum probe_mode m);

/* Writes the Ethernet header (and a tag for @vid, unless 0) into frame;
 * returns where the probe header goes. o->src must be set. */
size_t probe_frame_header(const struct probe_opts *o, uint16_t vid,
			  uint8_t *frame);

#endif
