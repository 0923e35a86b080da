/* SPDX-License-Identifier: MIT */
/*
 * BPDU codec (IEEE 802.1Q-2018 clause 14): STP Configuration, TCN, RST and
 * MST BPDUs with up to 64 MSTI Configuration Messages.
 *
 * bpdu_decode() takes the BPDU itself (the octets after the LLC header,
 * already trimmed to the 802.3 length) and classifies it exactly as the
 * validation rules of 14.5 (14.4 in older editions) say.  The decoded form
 * keeps every field that was on the wire, so bpdu_encode() of a decoded
 * BPDU reproduces the octets that were decoded.
 */
#ifndef MSTLAB_BPDU_H
#define MSTLAB_BPDU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mst_config.h"

#define BPDU_CONFIG_LEN		35
#define BPDU_TCN_LEN		4
#define BPDU_RST_LEN		36
#define BPDU_MST_MIN_LEN	102	/* MST BPDU without MSTI messages */
#define BPDU_MSTI_MSG_LEN	16
#define BPDU_MAX_MSTI		64
#define BPDU_MST_MAX_LEN	(BPDU_MST_MIN_LEN + \
				 BPDU_MAX_MSTI * BPDU_MSTI_MSG_LEN)
#define BPDU_V3_LEN_BASE	64	/* Version 3 Length with no MSTIs */

/* Wire values of the BPDU Type octet. */
#define BPDU_WIRE_TYPE_CONFIG	0x00
#define BPDU_WIRE_TYPE_TCN	0x80
#define BPDU_WIRE_TYPE_RST	0x02	/* RST and MST */

/* Protocol Version Identifier values. */
#define BPDU_VERSION_STP	0
#define BPDU_VERSION_RSTP	2
#define BPDU_VERSION_MSTP	3

/* Ethernet framing. */
#define BPDU_FRAME_HDR_LEN	17	/* dst, src, 802.3 length, LLC */
#define BPDU_FRAME_MIN_LEN	60	/* without FCS; short frames padded */
#define BPDU_FRAME_MAX_LEN	(BPDU_FRAME_HDR_LEN + 4 + BPDU_MST_MAX_LEN)

extern const uint8_t bpdu_group_addr[6];	/* 01:80:C2:00:00:00 */

enum bpdu_type {
	BPDU_TYPE_CONFIG,	/* STP Configuration BPDU */
	BPDU_TYPE_TCN,		/* STP Topology Change Notification */
	BPDU_TYPE_RST,		/* RST BPDU (also MST-versioned ones, 14.5 d) */
	BPDU_TYPE_MST,		/* MST BPDU */
};

enum bpdu_err {
	BPDU_OK = 0,
	/* Reasons to discard a BPDU. */
	BPDU_ERR_SHORT,		/* fewer than 4 octets */
	BPDU_ERR_PROTOCOL_ID,	/* Protocol Identifier is not 0 */
	BPDU_ERR_TYPE,		/* unknown BPDU Type */
	BPDU_ERR_CONFIG_SHORT,	/* Config BPDU shorter than 35 octets */
	BPDU_ERR_RST_VERSION,	/* type 2 with version 0 or 1 */
	BPDU_ERR_RST_SHORT,	/* RST BPDU shorter than 36 (v2) or 35 (v3+) */
	/*
	 * Reasons an MST-versioned BPDU (version >= 3) is decoded as an RST
	 * BPDU (14.5 d); reported in bpdu.rst_reason, never returned.
	 */
	BPDU_ERR_MST_SHORT,	/* fewer than 102 octets */
	BPDU_ERR_V1_LEN,	/* Version 1 Length is not 0 */
	BPDU_ERR_V3_LEN,	/* Version 3 Length below 64 or not 64 + 16n */
	BPDU_ERR_V3_TOO_MANY,	/* Version 3 Length gives more than 64 MSTIs */
	BPDU_ERR_V3_TRUNCATED,	/* Version 3 Length exceeds the BPDU */
	/* Encoding errors. */
	BPDU_ERR_NO_SPACE,	/* output buffer too small */
	BPDU_ERR_BAD_FIELD,	/* struct bpdu holds an impossible value */
	/* Ethernet frame errors. */
	BPDU_ERR_FRAME_SHORT,	/* shorter than the headers */
	BPDU_ERR_FRAME_DST,	/* not sent to 01:80:C2:00:00:00 */
	BPDU_ERR_FRAME_NOT_LLC,	/* EtherType instead of an 802.3 length */
	BPDU_ERR_FRAME_LENGTH,	/* 802.3 length < 3 or beyond the frame */
	BPDU_ERR_FRAME_LLC,	/* LLC header is not 42 42 03 */
	BPDU_ERR_COUNT
};

