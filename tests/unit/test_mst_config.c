// SPDX-License-Identifier: MIT
/* MST Configuration Identifier and digest (802.1Q-2018 13.8). */
#include "unit.h"
#include "mst_config.h"

#include <errno.h>
#include <stdio.h>

static void hex16(const uint8_t d[16], char out[33])
{
	for (int i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02X", d[i]);
}

static const char *digest_of(const struct mst_vid_table *t)
{
	static char out[33];
	uint8_t d[16];

	if (mst_config_digest(t, d) != 0)
		return NULL;
	hex16(d, out);
	return out;
}

TEST(digest_all_cist)
{
	static struct mst_vid_table t;

	/* 802.1Q Table 13-2: every VID in the CIST. */
	CHECK_STR(digest_of(&t), "AC36177F50283CD4B83821D8AB26DE62");
}

TEST(digest_all_msti1)
{
	static struct mst_vid_table t;

	for (int v = 1; v <= 4094; v++)
		t.mstid[v] = 1;
	CHECK_STR(digest_of(&t), "E13A80F11ED0856ACD4EE3476941C73B");
}

TEST(digest_vid_mod_32)
{
	static struct mst_vid_table t;

	for (int v = 1; v <= 4094; v++)
		t.mstid[v] = (uint16_t)(v % 32 + 1);
	CHECK_STR(digest_of(&t), "9D145C267DBE9FB5D893441BE3BA08CE");
}

/*
 * Published by a vendor comparison (Catalyst "show spanning-tree mst
 * configuration digest" and ProCurve "show spanning-tree mst-config" agree):
 * MSTI 1 = 1,10-19,100; MSTI 2 = 2,20-29,200; MSTI 3 = 3,30-39,300.
 */
TEST(digest_catalyst_procurve_example)
{
	static struct mst_vid_table t;

	for (uint16_t i = 1; i <= 3; i++) {
		t.mstid[i] = i;
		for (int v = 10 * i; v < 10 * i + 10; v++)
			t.mstid[v] = i;
		t.mstid[100 * i] = i;
	}
	CHECK_STR(digest_of(&t), "37D94E0098E3418C046F217A71077FB1");
}

/* HPE/Aruba documentation example: 11,22 -> 1; 33,44,55 -> 2. */
TEST(digest_aruba_example)
{
	static struct mst_vid_table t;

	t.mstid[11] = t.mstid[22] = 1;
	t.mstid[33] = t.mstid[44] = t.mstid[55] = 2;
	CHECK_STR(digest_of(&t), "DAD6A13EC5141980B7EBDA71D8991E7C");
}

TEST(digest_rejects_bad_tables)
{
	static struct mst_vid_table t;
	uint8_t d[16];

	t.mstid[100] = 4095;
	CHECK_INT(mst_config_digest(&t, d), -EINVAL);
	t.mstid[100] = 4094;
	CHECK_INT(mst_config_digest(&t, d), 0);
	t.mstid[0] = 1;
	CHECK_INT(mst_config_digest(&t, d), -EINVAL);
	t.mstid[0] = 0;
	t.mstid[4095] = 1;
	CHECK_INT(mst_config_digest(&t, d), -EINVAL);
}

TEST(config_id_init_and_equal)
{
	static struct mst_vid_table t;
	struct mst_config_id a, b;
	char name[33];

	CHECK_INT(mst_config_id_init(&a, "lab", 7, &t), 0);
	CHECK_INT(a.format_selector, 0);
	CHECK_INT(a.revision, 7);
	CHECK_MEM(a.name, 4, "lab\0", 4);
	for (int i = 3; i < 32; i++)
		CHECK_INT(a.name[i], 0);
	mst_config_name(&a, name);
	CHECK_STR(name, "lab");

	CHECK_INT(mst_config_id_init(&b, "lab", 7, &t), 0);
	CHECK(mst_config_id_equal(&a, &b));
	b.revision = 8;
	CHECK(!mst_config_id_equal(&a, &b));
	CHECK_INT(mst_config_id_init(&b, "lab2", 7, &t), 0);
	CHECK(!mst_config_id_equal(&a, &b));
	t.mstid[10] = 1;
	CHECK_INT(mst_config_id_init(&b, "lab", 7, &t), 0);
	CHECK(!mst_config_id_equal(&a, &b));
	CHECK_INT(mst_config_id_init(&b, "lab", 7, &t), 0);
	b.format_selector = 1;
	CHECK_INT(mst_config_id_init(&a, "lab", 7, &t), 0);
	CHECK(!mst_config_id_equal(&a, &b));
}

TEST(config_id_name_limits)
{
	static struct mst_vid_table t;
	struct mst_config_id id;
	char name[33];
	const char *n32 = "0123456789abcdef0123456789ABCDEF";

	CHECK_INT(mst_config_id_init(&id, n32, 0, &t), 0);
	mst_config_name(&id, name);
	CHECK_STR(name, n32);
	CHECK_INT(mst_config_id_init(&id, "0123456789abcdef0123456789ABCDEFx",
				     0, &t), -ENAMETOOLONG);
}

TEST(config_id_wire_form)
{
	static struct mst_vid_table t;
	struct mst_config_id a, b;
	uint8_t w[MST_CONFIG_ID_LEN];

	CHECK_INT(mst_config_id_init(&a, "R1", 0x1234, &t), 0);
	mst_config_id_pack(&a, w);
	CHECK_INT(w[0], 0);
	CHECK_MEM(w + 1, 3, "R1\0", 3);
	CHECK_INT(w[33], 0x12);
	CHECK_INT(w[34], 0x34);
	CHECK_MEM(w + 35, 16,
		  "\xAC\x36\x17\x7F\x50\x28\x3C\xD4\xB8\x38\x21\xD8\xAB\x26"
		  "\xDE\x62", 16);
	mst_config_id_unpack(&b, w);
	CHECK(mst_config_id_equal(&a, &b));
}
