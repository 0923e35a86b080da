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

struct probe_opts {
	const char *ifname;
	uint8_t dst[6], src[6];
	uint16_t flow, vid;	/* vid 0: untagged */
	unsigned pps;
	size_t size;
	unsigned long count;	/* 0: until stopped */
	enum probe_mode mode;
	unsigned tick_ms;	/* shortest tick (pace.h) */
};

/* Parses argv; prints one line and returns -1 on bad input. */
int probe_gen_opts(int argc, char **argv, struct probe_opts *o);

/* Writes the Ethernet header (and tag) into frame; returns where the
 * probe header goes. o->src must be set. */
/* "xdp", "af_packet" or "auto". */
const char *probe_mode_name(enum probe_mode m);

size_t probe_frame_header(const struct probe_opts *o, uint8_t *frame);

#endif