const char *bpdu_strerror(enum bpdu_err err);
const char *bpdu_type_name(enum bpdu_type type);

/* Bridge Identifier: 16-bit priority field (4-bit priority and 12-bit
 * system ID extension, i.e. the MSTID for MSTIs) and MAC address. */
struct bridge_id {
	uint16_t prio;
	uint8_t mac[6];
};

static inline uint64_t bridge_id_u64(const struct bridge_id *id)
{
	uint64_t v = id->prio;

	for (int i = 0; i < 6; i++)
		v = v << 8 | id->mac[i];
	return v;
}

/* <0, 0, >0 like memcmp: lower is better. */
int bridge_id_cmp(const struct bridge_id *a, const struct bridge_id *b);

/* Port Identifier: 4-bit priority (multiple of 16) and 12-bit number. */
static inline uint16_t port_id_make(uint8_t prio, uint16_t num)
{
	return (uint16_t)((prio & 0xf0) << 8 | (num & 0x0fff));
}
#define PORT_ID_PRIO(id)	((uint8_t)(((id) >> 8) & 0xf0))
#define PORT_ID_NUM(id)		((uint16_t)((id) & 0x0fff))

/* Port Role field of the flags (14.2.9). */
enum bpdu_role {
	BPDU_ROLE_MASTER = 0,	/* Master (MSTI) or Unknown */
	BPDU_ROLE_ALT_BACKUP = 1,
	BPDU_ROLE_ROOT = 2,
	BPDU_ROLE_DESIGNATED = 3,
};

/* The flags octet, bit 1 (LSB) to bit 8. */
struct bpdu_flags {
	bool tc;		/* bit 1 Topology Change */
	bool proposal;		/* bit 2 */
	enum bpdu_role role;	/* bits 3-4 */
	bool learning;		/* bit 5 */
	bool forwarding;	/* bit 6 */
	bool agreement;		/* bit 7 */
	union {			/* bit 8 */
		bool tc_ack;	/* CIST: Topology Change Acknowledgment */
		bool master;	/* MSTI Configuration Message: Master */
	};
};

uint8_t bpdu_flags_pack(const struct bpdu_flags *f);
void bpdu_flags_unpack(struct bpdu_flags *f, uint8_t octet);

/* MSTI Configuration Message (14.4.1). */
struct bpdu_msti {
	struct bpdu_flags flags;
	struct bridge_id regional_root;	/* MSTID in the system ID extension */
	uint32_t int_root_path_cost;
	/* Octets as sent: only the upper 4 bits are meaningful. */
	uint8_t bridge_prio_octet;
	uint8_t port_prio_octet;
	uint8_t remaining_hops;
};

static inline uint16_t bpdu_msti_mstid(const struct bpdu_msti *m)
{
	return m->regional_root.prio & 0x0fff;
}

/* Bridge priority (0..61440) of the transmitting bridge in this MSTI. */
static inline uint16_t bpdu_msti_bridge_prio(const struct bpdu_msti *m)
{
	return (uint16_t)((m->bridge_prio_octet & 0xf0) << 8);
}

/* Port priority (0..240) of the transmitting port in this MSTI. */
static inline uint8_t bpdu_msti_port_prio(const struct bpdu_msti *m)
{
	return m->port_prio_octet & 0xf0;
}

struct bpdu {
	enum bpdu_type type;
	uint8_t version;	/* Protocol Version Identifier as on the wire */
	/*
	 * Set by bpdu_decode() when a BPDU with version >= 3 was decoded as
	 * RST (14.5 d); BPDU_OK otherwise.  Ignored by bpdu_encode().
	 */
	enum bpdu_err rst_reason;

