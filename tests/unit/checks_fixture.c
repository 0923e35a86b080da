// SPDX-License-Identifier: MIT
#include "checks_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "unit.h"

size_t fx_mst_bpdu(const struct plan *p, int node, int port, int cist_root,
		   const int msti_root[2], const struct fx_adv adv[3],
		   uint8_t *buf, size_t size)
{
	return fx_bpdu(p, node, port, cist_root, msti_root, adv, NULL, buf,
		       size);
}

size_t fx_bpdu(const struct plan *p, int node, int port, int cist_root,
	       const int msti_root[2], const struct fx_adv adv[3],
	       const struct fx_bpdu_kind *kind, uint8_t *buf, size_t size)
{
	const char *region = kind && kind->region ? kind->region : "tri";
	struct bpdu b;
	size_t len = 0;

	bpdu_init(&b, kind && kind->rst ? BPDU_TYPE_RST : BPDU_TYPE_MST);
	b.flags.role = adv[0].role;
	b.flags.forwarding = b.flags.learning = adv[0].fwd;
	b.flags.tc = adv[0].tc;
	b.root_id.prio = 4096;
	memcpy(b.root_id.mac, p->nodes[cist_root].bridge_mac, 6);
	b.regional_root_id = b.root_id;
	b.bridge_id.prio = 32768;
	memcpy(b.bridge_id.mac, p->nodes[node].bridge_mac, 6);
	memcpy(b.mcid.name, region, strlen(region));
	b.port_id = 0x8001;
	b.max_age = 20 * 256;
	b.hello_time = 2 * 256;
	b.forward_delay = 15 * 256;
	b.remaining_hops = 20;
	b.msti_count = kind && kind->rst ? 0 : kind && kind->no_msti2 ? 1 : 2;
	for (unsigned i = 0; i < b.msti_count; i++) {
		struct bpdu_msti *mi = &b.msti[i];

		mi->flags.role = adv[i + 1].role;
		mi->flags.forwarding = mi->flags.learning = adv[i + 1].fwd;
		mi->flags.tc = adv[i + 1].tc;
		mi->regional_root.prio = (uint16_t)(4096 | (i + 1));
		memcpy(mi->regional_root.mac, p->nodes[msti_root[i]].bridge_mac, 6);
		mi->bridge_prio_octet = 0x80;
		mi->port_prio_octet = 0x80;
		mi->remaining_hops = 20;
	}
	if (bpdu_frame_encode(p->nodes[node].nic[port].mac, &b, buf, size,
			      &len) != BPDU_OK)
		return 0;
	return len;
}

void fx_record(void *ctx, const struct trees_change *c)
{
	struct fx_changes *r = ctx;

	if (r->n == FX_MAX_CHANGES)
		return;
	r->ch[r->n] = *c;
	if (c->event) {
		r->ev[r->n] = *c->event;
		r->ch[r->n].event = &r->ev[r->n];
	}
	r->n++;
}

void fx_write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void fx_run_done(const char *dir)
{
	static char last[128];
	static unsigned n;
	const char *keep = getenv("MSTLAB_KEEP_RUNS");
	char dest[512], why[600];

	if (fx_trees_agree(dir, why, sizeof(why)))
		unit_fail(__FILE__, __LINE__, "the engine live and as history "
			  "differ over %s: %s", dir, why);
	if (!keep || !*keep)
		return;
	if (strcmp(last, unit_current())) {
		snprintf(last, sizeof(last), "%s", unit_current());
		n = 0;
	}
	snprintf(dest, sizeof(dest), "%s/%s-%u", keep, unit_current(), ++n);
	spawn_run((char *[]){ "cp", "-a", (char *)dir, dest, NULL }, NULL,
		  10000);
}
