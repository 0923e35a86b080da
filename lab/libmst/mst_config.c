// SPDX-License-Identifier: MIT
#include "mst_config.h"

#include <errno.h>
#include <string.h>

#include <nettle/hmac.h>

/* 802.1Q Table 13-2, configuration digest signature key. */
static const uint8_t digest_key[16] = {
	0x13, 0xac, 0x06, 0xa6, 0x2e, 0x47, 0xfd, 0x51,
	0xf9, 0x5d, 0x2b, 0xa2, 0x43, 0xcd, 0x03, 0x46,
};

int mst_config_digest(const struct mst_vid_table *table,
		      uint8_t digest[MST_CONFIG_DIGEST_LEN])
{
	uint8_t text[MST_VID_COUNT * 2];
	struct hmac_md5_ctx ctx;

	if (table->mstid[0] || table->mstid[MST_VID_COUNT - 1])
		return -EINVAL;
	for (size_t vid = 0; vid < MST_VID_COUNT; vid++) {
		uint16_t m = table->mstid[vid];

		if (m > MST_MSTID_MAX)
			return -EINVAL;
		text[2 * vid] = m >> 8;
		text[2 * vid + 1] = m & 0xff;
	}
	/* nettle: a small library (0.3 MB) where libcrypto is 4.6 MB of
	 * every guest's image, for one HMAC. */
	hmac_md5_set_key(&ctx, sizeof(digest_key), digest_key);
	hmac_md5_update(&ctx, sizeof(text), text);
	hmac_md5_digest(&ctx, MST_CONFIG_DIGEST_LEN, digest);
	return 0;
}

int mst_config_id_init(struct mst_config_id *id, const char *name,
		       uint16_t revision, const struct mst_vid_table *table)
{
	size_t len = strlen(name);

	if (len > MST_CONFIG_NAME_LEN)
		return -ENAMETOOLONG;
	memset(id, 0, sizeof(*id));
	memcpy(id->name, name, len);
	id->revision = revision;
	return mst_config_digest(table, id->digest);
}

bool mst_config_id_equal(const struct mst_config_id *a,
			 const struct mst_config_id *b)
{
	return a->format_selector == b->format_selector &&
	       memcmp(a->name, b->name, sizeof(a->name)) == 0 &&
	       a->revision == b->revision &&
	       memcmp(a->digest, b->digest, sizeof(a->digest)) == 0;
}

void mst_config_name(const struct mst_config_id *id,
		     char out[MST_CONFIG_NAME_LEN + 1])
{
	memcpy(out, id->name, MST_CONFIG_NAME_LEN);
	out[MST_CONFIG_NAME_LEN] = '\0';
}

void mst_config_id_pack(const struct mst_config_id *id,
			uint8_t out[MST_CONFIG_ID_LEN])
{
	out[0] = id->format_selector;
	memcpy(out + 1, id->name, MST_CONFIG_NAME_LEN);
	out[33] = id->revision >> 8;
	out[34] = id->revision & 0xff;
	memcpy(out + 35, id->digest, MST_CONFIG_DIGEST_LEN);
}

void mst_config_id_unpack(struct mst_config_id *id,
			  const uint8_t in[MST_CONFIG_ID_LEN])
{
	id->format_selector = in[0];
	memcpy(id->name, in + 1, MST_CONFIG_NAME_LEN);
	id->revision = (uint16_t)(in[33] << 8 | in[34]);
	memcpy(id->digest, in + 35, MST_CONFIG_DIGEST_LEN);
}
