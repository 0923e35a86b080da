// SPDX-License-Identifier: MIT
/*
 * The MST Configuration Identifier (13.8) at start and at run time: name,
 * revision, the VID -> MSTI map and with it the set of MSTIs.  A change
 * goes to the protocol core, the digest and the kernel in one step, so
 * that BPDUs never announce a map the bridge does not forward by.
 */
#include "daemon.h"

#include <errno.h>
#include <string.h>

#define KSTATE_UNSET 0xff

void region_name(const struct mstd *d, char out[MST_CONFIG_NAME_LEN + 1])
{
	const uint8_t *m = d->br_mac;

	if (d->conf.region[0]) {
		snprintf(out, MST_CONFIG_NAME_LEN + 1, "%s", d->conf.region);
		return;
	}
	/* 13.8 / 13.26.14: the default Configuration Name is the Bridge
	 * Address as text, as other implementations write it. */
	snprintf(out, MST_CONFIG_NAME_LEN + 1,
		 "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		 m[4], m[5]);
}

int region_mcid(struct mstd *d)
{
	char name[MST_CONFIG_NAME_LEN + 1];

	region_name(d, name);
	return mst_config_id_init(&d->mcid, name, (uint16_t)d->conf.revision,
				  &d->conf.vids);
}

/* Every VID of the map is in the CIST or one of @mstids. */
static bool map_fits(const struct mst_vid_table *vids, const uint16_t *mstids,
		     unsigned int n)
{
	for (unsigned int v = 1; v <= 4094; v++) {
		unsigned int k = 0;

		if (!vids->mstid[v])
			continue;
		while (k < n && mstids[k] != vids->mstid[v])
			k++;
		if (k == n)
			return false;
	}
	return true;
}

static bool same_mstis(const struct mstd_conf *c, const uint16_t *mstids,
		       unsigned int n)
{
	return n == c->nmstis &&
	       !memcmp(mstids, c->mstids, n * sizeof(*mstids));
}

int region_change(struct mstd *d, const char *name, long rev,
		  const uint16_t *mstids, int n,
		  const struct mst_vid_table *vids, const char **why)
{
	struct mstd_conf old = d->conf;
	struct mst_config_id old_mcid = d->mcid;
	unsigned int nm = mstids ? (unsigned int)n : d->conf.nmstis;
	const uint16_t *ids = mstids ? mstids : d->conf.mstids;
	bool trees;
	int r;

	if (nm > MSTP_MAX_MSTIS) {
		*why = "too many MSTIs";
		return -EINVAL;
	}
	if (name && strlen(name) > MST_CONFIG_NAME_LEN) {
		*why = "region name longer than 32 bytes";
		return -EINVAL;
	}
	if (!map_fits(vids ? vids : &d->conf.vids, ids, nm)) {
		*why = "a VLAN maps to an MSTI that does not exist";
		return -EINVAL;
	}
	trees = !same_mstis(&d->conf, ids, nm);
	if (name)
		snprintf(d->conf.region, sizeof(d->conf.region), "%s", name);
	if (rev >= 0)
		d->conf.revision = (unsigned int)rev;
	if (vids)
		d->conf.vids = *vids;
	memmove(d->conf.mstids, ids, nm * sizeof(*ids));
	d->conf.nmstis = nm;
	r = region_mcid(d);
	if (!r && trees) {
		/* The ports' kernel states are per tree slot: the core sets
		 * every tree again as it starts over. */
		for (unsigned int i = 0; i < d->nports; i++) {
			memset(d->ports[i].kstate, KSTATE_UNSET,
			       sizeof(d->ports[i].kstate));
			memset(d->ports[i].kdirty, 0,
			       sizeof(d->ports[i].kdirty));
		}
		r = mstp_set_mstis(d->br, ids, nm, &d->mcid);
	} else if (!r) {
		r = mstp_set_mcid(d->br, &d->mcid);
	}
	if (r) {
		d->conf = old;
		d->mcid = old_mcid;
		*why = "refused by the protocol core";
		return -EINVAL;
	}
	/* The kernel's VID -> MSTI map follows; states are set again. */
	d->vlans_dirty = true;
	if (d->nl)
		kernel_sync_vlans(d);
	return 0;
}