	/* Config, RST and MST BPDUs (octets 5..35). */
	struct bpdu_flags flags;
	struct bridge_id root_id;	/* CIST Root Identifier */
	uint32_t ext_root_path_cost;	/* CIST External Root Path Cost */
	/*
	 * Octets 18..25: the CIST Regional Root Identifier of an MST BPDU.
	 * For Config and RST BPDUs decode sets it to bridge_id, which is
	 * how 13.29.x interprets those BPDUs; encode ignores it there.
	 */
	struct bridge_id regional_root_id;
	uint16_t port_id;		/* CIST Port Identifier */
	/* Timers in units of 1/256 s, as on the wire. */
	uint16_t message_age;
	uint16_t max_age;
	uint16_t hello_time;
	uint16_t forward_delay;

	/* RST (octet 36) and MST. */
	uint8_t version1_length;	/* 0 in an MST BPDU */

	/* MST BPDU only (octets 39..102 and the MSTI messages). */
	struct mst_config_id mcid;
	uint32_t int_root_path_cost;	/* CIST Internal Root Path Cost */
	/*
	 * CIST Bridge Identifier: octets 94..101 of an MST BPDU, octets
	 * 18..25 of Config and RST BPDUs.
	 */
	struct bridge_id bridge_id;
	uint8_t remaining_hops;		/* CIST Remaining Hops */
	unsigned int msti_count;	/* 0..BPDU_MAX_MSTI */
	struct bpdu_msti msti[BPDU_MAX_MSTI];
};

/* Zeroes @b and sets @type with its canonical version (0, 0, 2 or 3). */
void bpdu_init(struct bpdu *b, enum bpdu_type type);

/*
 * Decodes @len octets at @buf (the BPDU after the LLC header).  Octets
 * past the end of the decoded BPDU are ignored.  Returns BPDU_OK, or the
 * reason the BPDU must be discarded; on error @b is unspecified.
 */
enum bpdu_err bpdu_decode(const uint8_t *buf, size_t len, struct bpdu *b);

/* Length bpdu_encode() will produce, or 0 if @b cannot be encoded. */
size_t bpdu_encoded_len(const struct bpdu *b);

/*
 * Encodes @b into @buf (@size octets).  For MST BPDUs the Version 1 and
 * Version 3 Lengths are derived from msti_count.  On success *@len is the
 * number of octets written.
 */
enum bpdu_err bpdu_encode(const struct bpdu *b, uint8_t *buf, size_t size,
			  size_t *len);

/* An Ethernet frame that carries a BPDU. */
struct bpdu_frame {
	uint8_t dst[6];
	uint8_t src[6];
	bool vlan_tagged;	/* an 802.1Q/802.1ad tag was present */
	uint16_t vlan_tpid;	/* 0x8100 or 0x88a8 when tagged */
	uint16_t vlan_tci;	/* PCP, DEI, VID when tagged */
	uint16_t llc_length;	/* the 802.3 length field */
	const uint8_t *bpdu;	/* into the frame, after LLC 42 42 03 */
	size_t bpdu_len;	/* llc_length - 3 */
};

/*
 * Parses an Ethernet frame (no FCS): destination 01:80:C2:00:00:00,
 * optional single VLAN tag, 802.3 length, LLC 42 42 03.  Padding past
 * the 802.3 length is ignored.
 */
enum bpdu_err bpdu_frame_parse(const uint8_t *frame, size_t len,
			       struct bpdu_frame *f);

/* bpdu_frame_parse() then bpdu_decode(). */
enum bpdu_err bpdu_frame_decode(const uint8_t *frame, size_t len,
				struct bpdu_frame *f, struct bpdu *b);

/*
 * Builds an untagged frame from @src to the bridge group address with @b,
 * zero padded to 60 octets.  @size should be at least BPDU_FRAME_MAX_LEN.
 */
enum bpdu_err bpdu_frame_encode(const uint8_t src[6], const struct bpdu *b,
				uint8_t *frame, size_t size, size_t *len);

#endif
