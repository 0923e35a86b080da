/* SPDX-License-Identifier: MIT */
/*
 * The probe frame: what the traffic generator sends, the sink counts and
 * the checks find in the captures. It rides in an Ethernet frame with
 * EtherType 0x88B5 (IEEE 802 local experimental), optionally VLAN-tagged;
 * the fields below start right after the EtherType. Big-endian on the wire.
 */
#ifndef MSTLAB_PROBE_WIRE_H
#define MSTLAB_PROBE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_ETHERTYPE		0x88B5
#define PROBE_MAGIC		0x4D4C5052u	/* "MLPR" */
#define PROBE_VERSION		1
#define PROBE_HDR_LEN		24

struct probe_hdr {
	uint16_t flow;		/* flow id, chosen by the scenario */
	uint16_t vid;		/* the flow's VLAN, 0 for untagged */
	uint32_t seq;		/* 0, 1, 2 ... per flow */
	uint64_t sent_ns;	/* sender's CLOCK_MONOTONIC */
};

/* Writes the header into @buf (at least PROBE_HDR_LEN octets). */
void probe_hdr_encode(const struct probe_hdr *h, uint8_t *buf);

/*
 * Reads a header from the @len octets after the EtherType. Returns 0, or
 * -1 when they are too short or do not carry our magic and version.
 */
int probe_hdr_decode(const uint8_t *buf, size_t len, struct probe_hdr *h);

#endif
