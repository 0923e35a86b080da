// SPDX-License-Identifier: MIT
/* bpdu_format(): values as Wireshark shows them, valid JSON, the bound. */
#include "unit.h"
#include "bpdu_print.h"

#include <jansson.h>
#include <stdio.h>

static char line[BPDU_LINE_MAX + 1];
static const struct bpdu_frame frame = {
	.src = { 0x02, 0x00, 0x00, 0x00, 0x00, 0xaa },
};

/* The longest BPDU there is: 64 MSTIs, every number at its widest, a
 * name of 32 octets that each need a six-character JSON escape. */
static void worst_case(struct bpdu *b)
{
	bpdu_init(b, BPDU_TYPE_MST);
	bpdu_flags_unpack(&b->flags, 0xff);
	b->root_id.prio = 0xffff;
	b->ext_root_path_cost = b->int_root_path_cost = UINT32_MAX;
	b->regional_root_id = b->bridge_id = b->root_id;
	b->port_id = b->message_age = b->max_age = 0xffff;
	b->hello_time = b->forward_delay = 0xff01;
	memset(b->mcid.name, 0x01, sizeof(b->mcid.name));
	b->mcid.revision = 0xffff;
	b->remaining_hops = 255;
	b->msti_count = BPDU_MAX_MSTI;
	for (int i = 0; i < BPDU_MAX_MSTI; i++) {
		struct bpdu_msti *m = &b->msti[i];

		bpdu_flags_unpack(&m->flags, 0xff);
		m->regional_root.prio = 0xffff;
		m->int_root_path_cost = UINT32_MAX;
		m->bridge_prio_octet = m->port_prio_octet = 0xff;
		m->remaining_hops = 255;
	}
}

TEST(the_longest_bpdu_fits_and_is_one_json_object)
{
	struct bpdu b;
	json_error_t e;
	json_t *j;
	size_t n;

	worst_case(&b);
	/* jansson holds integers up to INT64_MAX */
	n = bpdu_format(line, true, INT64_MAX, INT64_MAX, &frame, &b);
	CHECK(n < BPDU_LINE_MAX);
	CHECK(line[n - 1] == '\n' && memchr(line, '\n', n - 1) == NULL);
	j = json_loadb(line, n, 0, &e);
	CHECK(j != NULL);
	CHECK_INT(json_array_size(json_object_get(j, "mstp.msti")), 64);
	CHECK_INT(json_integer_value(json_object_get(j, "mstp.cist_internal_root_path_cost")),
		  UINT32_MAX);
	CHECK_STR(json_string_value(json_object_get(j, "mstp.config_name")),
		  "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
		  "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01");
	json_decref(j);
	n = bpdu_format(line, false, UINT64_MAX, INT64_MAX, &frame, &b);
	CHECK(n < BPDU_LINE_MAX);
}

/* Timers are 1/256 s: Wireshark shows the exact decimal. */
TEST(timers_are_exact_seconds)
{
	static const struct {
		uint16_t wire;
		const char *want;
	} cases[] = {
		{ 0, "\"stp.msg_age\":0," },
		{ 384, "\"stp.msg_age\":1.5," },
		{ 513, "\"stp.msg_age\":2.00390625," },
		{ 0xffff, "\"stp.msg_age\":255.99609375," },
		{ 20 * 256, "\"stp.msg_age\":20," },
	};
	struct bpdu b;

	bpdu_init(&b, BPDU_TYPE_RST);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b.message_age = cases[i].wire;
		line[bpdu_format(line, true, 1, 0, &frame, &b)] = 0;
		CHECK(strstr(line, cases[i].want) != NULL);
	}
}

TEST(region_name_json_escaped_text_safe)
{
	struct bpdu b;

	bpdu_init(&b, BPDU_TYPE_MST);
	memcpy(b.mcid.name, "a\"b\\c\x01\xff", 7);
	line[bpdu_format(line, true, 1, 0, &frame, &b)] = 0;
	CHECK(strstr(line, "\"mstp.config_name\":\"a\\\"b\\\\c\\u0001\\ufffd\",") != NULL);
	line[bpdu_format(line, false, 1, 0, &frame, &b)] = 0;
	CHECK(strstr(line, " region a\"b\\c?? rev 0 ") != NULL);
}

/* Wireshark's split of the priority field and of the MSTI octets. */
TEST(priorities_split_as_wireshark_does)
{
	struct bpdu b;

	bpdu_init(&b, BPDU_TYPE_MST);
	b.root_id.prio = 0x9005;
	b.msti_count = 1;
	b.msti[0].regional_root.prio = 0x7123;
	b.msti[0].bridge_prio_octet = 0xa7;
	b.msti[0].port_prio_octet = 0x3f;
	line[bpdu_format(line, true, 1, 0, &frame, &b)] = 0;
	CHECK(strstr(line, "\"stp.root.prio\":36864,\"stp.root.ext\":5,") != NULL);
	CHECK(strstr(line, "\"mstp.msti.priority\":7,\"mstp.msti.msti_id\":291,") != NULL);
	CHECK(strstr(line, "\"mstp.msti.bridge_priority\":10,"
			   "\"mstp.msti.port_priority\":3,") != NULL);
}

TEST(frame_number_time_and_vlan_lead_the_line)
{
	struct bpdu_frame tagged = frame;
	struct bpdu b;

	tagged.vlan_tagged = true;
	tagged.vlan_tci = 0xf064;
	bpdu_init(&b, BPDU_TYPE_TCN);
	line[bpdu_format(line, false, 42, 7000000005LL, &tagged, &b)] = 0;
	CHECK_STR(line, "42 7.000000005 02:00:00:00:00:aa vlan 100 TCN\n");
	line[bpdu_format(line, true, 42, 7000000005LL, &tagged, &b)] = 0;
	CHECK_STR(line, "{\"frame.number\":42,\"frame.time_epoch\":\"7.000000005\","
		  "\"eth.src\":\"02:00:00:00:00:aa\",\"vlan.id\":100,"
		  "\"stp.protocol\":0,\"stp.version\":0,\"stp.type\":128,"
		  "\"mstlab.bpdu\":\"TCN\"}\n");
}
