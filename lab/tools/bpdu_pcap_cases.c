// SPDX-License-Identifier: MIT
/*
 * bpdu-pcap -c: a capture with one of each thing a BPDU decoder must get
 * right, for comparing `mstlab decode` with Wireshark field by field.
 */
#include <stdio.h>
#include <string.h>

#include "bpdu_pcap.h"

static void note(struct gen *g, const char *kind, const char *what)
{
	printf("%lu %s %s\n", g->frames, kind, what);
}

static int bpdu(struct gen *g, const struct bpdu *b, const char *what)
{
	if (gen_bpdu(g, b, 0, 0))
		return -1;
	note(g, bpdu_type_name(b->type), what);
	return 0;
}

static void bid(struct bridge_id *id, uint16_t prio, uint8_t last)
{
	static const uint8_t base[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0 };

	id->prio = prio;
	memcpy(id->mac, base, 6);
	id->mac[5] = last;
}

/* Common fields of Config, RST and MST BPDUs; timers in 1/256 s. */
static void common(struct bpdu *b, uint8_t flags)
{
	bpdu_flags_unpack(&b->flags, flags);
	bid(&b->root_id, 0x1001, 0x10);		/* priority 4096, ext 1 */
	b->ext_root_path_cost = 20000;
	bid(&b->bridge_id, 0x8000, 0x20);
	b->regional_root_id = b->bridge_id;
	b->port_id = 0x8003;
	b->message_age = 384;	/* 1.5 s */
	b->max_age = 20 * 256;
	b->hello_time = 2 * 256 + 1;
	b->forward_delay = 15 * 256;
}

static void mst(struct bpdu *b, uint8_t flags, const char *name,
		unsigned int mstis)
{
	bpdu_init(b, BPDU_TYPE_MST);
	common(b, flags);
	bid(&b->regional_root_id, 0x7002, 0x30);
	memcpy(b->mcid.name, name, strnlen(name, MST_CONFIG_NAME_LEN));
	b->mcid.revision = 513;
	for (unsigned int i = 0; i < MST_CONFIG_DIGEST_LEN; i++)
		b->mcid.digest[i] = (uint8_t)(0xf0 - 17 * i);
	b->int_root_path_cost = 200000;
	bid(&b->bridge_id, 0x9000, 0x40);
	b->remaining_hops = 19;
	b->msti_count = mstis;
	for (unsigned int i = 0; i < mstis; i++) {
		struct bpdu_msti *m = &b->msti[i];

		/* flags cycle through every bit, Master (bit 8) included */
		bpdu_flags_unpack(&m->flags, (uint8_t)(1u << (i % 8) | i));
		bid(&m->regional_root, (uint16_t)((i % 16) << 12 | (i + 1)),
		    (uint8_t)(0x50 + i));
		m->int_root_path_cost = 1000u * i + 7;
		m->bridge_prio_octet = (uint8_t)(i * 16 + 5);	/* low bits junk */
		m->port_prio_octet = (uint8_t)(255 - i * 16);
		m->remaining_hops = (uint8_t)(20 - i % 20);
	}
}

static int good_bpdus(struct gen *g)
{
	struct bpdu b;
	int rc = 0;

	bpdu_init(&b, BPDU_TYPE_CONFIG);
	common(&b, 0x81);
	rc |= bpdu(g, &b, "Config, TC and TC Ack set");
	common(&b, 0x00);
	rc |= bpdu(g, &b, "Config, flags clear");
	bpdu_init(&b, BPDU_TYPE_TCN);
	rc |= bpdu(g, &b, "TCN");
	bpdu_init(&b, BPDU_TYPE_RST);
	common(&b, 0x0e);
	rc |= bpdu(g, &b, "RST, designated, proposal");
	common(&b, 0x79);
	rc |= bpdu(g, &b, "RST, root, agreement, learning, forwarding, TC");
	b.version = BPDU_VERSION_MSTP;
	common(&b, 0x04);
	rc |= bpdu(g, &b, "RST, version 3 in 36 octets, alternate");
	mst(&b, 0x7c, "", 0);
	rc |= bpdu(g, &b, "MST, no MSTI, empty name");
	mst(&b, 0x3d, "region-1", 3);
	rc |= bpdu(g, &b, "MST, 3 MSTIs");
	mst(&b, 0xff, "0123456789abcdefghijklmnopqrstuv", BPDU_MAX_MSTI);
	rc |= bpdu(g, &b, "MST, 64 MSTIs, 32-octet name");
	if (gen_bpdu(g, &b, 0x8100, 0x2064))
		return -1;
	note(g, "MST", "MST in an 802.1Q tag, VID 100");
	mst(&b, 0x00, "tagged", 1);
	/* Wireshark takes no 802.3 length after an 802.1ad tag: 802.1Q */
	if (gen_bpdu(g, &b, 0x8100, 0xf0ff))
		return -1;
	note(g, "MST", "MST in an 802.1Q tag, priority 7, DEI, VID 255");
	return rc;
}

/* A valid BPDU's frame with one octet of the BPDU changed. */
static int patched(struct gen *g, enum bpdu_type type, size_t off,
		   uint8_t value, const char *what)
{
	uint8_t frame[FRAME_MAX];
	struct bpdu b;
	size_t len;

	bpdu_init(&b, type);
	common(&b, 0x3c);
	if (bpdu_frame_encode(gen_src_mac, &b, frame, sizeof(frame), &len))
		return -1;
	frame[BPDU_FRAME_HDR_LEN + off] = value;
	gen_emit(g, frame, len);
	note(g, "malformed", what);
	return 0;
}

static int malformed_bpdus(struct gen *g)
{
	uint8_t frame[FRAME_MAX];
	struct bpdu b;
	size_t len;
	int rc = 0;

	rc |= patched(g, BPDU_TYPE_CONFIG, 1, 1, "protocol identifier 1");
	rc |= patched(g, BPDU_TYPE_CONFIG, 3, 0x33, "BPDU type 0x33");
	rc |= patched(g, BPDU_TYPE_RST, 2, 0, "RST type with version 0");

	/* 20 octets of a Configuration BPDU: the 802.3 length says 23 */
	bpdu_init(&b, BPDU_TYPE_CONFIG);
	common(&b, 0);
	if (bpdu_frame_encode(gen_src_mac, &b, frame, sizeof(frame), &len))
		return -1;
	frame[13] = 20 + 3;
	gen_emit(g, frame, len);
	note(g, "malformed", "Config cut to 20 octets");
	return rc;
}

static void other_frames(struct gen *g)
{
	static const char *const what[] = {
		"IPv4/UDP", "ARP broadcast", "LLDP",
		"EtherType frame to the bridge group address",
	};
	uint8_t frame[FRAME_MAX] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };

	for (unsigned int k = 0; k < 4; k++) {
		gen_other(g, k, 60 + 40 * k);
		note(g, "other", what[k]);
	}
	/* LLC with the SNAP SAPs, to the bridge group address */
	memcpy(frame + 6, gen_src_mac, 6);
	frame[13] = 8;
	memcpy(frame + 14, "\xaa\xaa\x03\x00\x00\x00\x88\xcc", 8);
	gen_emit(g, frame, 60);
	note(g, "other", "LLC SNAP frame to the bridge group address");
}

int gen_cases(struct gen *g)
{
	/* frames that are not BPDUs between the BPDUs, not only after */
	gen_other(g, 0, 1514);
	note(g, "other", "IPv4/UDP, 1514 octets");
	if (good_bpdus(g))
		return -1;
	other_frames(g);
	return malformed_bpdus(g);
}
