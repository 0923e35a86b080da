/* SPDX-License-Identifier: MIT */
/* bpdu-pcap's frame writer, shared by its random and crafted captures. */
#ifndef MSTLAB_BPDU_PCAP_H
#define MSTLAB_BPDU_PCAP_H

#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>

#include "bpdu.h"

#define FRAME_MAX 9216

struct gen {
	pcap_dumper_t *out;
	uint64_t ts_ns;		/* of the next frame */
	unsigned long frames;	/* written so far: the last one's number */
	uint64_t rng;
};

extern const uint8_t gen_src_mac[6];

void gen_emit(struct gen *g, const uint8_t *frame, size_t len);
/* Inserts a VLAN tag after the source address; returns the new length. */
size_t gen_add_tag(uint8_t *frame, size_t len, uint16_t tpid, uint16_t tci);
/* @b in a frame, tagged if @tpid is not 0; -1 if @b cannot be encoded. */
int gen_bpdu(struct gen *g, const struct bpdu *b, uint16_t tpid,
	     uint16_t tci);
/* A frame of @len octets that is not a BPDU, one of four @kind's. */
void gen_other(struct gen *g, unsigned int kind, size_t len);

/* The cross-check set (bpdu-pcap -c), one line per frame on stdout. */
int gen_cases(struct gen *g);

#endif
