// SPDX-License-Identifier: MIT
#include <string.h>

#include "probe_wire.h"
#include "unit.h"

TEST(roundtrip)
{
	struct probe_hdr in = { .flow = 0x1234, .vid = 4094, .seq = 0xdeadbeef,
				.sent_ns = 0x0102030405060708ull }, out;
	uint8_t buf[PROBE_HDR_LEN];
	static const uint8_t want[PROBE_HDR_LEN] = {
		'M', 'L', 'P', 'R', 0, 1, 0x12, 0x34, 0x0f, 0xfe, 0, 0,
		0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8 };

	probe_hdr_encode(&in, buf);
	CHECK(memcmp(buf, want, sizeof(want)) == 0);
	CHECK(probe_hdr_decode(buf, sizeof(buf), &out) == 0);
	CHECK(out.flow == in.flow && out.vid == in.vid && out.seq == in.seq &&
	      out.sent_ns == in.sent_ns);
}

TEST(rejects)
{
	struct probe_hdr h = { 0 }, out;
	uint8_t buf[PROBE_HDR_LEN];

	probe_hdr_encode(&h, buf);
	CHECK(probe_hdr_decode(buf, PROBE_HDR_LEN - 1, &out) == -1);
	buf[5] = 2;	/* a version we do not know */
	CHECK(probe_hdr_decode(buf, sizeof(buf), &out) == -1);
	buf[5] = 1;
	buf[0] = 'X';
	CHECK(probe_hdr_decode(buf, sizeof(buf), &out) == -1);
}
