// SPDX-License-Identifier: MIT
/* Probe frame header encode/decode (see probe_wire.h). */
#include "probe_wire.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

void probe_hdr_encode(const struct probe_hdr *h, uint8_t *buf)
{
	put32(buf, PROBE_MAGIC);
	put16(buf + 4, PROBE_VERSION);
	put16(buf + 6, h->flow);
	put16(buf + 8, h->vid);
	put16(buf + 10, 0);
	put32(buf + 12, h->seq);
	put32(buf + 16, (uint32_t)(h->sent_ns >> 32));
	put32(buf + 20, (uint32_t)h->sent_ns);
}

int probe_hdr_decode(const uint8_t *buf, size_t len, struct probe_hdr *h)
{
	if (len < PROBE_HDR_LEN || get32(buf) != PROBE_MAGIC ||
	    get16(buf + 4) != PROBE_VERSION)
		return -1;
	h->flow = get16(buf + 6);
	h->vid = get16(buf + 8);
	h->seq = get32(buf + 12);
	h->sent_ns = (uint64_t)get32(buf + 16) << 32 | get32(buf + 20);
	return 0;
}
