// SPDX-License-Identifier: MIT
#include "bpdu_print.h"

#include <string.h>

/* The line being written; bpdu_format()'s bound makes checks needless. */
struct out {
	char *p;
};

static void put(struct out *o, const char *s, size_t n)
{
	memcpy(o->p, s, n);
	o->p += n;
}

/* String literals only: their length is known at compile time. */
#define PUT(o, lit) put(o, lit, sizeof(lit) - 1)
/* A JSON key after the first one of its object. */
#define KEY(o, k) PUT(o, ",\"" k "\":")

static void put_u(struct out *o, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*o->p++ = tmp[--n];
}

/* @v in exactly @digits decimal digits, leading zeros kept. */
static void put_u_width(struct out *o, uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--) {
		o->p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	o->p += digits;
}

static const char hexdig[] = "0123456789abcdef";

static void put_x8(struct out *o, uint8_t v)
{
	*o->p++ = hexdig[v >> 4];
	*o->p++ = hexdig[v & 15];
}

static void put_mac(struct out *o, const uint8_t m[6])
{
	for (int i = 0; i < 6; i++) {
		if (i)
			*o->p++ = ':';
		put_x8(o, m[i]);
	}
}

/* A MAC address as a JSON string. */
static void put_qmac(struct out *o, const uint8_t m[6])
{
	*o->p++ = '"';
	put_mac(o, m);
	*o->p++ = '"';
}

static void put_bool(struct out *o, bool v)
{
	if (v)
		PUT(o, "true");
	else
		PUT(o, "false");
}

/* A timer in 1/256 s as the exact decimal Wireshark shows ("2.00390625"):
 * n/256 never needs more than 8 decimals. */
static void put_timer(struct out *o, uint16_t t)
{
	uint32_t frac = (t & 0xffu) * 390625u;	/* in units of 1e-8 s */
	int digits = 8;

	put_u(o, t >> 8);
	if (!frac)
		return;
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	*o->p++ = '.';
	put_u_width(o, frac, digits);
}

/*
 * The region name up to its first NUL. JSON: the bytes as Wireshark
 * shows them (non-ASCII as U+FFFD); text: '?' for what a terminal
 * should not get.
 */
static void put_name(struct out *o, const uint8_t *name, bool json)
{
	for (size_t i = 0; i < MST_CONFIG_NAME_LEN && name[i]; i++) {
		uint8_t c = name[i];

		if (!json) {
			*o->p++ = c >= 0x20 && c < 0x7f ? (char)c : '?';
		} else if (c == '"' || c == '\\') {
			*o->p++ = '\\';
			*o->p++ = (char)c;
		} else if (c >= 0x80) {
			PUT(o, "\\ufffd");
		} else if (c < 0x20 || c == 0x7f) {
			PUT(o, "\\u00");
			put_x8(o, c);
		} else {
			*o->p++ = (char)c;
		}
	}
}

static void put_ts(struct out *o, int64_t ts_ns)
{
	uint64_t ns = ts_ns < 0 ? 0 : (uint64_t)ts_ns;

	put_u(o, ns / 1000000000u);
	*o->p++ = '.';
	put_u_width(o, ns % 1000000000u, 9);
}

/* ---- JSON ---------------------------------------------------------- */

/* The flag bits Wireshark shows for RST and MST BPDUs and MSTI records,
 * in its order; bit 8 is the MSTI Master flag there, named tcack too. */
static void bpdu_json_rst_flags(struct out *o, uint8_t v)
{
	KEY(o, "stp.flags.tcack");
	put_bool(o, v & 0x80);
	KEY(o, "stp.flags.agreement");
	put_bool(o, v & 0x40);
	KEY(o, "stp.flags.forwarding");
	put_bool(o, v & 0x20);
	KEY(o, "stp.flags.learning");
	put_bool(o, v & 0x10);
	KEY(o, "stp.flags.port_role");
	put_u(o, (v >> 2) & 3);
	KEY(o, "stp.flags.proposal");
	put_bool(o, v & 0x02);
	KEY(o, "stp.flags.tc");
	put_bool(o, v & 0x01);
}

/* Wireshark splits the priority field: 4-bit priority, 12-bit extension
 * (its default "use 802.1t System ID Extensions"). */
#define JSON_BID(o, pfx, id) do {				\
		KEY(o, pfx ".prio");				\
		put_u(o, (id)->prio & 0xf000u);			\
		KEY(o, pfx ".ext");				\
		put_u(o, (id)->prio & 0x0fffu);			\
		KEY(o, pfx ".hw");				\
		put_qmac(o, (id)->mac);				\
	} while (0)

