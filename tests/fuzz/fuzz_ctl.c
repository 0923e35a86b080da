// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for mstd's control socket: arbitrary requests, split
 * at NUL bytes (a request never holds one), each answered by
 * ctl_request() on a bridge of three ports and MSTI 1, a tick in
 * between.  Besides ASan/UBSan findings it aborts when a reply is not
 * "ok"/"error: ..."/status, or when mstd's view and the core's part:
 * the MSTIs, the digest of the VID map, the ports.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"

static void tx(void *ctx, unsigned int port, const uint8_t *b, size_t n)
{
	(void)ctx, (void)port, (void)b, (void)n;
}

static void set_state(void *ctx, unsigned int port, uint16_t mstid,
		      enum mstp_port_state s)
{
	struct mstd *d = ctx;

	/* The core names only trees mstd knows. */
	if (port >= d->nports || mstd_conf_tree(&d->conf, mstid) < 0)
		abort();
	(void)s;
}

static void flush(void *ctx, unsigned int port, int mstid)
{
	(void)ctx, (void)port, (void)mstid;
}

static const struct mstp_ops ops = {
	.tx_bpdu = tx, .set_state = set_state, .flush = flush,
};

static bool make_start(struct mstd *d)
{
	static const char text[] = "bridge br0\nmsti 1 vlans 10-19\n"
				   "port a edge no\nport b edge yes\n";
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	static const char *const names[] = { "a", "b", "c" };
	struct mstp_bridge_config bc;
	char err[MSTD_CONF_ERR_MAX];

	memset(d, 0, sizeof(*d));
	d->ctlfd = d->epfd = -1;
	d->ageing_cs = 30000;
	memcpy(d->br_mac, mac, 6);
	mstd_conf_init(&d->conf);
	if (mstd_conf_parse(&d->conf, "f", text, sizeof(text) - 1, err))
		return false;
	d->nports = 3;
	d->ports = calloc(3, sizeof(*d->ports));
	if (!d->ports || region_mcid(d))
		return false;
	for (unsigned int i = 0; i < 3; i++) {
		strcpy(d->ports[i].name, names[i]);
		d->ports[i].fd = -1;
		memset(d->ports[i].kstate, 0xff, sizeof(d->ports[i].kstate));
	}
	mstp_bridge_config_default(&bc, mac);
	bc.nports = 3;
	bc.nmstis = 1;
	bc.mstids[0] = 1;
	bc.mcid = d->mcid;
	d->br = mstp_bridge_new(&bc, &ops, d);
	if (!d->br)
		return false;
	mstp_port_set_link(d->br, 0, true, true);
	mstp_port_set_link(d->br, 1, true, true);
	return true;
}

/* The mstd every input starts from: made once (parsing, the digest, the
 * core's links coming up were most of an input's time), copied per
 * input with a core of its own. */
static bool setup(struct mstd *d)
{
	static struct mstd start;
	static bool made;
	size_t nconf;

	if (!made && !make_start(&start))
		return false;
	made = true;
	nconf = start.conf.nports * sizeof(*d->conf.ports);
	*d = start;
	d->ports = malloc(start.nports * sizeof(*d->ports));
	d->conf.ports = nconf ? malloc(nconf) : NULL;
	d->br = mstp_bridge_copy(start.br, d);
	if (!d->ports || (nconf && !d->conf.ports) || !d->br)
		return false;
	memcpy(d->ports, start.ports, start.nports * sizeof(*d->ports));
	if (nconf)
		memcpy(d->conf.ports, start.conf.ports, nconf);
	return true;
}

/* Whether what check() last found good is still so: the same VID map,
 * MSTIs, region and identifier (then the digest is the same too). */
static bool same_region(const struct mstd *d)
{
	static struct mstd_conf conf;
	static struct mst_config_id mcid;
	static bool have;
	bool same = have &&
		    !memcmp(&conf.vids, &d->conf.vids, sizeof(conf.vids)) &&
		    conf.nmstis == d->conf.nmstis &&
		    !memcmp(conf.mstids, d->conf.mstids, sizeof(conf.mstids)) &&
		    !strcmp(conf.region, d->conf.region) &&
		    conf.revision == d->conf.revision &&
		    !memcmp(&mcid, &d->mcid, sizeof(mcid));

	if (!same) {
		conf.vids = d->conf.vids;
		conf.nmstis = d->conf.nmstis;
		memcpy(conf.mstids, d->conf.mstids, sizeof(conf.mstids));
		memcpy(conf.region, d->conf.region, sizeof(conf.region));
		conf.revision = d->conf.revision;
		mcid = d->mcid;
		have = true;
	}
	return same;
}

/* mstd's configuration and the core agree. */
static void check(struct mstd *d)
{
	struct mst_config_id id;

	if (mstp_ntrees(d->br) != d->conf.nmstis + 1 || mstp_nports(d->br) != 3)
		abort();
	for (unsigned int k = 0; k < d->conf.nmstis; k++)
		if (mstp_tree_index(d->br, d->conf.mstids[k]) != (int)k + 1)
			abort();
	/* The map and the identifier as last checked: most requests change
	 * neither, and the digest of 8 KiB was most of a request's time. */
	if (same_region(d))
		return;
	for (unsigned int v = 1; v <= 4094; v++)
		if (d->conf.vids.mstid[v] &&
		    mstd_conf_tree(&d->conf, d->conf.vids.mstid[v]) <= 0)
			abort();
	id = d->mcid;
	if (region_mcid(d) || memcmp(&id, &d->mcid, sizeof(id)))
		abort();
}

static void one(struct mstd *d, const uint8_t *data, size_t len)
{
	char req[513], *reply = NULL;
	size_t rlen = 0;
	FILE *out = open_memstream(&reply, &rlen);
	int r;

	if (!out)
		return;
	if (len > 512)
		len = 512;
	memcpy(req, data, len);
	req[len] = 0;
	r = ctl_request(d, out, req);
	fclose(out);
	if (!reply || (r && strncmp(reply, "error: ", 7)) ||
	    (!r && !rlen) || (r && r != -EINVAL))
		abort();
	free(reply);
	check(d);
	mstp_tick(d->br);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mstd d;

	if (!setup(&d))
		abort();
	while (size) {
		const uint8_t *nul = memchr(data, 0, size);
		size_t n = nul ? (size_t)(nul - data) : size;

		one(&d, data, n);
		data += n + (nul ? 1 : 0);
		size -= n + (nul ? 1 : 0);
	}
	mstp_bridge_free(d.br);
	free(d.ports);
	mstd_conf_free(&d.conf);
	return 0;
}
