// SPDX-License-Identifier: MIT
/* BPDU codec: exact bytes, round trips, 14.5 validation, truncation. */
#include "unit.h"
#include "bpdu.h"

#include <stdlib.h>

/* STP Configuration BPDU, TC and TC Ack set, version 0. */
static const uint8_t cfg_bytes[35] = {
	0x00, 0x00, 0x00, 0x00, 0x81,
	0x80, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,	/* root */
	0x00, 0x00, 0x00, 0x04,				/* cost */
	0x80, 0x01, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,	/* bridge */
	0x80, 0x02,					/* port */
	0x01, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00,	/* timers */
};

static const uint8_t tcn_bytes[4] = { 0x00, 0x00, 0x00, 0x80 };

/* RST BPDU: proposal, designated, learning, forwarding, agreement. */
static const uint8_t rst_bytes[36] = {
	0x00, 0x00, 0x02, 0x02, 0x7e,
	0x70, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x03, 0x0d, 0x40,				/* 200000 */
	0x80, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x80, 0x05,
	0x00, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00,
	0x00,						/* v1 len */
};

/* MST BPDU with two MSTI Configuration Messages (134 octets). */
static const uint8_t mst_bytes[134] = {
	0x00, 0x00, 0x03, 0x02, 0x3c,
	0x80, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* CIST root */
	0x00, 0x00, 0x4e, 0x20,				/* ERPC 20000 */
	0x90, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,	/* regional root */
	0x80, 0x05,
	0x00, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00,
	0x00,						/* v1 len */
	0x00, 0x60,					/* v3 len 96 */
	0x00,						/* format */
	'r', 'e', 'g', 'i', 'o', 'n', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x01,					/* revision */
	0xac, 0x36, 0x17, 0x7f, 0x50, 0x28, 0x3c, 0xd4,
	0xb8, 0x38, 0x21, 0xd8, 0xab, 0x26, 0xde, 0x62,
	0x00, 0x00, 0x00, 0x0a,				/* IRPC 10 */
	0x80, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03,	/* CIST bridge */
	0x14,						/* hops 20 */
	/* MSTI 1 */
	0xb9,
	0x10, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03,
	0x00, 0x00, 0x07, 0xd0, 0x80, 0x80, 0x13,
	/* MSTI 2 */
	0x0e,
	0x80, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x9f, 0x14,
};

/* Decode from an exact-size heap copy so ASan sees any overread. */
static enum bpdu_err decode_n(const uint8_t *src, size_t len, struct bpdu *b)
{
	uint8_t *p = malloc(len ? len : 1);
	enum bpdu_err err;

	memcpy(p, src, len);
	err = bpdu_decode(p, len, b);
	free(p);
	return err;
}

/* Decode, re-encode, compare with the first @want_len input octets. */
static bool round_trips(const uint8_t *src, size_t len, size_t want_len)
{
	static struct bpdu b;
	uint8_t out[BPDU_MST_MAX_LEN];
	size_t n;

	if (decode_n(src, len, &b) != BPDU_OK)
		return false;
	if (bpdu_encode(&b, out, sizeof(out), &n) != BPDU_OK)
		return false;
	return n == want_len && memcmp(out, src, n) == 0;
}

static bool mac_is(const uint8_t *mac, uint64_t v)
{
	for (int i = 5; i >= 0; i--, v >>= 8)
		if (mac[i] != (v & 0xff))
			return false;
	return true;
}