static void bpdu_json_msti(struct out *o, const struct bpdu_msti *m)
{
	uint8_t flags = bpdu_flags_pack(&m->flags);

	PUT(o, "{\"mstp.msti.flags\":");
	put_u(o, flags);
	bpdu_json_rst_flags(o, flags);
	KEY(o, "mstp.msti.priority");
	put_u(o, m->regional_root.prio >> 12);
	KEY(o, "mstp.msti.msti_id");
	put_u(o, bpdu_msti_mstid(m));
	KEY(o, "mstp.msti.root.hw");
	put_qmac(o, m->regional_root.mac);
	KEY(o, "mstp.msti.root_cost");
	put_u(o, m->int_root_path_cost);
	/* the upper four bits, unshifted, as Wireshark shows them */
	KEY(o, "mstp.msti.bridge_priority");
	put_u(o, m->bridge_prio_octet >> 4);
	KEY(o, "mstp.msti.port_priority");
	put_u(o, m->port_prio_octet >> 4);
	KEY(o, "mstp.msti.remaining_hops");
	put_u(o, m->remaining_hops);
	*o->p++ = '}';
}

static void bpdu_json_mst(struct out *o, const struct bpdu *b)
{
	KEY(o, "mstp.version_3_length");
	put_u(o, BPDU_V3_LEN_BASE + b->msti_count * BPDU_MSTI_MSG_LEN);
	KEY(o, "mstp.config_format_selector");
	put_u(o, b->mcid.format_selector);
	KEY(o, "mstp.config_name");
	*o->p++ = '"';
	put_name(o, b->mcid.name, true);
	*o->p++ = '"';
	KEY(o, "mstp.config_revision_level");
	put_u(o, b->mcid.revision);
	KEY(o, "mstp.config_digest");
	*o->p++ = '"';
	for (int i = 0; i < MST_CONFIG_DIGEST_LEN; i++)
		put_x8(o, b->mcid.digest[i]);
	*o->p++ = '"';
	KEY(o, "mstp.cist_internal_root_path_cost");
	put_u(o, b->int_root_path_cost);
	JSON_BID(o, "mstp.cist_bridge", &b->bridge_id);
	KEY(o, "mstp.cist_remaining_hops");
	put_u(o, b->remaining_hops);
	KEY(o, "mstp.msti");
	*o->p++ = '[';
	for (unsigned int i = 0; i < b->msti_count; i++) {
		if (i)
			*o->p++ = ',';
		bpdu_json_msti(o, &b->msti[i]);
	}
	*o->p++ = ']';
}

static const uint8_t wire_type[] = {
	[BPDU_TYPE_CONFIG] = BPDU_WIRE_TYPE_CONFIG,
	[BPDU_TYPE_TCN] = BPDU_WIRE_TYPE_TCN,
	[BPDU_TYPE_RST] = BPDU_WIRE_TYPE_RST,
	[BPDU_TYPE_MST] = BPDU_WIRE_TYPE_RST,
};

static void bpdu_json_bpdu(struct out *o, uint64_t frame, int64_t ts_ns,
			   const struct bpdu_frame *f, const struct bpdu *b)
{
	const char *kind = bpdu_type_name(b->type);
	uint8_t flags = bpdu_flags_pack(&b->flags);

	PUT(o, "{\"frame.number\":");
	put_u(o, frame);
	KEY(o, "frame.time_epoch");
	*o->p++ = '"';
	put_ts(o, ts_ns);
	*o->p++ = '"';
	KEY(o, "eth.src");
	put_qmac(o, f->src);
	if (f->vlan_tagged) {
		KEY(o, "vlan.id");
		put_u(o, f->vlan_tci & 0x0fffu);
	}
	KEY(o, "stp.protocol");	/* decode drops BPDUs where it is not 0 */
	*o->p++ = '0';
	KEY(o, "stp.version");
	put_u(o, b->version);
	KEY(o, "stp.type");
	put_u(o, wire_type[b->type]);
	KEY(o, "mstlab.bpdu");
	*o->p++ = '"';
	put(o, kind, strlen(kind));
	*o->p++ = '"';
	if (b->type == BPDU_TYPE_TCN) {
		*o->p++ = '}';
		return;
	}
	KEY(o, "stp.flags");
	put_u(o, flags);
	if (b->type == BPDU_TYPE_CONFIG) {
		KEY(o, "stp.flags.tcack");
		put_bool(o, flags & 0x80);
		KEY(o, "stp.flags.tc");
		put_bool(o, flags & 0x01);
	} else {
		bpdu_json_rst_flags(o, flags);
	}
	JSON_BID(o, "stp.root", &b->root_id);
	KEY(o, "stp.root.cost");
	put_u(o, b->ext_root_path_cost);
	/* octets 18..25: the CIST Regional Root in an MST BPDU */
	JSON_BID(o, "stp.bridge", &b->regional_root_id);
	KEY(o, "stp.port");
	put_u(o, b->port_id);
	KEY(o, "stp.msg_age");
	put_timer(o, b->message_age);
	KEY(o, "stp.max_age");
	put_timer(o, b->max_age);
	KEY(o, "stp.hello");
	put_timer(o, b->hello_time);
	KEY(o, "stp.forward");
	put_timer(o, b->forward_delay);
	if (b->type != BPDU_TYPE_CONFIG) {
		KEY(o, "stp.version_1_length");
		put_u(o, b->version1_length);
	}
	if (b->type == BPDU_TYPE_MST)
		bpdu_json_mst(o, b);
	*o->p++ = '}';
}

