/* SPDX-License-Identifier: MIT */
/*
 * MST Configuration Identifier (IEEE 802.1Q-2018 13.8): format selector,
 * region name, revision level and the configuration digest, an HMAC-MD5
 * over the VID->MSTID table with the key of 802.1Q Table 13-2.
 */
#ifndef MSTLAB_MST_CONFIG_H
#define MSTLAB_MST_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#define MST_CONFIG_NAME_LEN	32
#define MST_CONFIG_DIGEST_LEN	16
#define MST_CONFIG_ID_LEN	51	/* octets on the wire */
#define MST_VID_COUNT		4096	/* VIDs 0..4095 in the table */
#define MST_MSTID_MAX		4094	/* highest MSTID that may be mapped */

/* The VID -> MSTID table; 0 is the CIST.  Entries 0 and 4095 stay 0. */
struct mst_vid_table {
	uint16_t mstid[MST_VID_COUNT];
};

struct mst_config_id {
	uint8_t format_selector;		/* 0 for 802.1Q */
	uint8_t name[MST_CONFIG_NAME_LEN];	/* zero padded, no NUL needed */
	uint16_t revision;
	uint8_t digest[MST_CONFIG_DIGEST_LEN];
};

/*
 * Computes the configuration digest of @table.  Returns 0, or -EINVAL if
 * an entry is above MST_MSTID_MAX or VID 0/4095 is mapped.
 */
int mst_config_digest(const struct mst_vid_table *table,
		      uint8_t digest[MST_CONFIG_DIGEST_LEN]);

/*
 * Fills @id with format selector 0, @name (at most 32 bytes, zero padded),
 * @revision and the digest of @table.  Returns 0, -ENAMETOOLONG or the
 * error of mst_config_digest().
 */
int mst_config_id_init(struct mst_config_id *id, const char *name,
		       uint16_t revision, const struct mst_vid_table *table);

/* Same region: all four fields equal (13.8). */
bool mst_config_id_equal(const struct mst_config_id *a,
			 const struct mst_config_id *b);

/* The name as a NUL-terminated string (stops at the first NUL). */
void mst_config_name(const struct mst_config_id *id,
		     char out[MST_CONFIG_NAME_LEN + 1]);

/* Wire form, 51 octets (14.2.5 / figure 14-1 octets 40..90). */
void mst_config_id_pack(const struct mst_config_id *id,
			uint8_t out[MST_CONFIG_ID_LEN]);
void mst_config_id_unpack(struct mst_config_id *id,
			  const uint8_t in[MST_CONFIG_ID_LEN]);

#endif