TEST(decode_config)
{
	static struct bpdu b;

	CHECK_INT(decode_n(cfg_bytes, sizeof(cfg_bytes), &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_CONFIG);
	CHECK_INT(b.version, 0);
	CHECK(b.flags.tc);
	CHECK(b.flags.tc_ack);
	CHECK(!b.flags.proposal && !b.flags.learning && !b.flags.forwarding);
	CHECK_INT(b.root_id.prio, 0x8000);
	CHECK(mac_is(b.root_id.mac, 0x001122334455));
	CHECK_INT(b.ext_root_path_cost, 4);
	CHECK_INT(b.bridge_id.prio, 0x8001);
	CHECK(mac_is(b.bridge_id.mac, 0x00aabbccddee));
	CHECK_INT(bridge_id_cmp(&b.regional_root_id, &b.bridge_id), 0);
	CHECK_INT(b.port_id, 0x8002);
	CHECK_INT(b.message_age, 256);
	CHECK_INT(b.max_age, 20 * 256);
	CHECK_INT(b.hello_time, 2 * 256);
	CHECK_INT(b.forward_delay, 15 * 256);
	CHECK(round_trips(cfg_bytes, sizeof(cfg_bytes), 35));
}

TEST(decode_tcn)
{
	static struct bpdu b;

	CHECK_INT(decode_n(tcn_bytes, 4, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_TCN);
	CHECK(round_trips(tcn_bytes, 4, 4));
}

TEST(decode_rst)
{
	static struct bpdu b;

	CHECK_INT(decode_n(rst_bytes, sizeof(rst_bytes), &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_RST);
	CHECK_INT(b.version, 2);
	CHECK_INT(b.rst_reason, BPDU_OK);
	CHECK(!b.flags.tc && b.flags.proposal && b.flags.learning);
	CHECK(b.flags.forwarding && b.flags.agreement && !b.flags.tc_ack);
	CHECK_INT(b.flags.role, BPDU_ROLE_DESIGNATED);
	CHECK_INT(b.root_id.prio, 0x7000);
	CHECK_INT(b.ext_root_path_cost, 200000);
	CHECK(mac_is(b.bridge_id.mac, 0x020000000002));
	CHECK_INT(b.port_id, 0x8005);
	CHECK_INT(PORT_ID_PRIO(b.port_id), 0x80);
	CHECK_INT(PORT_ID_NUM(b.port_id), 5);
	CHECK(round_trips(rst_bytes, sizeof(rst_bytes), 36));
}

TEST(decode_mst_two_mstis)
{
	static struct bpdu b;
	char name[33];

	CHECK_INT(decode_n(mst_bytes, sizeof(mst_bytes), &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.version, 3);
	CHECK_INT(b.flags.role, BPDU_ROLE_DESIGNATED);
	CHECK(b.flags.learning && b.flags.forwarding && !b.flags.proposal);
	CHECK(mac_is(b.root_id.mac, 0x020000000001));
	CHECK_INT(b.ext_root_path_cost, 20000);
	CHECK_INT(b.regional_root_id.prio, 0x9000);
	CHECK(mac_is(b.regional_root_id.mac, 0x020000000002));
	CHECK_INT(b.mcid.format_selector, 0);
	mst_config_name(&b.mcid, name);
	CHECK_STR(name, "region");
	CHECK_INT(b.mcid.revision, 1);
	CHECK_INT(b.mcid.digest[0], 0xac);
	CHECK_INT(b.mcid.digest[15], 0x62);
	CHECK_INT(b.int_root_path_cost, 10);
	CHECK_INT(b.bridge_id.prio, 0x8000);
	CHECK(mac_is(b.bridge_id.mac, 0x020000000003));
	CHECK_INT(b.remaining_hops, 20);
	CHECK_INT(b.msti_count, 2);

	const struct bpdu_msti *m = &b.msti[0];
	CHECK(m->flags.tc && !m->flags.proposal && m->flags.learning);
	CHECK(m->flags.forwarding && !m->flags.agreement && m->flags.master);
	CHECK_INT(m->flags.role, BPDU_ROLE_ROOT);
	CHECK_INT(bpdu_msti_mstid(m), 1);
	CHECK_INT(m->regional_root.prio, 0x1001);
	CHECK_INT(m->int_root_path_cost, 2000);
	CHECK_INT(bpdu_msti_bridge_prio(m), 32768);
	CHECK_INT(bpdu_msti_port_prio(m), 128);
	CHECK_INT(m->remaining_hops, 19);

	m = &b.msti[1];
	CHECK(m->flags.proposal && !m->flags.master);
	CHECK_INT(m->flags.role, BPDU_ROLE_DESIGNATED);
	CHECK_INT(bpdu_msti_mstid(m), 2);
	CHECK_INT(bpdu_msti_bridge_prio(m), 8192);
	/* The low nibble is ignored on receipt but kept for re-encoding. */
	CHECK_INT(bpdu_msti_port_prio(m), 0x90);
	CHECK_INT(m->port_prio_octet, 0x9f);
	CHECK(round_trips(mst_bytes, sizeof(mst_bytes), sizeof(mst_bytes)));
}

/* Builds an MST BPDU with @n MSTIs from scratch; returns its length. */
static size_t build_mst(unsigned int n, uint8_t *out, size_t size)
{
	static struct bpdu b;
	size_t len = 0;

	bpdu_init(&b, BPDU_TYPE_MST);
	b.root_id.prio = 0x8000;
	b.root_id.mac[5] = 1;
	b.regional_root_id = b.root_id;
	b.bridge_id = b.root_id;
	b.max_age = 20 * 256;
	b.hello_time = 2 * 256;
	b.forward_delay = 15 * 256;
	b.remaining_hops = 20;
	b.msti_count = n;
	for (unsigned int i = 0; i < n; i++) {
		b.msti[i].regional_root.prio = (uint16_t)(0x8000 | (i + 1));
		b.msti[i].regional_root.mac[5] = (uint8_t)i;
		b.msti[i].int_root_path_cost = i * 1000;
		b.msti[i].flags.role = (enum bpdu_role)(i & 3);
		b.msti[i].bridge_prio_octet = 0x80;
		b.msti[i].port_prio_octet = 0x80;
		b.msti[i].remaining_hops = 20;
	}
	if (bpdu_encode(&b, out, size, &len) != BPDU_OK)
		return 0;
	return len;
}

TEST(mst_zero_one_and_64_mstis)
{
	static uint8_t buf[BPDU_MST_MAX_LEN];
	static struct bpdu b;
	unsigned int counts[] = { 0, 1, 64 };

	for (size_t i = 0; i < 3; i++) {
		size_t len = build_mst(counts[i], buf, sizeof(buf));

		CHECK_INT(len, 102 + 16 * counts[i]);
		CHECK_INT(buf[35], 0);
		CHECK_INT(buf[36] << 8 | buf[37], 64 + 16 * counts[i]);
		CHECK_INT(decode_n(buf, len, &b), BPDU_OK);
		CHECK_INT(b.type, BPDU_TYPE_MST);
		CHECK_INT(b.msti_count, counts[i]);
		CHECK(round_trips(buf, len, len));
	}
	CHECK_INT(bpdu_msti_mstid(&b.msti[63]), 64);
	CHECK_INT(b.msti[63].int_root_path_cost, 63000);
}

TEST(truncated_config_every_length)
{
	static struct bpdu b;

	for (size_t len = 0; len < sizeof(cfg_bytes); len++)
		CHECK_INT(decode_n(cfg_bytes, len, &b),
			  len < 4 ? BPDU_ERR_SHORT : BPDU_ERR_CONFIG_SHORT);
}

TEST(truncated_tcn_every_length)
{
	static struct bpdu b;

	for (size_t len = 0; len < 4; len++)
		CHECK_INT(decode_n(tcn_bytes, len, &b), BPDU_ERR_SHORT);
}

TEST(truncated_rst_every_length)
{
	static struct bpdu b;

	for (size_t len = 0; len < sizeof(rst_bytes); len++)
		CHECK_INT(decode_n(rst_bytes, len, &b),
			  len < 4 ? BPDU_ERR_SHORT : BPDU_ERR_RST_SHORT);
}

/*
 * 14.5 d): a version 3 BPDU too short for its MSTI messages is still an
 * RST BPDU from 35 octets on; below that it is discarded.
 */
TEST(truncated_mst_every_length)
{
	static struct bpdu b;

	for (size_t len = 0; len < sizeof(mst_bytes); len++) {
		enum bpdu_err err = decode_n(mst_bytes, len, &b);

		if (len < 4) {
			CHECK_INT(err, BPDU_ERR_SHORT);
		} else if (len < 35) {
			CHECK_INT(err, BPDU_ERR_RST_SHORT);
		} else {
			CHECK_INT(err, BPDU_OK);
			CHECK_INT(b.type, BPDU_TYPE_RST);
			CHECK_INT(b.rst_reason, len < 102 ?
				  BPDU_ERR_MST_SHORT : BPDU_ERR_V3_TRUNCATED);
			CHECK_INT(b.version, 3);
			CHECK_INT(b.ext_root_path_cost, 20000);
			CHECK(round_trips(mst_bytes, len, 36) || len == 35);
		}
	}
}

static enum bpdu_err decode_patched(const uint8_t *src, size_t len,
				    size_t off, uint8_t val, struct bpdu *b)
{
	uint8_t buf[BPDU_MST_MAX_LEN + 64];

	memcpy(buf, src, len);
	buf[off] = val;
	return decode_n(buf, len, b);
}

TEST(reject_protocol_id_and_type)
{
	static struct bpdu b;

	CHECK_INT(decode_patched(cfg_bytes, 35, 0, 0x01, &b),
		  BPDU_ERR_PROTOCOL_ID);
	CHECK_INT(decode_patched(cfg_bytes, 35, 1, 0x01, &b),
		  BPDU_ERR_PROTOCOL_ID);
	CHECK_INT(decode_patched(tcn_bytes, 4, 1, 0x42, &b),
		  BPDU_ERR_PROTOCOL_ID);
	for (unsigned int t = 0; t < 256; t++) {
		enum bpdu_err err = decode_patched(mst_bytes, sizeof(mst_bytes),
						   3, (uint8_t)t, &b);

		if (t == 0x00 || t == 0x80 || t == 0x02)
			CHECK_INT(err, BPDU_OK);
		else
			CHECK_INT(err, BPDU_ERR_TYPE);
	}
}

TEST(rst_type_with_old_version_is_discarded)
{
	static struct bpdu b;

	CHECK_INT(decode_patched(rst_bytes, 36, 2, 0, &b),
		  BPDU_ERR_RST_VERSION);
	CHECK_INT(decode_patched(rst_bytes, 36, 2, 1, &b),
		  BPDU_ERR_RST_VERSION);
	CHECK_INT(decode_patched(mst_bytes, sizeof(mst_bytes), 2, 1, &b),
		  BPDU_ERR_RST_VERSION);
}

/* Config and TCN classification does not look at the version. */
TEST(config_and_tcn_any_version)
{
	static struct bpdu b;
	uint8_t buf[35];

	memcpy(buf, cfg_bytes, 35);
	buf[2] = 7;
	CHECK_INT(decode_n(buf, 35, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_CONFIG);
	CHECK_INT(b.version, 7);
	CHECK(round_trips(buf, 35, 35));
	CHECK_INT(decode_patched(tcn_bytes, 4, 2, 3, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_TCN);
	/* Trailing octets (e.g. Ethernet padding) are ignored. */
	uint8_t padded[43] = { 0 };
	memcpy(padded, tcn_bytes, 4);
	CHECK_INT(decode_n(padded, sizeof(padded), &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_TCN);
}

TEST(mst_v1_length_nonzero_is_rst)
{
	static struct bpdu b;

	CHECK_INT(decode_patched(mst_bytes, sizeof(mst_bytes), 35, 1, &b),
		  BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_RST);
	CHECK_INT(b.rst_reason, BPDU_ERR_V1_LEN);
	CHECK_INT(b.version1_length, 1);
	CHECK_INT(b.msti_count, 0);
	/* A version 2 RST BPDU does not check Version 1 Length. */
	CHECK_INT(decode_patched(rst_bytes, 36, 35, 9, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_RST);
	CHECK_INT(b.rst_reason, BPDU_OK);
}

static enum bpdu_err decode_v3len(uint16_t v3len, size_t len, struct bpdu *b)
{
	static uint8_t buf[2048];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, mst_bytes, sizeof(mst_bytes));
	buf[36] = v3len >> 8;
	buf[37] = v3len & 0xff;
	return decode_n(buf, len, b);
}

TEST(mst_version3_length_checks)
{
	static struct bpdu b;
	struct {
		uint16_t v3len;
		size_t len;
		enum bpdu_err reason;
		unsigned int n;
	} cases[] = {
		{ 64, 102, BPDU_OK, 0 },
		{ 64, 134, BPDU_OK, 0 },	/* extra octets ignored */
		{ 96, 134, BPDU_OK, 2 },
		{ 63, 134, BPDU_ERR_V3_LEN, 0 },
		{ 0, 134, BPDU_ERR_V3_LEN, 0 },
		{ 65, 134, BPDU_ERR_V3_LEN, 0 },
		{ 95, 134, BPDU_ERR_V3_LEN, 0 },
		{ 97, 134, BPDU_ERR_V3_LEN, 0 },
		{ 112, 134, BPDU_ERR_V3_TRUNCATED, 0 },
		{ 64 + 64 * 16, 102 + 64 * 16, BPDU_OK, 64 },
		{ 64 + 65 * 16, 102 + 65 * 16, BPDU_ERR_V3_TOO_MANY, 0 },
		{ 0xfff0, 2048, BPDU_ERR_V3_TOO_MANY, 0 },
		{ 0xffff, 2048, BPDU_ERR_V3_LEN, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(decode_v3len(cases[i].v3len, cases[i].len, &b),
			  BPDU_OK);
		CHECK_INT(b.rst_reason, cases[i].reason);
		CHECK_INT(b.type, cases[i].reason == BPDU_OK ?
			  BPDU_TYPE_MST : BPDU_TYPE_RST);
		CHECK_INT(b.msti_count, cases[i].n);
	}
}

/* UNH MSTP.op.1.3: later versions are still MST BPDUs. */
TEST(mst_later_versions_accepted)
{
	static struct bpdu b;
	uint8_t buf[sizeof(mst_bytes) + 16];

	CHECK_INT(decode_patched(mst_bytes, sizeof(mst_bytes), 2, 4, &b),
		  BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.version, 4);
	CHECK_INT(b.msti_count, 2);
	CHECK_INT(decode_patched(mst_bytes, sizeof(mst_bytes), 2, 255, &b),
		  BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.version, 255);

	memcpy(buf, mst_bytes, sizeof(mst_bytes));
	memset(buf + sizeof(mst_bytes), 0xee, 16);
	buf[2] = 4;
	CHECK_INT(decode_n(buf, sizeof(buf), &b), BPDU_OK);
	CHECK_INT(b.msti_count, 2);
	CHECK(round_trips(buf, sizeof(buf), sizeof(mst_bytes)));
	/* A version 4 BPDU that is not MST-conformant is RST. */
	CHECK_INT(decode_patched(mst_bytes, 40, 2, 4, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_RST);
	CHECK_INT(b.rst_reason, BPDU_ERR_MST_SHORT);
}

TEST(flags_all_values_round_trip)
{
	for (unsigned int v = 0; v < 256; v++) {
		struct bpdu_flags f;

		bpdu_flags_unpack(&f, (uint8_t)v);
		CHECK_INT(bpdu_flags_pack(&f), v);
		CHECK_INT(f.role, (v >> 2) & 3);
		CHECK_INT(f.master, (v & 0x80) != 0);
	}
}

TEST(encode_errors)
{
	static struct bpdu b;
	uint8_t buf[BPDU_MST_MAX_LEN];
	size_t n = 0;

	CHECK_INT(decode_n(mst_bytes, sizeof(mst_bytes), &b), BPDU_OK);
	for (size_t size = 0; size < sizeof(mst_bytes); size++)
		CHECK_INT(bpdu_encode(&b, buf, size, &n), BPDU_ERR_NO_SPACE);
	b.msti_count = 65;
	CHECK_INT(bpdu_encoded_len(&b), 0);
	CHECK_INT(bpdu_encode(&b, buf, sizeof(buf), &n), BPDU_ERR_BAD_FIELD);
	b.msti_count = 2;
	b.version = 2;
	CHECK_INT(bpdu_encode(&b, buf, sizeof(buf), &n), BPDU_ERR_BAD_FIELD);
	bpdu_init(&b, BPDU_TYPE_RST);
	b.version = 1;
	CHECK_INT(bpdu_encode(&b, buf, sizeof(buf), &n), BPDU_ERR_BAD_FIELD);
	bpdu_init(&b, BPDU_TYPE_RST);
	CHECK_INT(bpdu_encode(&b, buf, 36, &n), BPDU_OK);
	CHECK_INT(n, 36);
	CHECK_MEM(buf, 4, "\x00\x00\x02\x02", 4);
	bpdu_init(&b, BPDU_TYPE_TCN);
	CHECK_INT(bpdu_encode(&b, buf, 3, &n), BPDU_ERR_NO_SPACE);
	CHECK_INT(bpdu_encode(&b, buf, 4, &n), BPDU_OK);
	CHECK_MEM(buf, n, tcn_bytes, 4);
}

/* An RST BPDU built field by field matches the hand-written octets. */
TEST(encode_rst_from_fields)
{
	static struct bpdu b;
	uint8_t buf[64];
	size_t n = 0;

	bpdu_init(&b, BPDU_TYPE_RST);
	b.flags = (struct bpdu_flags){ .proposal = true,
		.role = BPDU_ROLE_DESIGNATED, .learning = true,
		.forwarding = true, .agreement = true };
	b.root_id = (struct bridge_id){ 0x7000, { 2, 0, 0, 0, 0, 1 } };
	b.ext_root_path_cost = 200000;
	b.bridge_id = (struct bridge_id){ 0x8000, { 2, 0, 0, 0, 0, 2 } };
	b.port_id = port_id_make(0x80, 5);
	b.max_age = 20 * 256;
	b.hello_time = 2 * 256;
	b.forward_delay = 15 * 256;
	CHECK_INT(bpdu_encode(&b, buf, sizeof(buf), &n), BPDU_OK);
	CHECK_MEM(buf, n, rst_bytes, sizeof(rst_bytes));
}

TEST(strerror_covers_all)
{
	for (int e = 0; e < BPDU_ERR_COUNT; e++) {
		CHECK(bpdu_strerror((enum bpdu_err)e) != NULL);
		CHECK(strcmp(bpdu_strerror((enum bpdu_err)e),
			     "unknown BPDU error") != 0);
	}
	CHECK_STR(bpdu_strerror(BPDU_ERR_COUNT), "unknown BPDU error");
	CHECK_STR(bpdu_strerror(BPDU_ERR_V1_LEN), "Version 1 Length is not 0");
	CHECK_STR(bpdu_type_name(BPDU_TYPE_MST), "MST");
}

TEST(bridge_id_order)
{
	struct bridge_id a = { 0x8000, { 0, 0, 0, 0, 0, 2 } };
	struct bridge_id b = { 0x8000, { 0, 0, 0, 0, 0, 3 } };
	struct bridge_id c = { 0x7000, { 9, 9, 9, 9, 9, 9 } };

	CHECK(bridge_id_cmp(&a, &b) < 0);
	CHECK(bridge_id_cmp(&b, &a) > 0);
	CHECK(bridge_id_cmp(&c, &a) < 0);
	CHECK_INT(bridge_id_cmp(&a, &a), 0);
}

static const uint8_t src_mac[6] = { 0x02, 0, 0, 0, 0, 0x10 };

TEST(frame_encode_and_parse)
{
	static struct bpdu b;
	struct bpdu_frame f;
	uint8_t frame[BPDU_FRAME_MAX_LEN];
	size_t n = 0;

	CHECK_INT(decode_n(tcn_bytes, 4, &b), BPDU_OK);
	CHECK_INT(bpdu_frame_encode(src_mac, &b, frame, sizeof(frame), &n),
		  BPDU_OK);
	CHECK_INT(n, 60);
	CHECK_MEM(frame, 17, "\x01\x80\xc2\x00\x00\x00\x02\x00\x00\x00\x00"
		  "\x10\x00\x07\x42\x42\x03", 17);
	CHECK_MEM(frame + 17, 4, tcn_bytes, 4);
	for (size_t i = 21; i < 60; i++)
		CHECK_INT(frame[i], 0);
	CHECK_INT(bpdu_frame_decode(frame, n, &f, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_TCN);
	CHECK(!f.vlan_tagged);
	CHECK_INT(f.llc_length, 7);
	CHECK_INT(f.bpdu_len, 4);
	CHECK_MEM(f.src, 6, src_mac, 6);

	CHECK_INT(decode_n(mst_bytes, sizeof(mst_bytes), &b), BPDU_OK);
	CHECK_INT(bpdu_frame_encode(src_mac, &b, frame, sizeof(frame), &n),
		  BPDU_OK);
	CHECK_INT(n, 17 + sizeof(mst_bytes));
	CHECK_INT(bpdu_frame_decode(frame, n, &f, &b), BPDU_OK);
	CHECK_INT(b.type, BPDU_TYPE_MST);
	CHECK_INT(b.msti_count, 2);
	CHECK_INT(bpdu_frame_encode(src_mac, &b, frame, 100, &n),
		  BPDU_ERR_NO_SPACE);
	CHECK_INT(decode_n(tcn_bytes, 4, &b), BPDU_OK);
	CHECK_INT(bpdu_frame_encode(src_mac, &b, frame, 59, &n),
		  BPDU_ERR_NO_SPACE);
}

/* A tagged frame: the tag is reported, the BPDU is still decoded. */
TEST(frame_vlan_tag_reported)
{
	static struct bpdu b;
	struct bpdu_frame f;
	uint8_t frame[80] = { 0x01, 0x80, 0xc2, 0, 0, 0, 2, 0, 0, 0, 0, 1,
			      0x81, 0x00, 0x20, 0x0a, 0x00, 0x27,
			      0x42, 0x42, 0x03 };

	memcpy(frame + 21, rst_bytes, 36);
	CHECK_INT(bpdu_frame_decode(frame, 57, &f, &b), BPDU_OK);
	CHECK(f.vlan_tagged);
	CHECK_INT(f.vlan_tpid, 0x8100);
	CHECK_INT(f.vlan_tci & 0xfff, 10);
	CHECK_INT(f.vlan_tci >> 13, 1);
	CHECK_INT(b.type, BPDU_TYPE_RST);
	frame[12] = 0x88;
	frame[13] = 0xa8;
	CHECK_INT(bpdu_frame_decode(frame, 80, &f, &b), BPDU_OK);
	CHECK_INT(f.vlan_tpid, 0x88a8);
}

static enum bpdu_err parse_n(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);
	struct bpdu_frame f;
	enum bpdu_err err;

	memcpy(p, src, len);
	err = bpdu_frame_parse(p, len, &f);
	free(p);
	return err;
}

TEST(frame_malformed)
{
	static struct bpdu b;
	uint8_t frame[BPDU_FRAME_MAX_LEN], bad[BPDU_FRAME_MAX_LEN];
	size_t n = 0;

	CHECK_INT(decode_n(cfg_bytes, 35, &b), BPDU_OK);
	CHECK_INT(bpdu_frame_encode(src_mac, &b, frame, sizeof(frame), &n),
		  BPDU_OK);
	CHECK_INT(parse_n(frame, n), BPDU_OK);
	/* Truncated at every length. */
	for (size_t len = 0; len < 52; len++) {
		enum bpdu_err err = parse_n(frame, len);

		if (len < 14)
			CHECK_INT(err, BPDU_ERR_FRAME_SHORT);
		else
			CHECK_INT(err, BPDU_ERR_FRAME_LENGTH);
	}
	memcpy(bad, frame, n);
	bad[5] = 0x01;		/* 01:80:C2:00:00:01, PAUSE */
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_DST);
	memcpy(bad, frame, n);
	bad[12] = 0x08;		/* IPv4 EtherType */
	bad[13] = 0x00;
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_NOT_LLC);
	bad[12] = 0x06;		/* 0x0600: first EtherType value */
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_NOT_LLC);
	bad[12] = 0x05;		/* 0x05ff: a length, beyond the frame */
	bad[13] = 0xff;
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_LENGTH);
	bad[12] = 0;
	bad[13] = 2;
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_LENGTH);
	memcpy(bad, frame, n);
	bad[16] = 0x13;		/* LLC control not UI */
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_LLC);
	memcpy(bad, frame, n);
	bad[14] = 0xaa;		/* SNAP */
	CHECK_INT(parse_n(bad, n), BPDU_ERR_FRAME_LLC);
	/* Tagged but cut inside the tag. */
	memcpy(bad, frame, n);
	bad[12] = 0x81;
	bad[13] = 0x00;
	CHECK_INT(parse_n(bad, 17), BPDU_ERR_FRAME_SHORT);
	/* The 802.3 length limits the BPDU, not the padded frame. */
	struct bpdu_frame f;
	memcpy(bad, frame, n);
	bad[13] = 6;
	CHECK_INT(bpdu_frame_decode(bad, n, &f, &b), BPDU_ERR_SHORT);
	bad[13] = 37;
	CHECK_INT(bpdu_frame_decode(bad, n, &f, &b), BPDU_ERR_CONFIG_SHORT);
	bad[13] = 38;
	CHECK_INT(bpdu_frame_decode(bad, n, &f, &b), BPDU_OK);
}