/* ---- text ---------------------------------------------------------- */

static const char *const role_name[] = { "master", "alternate/backup",
					 "root", "designated" };

static void text_flags(struct out *o, const struct bpdu_flags *f,
		       const char *bit8)
{
	const char *role = role_name[f->role];

	*o->p++ = ' ';
	put(o, role, strlen(role));
	if (f->proposal)
		PUT(o, ",P");
	if (f->agreement)
		PUT(o, ",A");
	if (f->learning)
		PUT(o, ",L");
	if (f->forwarding)
		PUT(o, ",F");
	if (f->tc)
		PUT(o, ",TC");
	if (f->tc_ack)
		put(o, bit8, strlen(bit8));
}

/* " LABEL PRIO/MAC", the priority field whole. */
static void text_bid(struct out *o, const char *label,
		     const struct bridge_id *id)
{
	*o->p++ = ' ';
	put(o, label, strlen(label));
	*o->p++ = ' ';
	put_u(o, id->prio);
	*o->p++ = '/';
	put_mac(o, id->mac);
}

static void text_msti(struct out *o, const struct bpdu_msti *m)
{
	PUT(o, " | msti ");
	put_u(o, bpdu_msti_mstid(m));
	text_flags(o, &m->flags, ",M");
	text_bid(o, "rroot", &m->regional_root);
	PUT(o, " cost ");
	put_u(o, m->int_root_path_cost);
	PUT(o, " hops ");
	put_u(o, m->remaining_hops);
}

static void text_bpdu(struct out *o, uint64_t frame, int64_t ts_ns,
		      const struct bpdu_frame *f, const struct bpdu *b)
{
	const char *kind = bpdu_type_name(b->type);

	put_u(o, frame);
	*o->p++ = ' ';
	put_ts(o, ts_ns);
	*o->p++ = ' ';
	put_mac(o, f->src);
	if (f->vlan_tagged) {
		PUT(o, " vlan ");
		put_u(o, f->vlan_tci & 0x0fffu);
	}
	*o->p++ = ' ';
	put(o, kind, strlen(kind));
	if (b->type == BPDU_TYPE_TCN)
		return;
	if (b->type == BPDU_TYPE_CONFIG) {
		if (b->flags.tc)
			PUT(o, " TC");
		if (b->flags.tc_ack)
			PUT(o, " TCA");
	} else {
		text_flags(o, &b->flags, ",TCA");
	}
	text_bid(o, "root", &b->root_id);
	PUT(o, " cost ");
	put_u(o, b->ext_root_path_cost);
	text_bid(o, b->type == BPDU_TYPE_MST ? "rroot" : "bridge",
		 &b->regional_root_id);
	PUT(o, " port 0x");
	put_x8(o, b->port_id >> 8);
	put_x8(o, b->port_id & 0xff);
	if (b->type != BPDU_TYPE_MST)
		return;
	PUT(o, " region ");
	put_name(o, b->mcid.name, false);
	PUT(o, " rev ");
	put_u(o, b->mcid.revision);
	PUT(o, " icost ");
	put_u(o, b->int_root_path_cost);
	text_bid(o, "bridge", &b->bridge_id);
	PUT(o, " hops ");
	put_u(o, b->remaining_hops);
	for (unsigned int i = 0; i < b->msti_count; i++)
		text_msti(o, &b->msti[i]);
}

size_t bpdu_format(char *buf, bool json, uint64_t frame, int64_t ts_ns,
		   const struct bpdu_frame *f, const struct bpdu *b)
{
	struct out o = { buf };

	if (json)
		bpdu_json_bpdu(&o, frame, ts_ns, f, b);
	else
		text_bpdu(&o, frame, ts_ns, f, b);
	*o.p++ = '\n';
	return (size_t)(o.p - buf);
}
