// SPDX-License-Identifier: MIT
#include "bpdu.h"

#include <string.h>

const uint8_t bpdu_group_addr[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };

static const char *const err_names[BPDU_ERR_COUNT] = {
	[BPDU_OK] = "ok",
	[BPDU_ERR_SHORT] = "BPDU shorter than 4 octets",
	[BPDU_ERR_PROTOCOL_ID] = "protocol identifier is not 0",
	[BPDU_ERR_TYPE] = "unknown BPDU type",
	[BPDU_ERR_CONFIG_SHORT] = "Configuration BPDU shorter than 35 octets",
	[BPDU_ERR_RST_VERSION] = "RST/MST BPDU type with protocol version below 2",
	[BPDU_ERR_RST_SHORT] = "RST BPDU too short",
	[BPDU_ERR_MST_SHORT] = "MST BPDU shorter than 102 octets",
	[BPDU_ERR_V1_LEN] = "Version 1 Length is not 0",
	[BPDU_ERR_V3_LEN] = "Version 3 Length is not 64 + 16 * n",
	[BPDU_ERR_V3_TOO_MANY] = "more than 64 MSTI configuration messages",
	[BPDU_ERR_V3_TRUNCATED] = "Version 3 Length beyond the end of the BPDU",
	[BPDU_ERR_NO_SPACE] = "buffer too small",
	[BPDU_ERR_BAD_FIELD] = "BPDU field out of range",
	[BPDU_ERR_FRAME_SHORT] = "frame too short",
	[BPDU_ERR_FRAME_DST] = "frame not sent to the bridge group address",
	[BPDU_ERR_FRAME_NOT_LLC] = "frame has an EtherType, not an 802.3 length",
	[BPDU_ERR_FRAME_LENGTH] = "802.3 length field inconsistent with frame",
	[BPDU_ERR_FRAME_LLC] = "LLC header is not 42 42 03",
};

const char *bpdu_strerror(enum bpdu_err err)
{
	if ((unsigned int)err >= BPDU_ERR_COUNT)
		return "unknown BPDU error";
	return err_names[err];
}

const char *bpdu_type_name(enum bpdu_type type)
{
	switch (type) {
	case BPDU_TYPE_CONFIG:
		return "Config";
	case BPDU_TYPE_TCN:
		return "TCN";
	case BPDU_TYPE_RST:
		return "RST";
	case BPDU_TYPE_MST:
		return "MST";
	}
	return "unknown";
}

int bridge_id_cmp(const struct bridge_id *a, const struct bridge_id *b)
{
	uint64_t x = bridge_id_u64(a), y = bridge_id_u64(b);

	return x < y ? -1 : x > y;
}

uint8_t bpdu_flags_pack(const struct bpdu_flags *f)
{
	return (uint8_t)(f->tc | f->proposal << 1 | (f->role & 3) << 2 |
			 f->learning << 4 | f->forwarding << 5 |
			 f->agreement << 6 | f->tc_ack << 7);
}

void bpdu_flags_unpack(struct bpdu_flags *f, uint8_t o)
{
	f->tc = o & 0x01;
	f->proposal = o & 0x02;
	f->role = (enum bpdu_role)((o >> 2) & 3);
	f->learning = o & 0x10;
	f->forwarding = o & 0x20;
	f->agreement = o & 0x40;
	f->tc_ack = o & 0x80;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static void get_bid(struct bridge_id *id, const uint8_t *p)
{
	id->prio = get16(p);
	memcpy(id->mac, p + 2, 6);
}

static void put_bid(uint8_t *p, const struct bridge_id *id)
{
	put16(p, id->prio);
	memcpy(p + 2, id->mac, 6);
}

/* Octet offsets (0-based) of figure 14-1. */
enum {
	OFF_PROTO = 0, OFF_VERSION = 2, OFF_TYPE = 3, OFF_FLAGS = 4,
	OFF_ROOT = 5, OFF_ERPC = 13, OFF_BRIDGE = 17, OFF_PORT = 25,
	OFF_MSG_AGE = 27, OFF_MAX_AGE = 29, OFF_HELLO = 31, OFF_FWD = 33,
	OFF_V1_LEN = 35, OFF_V3_LEN = 36, OFF_MCID = 38, OFF_IRPC = 89,
	OFF_CIST_BRIDGE = 93, OFF_HOPS = 101, OFF_MSTI = 102,
};

/* Octets 5..35 common to Config, RST and MST BPDUs. */
static void decode_common(const uint8_t *p, struct bpdu *b)
{
	bpdu_flags_unpack(&b->flags, p[OFF_FLAGS]);
	get_bid(&b->root_id, p + OFF_ROOT);
	b->ext_root_path_cost = get32(p + OFF_ERPC);
	get_bid(&b->bridge_id, p + OFF_BRIDGE);
	b->regional_root_id = b->bridge_id;
	b->port_id = get16(p + OFF_PORT);
	b->message_age = get16(p + OFF_MSG_AGE);
	b->max_age = get16(p + OFF_MAX_AGE);
	b->hello_time = get16(p + OFF_HELLO);
	b->forward_delay = get16(p + OFF_FWD);
}

static void decode_msti(const uint8_t *p, struct bpdu_msti *m)
{
	bpdu_flags_unpack(&m->flags, p[0]);
	get_bid(&m->regional_root, p + 1);
	m->int_root_path_cost = get32(p + 9);
	m->bridge_prio_octet = p[13];
	m->port_prio_octet = p[14];
	m->remaining_hops = p[15];
}

/* 14.5 e): BPDU_OK if the BPDU is a valid MST BPDU, else why it is not. */
static enum bpdu_err mst_check(const uint8_t *p, size_t len, unsigned int *n)
{
	uint16_t v3len;

	if (len < BPDU_MST_MIN_LEN)
		return BPDU_ERR_MST_SHORT;
	if (p[OFF_V1_LEN] != 0)
		return BPDU_ERR_V1_LEN;
	v3len = get16(p + OFF_V3_LEN);
	if (v3len < BPDU_V3_LEN_BASE ||
	    (v3len - BPDU_V3_LEN_BASE) % BPDU_MSTI_MSG_LEN)
		return BPDU_ERR_V3_LEN;
	*n = (v3len - BPDU_V3_LEN_BASE) / BPDU_MSTI_MSG_LEN;
	if (*n > BPDU_MAX_MSTI)
		return BPDU_ERR_V3_TOO_MANY;
	if (len < BPDU_MST_MIN_LEN + (size_t)*n * BPDU_MSTI_MSG_LEN)
		return BPDU_ERR_V3_TRUNCATED;
	return BPDU_OK;
}

static enum bpdu_err decode_rst(const uint8_t *p, size_t len, struct bpdu *b)
{
	unsigned int n = 0;

	if (b->version < BPDU_VERSION_RSTP)
		return BPDU_ERR_RST_VERSION;
	if (b->version == BPDU_VERSION_RSTP) {
		if (len < BPDU_RST_LEN)
			return BPDU_ERR_RST_SHORT;
		b->type = BPDU_TYPE_RST;
		decode_common(p, b);
		b->version1_length = p[OFF_V1_LEN];
		return BPDU_OK;
	}
	/* Version 3 or later: MST if it is well formed, else RST (d). */
	if (len < BPDU_CONFIG_LEN)
		return BPDU_ERR_RST_SHORT;
	decode_common(p, b);
	b->rst_reason = mst_check(p, len, &n);
	if (b->rst_reason != BPDU_OK) {
		b->type = BPDU_TYPE_RST;
		b->version1_length = len > OFF_V1_LEN ? p[OFF_V1_LEN] : 0;
		return BPDU_OK;
	}
	b->type = BPDU_TYPE_MST;
	b->version1_length = 0;
	mst_config_id_unpack(&b->mcid, p + OFF_MCID);
	b->int_root_path_cost = get32(p + OFF_IRPC);
	get_bid(&b->bridge_id, p + OFF_CIST_BRIDGE);
	b->remaining_hops = p[OFF_HOPS];
	b->msti_count = n;
	for (unsigned int i = 0; i < n; i++)
		decode_msti(p + OFF_MSTI + i * BPDU_MSTI_MSG_LEN, &b->msti[i]);
	return BPDU_OK;
}

enum bpdu_err bpdu_decode(const uint8_t *p, size_t len, struct bpdu *b)
{
	memset(b, 0, offsetof(struct bpdu, msti));
	if (len < BPDU_TCN_LEN)
		return BPDU_ERR_SHORT;
	if (get16(p + OFF_PROTO) != 0)
		return BPDU_ERR_PROTOCOL_ID;
	b->version = p[OFF_VERSION];
	switch (p[OFF_TYPE]) {
	case BPDU_WIRE_TYPE_CONFIG:
		if (len < BPDU_CONFIG_LEN)
			return BPDU_ERR_CONFIG_SHORT;
		b->type = BPDU_TYPE_CONFIG;
		decode_common(p, b);
		return BPDU_OK;
	case BPDU_WIRE_TYPE_TCN:
		b->type = BPDU_TYPE_TCN;
		return BPDU_OK;
	case BPDU_WIRE_TYPE_RST:
		return decode_rst(p, len, b);
	default:
		return BPDU_ERR_TYPE;
	}
}

size_t bpdu_encoded_len(const struct bpdu *b)
{
	switch (b->type) {
	case BPDU_TYPE_CONFIG:
		return BPDU_CONFIG_LEN;
	case BPDU_TYPE_TCN:
		return BPDU_TCN_LEN;
	case BPDU_TYPE_RST:
		return BPDU_RST_LEN;
	case BPDU_TYPE_MST:
		if (b->msti_count > BPDU_MAX_MSTI)
			return 0;
		return BPDU_MST_MIN_LEN + b->msti_count * BPDU_MSTI_MSG_LEN;
	}
	return 0;
}

static void encode_common(const struct bpdu *b, uint8_t *p)
{
	p[OFF_FLAGS] = bpdu_flags_pack(&b->flags);
	put_bid(p + OFF_ROOT, &b->root_id);
	put32(p + OFF_ERPC, b->ext_root_path_cost);
	put16(p + OFF_PORT, b->port_id);
	put16(p + OFF_MSG_AGE, b->message_age);
	put16(p + OFF_MAX_AGE, b->max_age);
	put16(p + OFF_HELLO, b->hello_time);
	put16(p + OFF_FWD, b->forward_delay);
}

static void encode_msti(const struct bpdu_msti *m, uint8_t *p)
{
	p[0] = bpdu_flags_pack(&m->flags);
	put_bid(p + 1, &m->regional_root);
	put32(p + 9, m->int_root_path_cost);
	p[13] = m->bridge_prio_octet;
	p[14] = m->port_prio_octet;
	p[15] = m->remaining_hops;
}

enum bpdu_err bpdu_encode(const struct bpdu *b, uint8_t *p, size_t size,
			  size_t *len)
{
	size_t n = bpdu_encoded_len(b);

	if (n == 0 || (b->type == BPDU_TYPE_MST &&
		       b->version < BPDU_VERSION_MSTP) ||
	    (b->type == BPDU_TYPE_RST && b->version < BPDU_VERSION_RSTP))
		return BPDU_ERR_BAD_FIELD;
	if (size < n)
		return BPDU_ERR_NO_SPACE;
	memset(p, 0, n);
	p[OFF_VERSION] = b->version;
	switch (b->type) {
	case BPDU_TYPE_TCN:
		p[OFF_TYPE] = BPDU_WIRE_TYPE_TCN;
		break;
	case BPDU_TYPE_CONFIG:
		p[OFF_TYPE] = BPDU_WIRE_TYPE_CONFIG;
		encode_common(b, p);
		put_bid(p + OFF_BRIDGE, &b->bridge_id);
		break;
	case BPDU_TYPE_RST:
		p[OFF_TYPE] = BPDU_WIRE_TYPE_RST;
		encode_common(b, p);
		put_bid(p + OFF_BRIDGE, &b->bridge_id);
		p[OFF_V1_LEN] = b->version1_length;
		break;
	case BPDU_TYPE_MST:
		p[OFF_TYPE] = BPDU_WIRE_TYPE_RST;
		encode_common(b, p);
		put_bid(p + OFF_BRIDGE, &b->regional_root_id);
		put16(p + OFF_V3_LEN, (uint16_t)(BPDU_V3_LEN_BASE +
				      b->msti_count * BPDU_MSTI_MSG_LEN));
		mst_config_id_pack(&b->mcid, p + OFF_MCID);
		put32(p + OFF_IRPC, b->int_root_path_cost);
		put_bid(p + OFF_CIST_BRIDGE, &b->bridge_id);
		p[OFF_HOPS] = b->remaining_hops;
		for (unsigned int i = 0; i < b->msti_count; i++)
			encode_msti(&b->msti[i],
				    p + OFF_MSTI + i * BPDU_MSTI_MSG_LEN);
		break;
	}
	*len = n;
	return BPDU_OK;
}

void bpdu_init(struct bpdu *b, enum bpdu_type type)
{
	static const uint8_t versions[] = {
		[BPDU_TYPE_CONFIG] = BPDU_VERSION_STP,
		[BPDU_TYPE_TCN] = BPDU_VERSION_STP,
		[BPDU_TYPE_RST] = BPDU_VERSION_RSTP,
		[BPDU_TYPE_MST] = BPDU_VERSION_MSTP,
	};

	memset(b, 0, sizeof(*b));
	b->type = type;
	b->version = versions[type];
}

enum bpdu_err bpdu_frame_parse(const uint8_t *p, size_t len,
			       struct bpdu_frame *f)
{
	size_t off = 12;
	uint16_t type;

	memset(f, 0, sizeof(*f));
	if (len < 14)
		return BPDU_ERR_FRAME_SHORT;
	memcpy(f->dst, p, 6);
	memcpy(f->src, p + 6, 6);
	if (memcmp(f->dst, bpdu_group_addr, 6) != 0)
		return BPDU_ERR_FRAME_DST;
	type = get16(p + off);
	if (type == 0x8100 || type == 0x88a8) {
		if (len < 18)
			return BPDU_ERR_FRAME_SHORT;
		f->vlan_tagged = true;
		f->vlan_tpid = type;
		f->vlan_tci = get16(p + off + 2);
		off += 4;
		type = get16(p + off);
	}
	off += 2;
	/* 0x0600 and above is an EtherType (802.3 clause 3.2.6). */
	if (type >= 0x0600)
		return BPDU_ERR_FRAME_NOT_LLC;
	f->llc_length = type;
	if (type < 3 || type > len - off)
		return BPDU_ERR_FRAME_LENGTH;
	if (p[off] != 0x42 || p[off + 1] != 0x42 || p[off + 2] != 0x03)
		return BPDU_ERR_FRAME_LLC;
	f->bpdu = p + off + 3;
	f->bpdu_len = type - 3u;
	return BPDU_OK;
}

enum bpdu_err bpdu_frame_decode(const uint8_t *frame, size_t len,
				struct bpdu_frame *f, struct bpdu *b)
{
	enum bpdu_err err = bpdu_frame_parse(frame, len, f);

	if (err != BPDU_OK)
		return err;
	return bpdu_decode(f->bpdu, f->bpdu_len, b);
}

enum bpdu_err bpdu_frame_encode(const uint8_t src[6], const struct bpdu *b,
				uint8_t *frame, size_t size, size_t *len)
{
	size_t n;
	enum bpdu_err err;

	if (size < BPDU_FRAME_HDR_LEN)
		return BPDU_ERR_NO_SPACE;
	err = bpdu_encode(b, frame + BPDU_FRAME_HDR_LEN,
			  size - BPDU_FRAME_HDR_LEN, &n);
	if (err != BPDU_OK)
		return err;
	memcpy(frame, bpdu_group_addr, 6);
	memcpy(frame + 6, src, 6);
	put16(frame + 12, (uint16_t)(n + 3));
	frame[14] = 0x42;
	frame[15] = 0x42;
	frame[16] = 0x03;
	n += BPDU_FRAME_HDR_LEN;
	if (n < BPDU_FRAME_MIN_LEN) {
		if (size < BPDU_FRAME_MIN_LEN)
			return BPDU_ERR_NO_SPACE;
		memset(frame + n, 0, BPDU_FRAME_MIN_LEN - n);
		n = BPDU_FRAME_MIN_LEN;
	}
	*len = n;
	return BPDU_OK;
}
